"""Contest.reload: a contest rebuilt in place from a log, keeping its objects (a room's undo uses it)."""

from __future__ import annotations

import pytest

from raisus_panel.rules import Character, Contest, SaveFileError, ScriptedDice


def brawl():
    viking, pirate = Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3})
    dice = ScriptedDice([[6, 5, 1, 1], [4, 4, 4], [6, 6, 6, 6], [1, 1]])
    return Contest("Brawl", viking, pirate, dice=dice), viking, pirate


def test_reload_rebuilds_in_place():
    contest, viking, pirate = brawl()
    contest.roll_round()
    first = list(contest.events)
    contest.roll_round()
    assert pirate.cliche("Pirate").current == 1
    contest.reload(first)
    assert contest.round == 1 and contest.events == first
    assert pirate.cliche("Pirate").current == 2 and contest.characters() == [viking, pirate]


def test_reload_refuses_another_contests_log_and_changes_nothing():
    contest, viking, pirate = brawl()
    contest.roll_round()
    before = list(contest.events)
    other, *_ = brawl()
    with pytest.raises(SaveFileError) as refusal:
        contest.reload(other.events)
    assert refusal.value.key == "error.save.not_this_contest"
    broken = [*before, {**before[-1], "type": "no_such_event"}]
    with pytest.raises(SaveFileError):
        contest.reload(broken)
    assert contest.events == before and pirate.cliche("Pirate").current == 2
