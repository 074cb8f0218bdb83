"""The character sheet under the table's campaign options (issue 26, RULES.md section 11): the
creation budget counted as it is typed, the hook and the tale and what the GM accepts of them, lucky
shots and double-pump clichés -- all saved through ``save_character``, refused by the room as the rules
say, and none of it shown while the options are off."""

from __future__ import annotations

from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.rules import ScriptedDice
from raisus_panel.ui import Actions, CharacterSheet

from .drivers import Sheet

BUDGET = {"creation_dice": 10, "lucky_shots": True, "pumps": True}


def table(profile=None):
    """A local room (the GM's session) with Ann ("p1") joined, on ``profile``'s rules."""
    gm = Room.local("Tavern", dice=ScriptedDice([]))
    ann = RoomSession(gm.room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    if profile:
        gm.act("set_rules", profile=profile)
    return gm, ann


def sheet_of(session, lang="en", character=None) -> Sheet:
    return Sheet(CharacterSheet(actions=Actions(session), lang=lang, character=character))


def budget_line(s: Sheet) -> str | None:
    return s.marked("raisus-sheet-budget")


def fill(s: Sheet, name: str, *cliches: tuple[str, int]) -> None:
    s.name(name)
    for i, (cname, rating) in enumerate(cliches):
        if i >= s.rows:
            s.click(s.t("sheet.add_cliche"))
        s.cliche(i).value = cname
        s.cliche(i, "rating").value = rating


def test_nothing_of_the_campaign_shows_while_the_options_are_off():
    gm, ann = table()
    s = sheet_of(ann)
    fill(s, "Olaf", ("Viking", 5), ("Cook", 5), ("Sailor", 5))
    for key in ("sheet.hook", "sheet.tale", "sheet.double_pump", "sheet.accept_hook"):
        assert not s.controls(label=s.t(key)), key
    assert not s.controls("number", s.t("sheet.lucky_shots", per=3))
    assert "Creation dice" not in s.text()
    assert set(s.root.draft()) == {"kind", "uid", "name", "description", "owner", "cliches"}
    assert all(set(c) == {"name", "rating", "current"} for c in s.root.draft()["cliches"])
    assert s.root.save() is not None  # no budget: 15 dice are fine


def test_the_budget_line_counts_as_ratings_are_typed_and_a_save_over_it_is_refused():
    gm, ann = table(BUDGET)
    s = sheet_of(ann)
    fill(s, "Olaf", ("Viking", 4), ("Cook", 3))
    assert budget_line(s) == "Creation dice: 7 of 10 spent (3 left)."
    s.click(s.t("sheet.add_cliche"))
    s.cliche(2).value = "Sailor"
    s.cliche(2, "rating").value = 2
    assert budget_line(s) == "Creation dice: 9 of 10 spent (1 left)."
    s.cliche(2, "rating").value = 4
    assert budget_line(s) == "Creation dice: 11 of 10 spent, 1 over the budget."
    assert s.save_button.disabled and "over the budget of 10" in s.save_button.why
    before = gm.room.seq
    assert s.root.save() is None
    assert "11 creation dice" in s.error and gm.room.seq == before and not gm.room.characters
    s.cliche(0, "rating").value = 5
    assert "Viking is over the creation maximum of 4 dice." in budget_line(s)


def test_lucky_shots_and_double_pumps_cost_creation_dice_and_are_saved():
    gm, ann = table(BUDGET)
    s = sheet_of(ann)
    fill(s, "Merlin", ("Wizard", 3), ("Cook", 1))
    boxes = s.controls("checkbox", s.t("sheet.double_pump"))
    assert len(boxes) == 2
    boxes[0].value = True
    assert budget_line(s) == "Creation dice: 7 of 10 spent (3 left)."
    s.control("number", s.t("sheet.lucky_shots", per=3)).value = 4  # a part of 3 costs a whole die
    assert budget_line(s) == "Creation dice: 9 of 10 spent (1 left)."
    merlin = s.root.save()
    assert merlin is not None and merlin.cliche("Wizard").double_pump and merlin.lucky_shots == 4
    assert merlin.lucky_left == 4 and merlin.owner == "p1"
    assert s.shows("Merlin has 4 lucky shots left of 4 this session.")
    # the GM sets what is left; the player cannot
    g = sheet_of(gm, character=merlin)
    g.control("number", g.t("sheet.lucky_left")).value = 1
    assert g.root.save() is not None and merlin.lucky_left == 1
    assert s.shows("Merlin has 1 lucky shot left of 4 this session.")


def test_the_gm_accepts_the_hook_and_the_player_saves_the_extra_die():
    gm, ann = table(BUDGET)
    s = sheet_of(ann)
    fill(s, "Olaf", ("Viking", 4), ("Cook", 3), ("Sailor", 3))
    s.type(s.t("sheet.hook"), "Cannot swim")
    assert not s.controls("checkbox", s.t("sheet.accept_hook"))  # only the GM accepts
    olaf = s.root.save()
    assert olaf is not None and olaf.hook == "Cannot swim" and olaf.accepted == []
    s.cliche(1, "rating").value = 4
    assert budget_line(s) == "Creation dice: 11 of 10 spent, 1 over the budget."
    assert s.save_button.disabled
    g = sheet_of(gm, character=olaf)
    assert budget_line(g) == "Creation dice: 10 of 10 spent (0 left)."
    g.tick(g.t("sheet.accept_hook"))
    assert budget_line(g) == ("Creation dice: 10 of 11 spent (1 left). "
                              "The GM accepted: hook (+1 creation die each).")
    assert g.root.save() is not None and olaf.accepted == ["hook"]
    # the player's sheet, still being edited, now counts the accepted hook and may save
    assert budget_line(s).startswith("Creation dice: 11 of 11 spent (0 left).")
    assert not s.save_button.disabled
    assert s.root.save() is not None and olaf.cliche("Cook").rating == 4
    # the accepted hook is the GM's now: greyed on her sheet, saying why; her tale is still hers
    for mine in (s, sheet_of(ann, character=olaf)):
        hook, tale = mine.textbox(mine.t("sheet.hook")), mine.textbox(mine.t("sheet.tale"))
        assert hook.disabled and hook.why == mine.t("sheet.accepted_text") and hook.value == "Cannot swim"
        assert not tale.disabled and tale.why is None
    assert not g.textbox(g.t("sheet.hook")).disabled  # the GM may rewrite it


def test_the_gm_may_accept_a_character_over_the_budget():
    gm, ann = table(BUDGET)
    ann.act("save_character", data={"name": "Olaf", "cliches": [{"name": "Viking", "rating": 4}]})
    olaf = gm.room.characters[0]
    g = sheet_of(gm, character=olaf)
    g.cliche(0, "rating").value = 6
    assert "Viking is over the creation maximum of 4 dice." in budget_line(g)
    assert g.save_button.disabled
    g.tick(g.t("sheet.accept_over_budget"))
    assert "The GM accepted it over the budget." in budget_line(g) and not g.save_button.disabled
    assert g.root.save() is not None and olaf.cliche("Viking").rating == 6 and olaf.accepted == ["over_budget"]


def test_the_budget_line_and_a_refusal_over_it_in_korean_change_nothing():
    gm, ann = table(BUDGET)
    s = sheet_of(ann, lang="ko")
    fill(s, "올라프", ("바이킹", 4), ("요리사", 4), ("선원", 3))
    assert budget_line(s) == "생성 주사위: 10개 중 11개 사용, 예산을 1개 넘습니다."
    assert s.root.save() is None and "예산" in s.error and not gm.room.characters
    s.cliche(1, "rating").value = 3
    assert budget_line(s) == "생성 주사위: 10개 중 10개 사용 (0개 남음)."
    assert s.controls("text", s.t("sheet.hook")) and s.controls("text", s.t("sheet.tale"))


def test_the_gms_npcs_and_grunt_mobs_have_no_budget_line():
    gm, ann = table(BUDGET)
    g = sheet_of(gm)
    fill(g, "Ogre", ("Ogre", 6), ("Brute", 6))
    assert budget_line(g) is None
    assert g.root.save() is not None
