"""Stores keep rooms' event logs: the small interface, and the in-memory store.

A store is the durable truth of every room. A room appends the events of each command and the
command returns only after :meth:`Store.append` did; loading a room reads its events back and
replays them. Anything that can append atomically and read in order can be a store: the SQLite
store (:mod:`.sqlite_store`) is the embedded default; the Redis store (:mod:`.redis_store`) lets
several server processes share rooms: its ``append`` is a Lua script that checks the next sequence
number, and its ``subscribe`` delivers every process's appends (:attr:`Store.shared`).
"""

from __future__ import annotations

import abc
import copy
import json
import logging
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

from .errors import OutcomeUnknown, RoomExists, SequenceConflict, StoreError, UnknownRoom
from .events import Event

#: A room's metadata, or one page's presence entry: a JSON object as the store keeps it.
Meta = dict[str, Any]

#: Room ids are short, URL-safe and safe in file names and SQL.
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

StoreCallback = Callable[[str, list[Event]], None]

log = logging.getLogger(__name__)


def check_room_id(room_id: object) -> str:
    """Return ``room_id`` if it is a valid room id, else raise :class:`StoreError`."""
    if not isinstance(room_id, str) or not ROOM_ID.fullmatch(room_id):
        raise StoreError(f"A room id is 1-64 letters, digits, '-' or '_'; not {room_id!r}.",
                         key="error.store.bad_room_id", room=repr(room_id))
    return room_id


def encode_event(event: Event) -> str:
    """An event as the JSON text a store keeps (compact, any script kept as is)."""
    try:
        return json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:  # a programming error: events are JSON-ready by design
        raise StoreError(f"An event could not be saved as JSON: {exc}", key="error.store.not_json",
                         detail=str(exc)) from None


def check_sequence(events: list[Event], last: int) -> int:
    """Check ``events`` continue a log whose last sequence number is ``last``; return the new last."""
    for i, event in enumerate(events, last + 1):
        if not isinstance(event, dict) or event.get("seq") != i:
            got = event.get("seq") if isinstance(event, dict) else event
            raise SequenceConflict(f"Event {got!r} does not follow sequence number {i - 1}: someone "
                                   "else wrote to this room at the same moment.", key="error.store.sequence",
                                   seq=repr(got), last=i - 1)
    return last + len(events)


def room_exists(room_id: str) -> RoomExists:
    """The refusal to create a room whose id is taken."""
    return RoomExists(f"A room {room_id!r} already exists.", key="error.store.room_exists", room=repr(room_id))


class LocalTimes:
    """Times noted under names, in this process (see :meth:`Store.times_since`); thread-safe."""

    def __init__(self) -> None:
        self._times: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def times_since(self, name: str, since: float) -> list[float]:
        """The times noted under ``name`` after ``since``, oldest first (older ones are forgotten)."""
        with self._lock:
            kept = [t for t in self._times.get(name, []) if t > since]
            if kept:
                self._times[name] = kept
            else:
                self._times.pop(name, None)
            return list(kept)

    def note_time(self, name: str, when: float, keep: float) -> None:
        """Note ``when`` under ``name`` (``keep``: how long it counts; forgotten when read after)."""
        with self._lock:
            self._times.setdefault(name, []).append(when)


