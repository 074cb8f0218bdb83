"""Served sessions clean up every watcher they put on shared state when they close.

The dashboard is served in-process (Panel's threaded server on a free loopback port) on a fresh
temporary SQLite file through ``RAISUS_DB``, as ``apps/dashboard.py`` finds its registry
(``get_registry`` caches one registry per path, so this module gets a file of its own). Headless
sessions open a room page with ``bokeh.client.pull_session``; once closed, the server destroys them
after its unused-session lifetime (made short here), which runs the pages' cleanup.

What is counted is live view objects, never process memory: the watchers on the shared state (the
room, its contests and their units, the characters and their clichés, the language setting), the
room's subscribers and presence, and the pages, components and session adapters still alive after
a garbage collection.
"""

from __future__ import annotations

import gc
import os
import socket
import threading
import time
import weakref

import panel as pn
import pytest
from bokeh.client import pull_session
from bokeh.document import Document

from raisus_panel import i18n
from raisus_panel.dashboard import RoomPage, create_app
from raisus_panel.room import Actor, get_registry
from raisus_panel.ui import SessionActions
from raisus_panel.ui._base import ComponentBase

pytestmark = pytest.mark.timeout(120)

#: The server's unused-session lifetime and check interval (ms): closed sessions go at once.
LIFETIME_MS = 100
ROLES = ("gm", "player", "spectator")
#: What every room page watches directly (characters, units and clichés are reached through these).
WATCHED = ("room", "contests", "language")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(predicate, timeout: float = 20.0, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


class Served:
    """The dashboard served in a thread: its URL, its registry, and a way onto its event loop."""

    def __init__(self, db_path: str):
        self.registry = get_registry(db_path)  # the very registry create_app() finds through RAISUS_DB
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/dashboard"
        self.thread = pn.serve({"dashboard": create_app}, port=self.port, address="127.0.0.1", threaded=True,
                               show=False, websocket_origin=[f"127.0.0.1:{self.port}"],
                               check_unused_sessions_milliseconds=LIFETIME_MS,
                               unused_session_lifetime_milliseconds=LIFETIME_MS)
        assert _wait_for(self._listening, 30), "the dashboard did not start"

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def on_loop(self, fn):
        """Run ``fn`` on the server's event loop, between the sessions' callbacks, and return its result.

        No session's document is current there (as for a room thread), so every view must reach its
        own document by a next-tick callback -- the path a change made elsewhere takes.
        """
        done, out = threading.Event(), {}

        def run():
            try:
                out["value"] = fn()
            except BaseException as exc:  # re-raised in the test
                out["error"] = exc
            done.set()
        self.thread.asyncio_loop.call_soon_threadsafe(run)
        assert done.wait(60), "the server's loop did not run the call"
        if "error" in out:
            raise out["error"]
        return out.get("value")

    def stop(self) -> None:
        self.thread.stop()
        self.thread.join(10)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("served") / "rooms.sqlite")
    before = os.environ.get("RAISUS_DB")
    os.environ["RAISUS_DB"] = db
    server = Served(db)
    try:
        yield server
    finally:
        server.stop()
        server.registry.store.close()
        if before is None:
            os.environ.pop("RAISUS_DB", None)
        else:
            os.environ["RAISUS_DB"] = before


def make_room(registry):
    """A room with a GM, Ann's team (Knight, Viking, Squire) against the GM's Ogre, a contest started.

    Returns the room, the links by role (Ann's personal link as "player") and the characters' uids.
    """
    room, links = registry.create_room("Cleanup", gm_name="GM")
    gm = Actor.gm("GM")
    _, ann_token = registry.join(links.player, "Ann")
    ann = next(iter(room.players))

    def character(name, owner, rating):
        data = {"name": name, "owner": owner, "cliches": [{"name": name, "rating": rating}]}
        return room.apply(gm, "create_character", data)[0]["character"]["uid"]

    uids = {"knight": character("Knight", ann, 6), "viking": character("Viking", ann, 3),
            "squire": character("Squire", ann, 2), "ogre": character("Ogre", "", 8)}
    start_siege(room, uids)
    return room, {"gm": links.gm, "player": ann_token, "spectator": links.spectator}, uids


def start_siege(room, uids) -> None:
    room.apply(Actor.gm("GM"), "start_contest", {
        "name": "Siege", "side_b": [uids["ogre"]],
        "teams": [{"side": 0, "members": [[uids["knight"], "Knight", True], [uids["viking"], "Viking", True],
                                          [uids["squire"], "Squire", True]]}]})


def watchers(obj) -> int:
    """How many watchers are on a Parameterized object's parameters."""
    return sum(len(ws) for by_what in obj.param.watchers.values() for ws in by_what.values())


