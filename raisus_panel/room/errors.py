"""Errors of the room layer that a person can cause or meet (all are :class:`RuleError`)."""

from __future__ import annotations

from typing import Any

from raisus_panel.rules import RuleError, SaveFileError


class StoreError(RuleError):
    """The room's events could not be read or written; a command that meets it changed nothing."""


class NotKnownYet(StoreError):
    """A write whose answer was lost, and whose outcome could not be read back either: it may have
    been saved. Shown as a warning: never as a refusal, never as "nothing was saved"."""


class OutcomeUnknown(NotKnownYet):
    """The store was asked to save a command and its answer was lost (a timeout, a cut connection).

    It may have been saved or not: nothing is applied here, and nobody may be told "nothing was
    saved". The room's log says which, by the command's id (:meth:`~.room.Room.settle`); a shared
    store's append carries a deadline after which it can no longer land, so the answer comes.
    """

    #: The room, and the events sent (their ``seq`` and ``cmd_id`` find them in the log).
    room_id: str = ""
    events: list[dict[str, Any]] = []
    #: When the append stops being able to land, on the store's clock (None: it cannot any more).
    deadline: float | None = None

    def of(self, room_id: str, events: list[dict[str, Any]], deadline: float | None) -> "OutcomeUnknown":
        """This refusal, about the append of ``events`` to ``room_id`` (``deadline``: see above)."""
        self.room_id, self.events, self.deadline = room_id, list(events), deadline
        return self

    @property
    def command_id(self) -> str:
        """The id of the command whose outcome is not known."""
        return self.events[0]["cmd_id"] if self.events else ""


class JoinNotKnownYet(OutcomeUnknown):
    """A join whose store answer was lost. The player's personal link was saved before the join was
    sent, so once the room's log shows the join (:meth:`~.room.Room.settle` says True), :attr:`token`
    opens the room as that player; if it never lands, the link opens nothing."""

    #: The joining player's personal token (theirs alone: shown to nobody else, never logged).
    token: str = ""

    @classmethod
    def about(cls, unknown: OutcomeUnknown, token: str) -> "JoinNotKnownYet":
        """The join's ``unknown`` outcome, carrying its personal ``token``."""
        made = cls(str(unknown), key=unknown.key, **unknown.fields)
        made.of(unknown.room_id, unknown.events, unknown.deadline)
        made.token = token
        return made


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
