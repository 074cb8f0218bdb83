"""Issue 21 (faults and abuse): who is at the table is the room's, not a process's.

With two server processes on one Redis the GM saw only the players connected through their own
process. Presence is now kept in the store: each :class:`RedisStore` here is what one process opens
(its own connections and listener), on a real ``redis-server``; the embedded stores keep the same
interface in their one process.
"""

from __future__ import annotations

import time

from raisus_panel.room import Actor, MemoryStore, Room
from raisus_panel.room.redis_store import RedisStore

from .test_stores import eventually


def names(room: Room) -> set[str]:
    return {entry["name"] for entry in room.presence.values()}


def test_a_page_on_one_process_is_present_on_the_other_until_it_leaves(stores):
    a = Room.create(stores[0], "Two processes")
    b = Room.load(stores[1], a.room_id)
    a.connect(Actor.gm("Gina"), "gm-page")
    b.connect(Actor.player("p1", "Ann"), "ann-page")
    assert eventually(lambda: names(a) == {"Gina", "Ann"}), a.presence
    assert eventually(lambda: names(b) == {"Gina", "Ann"}), b.presence
    assert a.presence["ann-page"]["role"] == "player" and a.presence["ann-page"]["player_id"] == "p1"
    b.disconnect("ann-page")
    assert eventually(lambda: names(a) == {"Gina"}), a.presence
    b.disconnect("ann-page")  # twice is harmless
    assert names(b) == {"Gina"}


def test_a_process_that_died_loses_its_pages_after_the_ttl(stores, redis_url):
    a = Room.create(stores[0], "One dies")
    dying = RedisStore(redis_url)
    dying.PRESENCE_TTL = 1.5  # its entries last 1.5 s unless renewed
    b = Room.load(dying, a.room_id)
    b.connect(Actor.player("p1", "Ann"), "ann-page")
    assert eventually(lambda: "Ann" in names(a)), a.presence
    dying.close()  # no disconnect, no renewal: as a SIGKILLed process
    # the other process's heartbeat re-reads the room: Ann is gone within the TTL and a heartbeat
    assert eventually(lambda: "Ann" not in names(a), timeout=15), a.presence


def test_renewed_pages_stay_past_the_ttl(stores):
    stores[1].PRESENCE_TTL = 1.0
    listener = stores[1]._ensure_listener()
    time.sleep(0.3)  # its thread is in its loop: a changed interval must count from there (it once waited 4 s)
    listener.HEARTBEAT = 0.3  # renewed well within the TTL, as the defaults are (4 s in 15)
    a = Room.create(stores[0], "Renewed")
    b = Room.load(stores[1], a.room_id)
    b.connect(Actor.player("p1", "Ann"), "ann-page")
    assert eventually(lambda: "Ann" in names(a))
    time.sleep(3.0)  # three TTLs
    assert stores[0].present(a.room_id).keys() == {"ann-page"}
    assert "Ann" in names(a)


def test_an_embedded_store_keeps_the_same_presence_in_its_process():
    store = MemoryStore()
    room = Room.create(store, "One process")
    again = Room.load(store, room.room_id)  # a second copy in the same process sees the same pages
    room.connect(Actor.gm("Gina"), "gm-page")
    assert names(again) == {"Gina"} and store.present(room.room_id).keys() == {"gm-page"}
    room.disconnect("gm-page")
    assert room.presence == {} and again.presence == {}
