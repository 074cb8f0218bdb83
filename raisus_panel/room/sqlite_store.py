"""The embedded default store: every room's events in one SQLite file.

One file holds any number of rooms. The file is in WAL mode with ``synchronous=FULL``: each append is
one transaction whose commit is synced to disk before :meth:`SQLiteStore.append` returns, so a command
that returned survives a crash of the process *and* a power cut (``NORMAL`` would survive only the
former, and a lost command is worse than a slower click: an append costs about one fsync).

The file is recognised by SQLite's ``application_id`` and our ``store_info`` table. Any other file --
not SQLite, or someone else's SQLite database -- is refused before anything is written to it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from raisus_panel.rules.errors import Phrase

from .errors import NotOurDatabase, StoreError, UnknownRoom
from .events import Event
from .store import Meta, Store, check_room_id, check_sequence, encode_event, room_exists

T = TypeVar("T")

#: What the store was doing, for "Could not ..." messages.
_CREATE = Phrase("create the room", "term.store.create")
_APPEND = Phrase("save the room's events", "term.store.append")
_READ = Phrase("read the room", "term.store.read")
_LIST = Phrase("list rooms", "term.store.list")
_META = Phrase("save the room's details", "term.store.meta")

#: ``PRAGMA application_id`` of our files: "RSUS".
APPLICATION_ID = 0x52535553
#: The schema this code writes and reads.
SCHEMA_VERSION = 1
STORE_FORMAT = "raisus_panel/room-store"
_SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms (
    room_id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    meta TEXT NOT NULL
);
CREATE TABLE events (
    room_id TEXT NOT NULL REFERENCES rooms(room_id),
    seq INTEGER NOT NULL CHECK (seq > 0),
    body TEXT NOT NULL,
    PRIMARY KEY (room_id, seq)
) WITHOUT ROWID;
"""


