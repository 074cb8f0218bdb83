"""A page whose session Bokeh has ended gets no more changes (issue 21: tracebacks at a page's close).

Bokeh discards a session in two steps: it destroys the session's document, then -- after an
``await`` -- runs the session-destroyed hooks, where a page's views stop following the room. A
change of the room in between (another person's command, someone arriving) still reached the
closing page's views; its document, without a session context any more, looked like a notebook's,
so the views changed its models at once and Bokeh raised from its emptied registry. The server
logged a traceback for it (``a room subscriber failed``), seen in the browser tests' server logs.
"""

from __future__ import annotations

import logging
import weakref

import panel as pn
import pytest
from bokeh.document import Document
from panel.io.state import set_curdoc

from raisus_panel.dashboard.app import page_for
from raisus_panel.room import Actor, RoomRegistry
from raisus_panel.room.sqlite_store import SQLiteStore
from raisus_panel.rules import SeededDice
from raisus_panel.ui import _batch

from ..siege import siege_room


class _Context:
    """Stands in for a served session's context (what makes a document a served page's)."""

    id = "closing-page"

    class request:  # noqa: N801 - a stand-in for the page's HTTP request
        arguments: dict = {}
        cookies: dict = {}
        headers: dict = {}


@pytest.fixture
def table(tmp_path):
    store = SQLiteStore(str(tmp_path / "rooms.sqlite"))
    registry = RoomRegistry(store)
    registry.dice_factory = lambda: SeededDice(3)
    room, links, _ = siege_room(registry, "Closing")
    yield registry, room, links
    store.close()


@pytest.mark.parametrize("role", ["gm", "player", "spectator"])
def test_a_change_between_a_documents_end_and_its_hooks_reaches_no_view(table, role, caplog):
    registry, room, links = table
    doc, context = Document(), _Context()
    doc._session_context = weakref.ref(context)
    with set_curdoc(doc):
        page = page_for(registry, links[role])
        doc.add_root(pn.Column(page).get_root(doc))
    assert _batch.served(doc)
    session = []  # stands in for the server session: Bokeh's sends the document's changes out

    def send(event):
        session.append(event)
    doc.on_change(send)

    doc.destroy(send)  # what Bokeh's ServerSession.destroy does first
    assert not _batch.served(doc)
    gm = Actor.gm("GM")
    with caplog.at_level(logging.WARNING):
        room.connect(Actor.spectator(), "someone-else")  # who is here changes
        room.apply(gm, "open_round", {"open": True})
        room.apply(gm, "roll_round", {})
        room.apply(gm, "set_title", {"title": "Closing, round 2"})
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert room.seq > 0 and room.contest.round >= 1  # the room itself went on

    page.dispose()  # then the session-destroyed hooks run
    room.apply(gm, "open_round", {"open": True})
