"""Rooms on a store shared by several server processes (Redis): every process's copy follows the others.

Each :class:`RedisStore` here is what one server process opens: its own connections and listener
thread. Two of them on the same Redis are two processes as far as the rooms can tell.
"""

from __future__ import annotations

import threading
import time

import pytest

from raisus_panel.room import Actor, Room, StoreError
from raisus_panel.room.redis_store import RedisStore
from raisus_panel.rules import RuleError, ScriptedDice, SeededDice

from .conftest import Table
from .test_stores import eventually


def two_tables(stores, rolls=(), dice=(None, None)):
    """The same room opened by two processes: ``a`` made it (GM, Alice, Bob), ``b`` loaded it."""
    a = Table(rolls, store=stores[0], dice=dice[0])
    b = Room.load(stores[1], a.room.room_id, dice=dice[1] or ScriptedDice(rolls))
    return a, b


def same_state(a: Room, b: Room) -> bool:
    return a.snapshot(Actor.gm()) == b.snapshot(Actor.gm()) and a.log == b.log


def brawl(t: Table) -> None:
    v = t.char("Viking", t.alice, Viking=4)
    p = t.char("Pirate", None, Pirate=3)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[p])


def test_commands_on_one_process_show_on_the_other_in_order(stores):
    a, b = two_tables(stores, [[6, 5, 1, 1], [4, 4, 4], [2, 2, 2, 2], [6, 6]])
    heard: list[int] = []
    b.subscribe(lambda events: heard.extend(e["seq"] for e in events))
    contest_seen = []
    b.param.watch(lambda e: contest_seen.append(e.new), "contest")
    brawl(a)
    a.act(a.gm, "roll_round")
    assert eventually(lambda: b.seq == a.room.seq)
    assert same_state(a.room, b)
    assert b.contest is not None and b.contest.round == a.room.contest.round
    assert b.contest.history == a.room.contest.history != []
    assert heard == list(range(heard[0], a.room.seq + 1))  # each event once, in order
    # the contest object stays the one views are bound to while it follows
    bound = b.contest
    a.act(a.gm, "roll_round")
    assert eventually(lambda: b.seq == a.room.seq)
    assert b.contest is bound and same_state(a.room, b)


def test_commands_on_both_sides_interleave_without_loss(stores):
    a, b = two_tables(stores)
    gm_b = Actor.gm()
    for i in range(5):
        a.act(a.gm, "create_character", name=f"A{i}", cliches=[{"name": "Cook", "rating": 2}])
        assert eventually(lambda: b.seq == a.room.seq)
        b.apply(gm_b, "create_character", {"name": f"B{i}", "cliches": [{"name": "Cook", "rating": 2}]})
        assert eventually(lambda: a.room.seq == b.seq)
    names = [c.name for c in a.room.characters]
    assert names == [n for i in range(5) for n in (f"A{i}", f"B{i}")]
    assert same_state(a.room, b)


