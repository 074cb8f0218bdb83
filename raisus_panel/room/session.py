"""A person's handle on a room.

UI components receive a :class:`RoomSession`: the room to watch and the actor to act as. A component
never needs to know whether the room is a notebook's :class:`~.room.LocalRoom` or a shared, served room.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from raisus_panel.rules import RuleError

from .events import Event, visible_to
from .roles import Actor, Role

if TYPE_CHECKING:  # a session only calls its room: the room module makes sessions, never the reverse
    from .room import Room


class RoomSession:
    """One person at one room: acts as ``actor`` and sees what ``actor`` may see.

    Parameters
    ----------
    room
        The shared room.
    actor
        Who this session acts as.

    Examples
    --------
    >>> from raisus_panel.room import Room
    >>> gm = Room.local("Tavern")
    >>> gm.can("roll_round")
    False
    >>> gm.why_not("roll_round")
    'There is no contest right now: the GM starts one first.'
    """

    def __init__(self, room: Room, actor: Actor) -> None:
        if not isinstance(actor, Actor):
            raise RuleError("A room session needs an Actor.", key="error.room.session_actor")
        self.room = room
        self.actor = actor

    @property
    def role(self) -> Role:
        """This session's role."""
        return self.actor.role

    def act(self, command: str, /, command_id: str | None = None, seen_seq: int | None = None,
            **args: object) -> list[Event]:
        """Run ``command`` with keyword arguments as this session's actor (see :meth:`Room.apply`).

        ``seen_seq`` is the room's ``seq`` as this person's page showed it when they clicked: a
        state-bound command decided on an older state is refused (:class:`~.errors.StaleCommand`).
        """
        return self.room.apply(self.actor, command, args, command_id=command_id, seen_seq=seen_seq)

    def why_not(self, command: str, /, **args: object) -> str | None:
        """Why ``command`` would be refused now (the message), or None if it looks allowed.

        Checks permission, arguments and the cheap rules (see :meth:`Room.check`); rolling may
        still be refused by rules that are checked only while rolling. :meth:`why_not_error` gives
        the refusal itself.
        """
        refusal = self.why_not_error(command, **args)
        return None if refusal is None else str(refusal)

    def why_not_error(self, command: str, /, **args: object) -> RuleError | None:
        """The :class:`~raisus_panel.rules.RuleError` (or PermissionDenied) ``command`` would meet now, or None.

        As :meth:`why_not`, but keeping the refusal's message key and fields, so a view can show it
        in the reader's language (``raisus_panel.i18n.translate``).
        """
        try:
            self.room.check(self.actor, command, args)
        except RuleError as exc:
            return exc.with_traceback(None)
        return None

    def can(self, command: str, /, **args: object) -> bool:
        """Whether ``command`` looks allowed now (for enabling buttons; see :meth:`why_not`)."""
        return self.why_not(command, **args) is None

    def visible_events(self, from_seq: int = 0) -> list[Event]:
        """The events after ``from_seq`` this session may see."""
        return self.room.visible_events(self.actor, from_seq)

    @property
    def checks(self) -> list[Event]:
        """The action checks this session may see (the GM's secret rolls only for the GM)."""
        return self.room.checks_for(self.actor)

    def subscribe(self, callback: Callable[[list[Event]], None]) -> Callable[[], None]:
        """Call ``callback(events)`` with the new events this session may see; returns unsubscribe.

        Same rules as :meth:`Room.subscribe`: quick, non-blocking callbacks. Commands whose events
        are all hidden from this session do not call it.
        """
        actor = self.actor

        def filtered(events: list[Event]) -> None:
            mine = [e for e in events if visible_to(actor, e)]
            if mine:
                callback(mine)
        return self.room.subscribe(filtered)

    def connect(self, session_id: str) -> None:
        """Show this session as present in the room."""
        self.room.connect(self.actor, session_id)

    def disconnect(self, session_id: str) -> None:
        """Remove this session's presence."""
        self.room.disconnect(session_id)

    def __repr__(self) -> str:
        who = self.actor.player_id or self.actor.name
        return f"RoomSession({self.room.room_id!r}, {self.actor.role.value}{':' + who if who else ''})"