class SQLiteStore(Store):
    """Rooms' event logs in one SQLite file (created when missing).

    Parameters
    ----------
    path
        The database file. A missing or empty file becomes a new store.

    Raises
    ------
    NotOurDatabase
        If the file is not SQLite, is another application's database, or comes from a newer
        raisus_panel. The file is not modified.

    Notes
    -----
    One connection is shared by the threads of this process behind a lock (SQLite serialises
    writers anyway, and a command's append is one short transaction). Several processes may open
    the same file: ``BEGIN IMMEDIATE`` plus the ``(room_id, seq)`` primary key make a second writer
    of the same room fail with :class:`~.errors.SequenceConflict` instead of forking the log.
    """

    def __init__(self, path: str | os.PathLike[str]):
        super().__init__()
        self.path = Path(path)
        self._lock = threading.RLock()
        new = self._check_file()
        try:
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the room database {self.path.name}: {exc}", key="error.store.cannot_open",
                             file=self.path.name, detail=str(exc)) from None
        if not new:
            new = self._check_ours(self._db)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        if new:
            self._create_schema()

    # -- opening ---------------------------------------------------------------------------------
    def _check_file(self) -> bool:
        """True for a new store; NotOurDatabase for a file that is not SQLite (read only)."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return True
        if self.path.is_dir():
            raise NotOurDatabase(f"{self.path.name} is a folder, not a room database file.", key="error.store.folder",
                                 file=self.path.name)
        with open(self.path, "rb") as fh:
            header = fh.read(len(_SQLITE_HEADER))
        if header != _SQLITE_HEADER:
            raise NotOurDatabase(f"{self.path.name} is not a raisus_panel room database (not an SQLite "
                                 "file); it was left untouched. Choose another file name.",
                                 key="error.store.not_sqlite", file=self.path.name)
        return False

    def _check_ours(self, db: sqlite3.Connection) -> bool:
        """Reads only: refuse someone else's database before any pragma could write to it.

        Returns True for an empty SQLite file, which becomes a new store.
        """
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if app_id == 0 and not tables:  # an empty SQLite file: ours to set up
                return True
            if app_id != APPLICATION_ID or "store_info" not in tables:
                raise NotOurDatabase(f"{self.path.name} is another program's SQLite database, not a "
                                     "raisus_panel room store; it was left untouched.", key="error.store.foreign",
                                     file=self.path.name)
            info = dict(db.execute("SELECT key, value FROM store_info"))
        except sqlite3.DatabaseError as exc:
            db.close()
            raise NotOurDatabase(f"{self.path.name} cannot be read as a room database ({exc}); it was "
                                 "left untouched.", key="error.store.unreadable", file=self.path.name,
                                 detail=str(exc)) from None
        except NotOurDatabase:
            db.close()
            raise
        version = int(info.get("version", 0))
        if info.get("format") != STORE_FORMAT or version > SCHEMA_VERSION:
            db.close()
            raise NotOurDatabase(f"{self.path.name} is a room store of version {version}; this "
                                 f"raisus_panel reads version {SCHEMA_VERSION}. Update raisus_panel.",
                                 key="error.store.version", file=self.path.name, version=version,
                                 supported=SCHEMA_VERSION)
        return False

    def _create_schema(self) -> None:
        with self._lock, self._transaction() as db:
            exists = db.execute("SELECT 1 FROM sqlite_master WHERE name='store_info'").fetchone()
            if exists:  # another process set the file up first
                return
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.executemany("INSERT INTO store_info VALUES (?, ?)",
                           [("format", STORE_FORMAT), ("version", str(SCHEMA_VERSION))])
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taking SQLite's write lock up front; rolled back on any error."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def _call(self, what: Phrase, fn: Callable[[], T]) -> T:
        """Run ``fn`` under the lock, turning SQLite's errors into StoreError (nothing written)."""
        with self._lock:
            try:
                return fn()
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"Could not {what}: {exc}. Nothing was saved.", key="error.store.refused",
                                 what=what, detail=str(exc)) from None
            except sqlite3.Error as exc:
                raise StoreError(f"Could not {what} ({exc}); nothing was saved. Check the disk and "
                                 "try again.", key="error.store.failed", what=what, detail=str(exc)) from None

    def _unknown(self, room_id: str) -> UnknownRoom:
        return UnknownRoom(f"There is no room {room_id!r} in {self.path.name}.", key="error.store.unknown_room_in",
                           room=repr(room_id), file=self.path.name)

    def _last_seq(self, db: sqlite3.Connection, room_id: str) -> int:
        if not db.execute("SELECT 1 FROM rooms WHERE room_id=?", (room_id,)).fetchone():
            raise self._unknown(room_id)
        last: int = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE room_id=?", (room_id,)).fetchone()[0]
        return last

    # -- the Store interface -----------------------------------------------------------------------
    def create_room(self, room_id: str, meta: Meta, events: Iterable[Event] = ()) -> None:
        """See :meth:`Store.create_room`."""
        check_room_id(room_id)
        events = list(events)
        check_sequence(events, 0)
        rows = [(room_id, e["seq"], encode_event(e)) for e in events]
        meta_text = json.dumps(meta, ensure_ascii=False)

        def create() -> None:
            with self._transaction() as db:
                if db.execute("SELECT 1 FROM rooms WHERE room_id=?", (room_id,)).fetchone():
                    raise room_exists(room_id)
                db.execute("INSERT INTO rooms VALUES (?, ?, ?)", (room_id, time.time(), meta_text))
                db.executemany("INSERT INTO events VALUES (?, ?, ?)", rows)
        self._call(_CREATE, create)
        if events:
            self._published(room_id, events)

    def append(self, room_id: str, events: list[Event]) -> int:
        """See :meth:`Store.append`. Committed (and synced) before it returns."""
        events = list(events)
        rows = [(room_id, e.get("seq"), encode_event(e)) for e in events]

        def append() -> int:
            with self._transaction() as db:
                last = check_sequence(events, self._last_seq(db, room_id))
                db.executemany("INSERT INTO events VALUES (?, ?, ?)", rows)
                return last
        last = self._call(_APPEND, append)
        if events:
            self._published(room_id, events)
        return last

    def read(self, room_id: str, from_seq: int = 0) -> list[Event]:
        """See :meth:`Store.read`."""
        def read() -> list[tuple[str]]:
            self._last_seq(self._db, room_id)
            return self._db.execute("SELECT body FROM events WHERE room_id=? AND seq>? ORDER BY seq",
                                    (room_id, from_seq)).fetchall()
        return [json.loads(body) for (body,) in self._call(_READ, read)]

    def list_rooms(self) -> list[str]:
        """See :meth:`Store.list_rooms`."""
        rows = self._call(_LIST, lambda: self._db.execute(
            "SELECT room_id FROM rooms ORDER BY created, room_id").fetchall())
        return [r[0] for r in rows]

    def room_meta(self, room_id: str) -> Meta:
        """See :meth:`Store.room_meta`."""
        row = self._call(_READ, lambda: self._db.execute(
            "SELECT meta FROM rooms WHERE room_id=?", (room_id,)).fetchone())
        if row is None:
            raise self._unknown(room_id)
        meta: Meta = json.loads(row[0])
        return meta

    def set_meta(self, room_id: str, meta: Meta) -> None:
        """See :meth:`Store.set_meta`."""
        text = json.dumps(meta, ensure_ascii=False)

        def update() -> None:
            with self._transaction() as db:
                if db.execute("UPDATE rooms SET meta=? WHERE room_id=?", (text, room_id)).rowcount != 1:
                    raise self._unknown(room_id)
        self._call(_META, update)

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path.name!r})"
