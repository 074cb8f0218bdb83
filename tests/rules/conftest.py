"""Shared helpers for the rules tests."""

import pytest

from raisus_panel.rules import Character, ScriptedDice

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
