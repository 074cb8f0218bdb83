"""What was committed survives: closing and reopening the file, and a process killed mid-game."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from raisus_panel.room import Actor, Room, SQLiteStore

from .conftest import Table

REPO = Path(__file__).resolve().parents[2]


def test_reopening_the_file_gives_the_identical_room(tmp_path):
    path = tmp_path / "table.sqlite"
    t = Table([[6, 5, 1, 1], [4, 4, 4], [1, 1, 1, 1], [6, 6], [2, 2], [3, 3, 3]],
              store=SQLiteStore(path))
    v = t.char("Viking", t.alice, Viking=4)
    p = t.char("Pirate", None, Pirate=3)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[p])
    t.act(t.gm, "open_round")
    t.act(t.alice, "roll_round")
    t.act(t.gm, "roll_round")
    t.act(t.gm, "action_check", character=p, cliche="Pirate", tn=5, private=True)
    t.act(t.gm, "undo")
    t.act(t.alice, "action_check", character=v, cliche="Viking", tn=15)
    room_id, live = t.room.room_id, json.dumps(t.snapshot(), sort_keys=True)
    scores = {c.name: [x.current for x in c.cliches] for c in t.room.characters}
    t.store.close()
    del t
    gc.collect()

    store = SQLiteStore(path)
    again = Room.load(store, room_id)
    assert json.dumps(again.snapshot(Actor.gm()), sort_keys=True) == live
    assert {c.name: [x.current for x in c.cliches] for c in again.characters} == scores == {
        "Viking": [3], "Pirate": [2]}
    assert again.contest.round == 2 and len(again.contest.history) == 3
    assert [c["faces"] for c in again.checks] == [[3, 3, 3]]  # the undone secret roll is gone
    store.close()


WRITER = r"""
import sys
from raisus_panel.room import Actor, Room, SQLiteStore
from raisus_panel.rules import SeededDice
store = SQLiteStore(sys.argv[1])
room = Room.create(store, "Crash", room_id="crash", dice=SeededDice(7))
gm = Actor.gm()
uid = room.apply(gm, "create_character", {"name": "Viking", "cliches": [{"name": "Viking", "rating": 4}]})[0]["character"]["uid"]
print(room.seq, flush=True)
while True:
    room.apply(gm, "action_check", {"character": uid, "cliche": "Viking", "tn": 10})
    print(room.seq, flush=True)
"""


def test_a_killed_writer_loses_no_committed_event(tmp_path):
    path = tmp_path / "crash.sqlite"
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    committed = []
    try:
        for line in proc.stdout:
            committed.append(int(line))
            if len(committed) >= 60:
                os.kill(proc.pid, signal.SIGKILL)  # mid-way: it is busy writing the next command
                break
        committed.extend(int(line) for line in proc.stdout)  # lines printed before it died
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read()
    assert len(committed) >= 60

    store = SQLiteStore(path)
    seqs = [e["seq"] for e in store.read("crash")]
    assert seqs == list(range(1, len(seqs) + 1))
    assert set(committed) <= set(seqs) and len(seqs) - max(committed) <= 1  # at most one unreported
    room = Room.load(store, "crash")
    assert room.seq == len(seqs) and len(room.checks) == len(seqs) - 2
    room.apply(Actor.gm(), "set_title", {"title": "After the crash"})  # and it goes on
    store.close()
