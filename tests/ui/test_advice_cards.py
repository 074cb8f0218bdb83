"""Issue 25, at the table: the odds advisor's numbers on the cards of the units a person plays.

A player sees, on their own unit's card, each choice it may make now with its two exact chances
(rounded), the best one marked in words, and what the numbers assume; the GM sees them on the NPCs'
cards; nobody sees them on another person's unit, and a spectator's view has none. The numbers are
the room's advisor's (``room_advice``, one answer for every page), redrawn after every change and in
the page's language.
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t, translate
from raisus_panel.room import room_advice
from raisus_panel.ui import Actions, ContestTable, ContestView
from raisus_panel.ui._base import percent

from .conftest import room_for_two
from .drivers import Screen


def advice_lines(table, unit) -> list[str]:
    """The advice a card shows (its lines of text), or [] when it shows none."""
    card = Screen(table).card(unit.name)
    return [line for line in card.texts() if line.startswith(t("advice.title", card.lang))]


def expected(room, unit, lang: str) -> str:
    """The advice as the room's advisor gives it, in the words the card should use."""
    advice = room_advice(room, unit.uid)
    parts = [t("advice.title", lang)]
    for c in advice.choices:
        marks = [t(k, lang) for k, on in (("advice.best_mark", c.key == advice.best_key),
                                           ("advice.now_mark", c.current)) if on]
        parts.append(t(c.label, lang, **c.field_map))
        parts.append(t("advice.odds", lang, as_is=percent(c.as_is), best=percent(c.best))
                     + (f" — {', '.join(marks)}" if marks else ""))
    parts.append(t("advice.note", lang))
    return " ".join(parts)


def duel(lang: str, rolls=()):
    gm, ann, olaf, spy = room_for_two(rolls)
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    return gm, ann, olaf, spy, ContestTable(actions=Actions(gm), lang=lang), ContestTable(actions=Actions(ann), lang=lang)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_each_person_sees_the_advice_on_the_units_they_play(lang):
    gm, ann, olaf, spy, gm_table, ann_table = duel(lang)
    room = gm.room
    assert advice_lines(ann_table, olaf) == [expected(room, olaf, lang)]  # Ann's own Olaf
    assert advice_lines(ann_table, spy) == []  # the GM's Spy, on Ann's page
    assert advice_lines(gm_table, spy) == [expected(room, spy, lang)]  # the GM's NPC
    assert advice_lines(gm_table, olaf) == []  # Ann's to choose, not the GM's
    watching = ContestView(actions=Actions(gm), lang=lang)
    assert t("advice.title", lang) not in Screen(watching).text()
    # the numbers: Olaf (4 dice) against Spy (3), each on its one cliché, and the inappropriate switch
    advice = room_advice(room, olaf.uid)
    assert advice.choice("cliche:Viking").current and percent(advice.choice("cliche:Viking").as_is) == "89.5%"
    assert advice.best_key == "cliche:Viking:inappropriate"
    assert t("advice.best_mark", lang) in advice_lines(ann_table, olaf)[0]


def test_the_advice_follows_the_rolls_and_goes_when_the_contest_ends():
    gm, ann, olaf, spy, gm_table, ann_table = duel("en", rolls=[[6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6], [1, 1], [6, 6, 6, 6], [1]])
    before = advice_lines(ann_table, olaf)
    gm.act("roll_round")  # Olaf wins: Spy has 2 dice left
    after = advice_lines(ann_table, olaf)
    assert after != before and after == [expected(gm.room, olaf, "en")]
    assert advice_lines(gm_table, spy) == [expected(gm.room, spy, "en")]
    gm.act("roll_round")
    gm.act("roll_round")  # Spy is down
    assert gm.room.contest.status == "ended"
    assert advice_lines(ann_table, olaf) == [] and advice_lines(gm_table, spy) == []


def test_before_the_other_side_chooses_the_card_says_what_the_odds_wait_for():
    gm, ann, olaf, spy = room_for_two()
    gm.act("save_character", data={"name": "Ogre", "cliches": [{"name": "Ogre", "rating": 4},
                                                                {"name": "Brute", "rating": 2}]})
    ogre = gm.room.characters[-1]
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[ogre.uid])
    table = ContestTable(actions=Actions(ann), lang="ko")
    card = Screen(table).card("Olaf")
    try:
        room_advice(gm.room, olaf.uid)
    except Exception as exc:  # noqa: BLE001 - the refusal is what the card says
        waiting = translate(exc, "ko")
    assert waiting in card.texts() and "Ogre" in waiting
    gm.act("choose", unit=ogre.uid, cliche="Brute")
    assert advice_lines(table, olaf) == [expected(gm.room, olaf, "ko")]


def test_a_language_switch_redraws_the_advice():
    gm, ann, olaf, spy, gm_table, ann_table = duel("en")
    ann_table.lang = "ko"
    assert advice_lines(ann_table, olaf) == [expected(gm.room, olaf, "ko")]


def test_a_team_in_its_volunteer_window_is_advised_who_takes_the_hit():
    gm, ann, olaf, spy = room_for_two([[1, 1, 1, 1], [6, 6, 6]])
    gm.act("save_character", data={"name": "Monk", "cliches": [{"name": "Monk", "rating": 2}]})
    gm.act("save_character", data={"name": "Ogre", "cliches": [{"name": "Ogre", "rating": 3}]})
    monk, ogre = gm.room.characters[-2:]
    gm.act("start_contest", name="Brawl", side_a=[spy.uid, monk.uid], side_b=[ogre.uid])
    gm.act("form_team", members=[{"character": spy.uid, "cliche": "Spy"},
                                 {"character": monk.uid, "cliche": "Monk"}])
    gm.act("roll_round")  # the team loses: its members may volunteer
    assert gm.room.contest.volunteer_window
    table = ContestTable(actions=Actions(gm), lang="en")
    team = gm.room.contest.sides[0][0]
    lines = advice_lines(table, team)
    assert lines == [expected(gm.room, team, "en")]
    assert "Nobody volunteers" in lines[0] and "Monk volunteers to take the hit" in lines[0]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_table_that_forms_no_teams_is_not_advised_to_team_up(lang):
    """Issue 22 (found playing 05): a tutorial's table made with ``show_team_builders=False`` offers no
    "Form a team…", yet the knight's card advised "Team up: …, 72.8% with best play — the best
    choice". Where the table forms no teams, such a card says that the GM orders the exchanges; the
    GM's page with the builders keeps the advice."""
    gm, ann, olaf, spy = room_for_two()
    gm.act("save_character", data={"name": "Bard", "owner": "p1", "cliches": [{"name": "Bard", "rating": 2}]})
    bard = gm.room.characters[-1]
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid, bard.uid], side_b=[spy.uid])
    plain = ContestTable(actions=Actions(ann), lang=lang, show_team_builders=False)
    card = Screen(plain).card(olaf.name)
    assert t("advice.title", lang) not in card.text()
    assert t("error.advice.exchanges", lang) in card.text()
    with_builders = ContestTable(actions=Actions(ann), lang=lang)
    assert advice_lines(with_builders, olaf) == [expected(gm.room, olaf, lang)]
    plain.show_team_builders = True  # switched on: the advice on teaming up shows
    assert advice_lines(plain, olaf) == [expected(gm.room, olaf, lang)]
