"""Rooms shared by many server processes: every room's event log in Redis.

Each room is a Redis Stream of its events (entry id ``<seq>-0``, one field ``e`` holding the event's
JSON), its last sequence number, and its metadata; a sorted set lists the rooms by creation time.
An append is one Lua script: it checks that the room's last sequence number is still the one the
command was decided on, adds the events and publishes ``"<room id> <last seq>"`` on the store's
channel -- all or nothing, so two processes can never interleave a room's events (the second gets
:class:`~.errors.SequenceConflict`, and its room refreshes and refuses the command with "someone
else changed this room").

Every process listens on the channel (one thread per store, :class:`_Listener`) and tells the
subscribers of a room (:meth:`RedisStore.subscribe`) about every append, its own and other
processes', with the events read back from the stream in order: a :class:`~.room.Room` follows its
stream this way. A lost connection is retried; when it is back, every followed room is read again
from where its subscribers were, so nothing published meanwhile is missed.

Durability is Redis's: run it with ``appendonly yes`` and ``appendfsync always`` (the README's
deployment section), so an append that returned is on disk. While Redis cannot be reached every
call raises :class:`~.errors.StoreError` with ``error.store.unavailable``: a command is refused
whole, never half applied.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from raisus_panel.rules.errors import Phrase

from .errors import NotKnownYet, NotOurDatabase, OutcomeUnknown, RoomExists, SequenceConflict, StoreError, UnknownRoom
from .events import Event
from .store import Meta, Store, StoreCallback, check_room_id, check_sequence, encode_event, room_exists

T = TypeVar("T")

log = logging.getLogger(__name__)

#: The format and schema version kept in ``<prefix>store_info``; other data in the database is refused.
STORE_FORMAT = "raisus_panel/room-store"
SCHEMA_VERSION = 1

_CREATE = Phrase("create the room", "term.store.create")
_APPEND = Phrase("save the room's events", "term.store.append")
_READ = Phrase("read the room", "term.store.read")
_LIST = Phrase("list rooms", "term.store.list")
_META = Phrase("save the room's details", "term.store.meta")
_LIMITS = Phrase("count the rooms made lately", "term.store.limits")

# KEYS: meta, seq, stream, rooms; ARGV: channel, room id, meta JSON, created, deadline (Redis's clock),
# event JSON... Returns 0 if the room exists, 1 when made, 2 if the deadline has passed: like an append,
# a create that arrives late refuses itself, so a person told "not made" never finds the room made later.
_CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local now = redis.call('TIME')
if tonumber(now[1]) + tonumber(now[2]) / 1e6 > tonumber(ARGV[5]) then return 2 end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[2])
local last = 0
for i = 6, #ARGV do
  last = last + 1
  redis.call('XADD', KEYS[3], last .. '-0', 'e', ARGV[i])
end
redis.call('SET', KEYS[2], last)
if last > 0 then redis.call('PUBLISH', ARGV[1], ARGV[2] .. ' ' .. last) end
return 1
"""

# KEYS: meta, seq, stream; ARGV: channel, room id, expected last seq, deadline (unix s), event JSON...
# Returns {status, last}: 0 appended, 1 no such room, 2 the log moved on (last is the store's),
# 3 too late: the caller has given up waiting (a paused Redis ran it late) and told the page
# "nothing was saved", so it must not be applied now.
_APPEND_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {1, 0} end
local now = redis.call('TIME')
if tonumber(now[1]) + tonumber(now[2]) / 1e6 > tonumber(ARGV[4]) then return {3, 0} end
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if last ~= tonumber(ARGV[3]) then return {2, last} end
for i = 5, #ARGV do
  last = last + 1
  redis.call('XADD', KEYS[3], last .. '-0', 'e', ARGV[i])
