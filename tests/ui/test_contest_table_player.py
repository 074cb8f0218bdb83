"""A player's contest table puts the player first: their own units are marked as theirs in words, and
another's unit shows its cliché in words (as the spectators' view does) instead of greyed-out controls
the room would never let this player use. The GM's table keeps every control on every card. A player
with no character in the contest is told so, once, by the "what now" line."""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t
from raisus_panel.room import Actor, PermissionDenied, RoomSession
from raisus_panel.rules import CharacterTeam
from raisus_panel.ui import Actions, ContestTable, ContestView

from .conftest import room_for_two
from .drivers import Screen
from .test_components import visible_texts


def card_of(table, unit) -> Screen:
    return Screen(table).card(unit.name)


def controls(card: Screen) -> list:
    """The pickers, checkboxes and buttons a card holds (shown or not)."""
    return card.controls(hidden=True)


def row_of(card: Screen, member) -> Screen:
    return card.within(f"{member.name} — ")


def left_out_only_where_the_room_refuses(table) -> None:
    """Every control a player's card leaves out is one the room's permissions refuse this player, so
    nothing they may use is hidden from them."""
    actions = table.actions
    s = Screen(table)

    def refused(command, **args):
        assert isinstance(actions.why_not_error(command, **args), PermissionDenied), (command, args)

    def lacks(part: Screen, role: str, key: str) -> bool:
        return not part.controls(role, s.t(key), hidden=True)
    for unit in (u for side in actions.contest.sides for u in side):
        card = card_of(table, unit)
        if isinstance(unit, CharacterTeam):
            if lacks(card, "button", "contest.disband"):
                refused("disband", team=unit.uid)
            for m in unit.members:
                row = row_of(card, m) if not lacks(card, "button", "contest.volunteer") else card
                if lacks(row, "button", "contest.volunteer"):
                    refused("volunteer", member=m.uid)
                    refused("drop_out", member=m.uid)
                if lacks(row, "button", "contest.assign_loss"):
                    refused("assign_loss", member=m.uid)
        elif lacks(card, "select", "contest.cliche"):
            for c in unit.cliches:
                refused("choose", unit=unit.uid, cliche=c.name)


def badge(lang: str, key: str = "contest.yours") -> str:
    return f"<span class='badge mine'>{t(key, lang)}</span>"


def olaf_against_spy(lang: str = "en"):
    """Ann's Olaf (Viking 4) against the GM's Spy (Spy 3), started: the GM's table and Ann's."""
    gm, ann, olaf, spy = room_for_two()
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    return ContestTable(actions=Actions(gm), lang=lang), ContestTable(actions=Actions(ann), lang=lang), olaf, spy


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_players_own_unit_is_marked_and_anothers_shows_its_cliche_in_words(lang):
    _, table, olaf, spy = olaf_against_spy(lang)
    mine, theirs = card_of(table, olaf), card_of(table, spy)
    # Ann's Olaf: marked as hers, with a picker and a box she can use
    assert badge(lang) in mine.html()
    assert not mine.select(t("contest.cliche", lang)).disabled and not mine.checkbox(t("contest.inappropriate", lang)).disabled
    # the GM's Spy: no badge, no controls, its cliché in words -- the very words a spectator reads
    assert "badge mine" not in theirs.html()
    assert not controls(theirs)
    cliche = f"{t('contest.cliche', lang)}: Spy (3)"
    assert cliche in theirs.texts()[0]
    watching = ContestView(actions=table.actions, lang=lang)
    assert cliche in Screen(watching).html().split("<div class=raisus-side>")[2]  # side B's column
    # Olaf's card names his cliché in its picker, not twice
    assert f"{t('contest.cliche', lang)}: Viking" not in mine.texts()[0]
    left_out_only_where_the_room_refuses(table)


