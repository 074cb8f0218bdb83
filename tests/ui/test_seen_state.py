"""Issue 9: a click names the room state the page showed (``Actions.seen_seq``), served or not.

Served, the page's own update batch carries the new ``seq`` to the browser with the changes that
show it, and the browser's receipt (``ack``) is what a click is decided on: a click the browser sent
while a newer state was on its way is refused instead of answering a state its giver never saw.
"""

from __future__ import annotations

import weakref

import panel as pn
import pytest
from bokeh.document import Document
from panel.io.state import set_curdoc

from raisus_panel import i18n
from raisus_panel.room import StaleCommand
from raisus_panel.ui import Actions, ContestTable
from raisus_panel.ui.actions import SeenSeq

from .conftest import brawl_in_room, click
from .drivers import Screen, roll_button


class _Context:
    """Stands in for a served session's context (what makes a document 'served')."""

    id = "fake-session"

    class request:  # noqa: N801 - a stand-in for the page's HTTP request
        arguments: dict = {}
        cookies: dict = {}
        headers: dict = {}


def served_doc() -> tuple[Document, _Context]:
    doc, ctx = Document(), _Context()
    doc._session_context = weakref.ref(ctx)
    return doc, ctx


def page_drawn(doc: Document) -> None:
    """What Panel does when the browser says the page is drawn (its ``document_ready`` event): until
    then a page's update batches wait (``ui/_batch.track``)."""
    pn.state._schedule_on_load(doc, None)


def run_ticks(doc: Document) -> None:
    """Run the document's pending next-tick callbacks, as the server would."""
    while doc.callbacks.session_callbacks:
        for callback in list(doc.callbacks.session_callbacks):
            doc.callbacks.remove_session_callback(callback)
            callback.callback()


def table():
    gm, ann, room, olaf, pirate = brawl_in_room([[6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6], [1, 1]])
    gm.act("open_round")
    return gm, ann, room


def test_in_a_notebook_a_click_is_decided_on_the_state_it_sees():
    gm, ann, room = table()
    actions = Actions(gm)
    assert actions.seen_seq == actions.seq == room.seq
    actions.act("roll_round")
    assert actions.seen_seq == room.seq and room.contest.round == 1


def test_served_a_click_sent_before_the_page_showed_a_roll_is_refused_and_changes_nothing():
    gm, ann, room = table()
    gm_doc, _gm_ctx = served_doc()
    ann_doc, _ann_ctx = served_doc()
    with set_curdoc(gm_doc):
        gm_actions = Actions(gm)
        gm_table = ContestTable(actions=gm_actions, lang="en")
    with set_curdoc(ann_doc):
        ann_actions = Actions(ann)
        ann_table = ContestTable(actions=ann_actions, lang="en")
    page_drawn(gm_doc)
    page_drawn(ann_doc)
    (seen,) = [r for r in ann_doc.roots if isinstance(r, SeenSeq)]  # the page carries it, once
    assert isinstance(seen, SeenSeq) and seen in ann_doc.roots
    gm_seen = next(r for r in gm_doc.roots if isinstance(r, SeenSeq))
    assert seen.shown == seen.ack == room.seq == ann_actions.seen_seq
    assert seen.js_property_callbacks["change:shown"]  # the browser confirms what it has shown

    with set_curdoc(ann_doc):  # Ann clicks "roll round 1" ...
        click(roll_button(Screen(ann_table)))
    assert room.contest.round == 1
    before = room.seq
    # ... and so does the GM, whose page still shows round 1: the server knows round 1 is rolled,
    # but the GM's browser has not shown it -- the click was made on round 1
    assert gm_actions.seq == before and gm_actions.seen_seq < before
    with set_curdoc(gm_doc):
        click(roll_button(Screen(gm_table)))
    assert room.contest.round == 1 and room.seq == before
    assert Screen(gm_table).error and "Round 1 was already rolled by Ann" in Screen(gm_table).error

    run_ticks(gm_doc)  # the GM's page shows round 1 rolled ...
    assert gm_seen.shown == before and gm_actions.seen_seq < before
    gm_seen.ack = gm_seen.shown  # ... once the browser says so (its callback)
    assert gm_actions.seen_seq == before
    with set_curdoc(gm_doc):
        click(roll_button(Screen(gm_table)))
    assert room.contest.round == 2


def test_a_refusal_reads_in_the_pages_language():
    gm, ann, room = table()
    seen = room.seq
    ann.act("roll_round", seen_seq=seen)
    with pytest.raises(StaleCommand) as caught:
        gm.act("roll_round", seen_seq=seen)
    assert i18n.translate(caught.value, "ko").startswith("1라운드는 이미 Ann")