end
redis.call('SET', KEYS[2], last)
redis.call('PUBLISH', ARGV[1], ARGV[2] .. ' ' .. last)
return {0, last}
"""

# KEYS: meta; ARGV: channel, room id, new meta JSON, deadline (Redis's clock), the meta JSON it replaces
# (none: whatever is there). Returns 0 if there is no such room, 1 when written, 2 if the meta is no
# longer the one it replaces (read again), 3 if the deadline has passed: like an append, a write that
# arrives late refuses itself, so a page told "not saved" can never find it saved later.
_SET_META_LUA = """
local now = redis.call('TIME')
if tonumber(now[1]) + tonumber(now[2]) / 1e6 > tonumber(ARGV[4]) then return 3 end
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
if ARGV[5] and old ~= ARGV[5] then return 2 end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[1], ARGV[2] .. ' meta')
return 1
"""


# Presence: a sorted set of page keys scored by when they expire (Redis's clock) and a hash of their
# entries. KEYS: pages, entries; ARGV: channel, room id, ttl (s), key, entry JSON (none: forget it)
_PRESENCE_LUA = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
if ARGV[5] then
  redis.call('ZADD', KEYS[1], t + tonumber(ARGV[3]), ARGV[4])
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[5])
else
  redis.call('ZREM', KEYS[1], ARGV[4])
  redis.call('HDEL', KEYS[2], ARGV[4])
end
local keep = math.ceil(2 * tonumber(ARGV[3]))
redis.call('EXPIRE', KEYS[1], keep)
redis.call('EXPIRE', KEYS[2], keep)
redis.call('PUBLISH', ARGV[1], ARGV[2] .. ' presence')
return 1
"""

# KEYS: pages, entries. Returns key, entry, key, entry... of the pages not expired (the others removed).
_PRESENT_LUA = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t)
if #gone > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t)
  redis.call('HDEL', KEYS[2], unpack(gone))
