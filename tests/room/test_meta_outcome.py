"""Issue 21 (faults and abuse), for a room's metadata -- its links: a change the page is told was not
saved must never land later, and one whose answer was lost is learned from what Redis holds.

Against a real ``redis-server``: a paused Redis (SIGSTOP, then SIGCONT: the queued write runs late and
refuses itself by its deadline), and a network stall (a TCP relay that holds Redis's answers, so the
write lands in time and only its reply is lost). The case that matters most is a GM replacing their
link: had the new link's hash landed after the page said "nothing was saved", the GM would be locked
out of their own room with a link nobody was ever shown.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from raisus_panel.i18n import translate
from raisus_panel.room import RoomRegistry, StoreError
from raisus_panel.room.redis_store import RedisStore
from raisus_panel.room.tokens import hash_token
from raisus_panel.rules import RuleError

from .test_outcome_unknown import StallingRelay
from .test_stores import eventually


@pytest.fixture
def relay(redis_server, redis_url):
    made = StallingRelay(redis_server.port)
    yield made
    made.close()


def test_a_gm_link_replaced_while_redis_is_paused_never_lands_later(redis_server, redis_url):
    store = RedisStore(redis_url, timeout=1.0)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Inn")
        before = store.room_meta(room.room_id)

        def new_gm_hash(meta):  # the link's change, read in time; Redis stops just before it is written
            os.kill(redis_server.proc.pid, signal.SIGSTOP)
            return {**meta, "auth": {**meta["auth"], "gm": hash_token("a new GM link")}}
        try:
            with pytest.raises(StoreError) as caught:
                store.update_meta(room.room_id, new_gm_hash)
        finally:
            os.kill(redis_server.proc.pid, signal.SIGCONT)
        # Redis could not be read back either: "not known yet", never "nothing was saved"
        assert caught.value.key == "error.store.meta_unknown"
        assert "not known yet" in translate(caught.value, "en") and "Nothing was saved" not in str(caught.value)
        assert "아직 알 수 없습니다" in translate(caught.value, "ko")
        # the write queued in the paused Redis runs now, past its deadline: it refuses itself
        assert eventually(lambda: store.room_meta(room.room_id), timeout=10) == before
        assert registry.resolve(links.gm)[0].room_id == room.room_id  # the old GM link still opens the room
        assert registry.replace_gm_link(registry.open_session(links.gm))  # and replacing it works now
    finally:
        store.close()


def test_a_link_change_while_redis_is_paused_from_the_start_is_not_saved(redis_server, redis_url):
    store = RedisStore(redis_url, timeout=1.0)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Inn")
        gm = registry.open_session(links.gm)
        os.kill(redis_server.proc.pid, signal.SIGSTOP)
        try:
            with pytest.raises(StoreError) as caught:
                registry.replace_gm_link(gm)
        finally:
            os.kill(redis_server.proc.pid, signal.SIGCONT)
        # its first read did not get through, so nothing was sent: "nothing was saved" is the truth
        assert caught.value.key == "error.store.unavailable"
        assert registry.resolve(links.gm)[0].room_id == room.room_id
    finally:
        store.close()


def test_a_link_change_whose_answer_is_lost_but_which_landed_is_reported_saved(relay, redis_url):
    store, truth = RedisStore(relay.url, timeout=1.0), RedisStore(redis_url)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Inn")

        def new_gm_hash(meta):  # read in time; the write then reaches Redis, its answer is held
            relay.stalled.set()
            threading.Timer(1.3, relay.stalled.clear).start()  # past the timeout: then the network recovers
            return {**meta, "auth": {**meta["auth"], "gm": hash_token("a new GM link")}}
        started = time.monotonic()
        saved = store.update_meta(room.room_id, new_gm_hash)
        assert time.monotonic() - started >= 1.0  # its answer was lost: the store timed out, then read back
        # the caller is told the truth: saved (read back once the write's deadline had passed)
        assert saved["auth"]["gm"] == hash_token("a new GM link") == truth.room_meta(room.room_id)["auth"]["gm"]
        with pytest.raises(RuleError):
            RoomRegistry(truth).resolve(links.gm)  # the old link no longer opens the room
    finally:
        relay.stalled.clear()
        store.close()
        truth.close()


def test_a_metadata_write_that_reaches_redis_after_its_deadline_is_refused(redis_url):
    store = RedisStore(redis_url, timeout=1.0)
    try:
        store.create_room("r1", {"title": "Inn"})
        args = [store.channel, "r1", '{"title": "Late"}', "0"]  # a deadline long gone
        assert store._set_meta(keys=[store._keys("r1")[0]], args=args) == 3
        assert store.room_meta("r1") == {"title": "Inn"}
    finally:
        store.close()

