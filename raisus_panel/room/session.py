"""A person's handle on a room, and the one-person room for notebooks.

UI components receive a :class:`RoomSession`: the room to watch and the actor to act as. A component
never needs to know whether the room is a notebook's :class:`LocalRoom` or a shared, served room.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable

from raisus_panel.rules import Character, CharacterTeam, Contest, RuleError
from raisus_panel.rules.dice import DiceSource

from .events import visible_to
from .projection import apply_event, contest_summary, effective, round_open_of
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

    def act(self, command: str, /, command_id: str | None = None, seen_seq: int | None = None,
            **args) -> list[dict]:
        """Run ``command`` with keyword arguments as this session's actor (see :meth:`Room.apply`).

        ``seen_seq`` is the room's ``seq`` as this person's page showed it when they clicked: a
        state-bound command decided on an older state is refused (:class:`~.errors.StaleCommand`).
        """
        return self.room.apply(self.actor, command, args, command_id=command_id, seen_seq=seen_seq)

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

    Characters and contests built in plain Python join the room with :meth:`adopt`, and stay the
    objects the room plays: a click on a component, ``room.act("roll_round")`` or a direct
    ``contest.roll_round()`` all go into the room's log, and every view follows.

    Parameters
    ----------
    title
        The room's title (for a new room).
    path
        An SQLite file to keep the room in; None keeps it in memory.
    dice
        The dice source for contests started in the room and action checks (seeded or scripted
        dice make a notebook repeatable); committed dice when omitted (``Room.dice``). An adopted
        contest keeps its own dice.

    Examples
    --------
    >>> from raisus_panel.rules import Character, Contest, ScriptedDice
    >>> viking, pirate = Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3})
    >>> game = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6, 5, 1, 1], [4, 4, 4]]))
    >>> table = LocalRoom("Tavern")
    >>> table.adopt(game)
    >>> _ = table.act("roll_round")
    >>> game.round, pirate.cliche("Pirate").current
    (1, 2)
    """

    def __init__(self, title: str = "Risus", *, path: str | os.PathLike | None = None,
                 dice: DiceSource | None = None):
        self._undoing = False  # the room's own undo is taking a contest command back
        store = SQLiteStore(path) if path is not None else MemoryStore()
        rooms = store.list_rooms()
        room_id = rooms[0] if rooms else create_in_store(store, title)
        super().__init__(store, room_id, dice=dice)
        #: The GM's session: what a notebook acts through.
        self.session = RoomSession(self, Actor.gm())

    def act(self, command: str, /, command_id: str | None = None, seen_seq: int | None = None,
            **args) -> list[dict]:
        """Run ``command`` as the GM (same as ``self.session.act``)."""
        return self.session.act(command, command_id=command_id, seen_seq=seen_seq, **args)

    # ------------------------------------------------------------------------------ adopt --
    def adopt(self, *objects: Character | CharacterTeam | Contest) -> None:
        """Bring characters, grunt mobs, teams' members or a contest built in Python to this table.

        The room keeps *these* objects: after adopting, the room's characters and contest are the
        very objects the notebook holds, so they show every command given through the room (a
        click, ``act``) -- and a command given on an adopted contest directly (``game.roll_round()``)
        is written to the room's log like any other. Adopting what is already here does nothing.

        A contest is adopted with everything played so far: its characters join as they were when
        it started, then its events follow, so reloading the room replays it exactly. A contest
        still running replaces none: end or close the room's current contest first.

        Raises
        ------
        RuleError
            Something that is not a character, team or contest; another object with the uid of one
            at this table; a second running contest.
        """
        for obj in objects:
            with self._lock:
                if isinstance(obj, Contest):
                    self._adopt_contest(obj)
                elif isinstance(obj, (Character, CharacterTeam)):
                    members = obj.members if isinstance(obj, CharacterTeam) else [obj]
                    for char in members:
                        self._adopt_character(char)
                else:
                    raise RuleError(f"A table adopts characters, grunt mobs, teams and contests, not {obj!r}.",
                                    key="error.room.adopt_what", what=repr(obj))
        self._publish()

    def _record(self, payloads: list[dict], command: str) -> list[dict]:
        """Write ``payloads`` as the GM's command ``command``: stamped, durable, in the log."""
        events = self._stamp_all(payloads, self.session.actor, command, uuid.uuid4().hex)
        self._commit(events)
        self._log(events)
        self._remember(events[0]["cmd_id"], self.session.actor, events)
        return events

    def _same_object(self, char: Character) -> bool:
        """Whether ``char`` is at the table already (True) or new (False); RuleError for an impostor."""
        here = self._state.characters.get(char.uid)
        if here is None:
            return False
        if here is not char:
            raise RuleError(f"Another character with the id of {char.name} is at this table already.",
                            key="error.room.adopt_uid_taken", name=char.name)
        return True

    def _adopt_character(self, char: Character) -> None:
        if self._same_object(char):
            return
        events = self._record([{"type": "character_created", "character": char.to_dict()}], "adopt")
        self._state.characters[char.uid] = char
        self._notify(events)

    def _adopt_contest(self, contest: Contest) -> None:
        current = self._state.contest
        if current is contest:
            return
        if contest.event_sink is not None:
            raise RuleError(f"{contest.name} is already another table's contest: play it there.",
                            key="error.room.adopt_elsewhere", name=contest.name)
        if current is not None and current.status == "active":
            raise RuleError("A contest is running at this table: end it (end_contest) before adopting another.",
                            key="error.room.contest_running")
        start = contest.events[0]
        chars = {c.uid: c for c in contest.characters()}
        payloads = []
        if current is not None:
            payloads.append({"type": "contest_closed", "contest": current.uid, "summary": contest_summary(current)})
        # the characters as they were when the contest started, so that a replay of the log (create,
        # then the contest's events) reaches the state these objects are in now
        for data in start["characters"]:
            verb = "character_updated" if self._same_object(chars[data["uid"]]) else "character_created"
            payloads.append({"type": verb, "character": data})
        payloads += [{"type": "contest", "contest": contest.uid, "event": e} for e in contest.events]
        events = self._record(payloads, "adopt")
        if current is not None:
            self._state.close_contest(events[0]["summary"])
        self._state.characters.update(chars)
        self._state.adopt_contest(contest)
        contest.event_sink = self._direct_sink(contest)
        contest.param.watch(self._direct_undo, "events")
        self._notify(events)

    def _direct_sink(self, contest: Contest):
        """The event sink of an adopted contest: its direct commands go into the room's log too.

        The room sets its own sink while it runs a command on the contest, so this one sees only
        the commands given on the contest object itself.
        """
        def sink(contest_events: list[dict]) -> None:
            if self._state.contest is not contest:
                raise RuleError(f"{contest.name} is no longer this table's contest: play the table's own.",
                                key="error.room.not_the_contest", name=contest.name)
            with self._lock:
                payloads = [{"type": "contest", "contest": contest.uid, "event": e} for e in contest_events]
                events = self._record(payloads, "contest")
                for event in events:
                    apply_event(self._state, event, live=True)
            # This runs inside the contest's command, before the contest shows its new state: the
            # room shows its own (and tells its subscribers) right after the contest has.
            watcher = None

            def after(*_):
                contest.param.unwatch(watcher)
                self._publish()
                self._notify(events)
            watcher = contest.param.watch(after, "events")
        return sink

    def _direct_undo(self, change) -> None:
        """An adopted contest's own ``undo()`` goes into the room's log as the GM's undo.

        The contest has already taken its last command back; the room writes an ``undone`` event
        for the room command that carried those events, so the log stays the truth.
        """
        contest = change.obj
        if self._undoing or self._state.contest is not contest or len(change.new) >= len(change.old):
            return
        removed = {e["seq"] for e in change.old[len(change.new):]}
        with self._lock:
            carried = [e for e in effective(self._events) if e["type"] == "contest"
                       and e["contest"] == contest.uid and e["event"]["seq"] in removed]
            if not carried:
                return
            target = [e for e in self._events if e["cmd_id"] == carried[-1]["cmd_id"]]
            events = self._record([{"type": "undone", "undone_cmd_id": target[0]["cmd_id"],
                                    "undone_command": target[0]["command"],
                                    "undone_seqs": [e["seq"] for e in target]}], "undo")
            self._state.round_open = round_open_of(effective(self._events))
        self._publish()
        self._notify(events)

    def _undo(self, actor: Actor, command_id: str) -> list[dict]:
        self._undoing = True
        try:
            return super()._undo(actor, command_id)
        finally:
            self._undoing = False
