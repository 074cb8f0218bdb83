"""ContestTable: clicks become commands, the models' state becomes enabled/disabled controls."""

from __future__ import annotations

import panel as pn

from raisus_panel.i18n import t
from raisus_panel.rules import Character, CharacterTeam, Contest, ScriptedDice
from raisus_panel.ui import Actions, ContestTable
from raisus_panel.ui._base import hint, why
from raisus_panel.ui._contest_text import dice_html

from .conftest import click, confirm, duel, free_trio_vs_ogre, rats, team_vs_ogre
from .test_components import visible_texts, walk


def card(table, unit):
    return table._cards[unit.uid]


def test_roll_round_button_plays_a_round():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    table = ContestTable(actions=actions)
    assert table._roll.visible and not table._roll.disabled
    assert "1" in table._roll.name
    click(table._roll)
    assert contest.round == 1 and pirate.cliche("Pirate").current == 2
    assert "2" in table._roll.name
    assert not table._error.visible


def test_a_tie_shows_every_attempt_of_the_last_roll():
    contest, actions, viking, pirate = duel(rolls=[[3, 3, 3, 3], [4, 4, 4], [1, 1, 1, 1], [2, 2, 2]])
    table = ContestTable(actions=actions, lang="en")
    click(table._roll)
    html = table._last_roll.object
    assert html.count("<th>Attempt") == 2 and html.count("<span class=tie>tie, rolled again</span>") == 1
    assert dice_html([3, 3, 3, 3]) + "<span class=total>= 12" in html and dice_html([4, 4, 4]) + "<span class=total>= 12" in html
    assert dice_html([1, 1, 1, 1]) + "<span class=total>= 4" in html and dice_html([2, 2, 2]) + "<span class=total>= 6" in html
    assert viking.cliche("Viking").current == 3 and contest.round == 1


def test_inappropriate_needs_approval_before_the_roll():
    cook = Character("Cook", {"Cook": 3})
    king = Character("Demon King", {"Demon King": 4})
    contest = Contest("Martial-arts bout", cook, king, dice=ScriptedDice([[6, 6, 5], [3, 3, 3, 3]]))
    table = ContestTable(actions=Actions.local(contest))
    c = card(table, cook)
    c["inappropriate"].value = True  # the player ticks "inappropriate"
    assert contest.needs_approval(cook.uid)
    assert table._roll.disabled and c["approve"].visible and not c["approve"].disabled
    events = list(contest.events)
    click(table._roll)  # pressed anyway: refused, shown, nothing changes
    assert table._error.visible and contest.events == events
    assert contest.dice.remaining == 2
    click(c["approve"])
    assert not contest.needs_approval(cook.uid) and not table._error.visible
    assert not table._roll.disabled and not c["approve"].visible
    click(table._roll)
    assert king.cliche("Demon King").current == 1  # an inappropriate win deals 3


def test_switching_clichés_between_rounds():
    a = Character("Adventurer", {"Viking": 4, "Swashbuckler": 2})
    guard = Character("Guard", {"Guard": 5})
    contest = Contest("Fight", a, guard, dice=ScriptedDice([[1, 1, 1, 1], [2] * 5, [1, 2], [1] * 5]))
    table = ContestTable(actions=Actions.local(contest))
    c = card(table, a)
    assert c["cliche"].value == ""  # two clichés: the player must choose
    assert table._roll.disabled
    c["cliche"].value = "Viking"
    assert contest.chosen(a.uid).name == "Viking" and not table._roll.disabled
    click(table._roll)
    c["cliche"].value = "Swashbuckler"
    click(table._roll)
    assert a.cliche("Viking").current == 3 and a.cliche("Swashbuckler").current == 1
    assert set(c["cliche"].options.values()) == {"Viking", "Swashbuckler"}


