"""Every component over a contest whose character team fought on tickets, once the contest is over.

The end removes tickets' temporary clichés; a team's card named its members' clichés from the
characters, so every view of a team in an ended ticket contest raised (even the roll that ended it,
through the views' watchers). The card now shows each ticket as it stood at the end, marked as gone.
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t
from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import Actions, ContestTable, ContestView, LiveOdds, RoundLog, ScoreChart, TeamBuilder
from raisus_panel.ui._base import team_pool_text
from raisus_panel.ui._contest_text import member_label

from .test_components import visible_texts

VIEWS = [ContestTable, ContestView, ScoreChart, LiveOdds, RoundLog, TeamBuilder]
LANGS = ("en", "ko")


def pie_table(rolls):
    """Knight and Viking team up on their Pie tickets against an Ogre, over a local room."""
    knight, viking = Character("Knight", {"Knight": 3}), Character("Viking", {"Viking": 2})
    knight.cliche("Knight").current = 1  # hurt before: something for recovery to restore
    ogre = Character("Ogre", {"Ogre": 3})
    contest = Contest("Pie", [knight, viking], ogre, dice=ScriptedDice(rolls))
    actions = Actions.local(contest)
    actions.act("give_tickets")
    actions.act("form_team", members=[[knight.uid, "Pie"], [viking.uid, "Pie"]], leader=knight.uid)
    return contest, actions, contest.sides[0][0], (knight, viking, ogre)


def build(actions):
    return [cls(actions=actions, lang=lang) for lang in LANGS for cls in VIEWS]


def texts(components) -> str:
    return "\n".join(w for c in components for w in visible_texts(c))


def test_views_of_a_winning_ticket_team_follow_the_contest_to_its_end():
    contest, actions, team, (knight, viking, ogre) = pie_table([[6, 6, 6], [1, 1], [6, 6, 6], [1]])
    components = build(actions)  # watching while the last roll ends the contest
    while contest.status == "active":
        actions.act("roll_round")
    assert contest.winner == 0 and not knight.has_cliche("Pie")
    shown = texts(components) + texts(build(actions))  # and views built once it is over
    for lang in LANGS:
        gone = t("team.ticket_gone", lang=lang)
        assert f"Knight — Pie (2) · {gone} ({t('team.leader', lang=lang)})" in shown
        assert f"Viking — Pie (2) · {gone}" in shown
        assert t("team.pool", lang=lang, parts="Knight 2 + Viking", n=3) in shown


def test_views_of_a_beaten_ticket_team_show_the_leader_down_then_fates_and_recovery():
    contest, actions, team, (knight, viking, ogre) = pie_table([[1, 1, 1], [6, 6], [1, 1], [6, 6]])
    components = build(actions)
    actions.act("roll_round")
    actions.act("roll_round")  # the leader's ticket falls to 0
    actions.act("end", outcome="The Ogre ate every pie.", winner=1)
    steps = [("decide_fate", {"character": knight.uid, "text": "Knight washes plates."}),
             ("veto_fate", {"character": knight.uid}),
             ("decide_fate", {"character": knight.uid, "text": "Knight owes a pie."}),
             ("recover", {"character": knight.uid})]
    for command, args in [(None, None), *steps]:
        if command:
            actions.act(command, **args)
        shown = texts(components) + texts(build(actions))
        for lang in LANGS:
            gone = t("team.ticket_gone", lang=lang)
            assert f"Knight — Pie (0/2) · {gone} ({t('status.down', lang=lang)})" in shown
            assert f"Viking — Pie (2) · {gone}" in shown
            assert t("team.pool", lang=lang, parts="Knight 0 + Viking", n=1) in shown
    assert knight.cliche("Knight").current == 3 and contest.fates[knight.uid] == "Knight owes a pie."


def test_switching_language_after_the_end():
    contest, actions, team, (knight, viking, ogre) = pie_table([[6, 6, 6], [1, 1], [6, 6, 6], [1]])
    components = [cls(actions=actions, lang="en") for cls in VIEWS]
    while contest.status == "active":
        actions.act("roll_round")
    for c in components:
        c.lang = "ko"
    assert t("team.ticket_gone", lang="ko") in texts(components)


@pytest.mark.parametrize("lang", LANGS)
def test_the_texts_of_a_ticket_team(lang):
    contest, actions, team, (knight, viking, ogre) = pie_table([[6, 6, 6], [1, 1], [6, 6, 6], [1]])

    def tr(key, **fields):
        return t(key, lang=lang, **fields)

    assert member_label(team, knight, tr) == f"Knight — Pie (2) ({tr('team.leader')})"  # live: no mark
    while contest.status == "active":
        actions.act("roll_round")
    assert member_label(team, knight, tr) == f"Knight — Pie (2) · {tr('team.ticket_gone')} ({tr('team.leader')})"
    assert team_pool_text(team, tr) == tr("team.pool", parts="Knight 2 + Viking", n=3)
    assert team_pool_text(team, tr, sixes=True) == tr("team.pool_sixes", lead="Knight 2", n=2, helpers="Viking")


@pytest.mark.parametrize("lang", LANGS)
def test_an_individual_beaten_on_a_ticket_shows_the_ticket_spent_and_the_winner_won(lang):
    """Issue 22 (found playing 07): once a ticket contest ended, a character beaten on its ticket read
    "defeated" over a full bar, "3 of 3 dice left" (its real cliché: the end had removed the ticket),
    and the winner still read "in the fight". The card shows the ticket as it stood at the end, marked
    as gone, and says who won."""
    from .drivers import Screen

    astronaut, accountant = Character("Astronaut", {"Astronaut": 3}), Character("Accountant", {"Accountant": 3})
    contest = Contest("Pie", astronaut, accountant, dice=ScriptedDice([[6, 6], [1, 1], [6, 6], [1]]))
    actions = Actions.local(contest)
    actions.act("give_tickets")
    while contest.status == "active":
        actions.act("roll_round")
    assert contest.winner == 0 and not accountant.has_cliche("Pie")
    beaten = Screen(ContestTable(actions=actions, lang=lang)).card("Accountant").text()
    assert t("contest.dice_left", lang, n=0, of=2) in beaten and t("team.ticket_gone", lang) in beaten
    assert t("contest.dice_left", lang, n=3, of=3) not in beaten and t("status.defeated", lang) in beaten
    winner = Screen(ContestTable(actions=actions, lang=lang)).card("Astronaut").text()
    assert t("contest.dice_left", lang, n=2, of=2) in winner and t("status.won", lang) in winner
    assert t("status.active", lang) not in winner


@pytest.mark.parametrize("lang", LANGS)
def test_after_the_end_no_card_says_how_many_dice_it_rolls(lang):
    """Issue 22 (seen at the end of 05 and 07): the winner's card still read "Rolls 2 dice" once the
    contest was over, as if another roll were coming. Its dice left stay; the pool is gone."""
    from .drivers import Screen

    knight, ogre = Character("Knight", {"Knight": 2}), Character("Ogre", {"Ogre": 1})
    contest = Contest("Bridge", knight, ogre, dice=ScriptedDice([[6, 6], [1]]))
    actions = Actions.local(contest)
    actions.act("choose", unit=knight.uid, cliche="Knight")
    actions.act("choose", unit=ogre.uid, cliche="Ogre")
    table = ContestTable(actions=actions, lang=lang)
    rolls = "· " + t("contest.pool", lang, n=2)  # after the dice left ("주사위 2개 중 2개 남음 · 주사위 2개")
    assert rolls in Screen(table).card("Knight").text()  # before the end: it rolls 2
    actions.act("roll_round")
    assert contest.status == "ended" and contest.winner == 0
    for screen in (Screen(table), Screen(ContestTable(actions=actions, lang=lang))):  # watching, and built after
        winner = screen.card("Knight").text()
        assert t("status.won", lang) in winner and t("contest.dice_left", lang, n=2, of=2) in winner
        assert rolls not in winner
