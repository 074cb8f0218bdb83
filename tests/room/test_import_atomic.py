"""An imported room is written with its links in one step: a process killed mid-import leaves either
no room or a room whose GM link works, never a room nobody can open."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Table

REPO = Path(__file__).resolve().parents[2]

IMPORTER = r"""
import sys
from raisus_panel.room import RoomRegistry, SQLiteStore
from raisus_panel.room.limits import Limits
registry = RoomRegistry(SQLiteStore(sys.argv[1]), limits=Limits(rooms_per_client=0, rooms_per_server=0))
text = open(sys.argv[2], encoding="utf-8").read()
print("ready", flush=True)
while True:
    registry.import_room(text)
    registry.create_room("Another")
"""


def _long_room_file() -> str:
    """A room with a long log, so that an import takes long enough to be killed in the middle."""
    t = Table(committed=True)
    uid = t.char("Viking", t.alice, Viking=4)
    for _ in range(150):
        t.act(t.gm, "action_check", character=uid, cliche="Viking", tn=5)
    return t.room.export_json(t.gm)


def test_a_process_killed_mid_import_leaves_no_room_without_links(tmp_path):
    path, file = tmp_path / "rooms.sqlite", tmp_path / "room.json"
    file.write_text(_long_room_file(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    rng = random.Random(21)
    for _ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", IMPORTER, str(path), str(file)], cwd=REPO, env=env,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
    store = SQLiteStore(path)
    rooms = store.list_rooms()
    assert len(rooms) >= 6  # the kills did land during imports and creations
    without = [r for r in rooms if not (store.room_meta(r).get("auth") or {}).get("gm")]
    assert without == [], f"{len(without)} of {len(rooms)} rooms have no links"
    registry = RoomRegistry(store)
    for room_id in rooms:
        assert registry.get(room_id).room_id == room_id
    store.close()
