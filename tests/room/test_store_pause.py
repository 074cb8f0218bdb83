"""A Redis paused (SIGSTOP) past the client's timeout: a command the page is told was refused is never applied."""

from __future__ import annotations

import os
import signal
import time

from raisus_panel.room import StoreError
from raisus_panel.room.redis_store import RedisStore

from .conftest import Table


def test_an_append_refused_during_a_pause_is_not_applied_on_resume(redis_server, redis_url):
    store = RedisStore(redis_url, timeout=1.0)
    try:
        t = Table(store=store)
        before = t.room.seq
        os.kill(redis_server.proc.pid, signal.SIGSTOP)
        try:
            refused = False
            try:
                t.char("Viking", t.alice, Viking=4)
            except StoreError:
                refused = True
        finally:
            time.sleep(0.5)
            os.kill(redis_server.proc.pid, signal.SIGCONT)
        time.sleep(0.5)
        logged = store.last_seq(t.room.room_id)
        assert refused
        assert logged == before  # told "nothing was saved", and nothing was
        t.char("Viking", t.alice, Viking=4)  # the GM tries again: it is made once, not twice
        added = store.read(t.room.room_id, before)
        assert added and len({e["cmd_id"] for e in added}) == 1
        assert store.last_seq(t.room.room_id) == t.room.seq
    finally:
        store.close()


def test_a_server_clock_ahead_of_redis_still_appends(redis_server, redis_url, monkeypatch):
    """The append's deadline is set on Redis's clock: a server host whose clock runs 30 s ahead of (or
    behind) Redis's neither has every append refused as late nor loses the guard."""
    from raisus_panel.room import redis_store

    for skew in (30.0, -30.0):
        monkeypatch.setattr(redis_store.time, "time", lambda skew=skew, real=time.time: real() + skew)
        store = RedisStore(redis_url, timeout=1.0)
        try:
            assert abs(store._clock_offset + skew) < 1.0
            t = Table(store=store)
            before = t.room.seq
            t.char(f"Viking{int(skew)}", t.alice, Viking=4)
            assert store.last_seq(t.room.room_id) == t.room.seq > before
        finally:
            store.close()
        monkeypatch.undo()
