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
import re
import secrets
import threading
import time
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable

import param

from raisus_panel.rules import Character, CommittedDice, Contest, RuleError
from raisus_panel.rules.commitment import SCHEME, next_roll_after
from raisus_panel.rules.dice import DiceSource, new_client_seed
from raisus_panel.rules.validation import clean_name

from .commands import ROOM_PLANS, ROOM_TITLE, check_arguments, prepare_contest_command, runs_on_contest
from .errors import OutcomeUnknown, RoomChanged, SequenceConflict, StoreError
from .events import stamp, visible_to
from .permissions import authorize
from .projection import RoomState, apply_event, effective, follow_events, project, round_open_of
from .roles import Actor, PermissionDenied
from .stale import NOT_UNDONE, NOT_UNDONE_COMMANDS, check_seen_seq, stale_refusal
from .store import Store, check_room_id

log = logging.getLogger(__name__)

#: The export file's format tag and version (see :mod:`.transfer`).
ROOM_FORMAT = "raisus_panel/room"
ROOM_FORMAT_VERSION = 1

_COMMAND_ID = re.compile(r"[\x21-\x7e]{1,128}")

Subscriber = Callable[[list[dict]], None]


def new_room_id() -> str:
    """A fresh, unguessable-enough room id (it is not a secret: links carry their own tokens)."""
    return secrets.token_urlsafe(9)


def create_in_store(store: Store, title: str = "Risus", *, room_id: str | None = None,
                    meta: dict | None = None) -> str:
    """Write a new room (its ``room_created`` event) to ``store`` and return its id."""
    room_id = check_room_id(room_id or new_room_id())
    title = clean_name(title, ROOM_TITLE)
    first = stamp({"type": "room_created", "title": title}, seq=1, cmd_id=uuid.uuid4().hex,
                  command="create_room", actor=Actor.gm())
    store.create_room(room_id, {"title": title, "created": first["ts"], **(meta or {})}, [first])
    return room_id


def _check_key(actor, name, args) -> tuple | None:
    """What :meth:`Room.check` answers depend on besides the state, or None if it cannot be a key."""
    try:
        frozen = json.dumps(args or {}, sort_keys=True)
        return (actor.key, name, frozen)
    except (TypeError, ValueError, AttributeError):
        return None


def _same(old, new) -> bool:
    """Equal for publishing: objects by identity, data by value (so watchers fire only on change)."""
    if old is new:
        return True
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_same(a, b) for a, b in zip(old, new))
    if isinstance(old, param.Parameterized) or isinstance(new, param.Parameterized):
        return old is new
    return type(old) is type(new) and old == new


