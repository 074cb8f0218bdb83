"""The shared game room: one table, its characters, its contest and its event log.

Every change goes through :meth:`Room.apply`: authorize the actor, let the rules decide, write the
events to the store (durably), then apply them to the models in one update and tell the
subscribers. The store's event log is the truth; the parameters of a :class:`Room` are its
projection, and :meth:`Room.load` rebuilds exactly the same state from the log.

On a store shared by several server processes (:attr:`~.store.Store.shared`, Redis) each process
holds its own :class:`Room` for a room, and each follows the room's stream: events another process
committed are applied as they arrive (:meth:`Room._heard`), in order, so every page of every
process shows the same table. A command decided on a state another process already moved on from
fails its append (the store checks the sequence number) and is refused with "someone else changed
this room".
"""

from __future__ import annotations

import copy
import json
import logging
import os
import re
import secrets
import threading
import time
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import param

from raisus_panel.rules import Character, CharacterTeam, CommittedDice, Contest, RuleError, RulesProfile
from raisus_panel.rules.dice import DiceSource, new_client_seed
from raisus_panel.rules.validation import clean_name

from .commands import ROOM_TITLE, Command, Context, parse_command
from .errors import OutcomeUnknown, RoomChanged, SequenceConflict, StoreError
from .events import Event, room_event, stamp, undone_event, visible_to
from .permissions import authorize
from .projection import RoomState, apply_event, contest_summary, effective, follow_events, project, round_open_of
from .roles import Actor, PermissionDenied
from .room_dice import RoomDice
from .session import RoomSession
from .sqlite_store import SQLiteStore
from .stale import can_be_undone, check_seen_seq, stale_refusal
from .store import MemoryStore, Store, check_room_id

log = logging.getLogger(__name__)

#: The export file's format tag and version (see :mod:`.transfer`).
ROOM_FORMAT = "raisus_panel/room"
ROOM_FORMAT_VERSION = 1

_COMMAND_ID = re.compile(r"[\x21-\x7e]{1,128}")

Subscriber = Callable[[list[dict[str, Any]]], None]


def new_room_id() -> str:
    """A fresh, unguessable-enough room id (it is not a secret: links carry their own tokens).

    It never begins with ``-``, so a shell command given it (``raisus links ID``) cannot take it for an option.
    """
    while (room_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return room_id


def create_in_store(store: Store, title: str = "Risus", *, room_id: str | None = None,
                    meta: dict[str, Any] | None = None) -> str:
    """Write a new room (its ``room_created`` event) to ``store`` and return its id."""
    room_id = check_room_id(room_id or new_room_id())
    title = clean_name(title, ROOM_TITLE)
    first = stamp(room_event("room_created", title=title), seq=1, cmd_id=uuid.uuid4().hex,
                  command="create_room", actor=Actor.gm())
    store.create_room(room_id, {"title": title, "created": first["ts"], **(meta or {})}, [first])
    return room_id


def _check_key(actor: Actor, name: str, args: object) -> tuple[Any, ...] | None:
    """What :meth:`Room.check` answers depend on besides the state, or None if it cannot be a key."""
    try:
        frozen = json.dumps(args or {}, sort_keys=True)
        return (actor.key, name, frozen)
    except (TypeError, ValueError, AttributeError):
        return None


def _same(old: object, new: object) -> bool:
    """Equal for publishing: objects by identity, data by value (so watchers fire only on change)."""
    if old is new:
        return True
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_same(a, b) for a, b in zip(old, new))
    if isinstance(old, param.Parameterized) or isinstance(new, param.Parameterized):
        return old is new
    return type(old) is type(new) and old == new


def presence_entry(actor: Actor) -> dict[str, Any]:
    """Who a page's person is, as :attr:`Room.presence` holds it (the room adds ``since``, when they came)."""
    return {"role": actor.role.value, "player_id": actor.player_id, "name": actor.name}


