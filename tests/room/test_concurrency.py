"""Many sessions at once: one lock per room gives a clean, gap-free log and a consistent state."""

from __future__ import annotations

import threading

from raisus_panel.room import Actor, SQLiteStore
from raisus_panel.rules import SeededDice

from .conftest import Table

THREADS, COMMANDS = 8, 20


def test_eight_players_at_once_make_a_gap_free_log(tmp_path):
    t = Table(store=SQLiteStore(tmp_path / "busy.sqlite"), dice=SeededDice(3))
    players = [t.join(f"P{i}") for i in range(THREADS)]
    start = t.room.seq
    barrier = threading.Barrier(THREADS)
    errors = []

    def play(me: Actor) -> None:
        try:
            barrier.wait()
            uids = []
            for i in range(COMMANDS):
                if i % 4 == 0:
                    ev = t.room.apply(me, "create_character", {
                        "name": f"{me.name}-{i}", "cliches": [{"name": "Hero", "rating": 3}]})
                    uids.append(ev[0]["character"]["uid"])
                elif i % 4 == 1:
                    t.room.apply(me, "update_character", {"uid": uids[-1], "description": f"#{i}"})
                else:
                    t.room.apply(me, "action_check", {"character": uids[-1], "cliche": "Hero", "tn": 10})
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(p,)) for p in players]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []

    events = t.store.read(t.room.room_id)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len(events) == start + THREADS * COMMANDS == t.room.seq
    assert len(t.room.characters) == THREADS * COMMANDS // 4
    assert len(t.room.checks) == THREADS * COMMANDS // 2
    assert all(c.description for c in t.room.characters)
    assert t.reloaded().snapshot(t.gm) == t.snapshot()
    t.store.close()


def test_a_command_sent_from_many_threads_at_once_applies_once():
    t = Table()
    barrier = threading.Barrier(THREADS)
    answers = []

    def click() -> None:
        barrier.wait()
        answers.append(t.room.apply(t.alice, "create_character", {"name": "Olaf"}, command_id="same-click"))

    threads = [threading.Thread(target=click) for _ in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(t.room.characters) == 1
    assert all(a == answers[0] for a in answers) and len(answers) == THREADS