def test_simultaneous_commands_on_two_processes_never_interleave(stores):
    """Both processes roll at once, many times: each round is rolled exactly once, the loser is told."""
    a, b = two_tables(stores, dice=(SeededDice(1), SeededDice(2)))
    v = a.char("Viking", a.alice, Viking=6)
    p = a.char("Pirate", None, Pirate=6)
    a.act(a.gm, "start_contest", name="Brawl", side_a=[v], side_b=[p])
    assert eventually(lambda: b.seq == a.room.seq)
    outcomes: dict[str, list] = {"a": [], "b": []}
    barrier = threading.Barrier(2)

    def play(name: str, room: Room) -> None:
        for _ in range(8):
            barrier.wait()
            seen = room.seq
            try:
                room.apply(Actor.gm(), "roll_round", seen_seq=seen)
                outcomes[name].append("rolled")
            except RuleError as exc:  # stale or changed: refused whole
                outcomes[name].append(type(exc).__name__)
            barrier.wait()
            eventually(lambda: a.room.seq == b.seq)
            if a.room.contest.status == "ended":
                break

    threads = [threading.Thread(target=play, args=("a", a.room)), threading.Thread(target=play, args=("b", b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert eventually(lambda: a.room.seq == b.seq)
    assert same_state(a.room, b)
    rounds_rolled = sum(o == "rolled" for o in outcomes["a"] + outcomes["b"])
    rolled_events = [e for e in a.room.log if e["type"] == "contest" and e["event"]["type"] == "round_decided"]
    assert rounds_rolled == len(rolled_events) >= 1, outcomes
    assert set(outcomes["a"] + outcomes["b"]) <= {"rolled", "RoomChanged", "StaleCommand"}
    seqs = [e["seq"] for e in stores[0].read(a.room.room_id)]
    assert seqs == list(range(1, len(seqs) + 1))


def test_undo_on_one_process_takes_it_back_on_the_other(stores):
    a, b = two_tables(stores, [[6, 5, 1, 1], [4, 4, 4]])
    brawl(a)
    a.act(a.gm, "roll_round")
    assert eventually(lambda: b.seq == a.room.seq)
    bound = b.contest
    b.apply(Actor.gm(), "undo", {})
    assert eventually(lambda: a.room.seq == b.seq)
    assert a.room.contest.round == b.contest.round == 0
    assert b.contest.history == a.room.contest.history and len(b.contest.history) == 1  # the start
    assert b.contest is bound and same_state(a.room, b)


def test_a_resent_command_is_applied_once_across_processes(stores):
    a, b = two_tables(stores)
    first = a.room.apply(a.gm, "set_title", {"title": "Inn"}, command_id="cmd-1")
    assert eventually(lambda: b.seq == a.room.seq)
    again = b.apply(Actor.gm(), "set_title", {"title": "Inn"}, command_id="cmd-1")
    assert again == first and b.seq == a.room.seq


def test_a_room_loaded_later_catches_up_and_then_follows(stores, redis_url):
    a = Table(store=stores[0])
    brawl(a)
    late = RedisStore(redis_url)
    try:
        b = Room.load(late, a.room.room_id)
        assert same_state(a.room, b)
        a.act(a.gm, "set_title", title="Later")
        assert eventually(lambda: b.title == "Later")
    finally:
        late.close()


def test_a_room_nobody_holds_is_freed_and_stops_following(stores):
    import gc
    import weakref
    a = Table(store=stores[0])
    b = Room.load(stores[1], a.room.room_id)
    gone = weakref.ref(b)
    del b
    gc.collect()
    assert gone() is None
    a.act(a.gm, "set_title", title="Still fine")
    assert eventually(lambda: not stores[1]._subscribers.get(a.room.room_id))


def test_redis_down_refuses_whole_and_play_resumes(stores, redis_server):
    a, b = two_tables(stores)
    status: list[bool] = []
    stores[1].on_status(status.append)
    before = a.room.snapshot(a.gm)
    redis_server.kill()
    with pytest.raises(StoreError) as info:
        a.act(a.gm, "set_title", title="Lost?")
    assert info.value.key == "error.store.unavailable"
    assert a.room.snapshot(a.gm) == before  # nothing half applied
    assert eventually(lambda: status[-1:] == [False])
    redis_server.start()
    assert eventually(lambda: status[-1:] == [True], timeout=20)
    a.act(a.gm, "set_title", title="Back")
    assert eventually(lambda: b.title == "Back")
    assert same_state(a.room, b)


def test_nothing_committed_is_lost_when_redis_is_killed(stores, redis_server, redis_url):
    a = Table(store=stores[0])
    brawl(a)
    for i in range(20):
        a.act(a.gm, "create_character", name=f"N{i}", cliches=[{"name": "Cook", "rating": 1}])
    committed = a.room.seq
    redis_server.kill()  # SIGKILL: only what appendfsync always put on disk survives
    redis_server.start()
    fresh = RedisStore(redis_url)
    try:
        again = Room.load(fresh, a.room.room_id)
        assert again.seq == committed
        assert same_state(a.room, again)
    finally:
        fresh.close()


def test_events_missed_while_redis_was_away_are_caught_up(stores, redis_server):
    """A process that missed a notification (the other wrote while its listener was reconnecting)
    still gets every event, in order, once it hears anything again."""
    a, b = two_tables(stores)
    listener = stores[1]._listener
    assert listener is not None
    # simulate a missed message: write straight to the stream through the other store, as another
    # process would, then drop b's subscription state to what it was before
    a.act(a.gm, "set_title", title="One")
    a.act(a.gm, "set_title", title="Two")
    assert eventually(lambda: b.title == "Two")
    with listener._lock:
        listener._seen[a.room.room_id] = 0  # as if nothing had been delivered
    a.act(a.gm, "set_title", title="Three")
    assert eventually(lambda: b.title == "Three")
    assert same_state(a.room, b)
    time.sleep(0.1)
    assert b.seq == a.room.seq


def test_room_limits_count_the_rooms_every_process_made(stores):
    from raisus_panel.room import RoomRegistry
    from raisus_panel.room.limits import LimitReached, Limits

    limits = Limits(rooms_per_client=2, rooms_per_server=3)
    a, b = (RoomRegistry(store, limits=limits) for store in stores)
    a.create_room("one", client="10.0.0.1")
    b.create_room("two", client="10.0.0.1")  # another process, the same client
    with pytest.raises(LimitReached) as refused:
        a.create_room("three", client="10.0.0.1")
    assert refused.value.key == "error.limit.rooms_per_client"
    b.create_room("three", client="10.0.0.2")
    with pytest.raises(LimitReached) as refused:
        a.create_room("four", client="10.0.0.3")
    assert refused.value.key == "error.limit.rooms_per_server"
    assert len(stores[0].list_rooms()) == 3, "a refused creation writes nothing"
    keys = [k.decode() for k in stores[0]._r.keys("*")]
    assert not [k for k in keys if "10.0.0" in k], "a client's address is kept only as a hash"


def test_committed_dice_roll_on_in_turn_on_two_processes_and_verify(stores):
    from raisus_panel.rules import verify

    a = Table(store=stores[0], committed=True)
    b = Room.load(stores[1], a.room.room_id)  # committed dice too: the default
    knight = a.char("Knight", a.alice, Knight=6)
    ogre = a.char("Ogre", None, Ogre=6)
    monk = a.char("Monk", None, Monk=3)  # rolls the action checks, out of the contest
    a.act(a.gm, "start_contest", name="Bridge", side_a=[knight], side_b=[ogre])
    assert eventually(lambda: b.seq == a.room.seq)
    b.apply(a.alice, "set_client_seed", {"seed": "from b"})
    assert eventually(lambda: b.seq == a.room.seq)
    a.act(a.gm, "action_check", character=monk, cliche="Monk", tn=10)
    for room in (a.room, b, a.room, b, b, a.room):  # each process rolls where the other left off
        assert eventually(lambda: a.room.seq == b.seq)
        if room.contest.status == "active":
            room.apply(a.gm, "roll_round")
        assert eventually(lambda: a.room.seq == b.seq)
        room.apply(a.gm, "action_check", {"character": monk, "cliche": "Monk", "tn": 10})
    assert eventually(lambda: a.room.seq == b.seq)
    if b.contest.status == "active":
        b.apply(a.gm, "end_contest", {"outcome": "Dawn."})
    b.apply(a.gm, "reveal_checks")
    assert eventually(lambda: a.room.seq == b.seq)
    draws = [e["event"]["draw"] for e in b.log if e["type"] == "contest" and e["event"]["type"] == "round_decided"]
    assert draws == sorted(set(draws))  # never a roll number twice, whichever process drew it
    checks = verify(a.room.export_json())
    assert [c.status for c in checks] == ["verified", "verified"], [c.message for c in checks]
    assert len([e for e in b.log if e["type"] == "contest" and e["event"]["type"] == "dice_committed"]) == 1


def test_an_undo_on_one_process_then_a_roll_on_the_other_still_verifies(stores):
    """Process A reveals early, rolls under the renewed seed and takes both back; process B, which
    never held those dice, rolls next and ends: every seed either drew reaches the log."""
    from raisus_panel.rules import verify

    a = Table(store=stores[0], committed=True)
    b = Room.load(stores[1], a.room.room_id)
    knight = a.char("Knight", a.alice, Knight=6)
    ogre = a.char("Ogre", None, Ogre=6)
    a.act(a.gm, "start_contest", name="Bridge", side_a=[knight], side_b=[ogre])
    for command in ("reveal_dice", "roll_round", "undo", "undo"):
        a.room.apply(a.gm, command)
    assert eventually(lambda: b.seq == a.room.seq)
    b.apply(a.gm, "roll_round")
    b.apply(a.gm, "end_contest", {"outcome": "Dawn."})
    assert eventually(lambda: b.seq == a.room.seq)
    checks = verify(a.room.export_json())
    assert [c.status for c in checks] == ["verified"], [c.message for c in checks]
    assert checks[0].rolls >= 2  # the taken-back roll and B's roll