class Room(param.Parameterized):
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

    dice = param.ClassSelector(class_=DiceSource, default=None, allow_None=True, precedence=-1, doc="""
        Where this room's dice come from. None (the default): committed dice -- each contest and
        each session of action checks draws its own secret seed and publishes its commitment before
        its first roll (:class:`~raisus_panel.rules.CommittedDice`), so anyone can verify the game
        afterwards. Events keep the faces, so loading never needs it.""")

    #: How many recent command ids are remembered to make resends harmless.
    RECENT_COMMANDS = 1000

    def __init__(self, store: Store, room_id: str, *, dice: DiceSource | None = None, **params):
        super().__init__(room_id=room_id, dice=dice, **params)
        self._store = store
        self._lock = threading.RLock()
        self._subscribers: dict[int, Subscriber] = {}
        self._next_subscriber = 0
        self._events: list[dict] = []
        self._public: list[dict] = []
        self._recent: OrderedDict[str, tuple[tuple[str, str], list[dict]]] = OrderedDict()
        #: the checks sessions' committed dice: public (False) and the GM's secret rolls (True)
        self._check_dice: dict[bool, CommittedDice] = {}
        self._no_secret: set[str] = set()  # commitments whose seed the store does not have
        self._seeds: dict[str, bytes] = {}  # the seeds read from the store: a seed never changes
        self._dice_synced: tuple | None = None  # (contest, log length) its dice were last synced at
        self._state = RoomState(self.dice, dice_for=self._contest_dice)
        # check()'s answers for the current state: (actor key, command, arguments) -> refusal or None
        self._checked: dict[tuple, RuleError | None] = {}
        self._here: dict[str, dict] = {}  # this process's connected pages (see connect)
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

        def deliver(room_id: str, events: list[dict]) -> None:
            method = heard()
            if method is not None:
                method(events)
        weakref.finalize(self, store.subscribe(self.room_id, deliver))

    # ------------------------------------------------------------------------ making rooms --
    @classmethod
    def create(cls, store: Store, title: str = "Risus", *, room_id: str | None = None,
               dice: DiceSource | None = None, meta: dict | None = None) -> "Room":
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
    def local(title: str = "Risus", *, path=None, dice: DiceSource | None = None):
        """A one-person room for a notebook, as the GM's :class:`~.session.RoomSession`.

        The GM may do everything, so one session plays every role. The room is in memory, or in
        the SQLite file ``path`` (reopened there next time). ``session.room`` is the room.
        """
        from .session import LocalRoom
        return LocalRoom(title, path=path, dice=dice).session

    @property
    def store(self) -> Store:
        """The store this room writes to."""
        return self._store

    # --------------------------------------------------------------------------- commands --
    def apply(self, actor: Actor, name: str, args: dict | None = None,
              command_id: str | None = None, seen_seq: int | None = None) -> list[dict]:
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
        with self._lock:
            name, args = check_arguments(name, args, self._state)
            if command_id in self._recent:
                who, events = self._recent[command_id]
                if not isinstance(actor, Actor) or who != actor.key:
                    raise RuleError("That command id was already used by someone else: send a new one.",
                                    key="error.room.command_id_taken")
                return copy.deepcopy(events)
            # before the role check: "round 3 was already rolled by Ann" explains a refusal better
            # than "the round is closed", and it names only what the actor may see
            stale = stale_refusal(self._events, actor, name, check_seen_seq(seen_seq, len(self._events)),
                                  self._state.players) if isinstance(actor, Actor) else None
            if stale is not None:
                raise stale
            authorize(self._state, actor, name, args)
            try:
                if name == "undo":
                    events = self._undo(actor, command_id)
                elif runs_on_contest(self._state, name, args):
                    events = self._run_contest(actor, name, args, command_id)
                else:
                    events = self._run_planned(actor, name, args, command_id)
            except SequenceConflict:
                self.refresh()
                raise RoomChanged("Someone else changed this room at the same moment; it has been "
                                  "refreshed. Check the table and try again.", key="error.room.changed") from None
            self._remember(command_id, actor, events)
            self._publish()
            self._notify(events)
            return copy.deepcopy(events)

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

    def check(self, actor: Actor, name: str, args: dict | None = None) -> None:
        """Raise what :meth:`apply` would raise before rolling, without changing anything.

        Checks the arguments and the actor's permission, then runs the command's plan without
        writing it (room commands) or asks the contest (:meth:`Contest.why_not`, which uses no
        real dice) for contest commands.
        """
        with self._lock:
            key = _check_key(actor, name, args)
            if key is not None and key in self._checked:
                refusal = self._checked[key]
            else:
                refusal = self._dry_run(actor, name, args)
                if key is not None:
                    self._checked[key] = refusal
            if refusal is not None:
                raise refusal

    def _dry_run(self, actor: Actor, name: str, args: dict | None) -> RuleError | None:
        try:
            name, args = check_arguments(name, args, self._state)
            authorize(self._state, actor, name, args)
            if name == "undo":
                self._undo_target()
            elif runs_on_contest(self._state, name, args):
                method, pos, kw = prepare_contest_command(self._state, name, args, actor)
                self._sync_contest_dice(self._state.contest)  # a client seed is judged on the dice in force
                refusal = self._state.contest.why_not_error(method, *pos, **kw)
                if refusal is not None:
                    return refusal
            else:
                ROOM_PLANS[name](self._state, actor, args, dice=self.dice, dry=True,
                                 pending=self._unrevealed_checks() if name == "reveal_checks" else None)
        except RuleError as exc:
            return exc.with_traceback(None)
        return None

    def _command_id(self, command_id) -> str:
        if command_id is None:
            return uuid.uuid4().hex
        if not isinstance(command_id, str) or not _COMMAND_ID.fullmatch(command_id):
            raise RuleError("A command id is 1-128 visible ASCII characters.", key="error.room.bad_command_id")
        return command_id

    def _stamp_all(self, payloads: list[dict], actor: Actor, name: str, command_id: str) -> list[dict]:
        first = len(self._events) + 1
        return [stamp(p, seq=first + i, cmd_id=command_id, command=name, actor=actor)
                for i, p in enumerate(payloads)]

    def _commit(self, events: list[dict]) -> None:
        """Write the events to the store (durable when it returns); raise and change nothing if not."""
        if events:
            self._store.append(self.room_id, events)

    def _run_planned(self, actor: Actor, name: str, args: dict, command_id: str) -> list[dict]:
        dice, before, keep = self.dice, [], None
        if self.dice is None and name == "start_contest":
            # committed dice of its own: every player's client seed random until they set theirs
            dice = keep = CommittedDice(client_seeds={pid: new_client_seed() for pid in self._state.players})
        elif self.dice is None and name == "action_check":
            dice, before = self._checks_dice(args.get("private") is True)
            keep = dice if before else None
        payloads = before + ROOM_PLANS[name](self._state, actor, args, dice=dice, pending=self._unrevealed_checks())
        events = self._stamp_all(payloads, actor, name, command_id)
        if keep is not None:
            self._keep_secret(keep)  # durable before its commitment is
        self._commit(events)
        if name == "action_check" and self.dice is None:
            self._check_dice[args.get("private") is True] = dice
        for event in events:
            if event["type"] == "dice_revealed":
                for mine in self._check_dice.values():
                    if mine.commitment == event["commitment"]:
                        mine.reveal()
            apply_event(self._state, event, live=True)
        self._log(events)
        return events

    # ---------------------------------------------------------------------- committed dice --
    #: Where a room keeps the secret seeds of its commitments: its store's metadata, never its log.
    SECRETS = "dice_secrets"

    def _keep_secret(self, dice: CommittedDice) -> None:
        commitment, seed = dice.commitment, dice.secret()
        self._store.update_meta(self.room_id, lambda meta: {
            **meta, self.SECRETS: {**meta.get(self.SECRETS, {}), commitment: seed}})

    def _secret(self, commitment: str) -> bytes | None:
        if commitment in self._seeds:
            return self._seeds[commitment]
        if commitment in self._no_secret:
            return None
        try:
            seed = bytes.fromhex(self._store.room_meta(self.room_id).get(self.SECRETS, {}).get(commitment, ""))
        except (ValueError, TypeError, AttributeError):
            return None
        if not seed:
            self._no_secret.add(commitment)  # an imported room: do not ask the store again
            return None
        self._seeds[commitment] = seed
        return seed

    def _contest_dice(self, contest_events: list[dict]) -> CommittedDice:
        """The dice of a contest rebuilt from its events: those of the last commitment its log made.

        The room's log holds every event, those an undo took back too: the dice went on with the
        last commitment it made even when an undo took that back, so the contest (which sees only
        what is in force) renews them before its next roll, and a verifier reading the log in order
        finds each roll under the commitment it was drawn from. A seed the log revealed, even in
        an event taken back since, rolls no more. The roll counter goes on after every roll the log
        holds. Without the seed (a room imported from a file) the contest commits to a new one first.
        """
        every = self._contest_log(contest_events[0]["contest"])
        after = next_roll_after(every)
        last = next((e for e in reversed(every) if e["type"] == "dice_committed"), None)
        seed = last and self._secret(last["commitment"])
        if not seed:
            return CommittedDice(first_roll=after)
        seeds = dict(last["client_seeds"])
        for event in every[every.index(last):]:
            if event["type"] == "client_seed_set":
                seeds[event["who"]] = event["seed"]
        dice = CommittedDice(seed, scope=last["scope"], client_seeds=seeds, first_roll=last["first_roll"])
        dice.next_roll = max(after, dice.first_roll)
        if any(e["type"] == "dice_revealed" and e["commitment"] == last["commitment"] for e in every):
            dice.reveal()
        return dice

    def _contest_log(self, uid: str) -> list[dict]:
        """A contest's events as the room's log holds them, those an undo took back included."""
        return [e["event"] for e in self._events if e["type"] == "contest" and e["contest"] == uid]

    def _sync_contest_dice(self, contest: Contest) -> None:
        """Before a contest command: roll on with the dice the room's log left off with.

        Another process on a shared store may have committed a new seed, drawn rolls or taken
        client seeds, and an undo may have taken back the commitment the dice went on with: the
        seed comes from the store, the counter and the client seeds from the log (undone events
        included), so no roll number is drawn twice. Every commitment of the contest the log does
        not reveal yet is handed to the contest to reveal with its own seed.
        """
        if self.dice is not None or not isinstance(contest.dice, CommittedDice):
            return
        mark = (contest, len(self._events))  # a contest compares by identity
        if self._dice_synced == mark:
            return  # the log has not grown since: the contest's dice are still the log's
        restored = self._contest_dice(contest.events)
        contest.roll_on_with(restored)
        contest.reveal_also(*self._unheld_dice(contest))
        self._dice_synced = mark

    def _unheld_dice(self, contest: Contest) -> list[CommittedDice]:
        """The dice of ``contest``'s commitments that no event reveals and that the contest does not
        hold (an undo took them back, or this process never had them): they drew dice the log
        shows, so their seeds are revealed with the contest's."""
        every = self._contest_log(contest.uid)
        settled = contest.commitments_held | {e["commitment"] for e in every if e["type"] == "dice_revealed"}
        after = next_roll_after(every)
        out = []
        for event in every:
            seed = (event["type"] == "dice_committed" and event["commitment"] not in settled
                    and self._secret(event["commitment"]))
            if seed:
                dice = CommittedDice(seed, scope=event["scope"], client_seeds=event["client_seeds"],
                                     first_roll=event["first_roll"])
                dice.next_roll = after
                out.append(dice)
        return out

    def _restored_checks_dice(self) -> dict[bool, CommittedDice]:
        """The checks sessions' dice, restored from the store's secrets where this process lacks them."""
        for private, session in self._state.check_sessions.items():
            mine = self._check_dice.get(private)
            if mine is not None and mine.commitment == session["commitment"] and self._store.shared:
                # another process may have drawn checks of this session: go on after them
                mine.next_roll = max([mine.next_roll, *(r + 1 for r in self._check_rolls(session["scope"]))])
            if session["revealed"] or (mine is not None and mine.commitment == session["commitment"]):
                continue
            seed = self._secret(session["commitment"])
            if seed:
                dice = CommittedDice(seed, scope=session["scope"], client_seeds=session["client_seeds"],
                                     first_roll=session["first_roll"])
                dice.next_roll = max([dice.first_roll, *(r + 1 for r in self._check_rolls(session["scope"]))])
                self._check_dice[private] = dice
        return self._check_dice

    def _check_rolls(self, scope: str) -> list[int]:
        """The roll numbers the log's checks drew in a checks session (undone ones too)."""
        return [e["draw"]["roll"] for e in self._events
                if e["type"] == "action_checked" and (e.get("draw") or {}).get("scope") == scope]

    def _unrevealed_checks(self) -> list[dict]:
        """A reveal for every checks commitment of the log (undone ones too) not revealed yet, whose seed is kept."""
        revealed = {e["commitment"] for e in self._events if e["type"] == "dice_revealed"}
        mine = {d.commitment: d for d in self._restored_checks_dice().values()}
        out: dict[str, dict] = {}
        for event in self._events:
            commitment = event.get("commitment")
            if event["type"] != "dice_committed" or commitment in revealed or commitment in out:
                continue
            dice = mine.get(commitment)
            seed = dice.secret() if dice is not None else (self._secret(commitment) or b"").hex()
            if not seed:
                continue
            rolls = self._check_rolls(event["scope"])
            next_roll = dice.next_roll if dice is not None else max([event["first_roll"], *(r + 1 for r in rolls)])
            out[commitment] = {"type": "dice_revealed", "scope": event["scope"], "commitment": commitment,
                               "seed": seed, "next_roll": next_roll, "private": event["private"]}
        return list(out.values())

    def _checks_dice(self, private: bool) -> tuple[CommittedDice, list[dict]]:
        """The dice of a check, and the payloads to write before it (a new session's commitment)."""
        session = self._state.check_sessions.get(private)
        dice = self._restored_checks_dice().get(private)
        if session and not session["revealed"] and dice is not None and dice.commitment == session["commitment"] \
                and not dice.revealed:
            return dice, []
        before = []
        revealed = {e["commitment"] for e in self._events if e["type"] == "dice_revealed"}
        if dice is not None and dice.rolled and dice.commitment not in revealed:
            # its commitment was taken back by undo, but its dice were drawn: show its seed
            before.append({"type": "dice_revealed", "scope": dice.scope, "commitment": dice.commitment,
                           "seed": dice.secret(), "next_roll": dice.next_roll, "private": private})
        scope = f"{'gm-checks' if private else 'checks'}-{secrets.token_hex(4)}"
        fresh = CommittedDice(scope=scope)
        before.append({"type": "dice_committed", "scope": scope, "commitment": fresh.commitment, "scheme": SCHEME,
                       "first_roll": fresh.first_roll, "client_seeds": fresh.client_seeds, "private": private})
        return fresh, before

    def _run_contest(self, actor: Actor, name: str, args: dict, command_id: str) -> list[dict]:
        method, pos, kw = prepare_contest_command(self._state, name, args, actor)
        contest = self._state.contest
        self._sync_contest_dice(contest)
        written: list[dict] = []

        def sink(contest_events: list[dict]) -> None:
            # Runs inside the contest's command, after it applied the events and before it returns:
            # if the store refuses, the contest rolls the command back and re-raises.
            if self.dice is None and any(e["type"] == "dice_committed" for e in contest_events):
                self._keep_secret(contest.dice)  # a renewed seed: durable before its commitment is
            events = self._stamp_all([{"type": "contest", "contest": contest.uid, "event": e}
                                      for e in contest_events], actor, name, command_id)
            self._commit(events)
            written.extend(events)

        outer, contest.event_sink = contest.event_sink, sink
        try:
            getattr(contest, method)(*pos, **kw)
        finally:
            contest.event_sink = outer  # an adopted contest keeps the sink of its direct commands
        for event in written:
            apply_event(self._state, event, live=True)
        self._log(written)
        return written

    # ------------------------------------------------------------------------------- undo --
    def _undo_target(self) -> list[dict]:
        """The events of the last command that undo would take back; RuleError if there is none."""
        alive = effective(self._events)
        for i in range(len(alive) - 1, -1, -1):
            if alive[i]["type"] not in NOT_UNDONE and alive[i]["command"] not in NOT_UNDONE_COMMANDS:
                cmd = alive[i]["cmd_id"]
                return [e for e in alive if e["cmd_id"] == cmd]
        raise RuleError("Nothing to undo.", key="error.room.nothing_to_undo")

    def _undo(self, actor: Actor, command_id: str) -> list[dict]:
        target = self._undo_target()
        payload = {"type": "undone", "undone_cmd_id": target[0]["cmd_id"],
                   "undone_command": target[0]["command"], "undone_seqs": [e["seq"] for e in target],
                   "private": any(e["private"] for e in target)}
        events = self._stamp_all([payload], actor, "undo", command_id)
        self._commit(events)
        self._log(events)
        contest = self._state.contest
        in_place = (contest is not None and all(e["type"] == "contest" and e["contest"] == contest.uid
                                                and e["event"]["type"] != "contest_started" for e in target)
                    # the contest's own last command (a client seed after it is never undone)
                    and target[-1]["event"]["seq"] == contest.events[-1]["seq"])
        if in_place:  # a contest command: the contest takes it back itself, keeping its objects
            try:
                contest.undo()
                self._state.round_open = round_open_of(effective(self._events))
                return events
            except RuleError:  # pragma: no cover - should not happen; the log is the truth anyway
                log.exception("contest undo failed; re-projecting the room")
        self._reproject()
        return events

    # ------------------------------------------------------------------------- projection --
    def _reset_log(self, events: list[dict]) -> None:
        self._events = list(events)
        self._public = [e for e in self._events if not e["private"]]
        self._recent.clear()
        for event in self._events:
            self._recall(event)

    def _recall(self, event: dict) -> None:
        """Remember the command an event of the log belongs to, so a resend of it is harmless."""
        if event["cmd_id"] in self._recent:
            self._recent[event["cmd_id"]][1].append(event)
        else:
            key = (event["actor"]["role"], event["actor"]["player_id"])
            self._recent[event["cmd_id"]] = (key, [event])
            self._trim_recent()

    def _log(self, events: list[dict]) -> None:
        self._events.extend(events)
        self._public.extend(e for e in events if not e["private"])

    def _remember(self, command_id: str, actor: Actor, events: list[dict]) -> None:
        if events:
            self._recent[command_id] = (actor.key, events)
            self._trim_recent()

    def _trim_recent(self) -> None:
        while len(self._recent) > self.RECENT_COMMANDS:
            self._recent.popitem(last=False)

    def _reproject(self) -> None:
        """Rebuild the state from the whole log, reusing the character objects views are bound to."""
        current = self._state.built_contest
        self._state = project(self._events, dice=self.dice, pool=dict(self._state.characters),
                              contests=[current] if current is not None else [], dice_for=self._contest_dice)

    def _heard(self, events: list[dict]) -> None:
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
            "round_open": state.round_open,
        }
        changes = {k: v for k, v in values.items() if not _same(getattr(self, k), v)}
        if changes:
            self.param.update(**changes)

    # ----------------------------------------------------------------------------- reading --
    def visible_events(self, actor: Actor, from_seq: int = 0) -> list[dict]:
        """The events after sequence number ``from_seq`` that ``actor`` may see (copies).

        The GM sees every event; players and spectators never receive the GM's private ones, so
        their sequence numbers may skip. Build a session's view from these (or from the public
        parameters), never from the room's internals.
        """
        with self._lock:
            events = self._events[max(0, from_seq):]
            return copy.deepcopy([e for e in events if visible_to(actor, e)])

    def checks_for(self, actor: Actor) -> list[dict]:
        """The action checks ``actor`` may see: all for the GM, the open ones for everyone else."""
        with self._lock:
            return copy.deepcopy([c for c in self._state.checks if visible_to(actor, c)])

    def snapshot(self, actor: Actor) -> dict:
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
            return json.loads(json.dumps(snap))

    def replay_contest(self, contest_uid: str) -> Contest:
        """A closed (or the current) contest rebuilt from the log, on copies of its characters.

        For looking back (charts, logs); it shares nothing with the room and cannot change it.
        """
        with self._lock:
            events = [e["event"] for e in effective(self._events)
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

    def _notify(self, events: list[dict]) -> None:
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
        entry = {"role": actor.role.value, "player_id": actor.player_id, "name": actor.name,
                 "since": round(time.time(), 3)}
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
