"""Issue 9: importing rooms and leaving them gives the memory back (rooms unload when nobody uses them).

Measured in a fresh subprocess, so that what other tests left behind does not count: Python's own
allocations with ``tracemalloc`` (exact, not disturbed by other processes on a busy machine), and the
resident size as a coarse second opinion.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import gc, json, sys, tempfile, tracemalloc
    from pathlib import Path
    from raisus_panel.room import RoomRegistry, SQLiteStore
    from raisus_panel.room.limits import Limits

    def rss_mb():
        return int(Path("/proc/self/statm").read_text().split()[1]) * 4096 / 2**20

    tmp = Path(tempfile.mkdtemp())
    registry = RoomRegistry(SQLiteStore(tmp / "server.sqlite"), limits=Limits(rooms_per_client=0, rooms_per_server=0))
    room, links = registry.create_room("Big campaign")
    gm = registry.open_session(links.gm)
    for i in range(120):
        gm.act("create_character", name=f"NPC {i}", description="d" * 1900,
               cliches=[{"name": "Brawler", "rating": 3}, {"name": "Sneak", "rating": 2}])
    export = room.export_json()
    del room, gm

    def play(n):
        for _ in range(n):
            imported, new_links = registry.import_room(export, client="10.0.0.1")
            del imported
            session = registry.open_session(new_links.gm)
            session.connect("tab")
            unsubscribe = session.subscribe(lambda events: None)
            session.act("set_title", title="Read through")
            unsubscribe()
            session.disconnect("tab")
            del session, unsubscribe
        gc.collect()

    play(3)  # warm up: imports, caches, the store's pages
    rss0 = rss_mb()
    play(20)
    rss1 = rss_mb()
    tracemalloc.start()  # after the resident size: its own bookkeeping would count there
    base = tracemalloc.get_traced_memory()[0]
    play(20)
    after = tracemalloc.get_traced_memory()[0]
    print(json.dumps({"file_mb": len(export.encode()) / 2**20, "grown_mb": (after - base) / 2**20,
                      "rss_grown_mb": rss1 - rss0, "loaded": len(registry.loaded)}))
""")


def test_importing_and_leaving_twenty_rooms_leaves_memory_where_it_started():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["file_mb"] > 0.2, "the rooms must be large enough for a leak to show"
    assert result["loaded"] == 0, "no room stays in memory once nobody uses it"
    assert result["grown_mb"] < 2, result
    # the resident size depends on the allocator too: a looser bound, still far below a leak (20 rooms)
    assert result["rss_grown_mb"] < 5 * result["file_mb"] + 10, result
