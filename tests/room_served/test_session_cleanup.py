"""Served sessions clean up every watcher they put on shared state when they close.

The dashboard is served in-process (see ``conftest.py``). Headless sessions open a room page with
``bokeh.client.pull_session``; once closed, the server destroys them after its unused-session
lifetime (made short here), which runs the pages' cleanup.

What is counted is live view objects, never process memory: the watchers on the shared state (the
room, its contests and their units, the characters and their clichés, the language setting), the
room's subscribers and presence, and the pages, components and session adapters still alive after
a garbage collection.
"""

from __future__ import annotations

import gc
import time
import weakref

import pytest
from bokeh.client import pull_session
from bokeh.document import Document
from bokeh.document.events import MessageSentEvent
from bokeh.events import DocumentReady

from raisus_panel import i18n
from raisus_panel.dashboard import RoomPage
from raisus_panel.room import Actor
from raisus_panel.ui import Actions
from raisus_panel.ui._base import ComponentBase

from ..siege import start_siege
from .conftest import LIFETIME_MS, _wait_for, make_room

pytestmark = pytest.mark.timeout(120)

ROLES = ("gm", "player", "spectator")
#: What every room page watches directly (characters, units and clichés are reached through these).
WATCHED = ("room", "contests", "language")


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
        if isinstance(obj, (RoomPage, Actions)):
            if obj.session.room is room:
                out.append(obj)
        elif isinstance(obj, ComponentBase) and isinstance(getattr(obj, "actions", None), Actions):
            if obj.actions.session.room is room:
                out.append(obj)
    return out


def pages_of(room) -> list:
    return [v for v in views_of(room) if isinstance(v, RoomPage)]


def drawn(session):
    """Say ``document_ready`` as BokehJS does once it has drawn the page (a page's update batches
    wait for it, see ``ui/_batch.track``); returns the session."""
    doc = session.document
    doc.callbacks.trigger_on_change(MessageSentEvent(doc, "bokeh_event", DocumentReady()))
    session.force_roundtrip()  # the client's loop runs only while it waits: send it now
    return session


def open_sessions(served, links, roles) -> list:
    return [drawn(pull_session(url=served.url, arguments={"token": links[role]})) for role in roles]


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
        # the views re-wire in their page's next update batch (on its own document)
        assert _wait_for(lambda: watchers(second) > 0), "the views did not follow the new contest"
        assert _wait_for(lambda: watchers(first) == 0), "the views kept watching the ended contest"
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
