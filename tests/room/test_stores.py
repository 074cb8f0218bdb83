"""The store contract, for the memory, SQLite and Redis stores alike; SQLite's and Redis's own promises."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time

import pytest

from raisus_panel.room import (
    MemoryStore,
    NotOurDatabase,
    RoomExists,
    SequenceConflict,
    SQLiteStore,
    StoreError,
    UnknownRoom,
)
from raisus_panel.room.sqlite_store import APPLICATION_ID


def ev(seq: int, **data) -> dict:
    return {"seq": seq, "type": "note", **data}


@pytest.fixture(params=["memory", "sqlite", "redis"])
def store(request, tmp_path):
    if request.param == "redis":
        from raisus_panel.room.redis_store import RedisStore
        s = RedisStore(request.getfixturevalue("redis_url"))
    else:
        s = MemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "rooms.sqlite")
    yield s
    s.close()


def eventually(check, timeout: float = 10.0):
    """Wait until ``check()`` is true (a shared store delivers on its own thread); return its value."""
    deadline = time.monotonic() + timeout
    while not (value := check()) and time.monotonic() < deadline:
        time.sleep(0.01)
    return value


def test_create_append_read(store):
    store.create_room("r1", {"title": "Inn"}, [ev(1, text="hello 안녕")])
    assert store.append("r1", [ev(2), ev(3)]) == 3
    assert [e["seq"] for e in store.read("r1")] == [1, 2, 3]
    assert [e["seq"] for e in store.read("r1", from_seq=2)] == [3]
    assert store.read("r1")[0]["text"] == "hello 안녕"
    assert store.append("r1", []) == 3
    store.create_room("r2", {"title": "Keep"})
    assert store.list_rooms() == ["r1", "r2"]
    assert store.room_meta("r1") == {"title": "Inn"}
    store.set_meta("r1", {"title": "Inn", "auth": {"gm": "abc"}})
    assert store.room_meta("r1")["auth"] == {"gm": "abc"}


def test_sequence_numbers_are_unique_and_gap_free(store):
    store.create_room("r", {}, [ev(1)])
    with pytest.raises(SequenceConflict):
        store.append("r", [ev(1)])
    with pytest.raises(SequenceConflict):
        store.append("r", [ev(3)])
    with pytest.raises(SequenceConflict):  # all or nothing: the good first event is not kept
        store.append("r", [ev(2), ev(4)])
    assert [e["seq"] for e in store.read("r")] == [1]


def test_unknown_and_duplicate_rooms(store):
    store.create_room("r", {})
    with pytest.raises(RoomExists):
        store.create_room("r", {}, [ev(1)])
    assert store.read("r") == []
    for call in (lambda: store.read("nope"), lambda: store.append("nope", [ev(1)]),
                 lambda: store.room_meta("nope"), lambda: store.set_meta("nope", {})):
        with pytest.raises(UnknownRoom):
            call()
    with pytest.raises(StoreError):
        store.create_room("bad id!", {})


def test_subscribe_and_unsubscribe(store):
    store.create_room("r", {})
    got = []
    unsubscribe = store.subscribe("r", lambda room_id, events: got.append((room_id, [e["seq"] for e in events])))
    store.append("r", [ev(1), ev(2)])
    assert eventually(lambda: got)
    unsubscribe()
    store.append("r", [ev(3)])
    time.sleep(0.2 if store.shared else 0)
    assert got == [("r", [1, 2])]


def test_metadata_changes_in_one_step(store):
    store.create_room("r", {"title": "Inn", "n": 0})

    def bump(meta):
        return {**meta, "n": meta["n"] + 1}
    threads = [threading.Thread(target=lambda: [store.update_meta("r", bump) for _ in range(20)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.room_meta("r") == {"title": "Inn", "n": 80}


def test_threads_append_to_their_own_rooms(store):
    rooms = [f"r{i}" for i in range(8)]
    for r in rooms:
        store.create_room(r, {})

    def writer(room_id):
        for seq in range(1, 26):
            store.append(room_id, [ev(seq)])
    threads = [threading.Thread(target=writer, args=(r,)) for r in rooms]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all([e["seq"] for e in store.read(r)] == list(range(1, 26)) for r in rooms)


# ------------------------------------------------------------------------------- SQLite only --
def test_sqlite_is_wal_synchronous_full_and_marked_as_ours(tmp_path):
    store = SQLiteStore(tmp_path / "rooms.sqlite")
    db = store._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert dict(db.execute("SELECT key, value FROM store_info")) == {"format": "raisus_panel/room-store",
                                                                      "version": "1"}
    pk = [r for r in db.execute("PRAGMA table_info(events)") if r[5]]
    assert [r[1] for r in sorted(pk, key=lambda r: r[5])] == ["room_id", "seq"]
    store.close()


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("content", [b"hello, I am a text file\n", bytes(range(256)) * 8,
                                     b"SQLite format 3"])
def test_sqlite_refuses_files_that_are_not_databases(tmp_path, content):
    path = tmp_path / "notes.sqlite"
    path.write_bytes(content)
    before = _digest(path)
    with pytest.raises(NotOurDatabase, match="left untouched"):
        SQLiteStore(path)
    assert _digest(path) == before and sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite"]


def test_sqlite_refuses_someone_elses_database(tmp_path):
    path = tmp_path / "theirs.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    db.execute("INSERT INTO invoices VALUES (1, 9.5)")
    db.commit()
    db.close()
    before = _digest(path)
    with pytest.raises(NotOurDatabase, match="another program's"):
        SQLiteStore(path)
    assert _digest(path) == before
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_sqlite_refuses_a_newer_store(tmp_path):
    path = tmp_path / "rooms.sqlite"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE store_info SET value='99' WHERE key='version'")
    db.commit()
    db.close()
    with pytest.raises(NotOurDatabase, match="version 99"):
        SQLiteStore(path)


def test_sqlite_takes_an_empty_file_and_reopens_its_own(tmp_path):
    path = tmp_path / "rooms.sqlite"
    path.write_bytes(b"")
    store = SQLiteStore(path)
    store.create_room("r", {"title": "x"}, [ev(1)])
    store.close()
    again = SQLiteStore(path)
    assert again.read("r") == [ev(1)] and again.list_rooms() == ["r"]
    again.close()


def test_two_stores_on_one_file_cannot_fork_a_room(tmp_path):
    path = tmp_path / "rooms.sqlite"
    a, b = SQLiteStore(path), SQLiteStore(path)
    a.create_room("r", {}, [ev(1)])
    a.append("r", [ev(2)])
    with pytest.raises(SequenceConflict):
        b.append("r", [ev(2, by="b")])
    assert [e.get("by") for e in b.read("r")] == [None, None]
    a.close()
    b.close()
