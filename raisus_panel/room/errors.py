"""Errors of the room layer that a person can cause or meet (all are :class:`RuleError`)."""

from __future__ import annotations

from raisus_panel.rules import RuleError, SaveFileError


class StoreError(RuleError):
    """The room's events could not be read or written; a command that meets it changed nothing."""


class NotOurDatabase(StoreError):
    """A file that is not a raisus_panel room database; it was left untouched."""


class UnknownRoom(StoreError):
    """No room with that id in the store."""


class RoomExists(StoreError):
    """A room with that id is already in the store."""


class SequenceConflict(StoreError):
    """Someone else appended to the room's log first (another process or server)."""


class RoomChanged(RuleError):
    """The room changed elsewhere while this command ran; the room was refreshed, nothing applied."""


class StaleCommand(RuleError):
    """The command was decided on an older state of the room than the one it would change now.

    Someone else (or the same person's earlier click) moved the game on after the page showed what
    the command was decided on; nothing was applied, and the message says what happened.
    """


class RoomFileError(SaveFileError):
    """A room export that cannot be imported: not JSON, not ours, another version, or damaged.

    Nothing is written to the store when it is raised.
    """