def shared_objects(room, contests=()) -> dict[str, list]:
    """The shared state sessions may watch, by kind."""
    contests = [c for c in (room.contest, *contests) if c is not None]
    characters = list(room.characters)
    return {"room": [room], "contests": contests,
            "units": [u for c in contests for side in c.sides for u in side],
            "characters": characters, "cliches": [cl for c in characters for cl in c.cliches],
            "language": [i18n.settings]}


def census(room, contests=()) -> dict[str, int]:
    """Watchers on the shared state by kind, the room's subscribers and presence."""
    gc.collect()
    counts = {kind: sum(watchers(o) for o in objs) for kind, objs in shared_objects(room, contests).items()}
    counts["subscribers"] = room.subscriber_count
    counts["presence"] = len(room.presence)
    return counts


def views_of(room) -> list:
    """The live view objects of sessions on ``room``: pages, their components, session adapters."""
    gc.collect()
    out = []
    for obj in gc.get_objects():
        if isinstance(obj, (RoomPage, SessionActions)):
            if obj.session.room is room:
                out.append(obj)
        elif isinstance(obj, ComponentBase) and isinstance(getattr(obj, "actions", None), SessionActions):
            if obj.actions.session.room is room:
                out.append(obj)
    return out


def pages_of(room) -> list:
    return [v for v in views_of(room) if isinstance(v, RoomPage)]


def open_sessions(served, links, roles) -> list:
    return [pull_session(url=served.url, arguments={"token": links[role]}) for role in roles]


def close_and_wait(room, sessions, remaining: int = 0) -> None:
    """Close ``sessions`` and wait until the server destroyed them (they leave the room's presence)."""
    for session in sessions:
        session.close()
    assert _wait_for(lambda: len(room.presence) == remaining), f"still present after closing: {room.presence}"
    time.sleep(3 * LIFETIME_MS / 1000)  # the destroy callbacks of the last session


def server_documents(room) -> list[Document]:
    """The server-side documents of the sessions present in ``room`` (by their session ids)."""
    present = set(room.presence)
    return [o for o in gc.get_objects() if isinstance(o, Document) and o.session_context is not None
            and o.session_context.id in present]


def test_closed_sessions_remove_every_watcher_they_put_on_shared_state(served):
    room, links, _ = make_room(served.registry)
    baseline = census(room)
    assert views_of(room) == []

    sessions = open_sessions(served, links, ROLES)
    try:
        opened = census(room)
        assert opened["presence"] == len(ROLES)
        for kind in WATCHED:
            assert opened[kind] > baseline[kind], f"sessions put no watchers on the {kind}: {opened}"
        assert opened["subscribers"] == baseline["subscribers"]
        assert sorted(p.session.actor.role.value for p in pages_of(room)) == sorted(ROLES)

        # one tab closes: its watchers go, the other sessions keep theirs
        close_and_wait(room, sessions[-1:], remaining=len(ROLES) - 1)
        one_closed = census(room)
        for kind in WATCHED:
            assert baseline[kind] < one_closed[kind] < opened[kind], (kind, baseline, one_closed, opened)
    finally:
        close_and_wait(room, sessions[:-1])

    assert census(room) == baseline


def test_sessions_that_followed_the_game_leave_nothing_on_old_or_new_contests(served):
    """Views re-wire when the contest is replaced; closing must still remove every watcher."""
    room, links, uids = make_room(served.registry)
    first = room.contest
    baseline = census(room, [first])

    sessions = open_sessions(served, links, ["player"])
    try:
        gm = Actor.gm("GM")
        served.on_loop(lambda: room.apply(gm, "end_contest", {"outcome": "Called off"}))
        served.on_loop(lambda: start_siege(room, uids))
        second = room.contest
        assert second is not first
        assert watchers(second) > 0, "the views did not follow the new contest"
        assert watchers(first) == 0, "the views kept watching the ended contest"
        assert census(room, [first, second])["presence"] == 1
    finally:
        close_and_wait(room, sessions)

    assert census(room, [first, second]) == {**baseline, "contests": 0, "units": 0}


def test_closed_sessions_leave_no_live_views_even_while_the_server_keeps_their_documents(served):
    """The live view objects of closed sessions go back to none, whatever the server still holds.

    Tornado and Panel keep a closed session's Document reachable for a while at times (seen: a
    cancelled Tornado timer whose contextvars context still names it as Panel's current document),
    so whether views are collected must not depend on their documents being collected. The test
    keeps the documents itself, which makes that case happen every time.
    """
    room, links, _ = make_room(served.registry)
    assert views_of(room) == []
    sessions = open_sessions(served, links, ("gm", "spectator"))
    kept = server_documents(room)
    assert len(kept) == 2
    refs = [weakref.ref(v) for v in views_of(room)]
    assert refs
    try:
        close_and_wait(room, sessions)
        assert census(room)["presence"] == 0
        alive = sorted(type(r()).__name__ for r in refs if r() is not None)
        assert alive == [], f"views of closed sessions still alive: {alive}"
    finally:
        del kept
