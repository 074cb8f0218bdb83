"""A character team formed on tickets, asked about once its contest has ended.

The end of a contest removes tickets' temporary clichés (RULES.md section 8), and a team reads its
members' clichés by name: the team's own queries (``cliche_of``, ``pool``, ``pool_text``, ``repr``)
and the contest's (``pool``, ``chosen``) raised ``RuleError`` for the vanished ticket. The team now
keeps each ticket cliché as it stood at the end, and says it is gone.
"""

import pytest

from raisus_panel.rules import Character, CharacterTeam, Contest, RuleError, ScriptedDice


def named(name, uid, **cliches):
    return Character(name, cliches, uid=uid)


def pie_team(rolls):
    """Knight and Viking team up on their Pie tickets (2 each, Knight leads) against an Ogre's Pie (2)."""
    knight, viking = named("Knight", "knight", Knight=3), named("Viking", "viking", Viking=2)
    knight.cliche("Knight").current = 1  # hurt before: something for recovery to restore
    ogre = named("Ogre", "ogre", Ogre=3)
    contest = Contest("Pie", [knight, viking], ogre, dice=ScriptedDice(rolls), uid="pie")
    contest.give_tickets()
    contest.form_team([(knight, "Pie"), (viking, "Pie")], leader=knight)
    team = contest.sides[0][0]
    assert isinstance(team, CharacterTeam)
    return contest, team, knight, viking, ogre


def team_wins():
    """The team wins both rounds (pool 3 against 2, then 1): the Ogre's ticket falls to 0."""
    contest, team, knight, viking, ogre = pie_team([[6, 6, 6], [1, 1], [6, 6, 6], [1]])
    while contest.status == "active":
        contest.roll_round()
    return contest, team, knight, viking, ogre


def team_loses():
    """The team loses twice: the leader's ticket falls to 0, and the GM ends the contest for the Ogre."""
    contest, team, knight, viking, ogre = pie_team([[1, 1, 1], [6, 6], [1, 1], [6, 6]])
    contest.roll_round()
    contest.roll_round()
    contest.end("The Ogre ate every pie.", winner=1)
    return contest, team, knight, viking, ogre


def test_the_winning_ticket_team_answers_after_the_end():
    contest, team, knight, viking, _ = team_wins()
    assert contest.status == "ended" and contest.winner == 0
    assert not knight.has_cliche("Pie") and not viking.has_cliche("Pie")  # the tickets are gone
    assert repr(team) == "CharacterTeam('Knight+Viking', leader='Knight', pool=3)"
    assert team.cliche_of(knight).name == "Pie" and team.cliche_of(knight).label == "Pie (2)"
    assert team.cliche_gone(knight) and team.cliche_gone(viking)
    assert team.pool == 3 and team.pool_text() == "Knight 2 + Viking = 3"
    assert team.active_members == [knight, viking] and team.down_members == []
    assert contest.pool(team) == 3 and contest.chosen(team).name == "Pie"
    assert contest.pool(team.uid) == 3 and contest.chosen("Knight+Viking") is team.cliche_of(knight)
    assert contest.is_active(team) and not contest.needs_approval(team) and not contest.is_inappropriate(team)


def test_the_losing_ticket_team_shows_its_leader_down_at_the_end():
    contest, team, knight, viking, _ = team_loses()
    assert contest.status == "ended" and contest.winner == 1
    assert team.cliche_of(knight).label == "Pie (0/2)" and team.cliche_of(viking).label == "Pie (2)"
    assert team.down_members == [knight] and team.active_members == [viking]
    assert team.pool == 1 and team.pool_text() == "Knight 0 + Viking = 1"
    assert contest.pool(team) == 1 and contest.chosen(team).current == 0
    assert "pool=1" in repr(team)
    assert contest.is_defeated(knight) and not contest.is_defeated(viking)
    assert contest.owed_fates == [knight.uid]


def test_fates_and_recovery_after_the_end_leave_the_ticket_as_it_stood():
    contest, team, knight, viking, _ = team_loses()
    contest.decide_fate(knight, "Knight washes the Ogre's plates for a week.")
    contest.veto_fate(knight)
    contest.decide_fate(knight, "Knight owes the Ogre a pie.")
    contest.recover(knight)
    assert knight.cliche("Knight").current == 3  # the real cliché is restored ...
    assert team.cliche_of(knight).label == "Pie (0/2)" and team.cliche_gone(knight)  # ... the ticket is history
    assert contest.pool(team) == 1 and contest.chosen(team).name == "Pie" and "pool=1" in repr(team)
    assert contest.is_defeated(knight)


def test_undoing_the_end_brings_the_live_tickets_back():
    contest, team, knight, viking, _ = team_loses()
    contest.undo()
    assert contest.status == "active" and knight.has_cliche("Pie")
    live = contest.sides[0][0]
    assert not live.cliche_gone(knight) and live.cliche_of(knight) is knight.cliche("Pie")
    assert contest.pool(live) == 1 and contest.chosen(live) is knight.cliche("Pie")


@pytest.mark.parametrize("play", [team_wins, team_loses])
def test_a_replayed_contest_answers_the_same(play):
    contest = play()[0]
    replayed = Contest.from_json(contest.to_json())
    team, again = contest.sides[0][0], replayed.sides[0][0]
    assert repr(again) == repr(team)
    assert replayed.pool(again) == contest.pool(team)
    assert replayed.chosen(again).label == contest.chosen(team).label
    assert [again.cliche_gone(m) for m in again.members] == [True, True]


def test_a_live_ticket_is_the_characters_own_cliche():
    contest, team, knight, viking, _ = pie_team([[1, 1, 1], [6, 6]])
    assert team.cliche_of(knight) is knight.cliche("Pie") and not team.cliche_gone(knight)
    contest.roll_round()
    assert team.cliche_of(knight).current == 1 and contest.pool(team) == 2


def test_a_real_cliche_taken_off_the_sheet_is_still_an_error():
    knight, viking = Character("Knight", {"Knight": 4, "Cook": 2}), Character("Viking", {"Viking": 2})
    team = CharacterTeam([(knight, "Knight"), viking])
    knight.remove_cliche("Knight")  # not a ticket: nothing vanished with a contest, the sheet was edited
    assert not team.cliche_gone(knight)
    with pytest.raises(RuleError):
        team.cliche_of(knight)
