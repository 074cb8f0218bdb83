"""The ui's hooks into Panel's insides (raisus_panel/upstream.py's table): each still works, and each
fails here when Panel changes what it relies on. Gated ones stay off on another Panel."""

from __future__ import annotations

import inspect
import logging

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.plotting import figure
from panel.pane.base import Pane, PaneBase
from panel.viewable import Viewer

from raisus_panel import upstream
from raisus_panel.ui import _base, _charts
from raisus_panel.ui._base import HTML, Button, IntInput, ScriptButton, Select, TextAreaInput, TextInput


@pytest.fixture
def another_panel(monkeypatch):
    """A Panel the hooks were not written for; the gate's "said once" forgotten."""
    monkeypatch.setattr(pn, "__version__", "1.10.0")
    monkeypatch.setattr(upstream, "_warned", set())


def _model(widget):
    return widget.get_root(Document())


# -- widgets: title and why through _rename and _process_param_change --------------------------------
def test_upstream_widgets_rename_and_process_their_params():
    """Panel's widgets have a ``_rename`` (None: not sent to the model) and a ``_process_param_change``
    that every change goes through: what Button and the _SaysWhy widgets add to."""
    for widget in (pn.widgets.Button, pn.widgets.TextInput, pn.widgets.TextAreaInput, pn.widgets.IntInput,
                   pn.widgets.Select):
        assert isinstance(widget._rename, dict) and callable(widget._process_param_change)
    assert "_rename" in inspect.getsource(pn.reactive.Syncable._process_param_change)


@pytest.mark.parametrize("make", [lambda: Button(label="Roll", title="Roll the round", why="Not your turn"),
                                  lambda: ScriptButton(label="Open", title="Roll the round", why="Not your turn"),
                                  lambda: TextInput(why="Not your turn"), lambda: IntInput(why="Not your turn"),
                                  lambda: TextAreaInput(why="Not your turn"),
                                  lambda: Select(options=["a"], why="Not your turn")])
def test_title_and_why_are_attributes_of_the_element(make):
    widget = make()
    model = _model(widget)
    assert model.html_attributes.get("data-why") == "Not your turn"
    assert model.html_attributes.get("title", "Roll the round") == "Roll the round"
    assert not hasattr(model, "why")
    widget.why = "Wait for the GM"
    assert model.html_attributes["data-why"] == "Wait for the GM"


# -- the HTML pane: a text change sends the text alone ------------------------------------------------
def test_upstream_html_pane_recomputes_its_style_sheets_on_a_text_change():
    """Panel's HTML pane makes its model's style sheets anew on every change of its text: fails
    once Panel sends only the text (ui.HTML can go)."""
    pane = pn.pane.HTML("a", stylesheets=[":host { color: red; }"])
    model = _model(pane)
    before = list(model.stylesheets)
    pane.object = "b"
    assert model.text == "b" and [id(s) for s in model.stylesheets] != [id(s) for s in before]


def test_html_pane_keeps_its_style_sheets_on_a_text_change():
    pane = HTML("a", stylesheets=[":host { color: red; }"])
    model = _model(pane)
    before = [id(s) for s in model.stylesheets]
    pane.object = "<b>b</b>"
    assert "b" in model.text
    assert [id(s) for s in model.stylesheets] == before


def test_html_pane_is_panels_own_on_another_panel(another_panel, caplog):
    pane = HTML("a", stylesheets=[":host { color: red; }"])
    model = _model(pane)
    before = [id(s) for s in model.stylesheets]
    with caplog.at_level(logging.WARNING, logger=_base.log.name):
        pane.object = "b"
        pane.object = "c"
    assert "c" in model.text and [id(s) for s in model.stylesheets] != before
    assert caplog.text.count("text-only updates was written for panel 1.9.x, not 1.10.0") == 1


# -- _NoLayout: a pane makes no Row of itself -------------------------------------------------------
def test_upstream_pane_makes_its_default_layout_and_reads_its_models():
    """Panel makes each pane's ``default_layout`` when the pane is made and reads that layout's
    ``_models`` when it replaces the pane's model: all _NoLayout has to offer."""
    assert "self.layout = self.default_layout(self, **kwargs)" in inspect.getsource(PaneBase.__init__)
    assert "self.layout._models.get(ref" in inspect.getsource(Pane._update_object)


def test_an_html_pane_has_no_layout():
    pane = HTML("a")
    assert isinstance(pane.layout, _base._NoLayout) and pane.layout._models == {}


# -- ComponentBase: a view keeps its component ------------------------------------------------------
def test_upstream_viewer_shows_what_create_view_makes():
    """A Viewer is shown, served and put in a notebook through ``_create_view``: what ComponentBase
    hooks to keep its component alive as long as its view."""
    for method in (Viewer.servable, Viewer.show, Viewer._repr_mimebundle_):
        assert "self._create_view()" in inspect.getsource(method)


def test_a_components_view_holds_the_component():
    from raisus_panel.ui import ScoreChart

    chart = ScoreChart()
    view = chart._create_view()
    assert any(owner is chart for owner in view._raisus_components)


# -- FigurePane: a figure per document --------------------------------------------------------------
def _make(columns):
    fig = figure()
    return fig, {}


def _two_documents():
    pane = _charts.FigurePane(_make)
    pane.draw({})
    return [pane.get_root(Document()).select_one({"type": figure}) for _ in range(2)]


def test_upstream_bokeh_pane_keeps_a_roots_model_and_design():
    """Panel's Bokeh pane keeps each root's model in ``_models`` and themes it through ``_design``."""
    source = inspect.getsource(pn.pane.Bokeh._get_model)
    assert "self._models[ref] = (model, parent)" in source and "self._design" in source


def test_each_document_gets_a_figure_of_its_own():
    first, second = _two_documents()
    assert first is not None and second is not None and first is not second


def test_figure_pane_is_panels_own_on_another_panel(another_panel, caplog):
    with caplog.at_level(logging.WARNING, logger=_charts.log.name):
        first, second = _two_documents()
    assert first is second  # Panel's pane: one figure, moved into the newest document
    assert "figure per document was written for panel 1.9.x, not 1.10.0" in caplog.text