def test_the_gms_table_keeps_the_controls_on_every_card_and_marks_none():
    table, _, olaf, spy = olaf_against_spy()
    for unit in (olaf, spy):
        card = card_of(table, unit)
        assert card.checkbox(t("contest.inappropriate", "en")) is not None  # a box to tick, and a picker:
        assert not card.select(t("contest.cliche", "en")).disabled  # the GM may choose for anyone
        assert "badge mine" not in card.html() and "Cliché:" not in card.texts()[0]


def test_anothers_inappropriate_cliche_reads_so_in_words():
    gm, ann, olaf, spy = room_for_two()
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    table = ContestTable(actions=Actions(ann), lang="en")
    gm.act("choose", unit=spy.uid, cliche="Spy", appropriate=False)
    assert "Cliché: Spy (3) · Inappropriate" in card_of(table, spy).texts()[0]


def test_a_unit_given_to_the_player_for_the_next_contest_gets_its_controls():
    gm, ann, olaf, spy = room_for_two()
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    table = ContestTable(actions=Actions(ann), lang="en")
    assert not card_of(table, spy).controls("select", hidden=True)
    gm.act("end_contest", outcome="Called off", winner=None)
    gm.act("close_contest")
    gm.act("update_character", uid=spy.uid, owner="p1")  # the GM hands the Spy to Ann
    gm.act("save_character", data={"name": "Ogre", "cliches": [{"name": "Ogre", "rating": 8}]})
    gm.act("start_contest", name="Again", side_a=[spy.uid], side_b=[gm.room.characters[-1].uid])
    card = card_of(table, spy)
    assert not card.select(t("contest.cliche", "en")).disabled and badge("en") in card.html()


def team_of_olaf_and_giant():
    """Ann's Olaf (Viking 4) and the GM's Giant (Giant 5, who leads) as a team against the GM's Spy:
    the GM's table and Ann's."""
    gm, ann, olaf, spy = room_for_two()
    gm.act("save_character", data={"name": "Giant", "cliches": [{"name": "Giant", "rating": 5}]})
    giant = gm.room.characters[-1]
    gm.act("start_contest", name="Fight", side_a=[olaf.uid, giant.uid], side_b=[spy.uid])
    gm.act("form_team", members=[olaf.uid, giant.uid])
    team = gm.room.contest.sides[0][0]
    assert isinstance(team, CharacterTeam) and team.leader.uid == giant.uid
    tables = (ContestTable(actions=Actions(gm), lang="en"), ContestTable(actions=Actions(ann), lang="en"))
    return (*tables, team, olaf, giant)


def test_a_team_with_the_players_member_is_theirs_and_so_is_the_member_row():
    gm_table, table, team, olaf, giant = team_of_olaf_and_giant()
    card = card_of(table, team)
    drop, disband = t("contest.drop_out", "en"), t("contest.disband", "en")
    assert badge("en", "contest.yours_team") in card.html()
    assert badge("en") in row_of(card, olaf).html() and "badge mine" not in row_of(card, giant).html()
    # her team keeps its buttons: Olaf's hers to press, the GM's Giant's and "disband" greyed out
    assert row_of(card, olaf).can_press(drop)
    assert not row_of(card, giant).can_press(drop) and not card.can_press(disband)
    # the GM's table: no badge, and every button for the GM to press
    gm_card = card_of(gm_table, team)
    assert "badge mine" not in gm_card.html() and gm_card.can_press(disband)
    assert len(gm_card.buttons(drop)) == 2 and all(not b.disabled for b in gm_card.buttons(drop))


