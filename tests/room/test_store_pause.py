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


def test_while_a_command_waits_on_a_paused_store_the_room_still_answers_its_readers(redis_server, redis_url):
    """A served page asks the room what may be done, and reads its log and checks, on the event loop
    every page shares: a command holding the room while Redis does not answer must not stop them."""
    import threading

    store = RedisStore(redis_url, timeout=3.0)
    try:
        t = Table(rolls=[[6, 5, 4, 3]], store=store)
        viking = t.char("Viking", t.alice, Viking=4)
        t.act(t.alice, "action_check", character=viking, cliche="Viking", tn=5)
        # asked before the command: this answer is the state shown
        refused_before = _refusal(t.room, t.spectator)
        seq = t.room.seq
        os.kill(redis_server.proc.pid, signal.SIGSTOP)
        outcome: dict = {}
        try:
            waiting = threading.Thread(target=lambda: outcome.update(
                error=_raised(lambda: t.char("Ogre", None, Ogre=4))))
            waiting.start()
            time.sleep(0.3)  # the command holds the room now, waiting on Redis
            assert waiting.is_alive()
            took = {}
            start = time.monotonic()
            assert len(t.room.visible_events(t.spectator)) > 0
            took["visible_events"] = time.monotonic() - start
            start = time.monotonic()
            assert len(t.room.checks_for(t.gm)) == 1
            took["checks_for"] = time.monotonic() - start
            start = time.monotonic()
            # the refusal shown before is still the answer; a question not asked yet looks allowed
            assert _refusal(t.room, t.spectator) == refused_before is not None
            assert _refusal(t.room, t.gm) is None
            took["check"] = time.monotonic() - start
            assert max(took.values()) < 0.5, took
        finally:
            os.kill(redis_server.proc.pid, signal.SIGCONT)
        waiting.join(30)
        assert isinstance(outcome.get("error"), (StoreError, type(None)))
        if outcome.get("error") is None:
            assert t.room.seq > seq
    finally:
        store.close()


def _refusal(room, actor):
    """The message :meth:`Room.check` raises for ``actor`` creating a character, or None."""
    try:
        room.check(actor, "create_character", {"name": "Y", "kind": "character", "owner": "",
                                               "cliches": [{"name": "Y", "rating": 2}]})
    except Exception as exc:  # noqa: BLE001 - the refusal is what is compared
        return str(exc)
    return None


def _raised(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001
        return exc
    return None


def test_a_command_behind_one_stuck_on_its_store_is_refused_at_once_and_changes_nothing(redis_server, redis_url):
    """Queued behind a command waiting on a paused Redis, a second one would be decided seconds after
    its click, on a table its person no longer sees (and hold their page's worker meanwhile): it is
    refused within :attr:`Room.APPLY_WAIT`, says why in both languages, and never lands later."""
    import threading

    from raisus_panel.i18n import translate

    store = RedisStore(redis_url, timeout=6.0)
    try:
        t = Table(store=store)
        seq = t.room.seq
        os.kill(redis_server.proc.pid, signal.SIGSTOP)
        outcome: dict = {}
        try:
            first = threading.Thread(target=lambda: outcome.update(first=_raised(lambda: t.char("Ogre", None, Ogre=4))))
            first.start()
            time.sleep(0.3)  # the GM's command holds the room now, waiting on Redis
            start = time.monotonic()
            second = _raised(lambda: t.char("Viking", t.alice, Viking=4))
            waited = time.monotonic() - start
        finally:
            os.kill(redis_server.proc.pid, signal.SIGCONT)
        first.join(30)
        assert isinstance(second, StoreError) and second.key == "error.room.busy", second
        assert waited < t.room.APPLY_WAIT + 1.0
        assert "nothing was changed" in translate(second, "en") and "아무것도 바뀌지 않았습니다" in translate(second, "ko")
        time.sleep(0.5)
        names = [e["character"]["name"] for e in store.read(t.room.room_id, seq) if e.get("type") == "character_created"]
        assert "Viking" not in names  # refused, and never applied afterwards
        t.char("Viking", t.alice, Viking=4)  # once the store answers, the same move is made, once
        assert [c.name for c in t.room.characters].count("Viking") == 1
    finally:
        store.close()


def test_while_a_join_waits_on_a_paused_store_the_registry_still_answers_from_memory(redis_server, redis_url):
    """The registry serves every room of the process: a join (or a link change) waiting on Redis must
    not hold up what it answers from memory -- a loaded room for a page that reconnects, the open
    sessions the store's listener closes when another process revokes a link."""
    import threading

    from raisus_panel.room import RoomRegistry

    store = RedisStore(redis_url, timeout=3.0)
    try:
        registry = RoomRegistry(store)
        inn, inn_links = registry.create_room("Inn", gm_name="Gina")
        keep, keep_links = registry.create_room("Keep", gm_name="Kai")
        watching = registry.open_session(keep_links.spectator)
        os.kill(redis_server.proc.pid, signal.SIGSTOP)
        outcome: dict = {}
        try:
            joining = threading.Thread(target=lambda: outcome.update(
                error=_raised(lambda: registry.join(inn_links.player, "Ann"))))
            joining.start()
            time.sleep(0.3)  # the join waits on Redis now
            assert joining.is_alive()
            took = {}
            start = time.monotonic()
            assert registry.get(keep.room_id) is keep
            took["get"] = time.monotonic() - start
            start = time.monotonic()
            assert registry.sessions(keep.room_id) == [watching]
            took["sessions"] = time.monotonic() - start
            assert max(took.values()) < 0.5, took
        finally:
            os.kill(redis_server.proc.pid, signal.SIGCONT)
        joining.join(30)
        assert not joining.is_alive()
    finally:
        store.close()
