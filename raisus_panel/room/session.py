"""A person's handle on a room, and the one-person room for notebooks.

UI components receive a :class:`RoomSession`: the room to watch and the actor to act as. A component
never needs to know whether the room is a notebook's :class:`LocalRoom` or a shared, served room.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from raisus_panel.rules import RuleError
from raisus_panel.rules.dice import DiceSource

from .events import visible_to
from .roles import Actor, Role
from .room import Room, create_in_store
from .sqlite_store import SQLiteStore
from .store import MemoryStore


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
    >>> gm = Room.local("Tavern")
    >>> gm.can("roll_round")
    False
    >>> gm.why_not("roll_round")
    'There is no contest right now: the GM starts one first.'
    """

    def __init__(self, room: Room, actor: Actor):
        if not isinstance(actor, Actor):
            raise RuleError("A room session needs an Actor.", key="error.room.session_actor")
        self.room = room
        self.actor = actor

    @property
    def role(self) -> Role:
        """This session's role."""
        return self.actor.role

    def act(self, command: str, /, command_id: str | None = None, **args) -> list[dict]:
        """Run ``command`` with keyword arguments as this session's actor (see :meth:`Room.apply`)."""
        return self.room.apply(self.actor, command, args, command_id=command_id)

    def why_not(self, command: str, /, **args) -> str | None:
        """Why ``command`` would be refused now (the message), or None if it looks allowed.

        Checks permission, arguments and the cheap rules (see :meth:`Room.check`); rolling may
        still be refused by rules that are checked only while rolling. :meth:`why_not_error` gives
        the refusal itself.
        """
        refusal = self.why_not_error(command, **args)
        return None if refusal is None else str(refusal)

    def why_not_error(self, command: str, /, **args) -> RuleError | None:
        """The :class:`~raisus_panel.rules.RuleError` (or PermissionDenied) ``command`` would meet now, or None.

        As :meth:`why_not`, but keeping the refusal's message key and fields, so a view can show it
        in the reader's language (``raisus_panel.i18n.translate``).
        """
        try:
            self.room.check(self.actor, command, args)
        except RuleError as exc:
            return exc.with_traceback(None)
        return None

    def can(self, command: str, /, **args) -> bool:
        """Whether ``command`` looks allowed now (for enabling buttons; see :meth:`why_not`)."""
        return self.why_not(command, **args) is None

    def visible_events(self, from_seq: int = 0) -> list[dict]:
        """The events after ``from_seq`` this session may see."""
        return self.room.visible_events(self.actor, from_seq)

    @property
    def checks(self) -> list[dict]:
        """The action checks this session may see (the GM's secret rolls only for the GM)."""
        return self.room.checks_for(self.actor)

    def subscribe(self, callback: Callable[[list[dict]], None]) -> Callable[[], None]:
        """Call ``callback(events)`` with the new events this session may see; returns unsubscribe.

        Same rules as :meth:`Room.subscribe`: quick, non-blocking callbacks. Commands whose events
        are all hidden from this session do not call it.
        """
        actor = self.actor

        def filtered(events: list[dict]) -> None:
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


class LocalRoom(Room):
    """A room for one person -- a notebook -- who is the GM and so may play every role.

    In memory by default; with ``path`` the room lives in that SQLite file and is reopened from it
    next time (the file's first room). Its :attr:`session` acts as the GM.

    Parameters
    ----------
    title
        The room's title (for a new room).
    path
        An SQLite file to keep the room in; None keeps it in memory.
    dice
        The dice source (seeded or scripted dice make a notebook repeatable).
    """

    def __init__(self, title: str = "Risus", *, path: str | os.PathLike | None = None,
                 dice: DiceSource | None = None):
        store = SQLiteStore(path) if path is not None else MemoryStore()
        rooms = store.list_rooms()
        room_id = rooms[0] if rooms else create_in_store(store, title)
        super().__init__(store, room_id, dice=dice)
        #: The GM's session: what a notebook acts through.
        self.session = RoomSession(self, Actor.gm())

    def act(self, command: str, /, command_id: str | None = None, **args) -> list[dict]:
        """Run ``command`` as the GM (same as ``self.session.act``)."""
        return self.session.act(command, command_id=command_id, **args)
