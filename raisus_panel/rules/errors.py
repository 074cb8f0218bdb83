"""Errors a user can cause.

Every mistake a person at the table can make -- a wrong rating, acting out of turn, choosing a cliché
at 0 -- raises :class:`RuleError` (or a subclass) *before* anything changes, with a message that says
what to do instead.
"""

from __future__ import annotations


class RuleError(ValueError):
    """A request the rules (or our rulings) do not allow; nothing was changed.

    The message is meant for the person who asked: it says what is wrong and what to do instead.
    """


class DiceError(RuleError):
    """A dice source cannot give the roll asked for (a scripted roll of the wrong size, or none left)."""


class SaveFileError(RuleError):
    """A saved game or contest that cannot be loaded: not JSON, not ours, or from an unknown version."""