def test_anothers_team_shows_its_members_in_words_and_no_controls():
    gm, ann, olaf, spy = room_for_two()
    gm.act("save_character", data={"name": "Giant", "cliches": [{"name": "Giant", "rating": 5}]})
    giant = gm.room.characters[-1]
    gm.act("start_contest", name="Fight", side_a=[olaf.uid], side_b=[giant.uid, spy.uid])
    gm.act("form_team", members=[giant.uid, spy.uid])
    team = gm.room.contest.sides[1][0]
    table = ContestTable(actions=Actions(ann), lang="en")
    card = card_of(table, team)
    assert not controls(card) and "badge mine" not in card.html()
    assert card.texts()[1:] == ["Giant — Giant (5) (leader)", "Spy — Spy (3)"]  # under the head: the members
    left_out_only_where_the_room_refuses(table)
    assert controls(card_of(ContestTable(actions=Actions(gm), lang="en"), team))  # the GM's: all there


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_team_all_the_players_own_keeps_disband_and_the_leaders_buttons(lang):
    gm, ann, olaf, spy = room_for_two()
    gm.act("update_character", uid=spy.uid, owner="p1")
    gm.act("save_character", data={"name": "Ogre", "cliches": [{"name": "Ogre", "rating": 8}]})
    ogre = gm.room.characters[-1]
    gm.act("start_contest", name="Fight", side_a=[olaf.uid, spy.uid], side_b=[ogre.uid])
    ann.act("form_team", members=[olaf.uid, spy.uid])
    table = ContestTable(actions=Actions(ann), lang=lang)
    team = gm.room.contest.sides[0][0]
    card = card_of(table, team)
    assert t("contest.yours_team", lang) in card.texts()[0] and card.can_press(t("contest.disband", lang))
    for member in team.members:
        row = row_of(card, member)
        assert badge(lang) in row.html()
        assert all(row.controls("button", t(k, lang), hidden=True)
                   for k in ("contest.volunteer", "contest.drop_out", "contest.assign_loss"))


def test_the_badges_in_both_languages():
    assert t("contest.yours", "en") == "Yours" and t("contest.yours", "ko") == "내 캐릭터"
    assert t("contest.yours_team", "en") == "Your team" and t("contest.yours_team", "ko") == "내 팀"
    _, table, olaf, _ = olaf_against_spy("ko")
    assert badge("ko") in card_of(table, olaf).html()
    table.lang = "en"
    assert badge("en") in card_of(table, olaf).html() and "내 캐릭터" not in card_of(table, olaf).html()


# -- a player with no character in the contest -----------------------------------------------------
def bobs_table(lang: str):
    """The GM's Olaf-against-Spy contest on the page of Bob ("p2"), who plays neither."""
    gm, ann, olaf, spy = room_for_two()
    bob = RoomSession(gm.room, Actor.player("p2", "Bob"))
    bob.act("join", name="Bob")
    return gm, ContestTable(actions=Actions(bob), lang=lang), olaf, spy


def shown_once(table, text: str) -> bool:
    return sum(text in s for s in visible_texts(table)) == 1


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_player_with_no_character_in_the_contest_is_told_so_once(lang):
    gm, table, olaf, spy = bobs_table(lang)
    # no contest, and Bob has no character: the line tells him to make one (issue 21)
    assert Screen(table).what_now.endswith(t("what_now.you.make_character", lang))
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    # the "what now" line already says it while the contest is played: nothing else repeats it
    watching = f"{t('what_now.you.watching', lang)} {t('what_now.note.make_character', lang)}"
    assert Screen(table).what_now.endswith(watching) and shown_once(table, watching)
    cards = Screen(table).cards()
    assert len(cards) == 2 and not any(controls(card) for card in cards)
    left_out_only_where_the_room_refuses(table)
    assert not any("badge mine" in card.html() for card in cards)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_after_the_contest_a_player_who_was_not_in_it_is_still_told_so(lang):
    gm, table, olaf, spy = bobs_table(lang)
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    gm.act("end_contest", outcome="Called off", winner=0)
    # what anyone watching is told ("Contest over: Olaf won."), then that none of Bob's was in it
    not_in = t("what_now.note.not_in_contest", lang)
    assert Screen(table).what_now.endswith(f"{t('what_now.watch.over', lang, names='Olaf')} {not_in}")
    assert shown_once(table, not_in)