end
local keys = redis.call('ZRANGE', KEYS[1], 0, -1)
local out = {}
if #keys == 0 then return out end
local entries = redis.call('HMGET', KEYS[2], unpack(keys))
for i, key in ipairs(keys) do
  if entries[i] then out[#out + 1] = key; out[#out + 1] = entries[i] end
end
return out
"""


def _redis() -> Any:  # the redis module (imported on first use; its sync/async types are not ours)
    try:
        import redis
    except ImportError:  # pragma: no cover - a dependency of the package
        raise StoreError("The Redis store needs the redis package: pip install redis.",
                         key="error.store.no_redis") from None
    return redis


def unavailable() -> StoreError:
    """The refusal while Redis cannot be reached (nothing was saved)."""
    return StoreError("The table is unavailable: the room store cannot be reached. Nothing was saved; "
                      "try again in a moment.", key="error.store.unavailable")


def describe_url(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    parts = urlsplit(url)
    host = parts.hostname or parts.path or "localhost"
    port = f":{parts.port}" if parts.port else ""
    db = parts.path if parts.hostname else ""
    return f"{parts.scheme}://{host}{port}{db}"


class RedisStore(Store):
    """Rooms' event logs in a Redis database, shared by every server process that opens it.

    Parameters
    ----------
    url
        ``redis://HOST:PORT/DB`` (``rediss://`` for TLS, ``unix:///path/redis.sock?db=N`` for a
        socket; a password as ``redis://:PASSWORD@HOST:PORT/DB``).
    prefix
        Put before every key and the channel, so several stores can share one database.
    timeout
        Seconds a call may wait for Redis before the table is reported unavailable.

    Raises
    ------
    StoreError
        ``error.store.unavailable`` if Redis cannot be reached now.
    NotOurDatabase
        If the database holds another program's data under ``prefix``, or a newer store version.
    """

    shared = True

    def __init__(self, url: str, *, prefix: str = "raisus:", timeout: float = 5.0) -> None:
        super().__init__()
        redis = _redis()
        self.url = url
        self.prefix = prefix
        self._timeout = timeout
        try:
            self._r = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                           health_check_interval=15)
        except ValueError:
            raise StoreError(f"Not a Redis address: {describe_url(url)}.", key="error.store.bad_url",
                             url=describe_url(url)) from None
        self._create = self._r.register_script(_CREATE_LUA)
        self._append = self._r.register_script(_APPEND_LUA)
        self._set_meta = self._r.register_script(_SET_META_LUA)
        self._presence = self._r.register_script(_PRESENCE_LUA)
        self._present_script = self._r.register_script(_PRESENT_LUA)
        self._announced: dict[tuple[str, str], str] = {}  # this process's pages: renewed by the listener
        self._announced_lock = threading.Lock()
        self._clock_offset = 0.0  # Redis's clock minus ours, measured by _check_database
        self._check_database()
        self._listener: _Listener | None = None
        self._listener_lock = threading.Lock()
        self._status_callbacks: list[Callable[[bool], None]] = []

    # -- keys ------------------------------------------------------------------------------------
    @property
    def channel(self) -> str:
        """The pub/sub channel on which every append and metadata change is announced."""
        return f"{self.prefix}events"

    def _keys(self, room_id: str) -> tuple[str, str, str]:
        base = f"{self.prefix}room:{room_id}"
        return f"{base}:meta", f"{base}:seq", f"{base}:events"

    @property
    def _rooms_key(self) -> str:
        return f"{self.prefix}rooms"

    # -- calls -------------------------------------------------------------------------------------
    def _call(self, what: Phrase, fn: Callable[[], T]) -> T:
        """Run ``fn``; Redis's connection errors become ``error.store.unavailable`` (nothing saved)."""
        redis = _redis()
        try:
            return fn()
        except (redis.ConnectionError, redis.TimeoutError):
            raise unavailable() from None
        except redis.ResponseError as exc:
            if "READONLY" in str(exc) or "LOADING" in str(exc) or "MISCONF" in str(exc):
                raise unavailable() from None
            raise StoreError(f"Could not {what}: {exc}. Nothing was saved.",
                             key="error.store.refused", what=what, detail=str(exc)) from None

    def _check_database(self) -> None:
        info_key = f"{self.prefix}store_info"

        def check() -> dict[str, str]:
            self._r.hsetnx(info_key, "format", STORE_FORMAT)
            self._r.hsetnx(info_key, "version", str(SCHEMA_VERSION))
            # how far Redis's clock is from ours: an append's deadline is set on Redis's clock, so a
            # server host whose clock differs from Redis's by seconds neither refuses every append
            # nor loses the guard (at most the half round trip of this call off)
            seconds, micros = self._r.time()
            self._clock_offset = seconds + micros / 1e6 - time.time()
            return {k.decode(): v.decode() for k, v in self._r.hgetall(info_key).items()}
        try:
            info = self._call(_LIST, check)
        except StoreError as exc:
            if exc.key == "error.store.refused":  # the key holds something else than a hash
                raise self._foreign() from None
            raise
        version = int(info.get("version", "0") or 0)
        if info.get("format") != STORE_FORMAT or version > SCHEMA_VERSION:
            raise self._foreign()

    def _foreign(self) -> NotOurDatabase:
        url = describe_url(self.url)
        return NotOurDatabase(f"{url} holds another program's data or another store version; it was left "
                              "untouched.", key="error.store.foreign_redis", url=url)

    def _unknown(self, room_id: str) -> UnknownRoom:
        return UnknownRoom(f"There is no room {room_id!r} here.", key="error.store.unknown_room", room=repr(room_id))

    # -- the Store interface -------------------------------------------------------------------------
    def create_room(self, room_id: str, meta: Meta, events: Iterable[Event] = ()) -> None:
        """See :meth:`Store.create_room`."""
        check_room_id(room_id)
        events = list(events)
        check_sequence(events, 0)
        lines, text = [encode_event(e) for e in events], json.dumps(meta, ensure_ascii=False)
        meta_key, seq_key, stream_key = self._keys(room_id)
        deadline = time.time() + self._clock_offset + self._timeout / 2
        try:
            made = self._call(_CREATE, lambda: self._create(
                keys=[meta_key, seq_key, stream_key, self._rooms_key],
                args=[self.channel, room_id, text, repr(time.time()), repr(deadline), *lines]))
        except StoreError as exc:
            if exc.key != "error.store.unavailable":
                raise
            unknown = NotKnownYet("The room store did not answer, so whether the room was made is not known "
                                 "yet. Try again in a moment: a room made without its links shown stays unused.",
                                 key="error.store.create_unknown")
            if self._after_deadline(deadline, meta_key, unknown) == text.encode():
                return  # made before its deadline: only the answer was lost
            raise  # not made, and it never will be: its deadline has passed
        if made == 0:
            raise room_exists(room_id)
        if made == 2:  # it reached Redis after its deadline: nothing was made
            raise unavailable()

    def _after_deadline(self, deadline: float, key: str, unknown: NotKnownYet) -> bytes | None:
        """What ``key`` holds once a write whose answer was lost can no longer land.

        The write carried ``deadline`` (on Redis's clock), after which it refuses itself; once that
        passed, what Redis holds is the write's outcome, final. ``unknown`` is raised when Redis
        cannot be read either: then it is not known yet, and nobody may be told "nothing was saved".
        """
        time.sleep(max(0.0, deadline - self._clock_offset - time.time()) + 0.05)
        try:
            held: bytes | None = self._call(_READ, lambda: self._r.get(key))
        except StoreError:
            raise unknown from None
        return held

    def append(self, room_id: str, events: list[Event]) -> int:
        """See :meth:`Store.append`. Durable when it returns if Redis runs with ``appendfsync always``."""
        events = list(events)
        if not events:
            return self.last_seq(room_id)
        first = events[0].get("seq") if isinstance(events[0], dict) else None
        if not isinstance(first, int) or isinstance(first, bool) or first < 1:
            check_sequence(events, -1)  # raises SequenceConflict naming the bad number
        assert isinstance(first, int)  # check_sequence raised otherwise
        last = check_sequence(events, first - 1)
        lines = [encode_event(e) for e in events]
        meta_key, seq_key, stream_key = self._keys(room_id)
        deadline = time.time() + self._clock_offset + self._timeout / 2
        redis = _redis()
        try:  # a pipeline's MULTI is not used: the script is one step, and its deadline guards a late run
            status, stored = self._call(_APPEND, lambda: self._append(
                keys=[meta_key, seq_key, stream_key], args=[self.channel, room_id, first - 1, repr(deadline), *lines]))
        except StoreError as exc:
            cause = exc.__context__
            never_sent = not isinstance(cause, (redis.ConnectionError, redis.TimeoutError)) or \
                "connecting to" in str(cause).lower()  # no connection was made: nothing went out
            if exc.key != "error.store.unavailable" or never_sent:
                raise  # refused, or never sent: nothing was saved
            # sent, and the answer lost: it may have landed before its deadline
            unknown = OutcomeUnknown("The room store did not answer in time: it is not known yet whether this "
                                     "was saved. Checking the room's log…", key="error.store.outcome_unknown")
            raise unknown.of(room_id, events, deadline) from None
        if status == 3:
            raise unavailable()
        if status == 1:
            raise self._unknown(room_id)
        if status == 2:
            raise SequenceConflict(f"Event {first} does not follow sequence number {stored}: someone else "
                                   "wrote to this room at the same moment.", key="error.store.sequence",
                                   seq=repr(first), last=int(stored))
        return last

    def outcome(self, unknown: OutcomeUnknown) -> bool | None:
        """See :meth:`Store.outcome`: on Redis's clock, an append not in the log once its deadline
        passed can never land (its script refuses itself), so the answer is then final."""
        _, _, stream_key = self._keys(unknown.room_id)
        first = unknown.events[0]

        def look() -> Any:
            pipe = self._r.pipeline(transaction=True)  # one moment: the clock and the log together
            pipe.time()
            pipe.xrange(stream_key, min=f"{first['seq']}-0", max=f"{first['seq']}-0")
            return pipe.execute()
        (seconds, micros), entries = self._call(_READ, look)
        if entries:
            return bool(json.loads(entries[0][1][b"e"]).get("cmd_id") == first.get("cmd_id"))
        late = unknown.deadline is None or seconds + micros / 1e6 > unknown.deadline
        return False if late else None

    def read(self, room_id: str, from_seq: int = 0) -> list[Event]:
        """See :meth:`Store.read`."""
        meta_key, _, stream_key = self._keys(room_id)

        def read() -> Any:
            pipe = self._r.pipeline(transaction=True)
            pipe.exists(meta_key)
            pipe.xrange(stream_key, min=f"{max(0, int(from_seq)) + 1}-0", max="+")
            return pipe.execute()
        exists, entries = self._call(_READ, read)
        if not exists:
            raise self._unknown(room_id)
        return [json.loads(fields[b"e"]) for _, fields in entries]

    def last_seq(self, room_id: str) -> int:
        """The sequence number of the room's last event (0 for none)."""
        meta_key, seq_key, _ = self._keys(room_id)
        exists, last = self._call(_READ, lambda: self._r.pipeline().exists(meta_key).get(seq_key).execute())
        if not exists:
            raise self._unknown(room_id)
        return int(last or 0)

    def list_rooms(self) -> list[str]:
        """See :meth:`Store.list_rooms`."""
        ids = self._call(_LIST, lambda: self._r.zrange(self._rooms_key, 0, -1))
        return [i.decode() for i in ids]

    def room_meta(self, room_id: str) -> Meta:
        """See :meth:`Store.room_meta`."""
        text = self._call(_READ, lambda: self._r.get(self._keys(room_id)[0]))
        if text is None:
            raise self._unknown(room_id)
        meta: Meta = json.loads(text)
        return meta

    def set_meta(self, room_id: str, meta: Meta) -> None:
        """See :meth:`Store.set_meta`; every process hears of it (:meth:`on_meta`)."""
        self._write_meta(room_id, json.dumps(meta, ensure_ascii=False))

    def update_meta(self, room_id: str, change: Callable[[Meta], Meta]) -> Meta:
        """Change the room's metadata atomically across processes: ``change(meta)`` returns the new
        metadata, and is called again on fresh data if another process changed it meanwhile."""
        meta_key = self._keys(room_id)[0]
        while True:
            text = self._call(_READ, lambda: self._r.get(meta_key))
            if text is None:
                raise self._unknown(room_id)
            meta: Meta = change(json.loads(text))
            if self._write_meta(room_id, json.dumps(meta, ensure_ascii=False), replaces=text.decode()):
                return meta

    def _write_meta(self, room_id: str, text: str, *, replaces: str | None = None) -> bool:
        """Write the room's metadata ``text`` (if it still is ``replaces``, when given: False if not).

        The write carries a deadline, as an append does. If Redis's answer is lost, the write may still
        be queued there: this waits out the deadline (after it, the write refuses itself) and reads the
        metadata back, so what it reports is what Redis holds -- saved, not saved, or not known.
        """
        meta_key = self._keys(room_id)[0]
        deadline = time.time() + self._clock_offset + self._timeout / 2
        args = [self.channel, room_id, text, repr(deadline), *([replaces] if replaces is not None else [])]
        try:
            status = self._call(_META, lambda: self._set_meta(keys=[meta_key], args=args))
        except StoreError as exc:
            if exc.key != "error.store.unavailable":
                raise
            unknown = NotKnownYet("The room store did not answer, so whether the change was saved is not "
                                 "known yet. Reload the page in a moment to see.", key="error.store.meta_unknown")
            if self._after_deadline(deadline, meta_key, unknown) == text.encode():
                return True  # it was saved before its deadline: the answer alone was lost
            raise  # not saved, and it never will be: its deadline has passed
        if status == 0:
            raise self._unknown(room_id)
        if status == 3:  # it reached Redis after its deadline: nothing was written
            raise unavailable()
        return bool(status == 1)

    def times_since(self, name: str, since: float) -> list[float]:
        """See :meth:`Store.times_since`: shared by every process on this Redis."""
        key = self._times_key(name)

        def read() -> list[tuple[bytes, float]]:
            pipe = self._r.pipeline()
            pipe.zremrangebyscore(key, "-inf", since)
            pipe.zrange(key, 0, -1, withscores=True)
            scored: list[tuple[bytes, float]] = pipe.execute()[1]
            return scored
        return [score for _, score in self._call(_LIMITS, read)]

    def note_time(self, name: str, when: float, keep: float) -> None:
        """See :meth:`Store.note_time` (the key expires ``keep`` seconds after its last time)."""
        key = self._times_key(name)
        member = f"{when!r}:{uuid.uuid4().hex}"  # two moments at one time are two
        self._call(_LIMITS, lambda: self._r.pipeline().zadd(key, {member: when})
                   .expire(key, max(1, math.ceil(keep))).execute())

    # -- presence, shared by every process ------------------------------------------------------
    def _presence_keys(self, room_id: str) -> list[str]:
        base = f"{self.prefix}room:{room_id}"
        return [f"{base}:pages", f"{base}:page_entries"]

    def note_presence(self, room_id: str, key: str, entry: Meta) -> None:
        """See :meth:`Store.note_presence`: in Redis, renewed by this process every
        :attr:`~_Listener.HEARTBEAT` seconds while the page is connected; every process hears of it."""
        text = json.dumps(entry, ensure_ascii=False, sort_keys=True)
        with self._announced_lock:
            self._announced[(room_id, str(key))] = text
        self._ensure_listener()
        self._call(_META, lambda: self._presence(keys=self._presence_keys(room_id),
                                                 args=[self.channel, room_id, self.PRESENCE_TTL, str(key), text]))

    def forget_presence(self, room_id: str, key: str) -> None:
        """See :meth:`Store.forget_presence`."""
        with self._announced_lock:
            self._announced.pop((room_id, str(key)), None)
        self._call(_META, lambda: self._presence(keys=self._presence_keys(room_id),
                                                 args=[self.channel, room_id, self.PRESENCE_TTL, str(key)]))

    def present(self, room_id: str) -> dict[str, Meta]:
        """See :meth:`Store.present`: the pages of every process, those not renewed in time left out."""
        flat = self._call(_READ, lambda: self._present_script(keys=self._presence_keys(room_id)))
        return {flat[i].decode(): json.loads(flat[i + 1]) for i in range(0, len(flat), 2)}

    def _renew_presence(self) -> None:
        """Renew this process's pages (the listener's heartbeat), and let rooms re-read who is here:
        another process's pages drop out once it stopped renewing them."""
        with self._announced_lock:
            announced = list(self._announced.items())
        if announced:
            def renew() -> None:
                pipe = self._r.pipeline(transaction=False)
                for (room_id, key), text in announced:
                    for name, value in zip(self._presence_keys(room_id), (None, text)):
                        if value is None:
                            pipe.zadd(name, {key: time.time() + self._clock_offset + self.PRESENCE_TTL})
                        else:
                            pipe.hset(name, key, value)
                        pipe.expire(name, math.ceil(2 * self.PRESENCE_TTL))
                pipe.execute()
            self._call(_META, renew)
        with self._presence_lock:
            rooms = list(self._presence_callbacks)
        for room_id in rooms:
            self._presence_changed(room_id)

    def _times_key(self, name: str) -> str:
        return f"{self.prefix}times:{name}"

    def close(self) -> None:
        """Stop listening and close the connections."""
        with self._listener_lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop()
        self._r.close()

    # -- following rooms across processes -----------------------------------------------------------
    def subscribe(self, room_id: str, callback: StoreCallback) -> Callable[[], None]:
        """Call ``callback(room_id, events)`` after every append to the room, by any process.

        Runs on the store's listener thread, in order, with the events read back from the room's
        stream (from where this process's subscribers of the room were). After the connection to
        Redis was lost and is back, the room is read again from there: nothing is missed.
        """
        listener = self._ensure_listener()
        listener.follow(room_id)
        unsubscribe = super().subscribe(room_id, callback)

        def done() -> None:
            unsubscribe()
            with self._sub_lock:
                if not self._subscribers.get(room_id):
                    self._subscribers.pop(room_id, None)
                    listener.unfollow(room_id)
        return done

    def on_meta(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(room_id)`` when a room's metadata changes (links reissued, ...), in any process."""
        listener = self._ensure_listener()
        return listener.on_meta(callback)

    def on_status(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``callback(available)`` when Redis becomes unreachable (False) or reachable again (True)."""
        self._ensure_listener()
        self._status_callbacks.append(callback)
        return lambda: self._status_callbacks.remove(callback) if callback in self._status_callbacks else None

    @property
    def available(self) -> bool:
        """Whether the listener is connected to Redis now (True before anything listens)."""
        return self._listener.connected if self._listener is not None else True

    def _ensure_listener(self) -> "_Listener":
        with self._listener_lock:
            if self._listener is None:
                self._listener = _Listener(self)
                self._listener.start()
            return self._listener

    def _status(self, available: bool) -> None:
        for callback in list(self._status_callbacks):
            try:
                callback(available)
            except Exception:
                log.exception("a store status callback failed")

    def __repr__(self) -> str:
        return f"RedisStore({describe_url(self.url)!r})"


class _Listener:
    """A :class:`RedisStore`'s thread: hears the store's channel and delivers rooms' new events in order."""

    #: Seconds between attempts to reach Redis again after the connection was lost.
    RETRY = 0.5
    #: Seconds the thread waits for a message before it checks whether it should stop.
    POLL = 0.25
    #: Seconds between renewals of this process's pages' presence (well within ``PRESENCE_TTL``).
    HEARTBEAT = 4.0

    def __init__(self, store: RedisStore):
        self.store = store
        self.connected = True
        self._seen: dict[str, int] = {}  # followed room -> last seq delivered
        self._meta: list[Callable[[str], None]] = []
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"raisus-redis-{store.prefix}", daemon=True)
        self._pubsub: Any = None  # redis's PubSub, made on the listener thread

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (it closes its own connection within :attr:`POLL` seconds)."""
        self._stopped.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def follow(self, room_id: str) -> None:
        with self._lock:
            if room_id in self._seen:
                return
        try:
            last = self.store.last_seq(room_id)
        except StoreError:
            last = 0  # unreachable or not there yet: deliver from the start of what appears
        with self._lock:
            self._seen.setdefault(room_id, last)

    def unfollow(self, room_id: str) -> None:
        with self._lock:
            self._seen.pop(room_id, None)

    def on_meta(self, callback: Callable[[str], None]) -> Callable[[], None]:
        with self._lock:
            self._meta.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._meta:
                    self._meta.remove(callback)
        return remove

    # -- the thread ------------------------------------------------------------------------------
    def _run(self) -> None:
        redis = _redis()
        while not self._stopped.is_set():
            try:
                self._pubsub = self.store._r.pubsub(ignore_subscribe_messages=True)
                self._pubsub.subscribe(self.store.channel)
                if not self.connected:
                    self.connected = True
                    log.info("the room store is reachable again")
                    self.store._status(True)
                self._catch_up_all()
                renewed = time.monotonic()
                while not self._stopped.is_set():
                    message = self._pubsub.get_message(timeout=min(self.POLL, self.HEARTBEAT))
                    if message is not None and message.get("type") == "message":
                        self._heard(message["data"].decode())
                    # HEARTBEAT is read on every pass, so a changed interval counts from the last renewal
                    # (not from a deadline fixed when the loop began)
                    if time.monotonic() - renewed >= self.HEARTBEAT:
                        renewed = time.monotonic()
                        self.store._renew_presence()
            except (redis.ConnectionError, redis.TimeoutError, OSError, StoreError) as exc:
                if isinstance(exc, StoreError) and exc.key != "error.store.unavailable":
                    log.error("the room store's listener could not read a room: %s", exc)
                    self._stopped.wait(self.RETRY)
                    continue
                if self._stopped.is_set():
                    return
                if self.connected:
                    self.connected = False
                    log.warning("the room store cannot be reached; retrying")
                    self.store._status(False)
                self._stopped.wait(self.RETRY)
            except Exception:  # never let the thread die: rooms would stop following
                log.exception("the room store's listener failed; restarting it")
                self._stopped.wait(self.RETRY)
            finally:
                try:
                    if self._pubsub is not None:
                        self._pubsub.close()
                except Exception:
                    pass

    def _heard(self, data: str) -> None:
        room_id, _, what = data.partition(" ")
        if what == "presence":
            self.store._presence_changed(room_id)
            return
        if what == "meta":
            with self._lock:
                callbacks = list(self._meta)
            for callback in callbacks:
                try:
                    callback(room_id)
                except Exception:
                    log.exception("a room metadata callback failed")
            return
        with self._lock:
            followed = room_id in self._seen
        if followed:
            self._deliver(room_id)

    def _catch_up_all(self) -> None:
        with self._lock:
            rooms = list(self._seen)
        for room_id in rooms:
            self._deliver(room_id)
        with self._lock:
            callbacks = list(self._meta)
        for room_id in rooms:  # links may have changed while nothing was heard
            for callback in callbacks:
                try:
                    callback(room_id)
                except Exception:
                    log.exception("a room metadata callback failed")

    def _deliver(self, room_id: str) -> None:
        """Read the room's events after the last delivered and give them to its subscribers."""
        with self._lock:
            seen = self._seen.get(room_id)
        if seen is None:
            return
        try:
            events = self.store.read(room_id, from_seq=seen)
        except UnknownRoom:
            return
        if not events:
            return
        with self._lock:
            if room_id not in self._seen:
                return
            self._seen[room_id] = events[-1]["seq"]
        self.store._published(room_id, events)


__all__ = ["RedisStore", "RoomExists", "describe_url", "unavailable"]