def test_volunteer_only_after_a_lost_team_round():
    rolls = [[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    table = ContestTable(actions=actions)
    members = card(table, team)["members"]
    assert all(m["volunteer"].disabled for m in members.values())
    assert not members[squire.uid]["drop"].disabled
    assert not card(table, team)["disband"].disabled
    click(table._roll)  # lost: the leader took the hit
    assert knight.cliche("Knight").current == 3
    assert not any(members[m.uid]["volunteer"].disabled for m in (knight, viking, squire))
    click(members[viking.uid]["volunteer"])
    assert viking.cliche("Viking").current == 0 and knight.cliche("Knight").current == 4
    assert team.revenge
    assert members[viking.uid]["volunteer"].disabled and members[viking.uid]["drop"].disabled
    head = card(table, team)["head"].object
    assert "복수 보너스" in head and "2×(Knight 4) + Squire = 주사위 9개" in head
    click(table._roll)  # won with the revenge bonus
    assert ogre.cliche("Ogre").current == 7 and not team.revenge
    assert all(m["volunteer"].disabled for m in members.values())
    click(members[knight.uid]["volunteer"])  # pressed anyway
    assert table._error.visible and knight.cliche("Knight").current == 4


def test_drop_out_and_disband_then_re_form():
    knight = Character("Knight", {"Knight": 3})
    viking = Character("Viking", {"Viking": 2})
    squire = Character("Squire", {"Squire": 1})
    bandits = Character("Bandits", {"Bandits": 5})
    team = CharacterTeam([knight, viking, squire])
    contest = Contest("Fight", team, bandits, dice=ScriptedDice([]))
    actions = Actions.local(contest)
    table = ContestTable(actions=actions)
    click(card(table, team)["disband"])
    assert knight.cliche("Knight").current == 2 and viking.cliche("Viking").current == 1
    assert squire.cliche("Squire").current == 0 and contest.is_defeated(squire)
    assert team.uid not in table._cards and knight.uid in table._cards
    assert table._roll.visible is False  # two units left on side A: exchanges
    builder = table._builders[0]
    assert set(builder._members.options.values()) == {knight.uid, viking.uid}
    builder._members.value = [knight.uid, viking.uid]
    assert "Knight 2 + Viking = 주사위 3개" in builder._preview.object
    click(builder._form)
    new = contest.sides[0][0]
    assert isinstance(new, CharacterTeam) and contest.pool(new.uid) == 3
    assert table._roll.visible and builder._members.value == []


def test_drop_out_button():
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre()
    table = ContestTable(actions=actions)
    row = card(table, team)["members"][squire.uid]
    click(row["drop"])
    assert not contest.is_dropped(squire) and row["drop_confirm"].opened  # asked first
    confirm(row["drop_confirm"])
    assert contest.is_dropped(squire) and contest.pool(team.uid) == 5
    assert not row["drop_confirm"].opened
    assert card(table, team)["members"][squire.uid]["drop"].disabled


def test_exchanges_with_several_units_on_a_side():
    contest, actions, (knight, viking, squire, ogre) = free_trio_vs_ogre([[6, 6, 6, 6], [1] * 8])
    table = ContestTable(actions=actions)
    assert table._exchange_box.visible and not table._roll.visible
    assert table._end_round.disabled
    table._attacker.value = knight.uid
    assert set(table._target.options.values()) == {ogre.uid}
    assert not table._exchange.disabled
    click(table._exchange)
    assert ogre.cliche("Ogre").current == 7 and contest.round == 0
    assert not table._end_round.disabled
    click(table._end_round)
    assert contest.round == 1 and table._end_round.disabled


def test_single_roll_contest():
    contest, actions, a, b = duel(a=("Gunslinger", 3), b=("Outlaw", 3), rolls=[[5, 4, 2], [6, 3, 1]],
                                  single_roll=True)
    table = ContestTable(actions=actions, lang="en")
    assert "Single-roll" in table._header.object
    click(table._roll)
    assert contest.status == "ended" and contest.winner == 0
    assert a.cliche("Gunslinger").current == 3 and b.cliche("Outlaw").current == 3
    assert not table._roll.visible and "Side A wins" in table._result.object


def test_tickets_before_the_first_roll():
    astronaut = Character("Astronaut", {"Astronaut": 3})
    accountant = Character("Accountant", {"Accountant": 3})
    contest = Contest("Pie Eating", astronaut, accountant, dice=ScriptedDice([[6, 5], [1, 2]]))
    table = ContestTable(actions=Actions.local(contest))
    assert table._ticket_box.visible and not table._tickets.disabled
    click(table._tickets)
    assert astronaut.cliche("Pie Eating").current == 2
    assert not table._ticket_box.visible
    click(table._roll)
    assert accountant.cliche("Pie Eating").current == 1


def test_fates_and_recovery_at_the_end():
    contest, actions, viking, pirate = duel(b=("Pirate", 1), rolls=[[1, 1, 1, 2], [6], [6, 6, 6], [1]])
    table = ContestTable(actions=actions)
    assert not table._fates_box.objects and not table._recover_box.visible
    click(table._roll)
    click(table._roll)
    assert contest.status == "ended" and contest.owed_fates == [pirate.uid]
    row = table._fate_rows[pirate.uid]
    assert not row["decide"].disabled and row["veto"].disabled
    click(row["decide"])  # empty text: refused
    assert table._error.visible and not contest.fates
    row["text"].value = "Marooned on a sandbar"
    click(row["decide"])
    assert contest.fates[pirate.uid] == "Marooned on a sandbar"
    assert "Marooned" in row["fate"].object and not row["veto"].disabled
    click(row["veto"])
    assert not contest.fates
    assert "거부" in row["fate"].object and "Marooned" in row["fate"].object  # the players are told (Korean)
    assert table._recover_box.visible
    table._recover_char.value = viking.uid
    assert not table._recover.disabled
    click(table._recover)
    assert viking.cliche("Viking").current == 4
    assert table._recover.disabled  # nothing left to recover


def test_end_early_and_undo():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    table = ContestTable(actions=actions)
    assert table._undo.disabled
    click(table._roll)
    assert not table._undo.disabled
    click(table._undo)
    assert contest.round == 0 and pirate.cliche("Pirate").current == 3
    click(table._end)  # no outcome written: said at once, nothing asked
    assert table._error.visible and contest.status == "active" and not table._end_confirm.opened
    table._outcome.value = "The tavern closes"
    click(table._end)
    assert contest.status == "active" and "The tavern closes" in table._end_confirm.question
    confirm(table._end_confirm)
    assert contest.status == "ended" and contest.outcome == "The tavern closes"


def test_setup_starts_a_contest_from_the_table():
    viking, r = Character("Viking", {"Viking": 4}), rats()
    actions = Actions.local(viking, r, dice=ScriptedDice([[6, 6, 6, 6], [1] * 7]))
    table = ContestTable(actions=actions)
    assert table._setup_box.visible and not table._play_box.visible
    table._setup_sides[0].value = [viking.uid]
    table._setup_sides[1].value = [viking.uid]
    click(table._start)
    assert actions.contest is None and table._error.visible
    table._setup_sides[1].value = [r.uid]
    table._setup_name.value = "Cellar"
    click(table._start)
    assert actions.contest is not None and actions.contest.name == "Cellar"
    assert table._play_box.visible and not table._setup_box.visible
    click(table._roll)
    assert r.cliche("700 Skeletal Rats").current == 6


def test_a_disabled_button_says_why_on_hover():
    rolls = [[1] * 6, [2] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    table = ContestTable(actions=actions, lang="en")
    volunteer = card(table, team)["members"][viking.uid]["volunteer"]
    assert volunteer.disabled and hint(volunteer) == actions.why_not("volunteer", member=viking.uid)
    assert "right after" in hint(volunteer)  # the rules' own words
    # an enabled button's tooltip says what it does
    assert not table._roll.disabled and hint(table._roll) == t("help.roll_round", "en")
    click(table._roll)  # lost: now members may volunteer
    assert not volunteer.disabled and "revenge bonus" in hint(volunteer)
    assert table._end_round.disabled and hint(table._end_round)


def test_the_approval_the_roll_waits_for_is_named():
    cook, king = Character("Cook", {"Cook": 3}), Character("Demon King", {"Demon King": 4})
    contest = Contest("Martial-arts bout", cook, king, dice=ScriptedDice([]))
    table = ContestTable(actions=Actions.local(contest))
    card(table, cook)["inappropriate"].value = True
    assert table._roll.disabled and "GM의 승인" in hint(table._roll)  # in the table's language
    assert card(table, cook)["inappropriate"].value and contest.is_inappropriate(cook)


def test_the_setup_forms_side_lists_have_headers():
    """CheckBoxGroup does not show its name: each side's list of characters has a header above it."""
    viking, r = Character("Viking", {"Viking": 4}), rats()
    table = ContestTable(actions=Actions.local(viking, r))

    def headers():
        out = []
        for box in table._setup_sides:
            column = next(c for c in walk(table) if isinstance(c, pn.Column) and box in c.objects)
            above = column.objects[column.objects.index(box) - 1]
            out.append(visible_texts(above)[0].strip())
        return out
    assert headers() == ["A 편", "B 편"]
    table.lang = "en"
    assert headers() == ["Side A", "Side B"]


def test_the_next_contest_starts_from_an_empty_form_and_no_old_choice():
    olaf = Character("Olaf", {"Viking": 4, "Cook": 2})
    jack = Character("Jack", {"Pirate": 3})
    actions = Actions.local(olaf, jack, dice=ScriptedDice([[6, 6, 6, 6], [1, 1, 1]] * 3))
    table = ContestTable(actions=actions, lang="en")
    table._setup_sides[0].value, table._setup_sides[1].value = [olaf.uid], [jack.uid]
    table._setup_single.value = True
    click(table._start)
    card = table._cards[olaf.uid]["cliche"]
    card.value = "Viking"  # Olaf picks his Viking
    assert actions.contest.chosen(olaf.uid).name == "Viking"
    click(table._roll)
    assert actions.contest.status == "ended"
    actions.act("close_contest")
    assert table._setup_box.visible and not table._setup_single.value and table._setup_name.value == ""
    assert table._setup_sides[0].value == [] and table._setup_sides[1].value == []
    actions.act("start_contest", name="Again", side_a=[olaf.uid], side_b=[jack.uid])
    assert actions.contest.chosen(olaf.uid) is None
    assert card.value == "" and not card.disabled  # "choose…", not the last contest's Viking
    card.value = "Viking"  # choosing it now is a real choice
    assert actions.contest.chosen(olaf.uid).name == "Viking"


def test_a_cliche_used_down_to_zero_stays_shown_as_the_one_used():
    """Issue 21 item 6: Sam's Viking (1) loses a round and falls to 0 (Sam is out); Cook (3) is left. The
    room still says Viking was the cliché used: the card shows Viking (0/1), not Cook (the first option)."""
    sam = Character("Sam", {"Viking": 1, "Cook": 3})
    ogre = Character("Ogre", {"Ogre": 4})
    contest = Contest("Brawl", sam, ogre, dice=ScriptedDice([[1], [6, 6, 6, 6]]))
    table = ContestTable(actions=Actions.local(contest), lang="en")
    c = card(table, sam)
    c["cliche"].value = "Viking"
    assert contest.chosen(sam.uid).name == "Viking"
    click(table._roll)
    assert sam.cliche("Viking").pool == 0 and contest.chosen(sam.uid).name == "Viking"
    assert c["cliche"].value == "Viking" and "Viking" in c["cliche"].options.values()
    assert c["cliche"].disabled  # the contest is over: nothing to pick


def test_a_greyed_button_says_why_on_the_page_not_only_in_a_tooltip():
    """Issue 21 item 8: on a phone a tooltip sticks or never shows: the reason a button is greyed is a
    line of text under it, hidden while it can be pressed."""
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    table = ContestTable(actions=actions, lang="en")
    assert table._start.disabled and why(table._start) == hint(table._start)
    assert not table._roll.disabled and why(table._roll) is None
    c = card(table, viking)
    c["inappropriate"].value = True  # the roll now waits for the GM's approval
    assert table._roll.disabled and why(table._roll)


def test_the_inappropriate_box_says_its_text_in_the_new_language_in_the_page():
    """Issue 22: the box's text reached the page once; after switching to English it still read 부적합."""
    contest, actions, viking, pirate = duel(rolls=[])
    table = ContestTable(actions=actions, lang="ko")
    root = pn.panel(table).get_root()
    box = card(table, viking)["inappropriate"]
    page = [m for m in root.references() if getattr(m, "data", None) is not None
            and m.data.properties_with_values().get("label") == t("contest.inappropriate", "ko")]
    assert len(page) == 2  # both cards' boxes
    table.lang = "en"
    assert box.name == t("contest.inappropriate", "en")
    assert all(m.data.label == t("contest.inappropriate", "en") for m in page)  # what the page draws


def _shown_buttons(table) -> set[str]:
    """Names of the buttons a person can see (every parent visible too)."""
    def visit(obj, out):
        if isinstance(obj, pn.viewable.Viewer):
            obj = obj.__panel__()
        if not getattr(obj, "visible", True):
            return out
        if isinstance(obj, pn.widgets.Button):
            out.add(obj.name)
        for child in getattr(obj, "objects", []) or []:
            visit(child, out)
        return out
    return visit(table, set())


def test_a_learner_view_leaves_out_the_gm_tools_a_first_game_does_not_need():
    """Issue 22: 00's first table showed every GM control (open the round, tickets, end, the new-contest
    form) with no word on them; in a notebook the learner is the whole table."""
    contest, actions, viking, pirate = duel(rolls=[[6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6], [1, 1], [6, 6, 6, 6], [1]])
    full, learner = ContestTable(actions=actions, lang="en"), ContestTable(actions=actions, lang="en", learner_view=True)
    gm_only = {t(k, "en") for k in ("contest.open_round", "contest.give_tickets", "contest.end", "contest.start")}
    assert gm_only <= _shown_buttons(full) | {t("contest.start", "en")}
    assert not gm_only & _shown_buttons(learner)
    assert {t("contest.roll", "en", n=1), t("contest.undo", "en")} <= _shown_buttons(learner)
    assert not learner._setup_box.visible
    for _ in range(3):
        click(learner._roll)  # the same command path: the rolls land on both tables
    assert contest.status == "ended" and full._setup_box.visible and not learner._setup_box.visible
    assert t("contest.recover", "en") in _shown_buttons(learner), "the end of the contest stays"
    learner.learner_view = False
    assert t("contest.start", "en") in _shown_buttons(learner)