class Room(RoomDice, param.Parameterized):
    """One shared table: its characters, the contest in play, past contests, checks and log.

    Everything on the parameters is public: safe to show to any session. What only the GM may see
    (secret rolls) is reachable only through methods that take an :class:`~.roles.Actor`:
    :meth:`visible_events` and :meth:`checks_for`.

    Create a room with :meth:`create`, reopen one with :meth:`load`, or for a notebook use
    :meth:`local`. Change it only with :meth:`apply` (or a :class:`~.session.RoomSession`).

    Examples
    --------
    >>> gm = Room.local("Tavern")
    >>> _ = gm.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    >>> gm.room.characters[0].label
    'Olaf: Viking (4)'
    """

    room_id = param.String(default="", constant=True, doc="""
        The room's id in its store (URL-safe; not a secret -- links carry their own tokens).""")

    title = param.String(default="", doc="""
        The room's title as shown in the lobby and on the room page.""")

    characters = param.List(default=[], item_type=Character, doc="""
        Every character and grunt mob at this table (players' characters and the GM's NPCs), in the
        order they were created. Replaced, never mutated in place; the objects themselves are kept
        (and changed) as the game goes on, so views bound to a character stay bound.""")

    contest = param.ClassSelector(class_=Contest, default=None, allow_None=True, doc="""
        The contest in play -- running, or ended and waiting for fates and recovery -- or None between
        contests. The GM's ``close_contest`` (or the next ``start_contest``) moves it to
        ``past_contests``. It stays the same object while it is the room's contest, an undo included.""")

    past_contests = param.List(default=[], doc="""
        Summaries of the closed contests, oldest first: contest uid, name, sides, winner, outcome,
        rounds and fates. The full contest can be replayed with :meth:`Room.replay_contest`.""")

    checks = param.List(default=[], doc="""
        The action checks rolled in the open (the GM's secret rolls are not here): one dict per
        check with ``seq``, ``character``, the cliché, the dice, the target number and success.""")

    log = param.List(default=[], doc="""
        The room's visible event log: every event but the GM's private ones, in order. Read-only.""")

    seq = param.Integer(default=0, bounds=(0, None), doc="""
        The sequence number of the room's last event (private ones included). A session that has
        seen up to ``n`` catches up with ``visible_events(actor, from_seq=n)``.""")

    players = param.Dict(default={}, doc="""
        The players who joined: player id -> name.""")

    presence = param.Dict(default={}, doc="""
        Who is connected now, through any server process of the room's store: session id ->
        {role, player_id, name, since}. Not in the log: after a restart nobody is connected until
        they come back.""")

    round_open = param.Boolean(default=False, doc="""
        True while the GM lets the players roll the current round (``open_round``). It closes by
        itself when the round is decided, ended, or the contest ends.""")

    profile = param.ClassSelector(class_=RulesProfile, default=RulesProfile(), doc="""
        The table's rules (``set_rules``): action checks, the creation budget and sessions play by
        them, and a contest starts with them unless the GM gives it others. Replaced, never changed
        in place.""")

    session_number = param.Integer(default=1, bounds=(1, None), doc="""
        The game session being played (an evening at the table, not a page's session): 1 until the GM starts a new one (``new_session``, which refills
        lucky shots).""")

    session_ended = param.Boolean(default=False, doc="""
        True once the GM ended the session (``end_session``), until a new one starts.""")

    advancement = param.Dict(default={}, doc="""
        The advancement waiting since the GM last ended a session: character uid -> the clichés it
        may roll for (``roll_advancement``), or ``[]`` for one creation die to invest
        (``invest_advancement``, with ``advancement="points"``).""")

    dice = param.ClassSelector(class_=DiceSource, default=None, allow_None=True, precedence=-1, doc="""
        Where this room's dice come from. None (the default): committed dice -- each contest and
        each session of action checks draws its own secret seed and publishes its commitment before
        its first roll (:class:`~raisus_panel.rules.CommittedDice`), so anyone can verify the game
        afterwards. Events keep the faces, so loading never needs it.""")

    #: How many recent command ids are remembered to make resends harmless.
    RECENT_COMMANDS = 1000

    #: Seconds :meth:`apply` waits for another command of this room to end before refusing (a
    #: healthy store saves a command in milliseconds; one stuck on its store takes seconds).
    APPLY_WAIT = 3.0

    def __init__(self, store: Store, room_id: str, *, dice: DiceSource | None = None, **params: Any) -> None:
        super().__init__(room_id=room_id, dice=dice, **params)  # type: ignore[no-untyped-call]  # Parameterized.__init__ takes **params untyped
        self._store = store
        self._lock = threading.RLock()
        self._subscribers: dict[int, Subscriber] = {}
        self._next_subscriber = 0
        self._events: list[dict[str, Any]] = []
        self._public: list[dict[str, Any]] = []
        self._recent: OrderedDict[str, tuple[tuple[str, str], list[dict[str, Any]]]] = OrderedDict()
        #: the checks sessions' committed dice: public (False) and the GM's secret rolls (True)
        self._check_dice: dict[bool, CommittedDice] = {}
        self._no_secret: set[str] = set()  # commitments whose seed the store does not have
        self._seeds: dict[str, bytes] = {}  # the seeds read from the store: a seed never changes
        self._dice_synced: tuple[Any, ...] | None = None  # (contest, log length) its dice were last synced at
        self._state = RoomState(self.dice, dice_for=self._contest_dice)
        # check()'s answers for the current state: (actor key, command, arguments) -> refusal or None
        self._checked: dict[tuple[Any, ...], RuleError | None] = {}
        self._here: dict[str, dict[str, Any]] = {}  # this process's connected pages (see connect)
        self._follow_presence(store)
        with self._lock:
            if store.shared:  # follow first, so nothing appended between the read and now is missed
                self._follow(store)
            self._reset_log(store.read(room_id))
            self._reproject()
            self._publish()

    def _follow(self, store: Store) -> None:
        """Hear every append to this room in the shared store (other processes' too) until it goes."""
        heard = weakref.WeakMethod(self._heard)

        def deliver(room_id: str, events: list[dict[str, Any]]) -> None:
            method = heard()
            if method is not None:
                method(events)
        weakref.finalize(self, store.subscribe(self.room_id, deliver))

    # ------------------------------------------------------------------------ making rooms --
    @classmethod
    def create(cls, store: Store, title: str = "Risus", *, room_id: str | None = None,
               dice: DiceSource | None = None, meta: dict[str, Any] | None = None) -> "Room":
        """A new, empty room in ``store``.

        Parameters
        ----------
        store
            Where the room's events are kept.
        title
            The room's title.
        room_id
            Its id; a fresh random one when omitted.
        dice
            The dice source (a :class:`~raisus_panel.rules.SeededDice` from the OS when omitted).
        meta
            Extra metadata kept with the room in the store (not part of the game).
        """
        return cls(store, create_in_store(store, title, room_id=room_id, meta=meta), dice=dice)

    @classmethod
    def load(cls, store: Store, room_id: str, *, dice: DiceSource | None = None) -> "Room":
        """Reopen a room by replaying its event log from ``store`` (no dice are needed)."""
        return cls(store, room_id, dice=dice)

    @staticmethod
    def local(title: str = "Risus", *, path: str | os.PathLike[str] | None = None,
              dice: DiceSource | None = None) -> RoomSession:
        """A one-person room for a notebook, as the GM's :class:`~.session.RoomSession`.

        The GM may do everything, so one session plays every role. The room is in memory, or in
        the SQLite file ``path`` (reopened there next time). ``session.room`` is the room.
        """
        return LocalRoom(title, path=path, dice=dice).session

    @property
    def store(self) -> Store:
        """The store this room writes to."""
        return self._store

    # --------------------------------------------------------------------------- commands --
    def apply(self, actor: Actor, name: str, args: dict[str, Any] | None = None,
              command_id: str | None = None, seen_seq: int | None = None) -> list[dict[str, Any]]:
        """Run one command for ``actor`` and return the events it made.

        Parameters
        ----------
        actor
            Who asks (their role decides what they may do).
        name
            The command, e.g. ``"create_character"``, ``"roll_round"`` (see :mod:`.commands`).
        args
            The command's arguments; characters, units and teams are named by their uid.
        command_id
            An id for this request. Sending the same id again (a double click, a resend after a lost
            answer) returns the first answer's events without applying anything again.
        seen_seq
            The room's :attr:`seq` as the person's page showed it when they clicked: the state the
            command was decided on. A state-bound command (``roll_round``, ``undo``, ...: see
            :mod:`.stale`) is refused if the room moved on since then in a way that matters to it.
            None means the state the command meets (a script, a notebook cell).

        Returns
        -------
        list of dict
            The new room events, already durable in the store.

        Raises
        ------
        PermissionDenied
            The actor's role does not allow it. Nothing changed.
        StaleCommand
            It was decided on an older state (someone rolled that round already, ...). Nothing changed.
        RuleError
            The rules refuse it, or the store could not save it. Nothing changed.
        """
        command_id = self._command_id(command_id)
        if not self._lock.acquire(timeout=self.APPLY_WAIT):
            # Another command holds the room, waiting on its store (a paused or cut-off Redis: seconds).
            # Queued behind it, this one would be decided long after the click, on a table the person
            # no longer sees: refuse it now, having changed nothing, and say why.
            raise StoreError("The room is still saving an earlier move: nothing was changed. Try again in "
                             "a moment.", key="error.room.busy")
        try:
            command = parse_command(name, args, self._state)
            if command_id in self._recent:
                who, events = self._recent[command_id]
                if not isinstance(actor, Actor) or who != actor.key:
                    raise RuleError("That command id was already used by someone else: send a new one.",
                                    key="error.room.command_id_taken")
                return copy.deepcopy(events)
            # before the role check: "round 3 was already rolled by Ann" explains a refusal better
            # than "the round is closed", and it names only what the actor may see
            stale = stale_refusal(self._events, actor, command, check_seen_seq(seen_seq, len(self._events)),
                                  self._state.players) if isinstance(actor, Actor) else None
            if stale is not None:
                raise stale
            authorize(self._state, actor, command)
            try:
                if command.spec.is_undo:
                    events = self._undo(actor, command_id)
                elif command.runs_on_contest(self._state):
                    events = self._run_contest(actor, command, command_id)
                else:
                    events = self._run_planned(actor, command, command_id)
            except SequenceConflict:
                self.refresh()
                raise RoomChanged("Someone else changed this room at the same moment; it has been "
                                  "refreshed. Check the table and try again.", key="error.room.changed") from None
            self._publish()
            self._notify(events)
            return copy.deepcopy(events)
        finally:
            self._lock.release()

    # ------------------------------------------------------------- an outcome not known yet --
    #: Seconds between looks at the log for a command whose answer was lost, and the longest wait.
    SETTLE_EVERY, SETTLE_AT_MOST = 0.5, 120.0

    def settle(self, unknown: OutcomeUnknown, callback: Callable[[bool | None], None]) -> None:
        """Learn from the log whether the command whose store answer was lost (``unknown``, raised by
        :meth:`apply`) was saved, and call ``callback(saved)`` once: True (it was, and the room shows
        it), False (it was not and never will be: it may be given again), None (the store did not
        answer for :attr:`SETTLE_AT_MOST` seconds). Runs on a thread of its own; ``callback`` must
        only schedule its page's change, as room subscribers do.
        """
        def run() -> None:
            deadline = time.monotonic() + self.SETTLE_AT_MOST
            saved = None
            while time.monotonic() < deadline:
                try:
                    saved = self._store.outcome(unknown)
                except StoreError:
                    saved = None
                if saved is not None:
                    break
                time.sleep(self.SETTLE_EVERY)
            if saved:  # the room follows its log: the events arrive by the store's own path
                last = unknown.events[-1]["seq"]
                while self.seq < last and time.monotonic() < deadline:
                    try:
                        self._heard(self._store.read(self.room_id, self.seq))
                    except StoreError:
                        pass
                    if self.seq < last:
                        time.sleep(self.SETTLE_EVERY)
            try:
                callback(saved)
            except Exception:
                log.exception("a command's outcome could not be shown")
        threading.Thread(target=run, name=f"raisus-settle-{self.room_id}", daemon=True).start()

    #: Seconds :meth:`check` waits for a command to end before answering from the state shown.
    CHECK_WAIT = 0.05

    def check(self, actor: Actor, name: str, args: dict[str, Any] | None = None) -> None:
        """Raise what :meth:`apply` would raise before rolling, without changing anything.

        Checks the arguments and the actor's permission, then runs the command's plan without
        writing it (room commands) or asks the contest (:meth:`Contest.why_not`, which uses no
        real dice) for contest commands.
        """
        key = _check_key(actor, name, args)
        if not self._lock.acquire(timeout=self.CHECK_WAIT):
            # A command holds the room, waiting on its store (a paused Redis: seconds). A served page
            # asks on the event loop every page shares: answer from the state shown until the command
            # ends (then every page asks again), and "looks allowed" where that was not asked -- apply()
            # decides anyway.
            refusal = self._checked.get(key) if key is not None else None
        else:
            try:
                if key is not None and key in self._checked:
                    refusal = self._checked[key]
                else:
                    refusal = self._dry_run(actor, name, args)
                    if key is not None:
                        self._checked[key] = refusal
            finally:
                self._lock.release()
        if refusal is not None:
            raise refusal

    def _dry_run(self, actor: Actor, name: str, args: dict[str, Any] | None) -> RuleError | None:
        try:
            command = parse_command(name, args, self._state)
            authorize(self._state, actor, command)
            spec = command.spec
            if spec.is_undo:
                self._undo_target()
            elif command.runs_on_contest(self._state):
                assert spec.contest is not None
                method, pos, kw = spec.contest(self._state, actor, command.args)
                contest = self._state.contest
                assert contest is not None  # the step found it
                self._sync_contest_dice(contest)  # a client seed is judged on the dice in force
                refusal = contest.why_not_error(method, *pos, **kw)
                if refusal is not None:
                    return refusal
            else:
                assert spec.plan is not None
                spec.plan(self._state, actor, command.args,
                          Context(dice=self.dice, dry=True, pending=self._unrevealed_checks))
        except RuleError as exc:
            return exc.with_traceback(None)
        return None

    def _command_id(self, command_id: object) -> str:
        if command_id is None:
            return uuid.uuid4().hex
        if not isinstance(command_id, str) or not _COMMAND_ID.fullmatch(command_id):
            raise RuleError("A command id is 1-128 visible ASCII characters.", key="error.room.bad_command_id")
        return command_id

    def _write(self, payloads: list[Event], actor: Actor, command: str, command_id: str) -> list[Event]:
        """The one way into the log: number the payloads as ``command``'s events, make them durable in
        the store, then keep them (and the command id, so a resend is harmless). Raises, changing
        nothing, if the store refuses."""
        first = len(self._events) + 1
        events = [stamp(p, seq=first + i, cmd_id=command_id, command=command, actor=actor)
                  for i, p in enumerate(payloads)]
        self._commit(events)
        self._log(events)
        self._remember(command_id, actor, events)
        return events

    def _commit(self, events: list[Event]) -> None:
        """Write the events to the store (durable when it returns); raise and change nothing if not."""
        if events:
            self._store.append(self.room_id, events)

    def _run_planned(self, actor: Actor, command: Command[Any], command_id: str) -> list[Event]:
        spec = command.spec
        assert spec.plan is not None
        dice, keep = self.dice, None
        before: list[Event] = []
        secret = command.args.in_secret
        if self.dice is None and spec.dice == "contest":
            # committed dice of its own: every player's client seed random until they set theirs
            dice = keep = CommittedDice(client_seeds={pid: new_client_seed() for pid in self._state.players})
        elif self.dice is None and spec.dice == "checks":
            dice, before = self._checks_dice(secret)
            keep = dice if before else None
        payloads = before + spec.plan(self._state, actor, command.args,
                                      Context(dice=dice, pending=self._unrevealed_checks))
        if keep is not None:
            self._keep_secret(keep)  # durable before its commitment is
        events = self._write(payloads, actor, command.name, command_id)
        if spec.dice == "checks" and isinstance(dice, CommittedDice) and self.dice is None:
            self._check_dice[secret] = dice
        for event in events:
            if event["type"] == "dice_revealed":
                for mine in self._check_dice.values():
                    if mine.commitment == event["commitment"]:
                        mine.reveal()
            apply_event(self._state, event, live=True)
        return events

    def _run_contest(self, actor: Actor, command: Command[Any], command_id: str) -> list[Event]:
        assert command.spec.contest is not None
        method, pos, kw = command.spec.contest(self._state, actor, command.args)
        contest = self._state.contest
        assert contest is not None  # the step found it
        self._sync_contest_dice(contest)
        written: list[Event] = []

        def sink(contest_events: list[Event]) -> None:
            # Runs inside the contest's command, after it applied the events and before it returns:
            # if the store refuses, the contest rolls the command back and re-raises.
            if self.dice is None and any(e["type"] == "dice_committed" for e in contest_events):
                assert isinstance(contest.dice, CommittedDice)
                self._keep_secret(contest.dice)  # a renewed seed: durable before its commitment is
            written.extend(self._write([room_event("contest", contest=contest.uid, event=e) for e in contest_events],
                                       actor, command.name, command_id))

        outer, contest.event_sink = contest.event_sink, sink
        try:
            getattr(contest, method)(*pos, **kw)
        finally:
            contest.event_sink = outer  # an adopted contest keeps the sink of its direct commands
        for event in written:
            apply_event(self._state, event, live=True)
        return written

    # ------------------------------------------------------------------------------- undo --
    def _undo_target(self) -> list[Event]:
        """The events of the last command that undo would take back; RuleError if there is none."""
        alive = effective(self._events)
        for i in range(len(alive) - 1, -1, -1):
            if can_be_undone(alive[i]):
                cmd = alive[i]["cmd_id"]
                return [e for e in alive if e["cmd_id"] == cmd]
        raise RuleError("Nothing to undo.", key="error.room.nothing_to_undo")

    def _undo(self, actor: Actor, command_id: str) -> list[Event]:
        target = self._undo_target()
        events = self._write([undone_event(target)], actor, "undo", command_id)
        contest = self._state.contest
        in_place = (contest is not None and all(e["type"] == "contest" and e["contest"] == contest.uid
                                                and e["event"]["type"] != "contest_started" for e in target)
                    # the contest's own last command (a client seed after it is never undone)
                    and target[-1]["event"]["seq"] == contest.events[-1]["seq"])
        if in_place:  # a contest command: the contest takes it back itself, keeping its objects
            assert contest is not None
            try:
                contest.undo()
                self._state.round_open = round_open_of(effective(self._events))
                return events
            except RuleError:  # pragma: no cover - should not happen; the log is the truth anyway
                log.exception("contest undo failed; re-projecting the room")
        self._reproject()
        return events

    # ------------------------------------------------------------------------- projection --
    def _reset_log(self, events: list[dict[str, Any]]) -> None:
        self._events = list(events)
        self._public = [e for e in self._events if not e["private"]]
        self._recent.clear()
        for event in self._events:
            self._recall(event)

    def _recall(self, event: dict[str, Any]) -> None:
        """Remember the command an event of the log belongs to, so a resend of it is harmless."""
        if event["cmd_id"] in self._recent:
            self._recent[event["cmd_id"]][1].append(event)
        else:
            key = (event["actor"]["role"], event["actor"]["player_id"])
            self._recent[event["cmd_id"]] = (key, [event])
            self._trim_recent()

    def _log(self, events: list[dict[str, Any]]) -> None:
        self._events.extend(events)
        self._public.extend(e for e in events if not e["private"])

    def _remember(self, command_id: str, actor: Actor, events: list[Event]) -> None:
        if not events:
            return
        kept = self._recent.get(command_id)
        if kept is not None:  # a contest command written in more than one step
            kept[1].extend(events)
        else:
            self._recent[command_id] = (actor.key, list(events))
            self._trim_recent()

    def _trim_recent(self) -> None:
        while len(self._recent) > self.RECENT_COMMANDS:
            self._recent.popitem(last=False)

    def _reproject(self) -> None:
        """Rebuild the state from the whole log, reusing the character objects views are bound to."""
        current = self._state.built_contest
        self._state = project(self._events, dice=self.dice, pool=dict(self._state.characters),
                              contests=[current] if current is not None else [], dice_for=self._contest_dice)

    def _heard(self, events: list[dict[str, Any]]) -> None:
        """Apply the events another process committed (the store's listener thread calls this).

        This process's own appends are heard too, and skipped: they were applied when committed.
        After a gap (the listener missed some), the rest is read from the store.
        """
        with self._lock:
            known = len(self._events)
            new = [e for e in events if e["seq"] > known]
            if not new:
                return
            if new[0]["seq"] != known + 1:
                new = self._store.read(self.room_id, from_seq=known)
            self._log(new)
            for event in new:
                self._recall(event)
            if any(e["type"] == "undone" for e in new):
                self._reproject()
            else:
                try:
                    follow_events(self._state, new)
                except RuleError:  # pragma: no cover - the log is the truth: build it all again
                    log.exception("following room %s failed; re-projecting it", self.room_id)
                    self._reproject()
            self._publish()
            self._notify(new)

    def refresh(self) -> None:
        """Re-read the log from the store and rebuild the state (after another process wrote to it)."""
        with self._lock:
            self._reset_log(self._store.read(self.room_id))
            self._reproject()
            self._publish()

    def _publish(self) -> None:
        """Project the state onto the parameters in one update; only what changed, so watchers fire once."""
        self._checked.clear()  # the answers were for the state before
        state = self._state
        values = {
            "title": state.title, "characters": list(state.characters.values()), "contest": state.contest,
            "past_contests": list(state.past), "checks": [c for c in state.checks if not c["private"]],
            "log": list(self._public), "seq": len(self._events), "players": dict(state.players),
            "round_open": state.round_open, "profile": state.profile, "session_number": state.session,
            "session_ended": state.session_ended,
            "advancement": {uid: list(names) for uid, names in state.advancement.items()},
        }
        changes = {k: v for k, v in values.items() if not _same(getattr(self, k), v)}
        if changes:
            self.param.update(**changes)

    # ----------------------------------------------------------------------------- reading --
    def visible_events(self, actor: Actor, from_seq: int = 0) -> list[dict[str, Any]]:
        """The events after sequence number ``from_seq`` that ``actor`` may see (copies).

        The GM sees every event; players and spectators never receive the GM's private ones, so
        their sequence numbers may skip. Build a session's view from these (or from the public
        parameters), never from the room's internals.
        """
        # No lock: a command may hold the room for seconds while its store does not answer, and pages
        # read this on the event loop. An event enters the log once durable and never changes after;
        # a slice of the log (or of the checks) is taken in one step.
        events = self._events[max(0, from_seq):]
        return copy.deepcopy([e for e in events if visible_to(actor, e)])

    def checks_for(self, actor: Actor) -> list[dict[str, Any]]:
        """The action checks ``actor`` may see: all for the GM, the open ones for everyone else."""
        checks = self._state.checks[:]  # no lock, as visible_events: a check is kept once durable
        return copy.deepcopy([c for c in checks if visible_to(actor, c)])

    def snapshot(self, actor: Actor) -> dict[str, Any]:
        """The room's whole state as ``actor`` may see it, as JSON-ready data (for tests and debugging)."""
        with self._lock:
            contest = self._state.contest
            data = contest and {
                "uid": contest.uid, "name": contest.name, "status": contest.status, "round": contest.round,
                "winner": contest.winner, "outcome": contest.outcome, "single_roll": contest.single_roll,
                "sides": [[u.uid for u in side] for side in contest.sides],
                "owed_fates": list(contest.owed_fates), "fates": dict(contest.fates),
                "events": contest.events, "history": contest.history, "series": contest.series,
                "last_roll": contest.last_roll, "volunteer_window": contest.volunteer_window,
            }
            snap = {"room_id": self.room_id, "title": self._state.title, "seq": len(self._events),
                    "players": self._state.players, "round_open": self._state.round_open,
                    "characters": [c.to_dict() for c in self._state.characters.values()],
                    "contest": data, "past_contests": self._state.past, "checks": self.checks_for(actor)}
            result: dict[str, Any] = json.loads(json.dumps(snap))
            return result

    def replay_contest(self, contest_uid: str) -> Contest:
        """A closed (or the current) contest rebuilt from the log, on copies of its characters.

        For looking back (charts, logs); it shares nothing with the room and cannot change it.
        """
        events = [e["event"] for e in effective(self._events[:])  # no lock, as visible_events
                  if e["type"] == "contest" and e["contest"] == contest_uid]
        if not events:
            raise RuleError(f"There is no contest {contest_uid!r} in this room.", key="error.room.no_such_contest",
                            uid=repr(contest_uid))
        return Contest.from_events(events)

    def export_json(self, actor: Actor | None = None) -> str:
        """The whole room as a file: every event (private ones too) with a format tag and version.

        ``actor``, when given, must be the GM (only the GM may take the whole room away).
        Load it elsewhere with :func:`~.transfer.import_room`.
        """
        if actor is not None and not actor.is_gm:
            raise PermissionDenied("Only the GM can export the room.", key="error.permission.export")
        with self._lock:
            data = {"format": ROOM_FORMAT, "version": ROOM_FORMAT_VERSION, "room_id": self.room_id,
                    "title": self._state.title, "exported_at": round(time.time(), 3),
                    "events": self._events}
            return json.dumps(data, ensure_ascii=False, indent=1)

    # ------------------------------------------------------------------- fan-out, presence --
    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(events)`` after each committed command; returns the unsubscribe function.

        Callbacks run on the commanding thread, in commit order, while the room is locked: they must
        be quick and must not wait for another thread (a Panel session schedules its update with
        ``add_next_tick_callback``). They receive *all* events, private ones included: a session
        subscribes through :meth:`~.session.RoomSession.subscribe`, which filters them. An exception
        in a callback is logged and does not undo the command.
        """
        with self._lock:
            self._next_subscriber += 1
            key = self._next_subscriber
            self._subscribers[key] = callback

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers.pop(key, None)
        return unsubscribe

    @property
    def subscriber_count(self) -> int:
        """How many callbacks are subscribed now (to check closed sessions unsubscribed)."""
        return len(self._subscribers)

    def _notify(self, events: list[dict[str, Any]]) -> None:
        if not events:
            return
        for callback in list(self._subscribers.values()):
            try:
                callback(copy.deepcopy(events))
            except Exception:  # one broken session must not break the table
                log.exception("a room subscriber failed")

    def connect(self, actor: Actor, session_id: str) -> None:
        """Mark a session as present (anyone may, spectators included). Not an event: not saved.

        Presence is the room's, not this process's: it is kept in the store, where every process of
        a shared store sees it (:meth:`Store.note_presence`). While the store cannot be reached,
        this process's own pages are still shown.
        """
        if not isinstance(actor, Actor):
            raise PermissionDenied("A room session needs an Actor.", key="error.room.session_actor")
        entry = {**presence_entry(actor), "since": round(time.time(), 3)}
        with self._lock:
            self._here = {**self._here, str(session_id): entry}
        try:
            self._store.note_presence(self.room_id, str(session_id), entry)
        except StoreError:
            log.warning("room %s: the store could not note a page's presence", self.room_id)
        self._show_presence()

    def disconnect(self, session_id: str) -> None:
        """Forget a session's presence (calling it twice is harmless)."""
        with self._lock:
            if str(session_id) not in self._here:
                return
            self._here = {k: v for k, v in self._here.items() if k != str(session_id)}
        try:
            self._store.forget_presence(self.room_id, str(session_id))
        except StoreError:  # its entry expires by itself, not renewed any more
            log.warning("room %s: the store could not forget a page's presence", self.room_id)
        self._show_presence()

    def _show_presence(self) -> None:
        """Set :attr:`presence` to who is here through any process (the store's), with this process's pages."""
        try:
            shared = self._store.present(self.room_id)
        except StoreError:
            shared = {}
        with self._lock:
            present = {**shared, **self._here}
            if present != self.presence:
                self.presence = present

    def _follow_presence(self, store: Store) -> None:
        """Re-read who is here whenever the store says it may have changed (another process's page)."""
        show = weakref.WeakMethod(self._show_presence)

        def changed() -> None:
            method = show()
            if method is not None:
                method()
        weakref.finalize(self, store.on_presence(self.room_id, changed))

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.room_id!r}, title={self._state.title!r}, seq={len(self._events)}, "
                f"characters={len(self._state.characters)}, contest={'yes' if self._state.contest else 'no'})")


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

    def __init__(self, title: str = "Risus", *, path: str | os.PathLike[str] | None = None,
                 dice: DiceSource | None = None) -> None:
        self._undoing = False  # the room's own undo is taking a contest command back
        store = SQLiteStore(path) if path is not None else MemoryStore()
        rooms = store.list_rooms()
        room_id = rooms[0] if rooms else create_in_store(store, title)
        super().__init__(store, room_id, dice=dice)
        #: The GM's session: what a notebook acts through.
        self.session = RoomSession(self, Actor.gm())

    def act(self, command: str, /, command_id: str | None = None, seen_seq: int | None = None,
            **args: object) -> list[dict[str, Any]]:
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

    def _record(self, payloads: list[Event], command: str) -> list[Event]:
        """Write ``payloads`` as the GM's command ``command`` (``adopt``, ``contest``, ``undo``)."""
        return self._write(payloads, self.session.actor, command, uuid.uuid4().hex)

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
        events = self._record([room_event("character_created", character=char.to_dict())], "adopt")
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
            payloads.append(room_event("contest_closed", contest=current.uid, summary=contest_summary(current)))
        # the characters as they were when the contest started, so that a replay of the log (create,
        # then the contest's events) reaches the state these objects are in now
        for data in start["characters"]:
            verb = "character_updated" if self._same_object(chars[data["uid"]]) else "character_created"
            payloads.append(room_event(verb, character=data))
        payloads += [room_event("contest", contest=contest.uid, event=e) for e in contest.events]
        if isinstance(contest.dice, CommittedDice) and not contest.dice.revealed:
            # its seed, durable before the log holds its commitment: else the first roll renews the
            # dice, and a card that showed this commitment showed dice never rolled
            self._keep_secret(contest.dice)
        events = self._record(payloads, "adopt")
        if current is not None:
            self._state.close_contest(events[0]["summary"])
        self._state.characters.update(chars)
        self._state.adopt_contest(contest)
        contest.event_sink = self._direct_sink(contest)
        contest.param.watch(self._direct_undo, "events")
        self._notify(events)

    def _direct_sink(self, contest: Contest) -> Callable[[list[Event]], None]:
        """The event sink of an adopted contest: its direct commands go into the room's log too.

        The room sets its own sink while it runs a command on the contest, so this one sees only
        the commands given on the contest object itself.
        """
        def sink(contest_events: list[dict[str, Any]]) -> None:
            if self._state.contest is not contest:
                raise RuleError(f"{contest.name} is no longer this table's contest: play the table's own.",
                                key="error.room.not_the_contest", name=contest.name)
            with self._lock:
                payloads = [room_event("contest", contest=contest.uid, event=e) for e in contest_events]
                events = self._record(payloads, "contest")
                for event in events:
                    apply_event(self._state, event, live=True)
            # This runs inside the contest's command, before the contest shows its new state: the
            # room shows its own (and tells its subscribers) right after the contest has.
            watcher: param.parameterized.Watcher | None = None

            def after(*_: object) -> None:
                if watcher is not None:
                    contest.param.unwatch(watcher)
                self._publish()
                self._notify(events)
            watcher = contest.param.watch(after, "events")
        return sink

    def _direct_undo(self, change: param.parameterized.Event) -> None:
        """An adopted contest's own ``undo()`` goes into the room's log as the GM's undo.

        The contest has already taken its last command back; the room writes an ``undone`` event
        for the room command that carried those events, so the log stays the truth.
        """
        contest = change.obj
        if self._undoing or not isinstance(contest, Contest) or self._state.contest is not contest \
                or len(change.new) >= len(change.old):
            return
        removed = {e["seq"] for e in change.old[len(change.new):]}
        with self._lock:
            carried = [e for e in effective(self._events) if e["type"] == "contest"
                       and e["contest"] == contest.uid and e["event"]["seq"] in removed]
            if not carried:
                return
            target = [e for e in self._events if e["cmd_id"] == carried[-1]["cmd_id"]]
            events = self._record([undone_event(target)], "undo")
            self._state.round_open = round_open_of(effective(self._events))
        self._publish()
        self._notify(events)

    def _undo(self, actor: Actor, command_id: str) -> list[dict[str, Any]]:
        self._undoing = True
        try:
            return super()._undo(actor, command_id)
        finally:
            self._undoing = False
