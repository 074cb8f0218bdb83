"""Issue 21 (faults and abuse), for making a room: a create whose answer is lost is learned from what
Redis holds, never guessed.

Before, the lobby's create on Redis took a lost answer for "nothing was saved": the room could still
have been made, so the person made another, and the first stayed with links nobody was shown. A
create now carries a deadline, as an append and a link change do: one that reaches Redis late refuses
itself, so once the deadline has passed, what Redis holds is the answer. Against a real
``redis-server``: a stall of the network (a relay that holds Redis's answers) and a paused Redis
(SIGSTOP).
"""

from __future__ import annotations

import hashlib
import os
import signal
import threading

import pytest

from raisus_panel.i18n import translate
from raisus_panel.room import NotKnownYet, RoomRegistry, StoreError
from raisus_panel.room.redis_store import _CREATE_LUA, RedisStore

from .test_stores import eventually

#: What a create sends to Redis: its script's SHA (redis-py runs a registered script by EVALSHA).
CREATE_SHA = hashlib.sha1(_CREATE_LUA.encode()).hexdigest().encode()


def test_a_room_made_whose_answer_is_lost_is_reported_made_with_links_that_open_it(relay, redis_url):
    store, truth = RedisStore(relay.url, timeout=1.0), RedisStore(redis_url)
    try:
        registry = RoomRegistry(store)
        registry.create_room("Earlier")  # Redis knows the script now (a first EVALSHA would be refused)
        relay.stall_after(CREATE_SHA, 1.4)  # the create runs in Redis; its answer comes after the timeout
        room, links = registry.create_room("Inn", gm_name="Gina")
        assert not relay.stalled.is_set()  # the answer was really held past the timeout, then read back
        assert room.room_id in truth.list_rooms()
        opened = RoomRegistry(truth).open_session(links.gm)  # the links the person is shown open the room
        assert opened.room.room_id == room.room_id and opened.room.title == "Inn"
    finally:
        store.close()
        truth.close()


def test_a_create_not_known_yet_says_so_and_never_lands_later(redis_server, redis_url):
    store = RedisStore(redis_url, timeout=1.0)
    try:
        before = store.list_rooms()
        os.kill(redis_server.proc.pid, signal.SIGSTOP)  # the create is sent and waits in the paused Redis
        try:
            with pytest.raises(StoreError) as caught:
                store.create_room("r-paused", {"title": "Inn"})
        finally:
            os.kill(redis_server.proc.pid, signal.SIGCONT)
        # Redis could not be read back either: "not known yet", never "nothing was saved"
        assert caught.value.key == "error.store.create_unknown" and isinstance(caught.value, NotKnownYet)
        assert "not known yet" in translate(caught.value, "en") and "Nothing was saved" not in str(caught.value)
        assert "아직 알 수 없습니다" in translate(caught.value, "ko")
        # the queued create runs now, past its deadline: it refuses itself, and stays refused
        assert eventually(lambda: store.list_rooms() == before, timeout=10)
        assert "r-paused" not in store.list_rooms()
    finally:
        store.close()


def test_a_create_that_reaches_redis_late_is_told_not_made_and_is_not(redis_server, redis_url):
    store = RedisStore(redis_url, timeout=2.0)
    try:
        os.kill(redis_server.proc.pid, signal.SIGSTOP)
        # Redis wakes before the store gives up (2 s), after the create's deadline (1 s)
        threading.Timer(1.5, os.kill, (redis_server.proc.pid, signal.SIGCONT)).start()
        with pytest.raises(StoreError) as caught:
            store.create_room("r-late", {"title": "Inn"})
        assert caught.value.key == "error.store.unavailable"  # the truth: nothing was made
        assert "r-late" not in store.list_rooms()
    finally:
        os.kill(redis_server.proc.pid, signal.SIGCONT)
        store.close()


def test_a_create_past_its_deadline_is_refused_by_redis(redis_url):
    store = RedisStore(redis_url)
    try:
        keys = [*store._keys("r-old"), store._rooms_key]
        assert store._create(keys=keys, args=[store.channel, "r-old", "{}", "0", "0"]) == 2  # a deadline long gone
        assert "r-old" not in store.list_rooms()
    finally:
        store.close()
