"""The lean-serialisation shim (``dashboard/wire.lean_serialisation``): the same documents, for less.

Bokeh works out every property's value before leaving out the defaults when it serialises a model;
the shim leaves them out first. These tests check that this Bokeh still does it the slow way (so the
shim is still needed and still fits) and that every role's room page serialises to the very same
document with the shim as without it.
"""

from __future__ import annotations

import inspect
import json
import re
import weakref

import bokeh
import panel as pn
import pytest
from bokeh.core.has_props import HasProps
from bokeh.document import Document
from bokeh.protocol import Protocol
from panel.io.state import set_curdoc

from raisus_panel import upstream
from raisus_panel.dashboard import wire
from raisus_panel.dashboard.app import page_for
from raisus_panel.room import Actor, RoomRegistry
from raisus_panel.room.sqlite_store import SQLiteStore
from raisus_panel.rules import SeededDice

from ..siege import siege_room


class _Context:
    """Stands in for a served session's context (what makes a document a served page's)."""

    id = "lean-test"

    class request:  # noqa: N801 - a stand-in for the page's HTTP request
        arguments: dict = {}
        cookies: dict = {}
        headers: dict = {}


def original_query():
    wire.lean_serialisation()
    return wire._original_query


def test_this_bokeh_still_works_out_every_value_before_leaving_defaults_out():
    """Fails when Bokeh changes the method the shim wraps (then check whether it is still needed)."""
    assert upstream.tested("bokeh"), bokeh.__version__
    source = inspect.getsource(original_query())
    # upstream computes the value, then skips keys that are neither set nor unstable defaults
    assert source.index("descriptor.get_value(self)") < source.index("if key not in selected_keys:")
    assert "if not query(descriptor):" in source
    assert source.index("if not query(descriptor):") < source.index("descriptor.get_value(self)")
    assert HasProps.query_properties_with_values is wire._lean_query


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    store = SQLiteStore(str(tmp_path_factory.mktemp("lean") / "rooms.sqlite"))
    registry = RoomRegistry(store)
    registry.dice_factory = lambda: SeededDice(7)
    room, links, _ = siege_room(registry, "Lean")
    room.apply(Actor.gm("GM"), "open_round", {"open": True})
    room.apply(Actor.gm("GM"), "roll_round", {})
    yield registry, links
    store.close()


def page_document(registry, token: str) -> str:
    """A room page as its browser receives it first (the PULL-DOC reply), model ids made alike."""
    doc, context = Document(), _Context()
    doc._session_context = weakref.ref(context)
    with set_curdoc(doc):
        page = page_for(registry, token)
        doc.add_root(pn.Column(page).get_root(doc))
    reply = Protocol().create("PULL-DOC-REPLY", "lean", doc)
    text = json.dumps(reply.content, default=str, sort_keys=True)
    page.dispose()
    ids = {}  # ids in order of first appearance: the same document gets the same numbers
    # an id stands alone, or as a reference a JSComponent's data makes ("__ref:p123"); ids first, and
    # made unlike a name: past 9999 models in the process an id ("p10234") looks like a default name
    text = re.sub(r'"(__ref:)?(p\d+)"',
                  lambda m: f'"{m.group(1) or ""}{ids.setdefault(m.group(2), f"#m{len(ids)}")}"', text)
    # Panel's default names count every object made (five digits, more after 99999 of them in a long run)
    text = re.sub(r'"([A-Za-z]+)\d{5,}"', r'"\1#"', text)
    # a widget's js_on_click callback is tagged with the id() of Panel's link object: a memory address
    return re.sub(r'\[\[\d+, \[null, "event:', '[[0, [null, "event:', text)


@pytest.mark.parametrize("role", ["gm", "player", "spectator"])
def test_a_room_page_serialises_to_the_same_document_with_the_shim(table, role):
    registry, links = table
    wire.lean_serialisation()
    lean = HasProps.query_properties_with_values
    HasProps.query_properties_with_values = original_query()
    try:
        upstream = page_document(registry, links[role])
    finally:
        HasProps.query_properties_with_values = lean
    assert lean is wire._lean_query
    text = page_document(registry, links[role])
    assert text == upstream, first_difference(text, upstream)


def first_difference(text: str, expected: str, around: int = 300) -> str:
    """Where two documents part, with some text either side (a page's document is 200 kB or more)."""
    at = next((i for i, (a, b) in enumerate(zip(text, expected)) if a != b), min(len(text), len(expected)))
    return (f"they part at {at} of {len(text)} and {len(expected)} characters:\n"
            f"with the shim: {text[max(0, at - around):at + around]!r}\n"
            f"without it:    {expected[max(0, at - around):at + around]!r}")


def test_a_default_list_changed_in_place_is_still_sent():
    """What the shim leaves out must be what Bokeh leaves out: a default container, once changed, goes."""
    from bokeh.models import Div

    wire.lean_serialisation()
    div = Div()
    assert "tags" not in div.properties_with_values(include_defaults=False)
    div.tags.append("seen")
    assert div.properties_with_values(include_defaults=False)["tags"] == ["seen"]
