"""Shared helpers for the rules tests."""

import weakref

import pytest

from raisus_panel.rules import Character, ScriptedDice
from raisus_panel.rules.contest_log import EventLog

from .event_shapes import log_problems, shape_problems
from .keyed_errors import english_catalog_agrees  # noqa: F401 - autouse: refusals read the same in en.json


def char(name, **cliches):
    """A character whose clichés are given as keyword arguments: char("Viking", Viking=4)."""
    return Character(name, cliches)


def c(character, cliche_name=None):
    """The current score of a character's cliché (its only/first one by default)."""
    if cliche_name is None:
        return character.cliches[0].current
    return character.cliche(cliche_name).current


@pytest.fixture
def scripted():
    return ScriptedDice()


@pytest.fixture(autouse=True)
def events_keep_their_documented_shape(monkeypatch):
    """Every event a rules test commits has the shape ``events.py`` documents, and so has each log.

    Checked as each event is committed and, at the end of the test, over the whole log of every
    contest still alive -- so every scenario, ruling and property test checks the event format.
    """
    wrong: list[str] = []
    played = weakref.WeakSet()
    emit = EventLog._emit

    def checking_emit(self, event):
        committed = emit(self, event)
        wrong.extend(shape_problems(committed))
        played.add(self)
        return committed

    monkeypatch.setattr(EventLog, "_emit", checking_emit)
    yield
    wrong.extend(p for contest in list(played) for p in log_problems(contest.events))
    assert wrong == []