class Store(abc.ABC):
    """Where rooms' event logs are kept.

    Events are JSON-ready ``dict`` objects, each with a ``"seq"`` (1, 2, 3, ... per room, no gaps).
    Implementations must be safe to call from several threads.

    Methods to implement: :meth:`create_room`, :meth:`append`, :meth:`read`, :meth:`list_rooms`,
    :meth:`room_meta`, :meth:`set_meta`. :meth:`subscribe` is provided for stores in one process;
    a store shared between processes (Redis) overrides it to deliver other processes' appends too.
    """

    #: True when other processes may append to the same rooms: a room then follows the store
    #: (:meth:`subscribe` delivers every append, its own included, on another thread).
    shared = False

    def __init__(self) -> None:
        self._subscribers: dict[str, dict[int, StoreCallback]] = {}
        self._meta_lock = threading.Lock()
        self._sub_lock = threading.Lock()
        self._next_sub = 0
        self._times = LocalTimes()  # see note_time; shared stores keep them themselves
        self._present: dict[str, dict[str, Meta]] = {}  # room -> session key -> entry (see note_presence)
        self._presence_callbacks: dict[str, list[Callable[[], None]]] = {}
        self._presence_lock = threading.Lock()

    @abc.abstractmethod
    def create_room(self, room_id: str, meta: Meta, events: Iterable[Event] = ()) -> None:
        """Create a room with its metadata and, atomically, its first events.

        Raises
        ------
        RoomExists
            If ``room_id`` is taken; nothing is written.
        """

    @abc.abstractmethod
    def append(self, room_id: str, events: list[Event]) -> int:
        """Append ``events`` to the room's log, all or nothing, and return the last sequence number.

        The events' ``seq`` must continue the log without gaps (:class:`SequenceConflict`
        otherwise). When this returns, the events are durable (on disk for a file store).
        """

    @abc.abstractmethod
    def read(self, room_id: str, from_seq: int = 0) -> list[Event]:
        """The room's events with a sequence number above ``from_seq``, in order (new dicts)."""

    @abc.abstractmethod
    def list_rooms(self) -> list[str]:
        """The ids of all rooms, oldest first."""

    @abc.abstractmethod
    def room_meta(self, room_id: str) -> Meta:
        """The metadata given at :meth:`create_room` (or the last :meth:`set_meta`)."""

    @abc.abstractmethod
    def set_meta(self, room_id: str, meta: Meta) -> None:
        """Replace the room's metadata (used for link hashes; never for game state)."""

    def outcome(self, unknown: OutcomeUnknown) -> bool | None:
        """Whether the append whose answer was lost (``unknown``) is in the room's log: True, False
        (and it never will be), or None (not known yet: ask again in a moment).

        Found by its first event's ``seq`` and ``cmd_id``: the log can only hold it there, and if
        another command holds that place, this one can never land. An embedded store answers every
        append, so for it the log alone says.
        """
        first = unknown.events[0]
        found = self.read(unknown.room_id, first["seq"] - 1)[:1]
        return bool(found) and found[0].get("cmd_id") == first.get("cmd_id")

    def update_meta(self, room_id: str, change: Callable[[Meta], Meta]) -> Meta:
        """Replace the room's metadata by ``change(current)`` in one step, and return it.

        Two changes never lose each other's part (a player's link saved while the GM reissues
        another). This process's lock is enough for a store no other process writes; a shared
        store overrides it.
        """
        with self._meta_lock:
            meta = change(self.room_meta(room_id))
            self.set_meta(room_id, meta)
            return meta

    def on_meta(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(room_id)`` when another process changed a room's metadata; returns a remover.

        Only a shared store has other processes: this one never calls it.
        """
        return lambda: None

    def on_status(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``callback(available)`` when the store becomes unreachable or reachable again.

        An embedded store is always reachable: this one never calls it.
        """
        return lambda: None

    @property
    def available(self) -> bool:
        """Whether the store can be reached now."""
        return True

    # -- counted moments (limits) ------------------------------------------------------------
    def times_since(self, name: str, since: float) -> list[float]:
        """The times (seconds since the epoch) noted under ``name`` (:meth:`note_time`) after ``since``,
        oldest first; older ones are forgotten. Kept in this process here; a shared store keeps
        them where every process counts them (the room limits of :mod:`.limits`)."""
        return self._times.times_since(name, since)

    def note_time(self, name: str, when: float, keep: float) -> None:
        """Note the time ``when`` under ``name``, to be counted for ``keep`` seconds."""
        self._times.note_time(name, when, keep)

    # -- presence: who is connected to a room now ------------------------------------------------
    #: Seconds a shared store keeps a connected page without hearing from its process again.
    PRESENCE_TTL = 15.0

    def note_presence(self, room_id: str, key: str, entry: Meta) -> None:
        """Show the page ``key`` (a browser session's id) as connected to the room, as ``entry``.

        Who is at the table is the room's, not one process's: every process of a shared store sees
        it (:meth:`present`), and a process that stops renewing its pages' entries (it died) loses
        them after :attr:`PRESENCE_TTL`. Not a game event: never in the log.
        """
        with self._presence_lock:
            self._present.setdefault(room_id, {})[str(key)] = dict(entry)
        self._presence_changed(room_id)

    def forget_presence(self, room_id: str, key: str) -> None:
        """The page ``key`` left the room (twice is harmless)."""
        with self._presence_lock:
            gone = self._present.get(room_id, {}).pop(str(key), None)
        if gone is not None:
            self._presence_changed(room_id)

    def present(self, room_id: str) -> dict[str, Meta]:
        """Who is connected to the room now, through any process: page key -> entry."""
        with self._presence_lock:
            return {k: dict(v) for k, v in self._present.get(room_id, {}).items()}

    def on_presence(self, room_id: str, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` when the room's presence may have changed (read it with :meth:`present`);
        returns a remover. It runs on the thread that changed it, or a shared store's listener."""
        with self._presence_lock:
            self._presence_callbacks.setdefault(room_id, []).append(callback)

        def remove() -> None:
            with self._presence_lock:
                callbacks = self._presence_callbacks.get(room_id, [])
                if callback in callbacks:
                    callbacks.remove(callback)
                if not callbacks:
                    self._presence_callbacks.pop(room_id, None)
        return remove

    def _presence_changed(self, room_id: str) -> None:
        with self._presence_lock:
            callbacks = list(self._presence_callbacks.get(room_id, []))
        for callback in callbacks:
            try:
                callback()
            except Exception:  # one broken room must not stop another's page
                log.exception("a presence callback failed")

    def close(self) -> None:  # noqa: B027 - not abstract: a store with nothing to release needs no close
        """Release files and connections. The store cannot be used afterwards."""

    # -- subscriptions (in-process) ------------------------------------------------------------
    def subscribe(self, room_id: str, callback: StoreCallback) -> Callable[[], None]:
        """Call ``callback(room_id, events)`` after each append to the room; returns unsubscribe.

        The callback runs on the appending thread after the append committed; it must be quick.
        """
        with self._sub_lock:
            self._next_sub += 1
            key = self._next_sub
            self._subscribers.setdefault(room_id, {})[key] = callback

        def unsubscribe() -> None:
            with self._sub_lock:
                self._subscribers.get(room_id, {}).pop(key, None)
        return unsubscribe

    def _published(self, room_id: str, events: list[Event]) -> None:
        with self._sub_lock:
            callbacks = list(self._subscribers.get(room_id, {}).values())
        for callback in callbacks:
            callback(room_id, copy.deepcopy(events))


class MemoryStore(Store):
    """Rooms kept in this process only: for notebooks, tests and throw-away rooms.

    Events are kept as JSON text, exactly like a file store, so what a room reads back is what a
    file store would give.
    """

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.RLock()
        self._rooms: dict[str, Meta] = {}

    def _room(self, room_id: str) -> Meta:
        try:
            return self._rooms[room_id]
        except KeyError:
            raise UnknownRoom(f"There is no room {room_id!r} here.", key="error.store.unknown_room",
                              room=repr(room_id)) from None

    def create_room(self, room_id: str, meta: Meta, events: Iterable[Event] = ()) -> None:
        """See :meth:`Store.create_room`."""
        check_room_id(room_id)
        events = list(events)
        check_sequence(events, 0)
        lines = [encode_event(e) for e in events]
        meta_text = json.dumps(meta, ensure_ascii=False)
        with self._lock:
            if room_id in self._rooms:
                raise room_exists(room_id)
            self._rooms[room_id] = {"meta": meta_text, "events": lines}
        if events:
            self._published(room_id, events)

    def append(self, room_id: str, events: list[Event]) -> int:
        """See :meth:`Store.append`."""
        events = list(events)
        lines = [encode_event(e) for e in events]
        with self._lock:
            room = self._room(room_id)
            last = check_sequence(events, len(room["events"]))
            room["events"] = room["events"] + lines
        if events:
            self._published(room_id, events)
        return last

    def read(self, room_id: str, from_seq: int = 0) -> list[Event]:
        """See :meth:`Store.read`."""
        with self._lock:
            lines = self._room(room_id)["events"][max(0, from_seq):]
        return [json.loads(line) for line in lines]

    def list_rooms(self) -> list[str]:
        """See :meth:`Store.list_rooms`."""
        with self._lock:
            return list(self._rooms)

    def room_meta(self, room_id: str) -> Meta:
        """See :meth:`Store.room_meta`."""
        with self._lock:
            meta: Meta = json.loads(self._room(room_id)["meta"])
            return meta

    def set_meta(self, room_id: str, meta: Meta) -> None:
        """See :meth:`Store.set_meta`."""
        text = json.dumps(meta, ensure_ascii=False)
        with self._lock:
            self._room(room_id)["meta"] = text

    def __repr__(self) -> str:
        return f"MemoryStore(rooms={len(self._rooms)})"
