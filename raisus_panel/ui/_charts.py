"""Bokeh helpers shared by the charts: fonts that can show Korean, colours, a figure per document,
notebook pushes."""

from __future__ import annotations

import weakref
from typing import Callable

import panel as pn
from bokeh.models import (AdaptiveTicker, Axis, ColumnDataSource, DataRange1d, Label, LabelSet, Legend, Scatter,
                          Title)
from bokeh.palettes import Category10_10

#: A font stack that can draw Korean on every platform (the Makefile installs Noto CJK on Debian).
CJK_FONT = ("'Noto Sans CJK KR', 'Noto Sans KR', 'Source Han Sans KR', 'Apple SD Gothic Neo', "
            "'Malgun Gothic', 'NanumGothic', sans-serif")

PALETTE = Category10_10


def apply_fonts(fig):
    """Draw every text of a Bokeh figure in :data:`CJK_FONT`, so Korean shows on every platform.

    Bokeh's default font has no Hangul: without this, Korean titles, axis labels and legends may show
    as boxes. Call it after adding the legend and annotations; it styles titles, axis labels and tick
    labels, legends (items and title) and ``Label``/``LabelSet`` annotations.

    Parameters
    ----------
    fig
        A Bokeh figure (``bokeh.plotting.figure``), changed in place.

    Returns
    -------
    The same figure, so the call can wrap its creation.

    Examples
    --------
    >>> from bokeh.plotting import figure
    >>> from raisus_panel.ui import apply_fonts
    >>> fig = figure(title="라운드별 점수", x_axis_label="라운드", y_axis_label="점수")
    >>> _ = fig.line([0, 1, 2], [4, 3, 3], legend_label="바이킹")
    >>> apply_fonts(fig) is fig
    True
    """
    # the figure's own lists, not fig.select: each select walks every model of the figure, which
    # made fonts the slowest part of building a served page
    for obj in (fig.title, *fig.above, *fig.below, *fig.left, *fig.right, *fig.center, *fig.renderers):
        if isinstance(obj, (Title, Label, LabelSet)):
            obj.text_font = CJK_FONT
        elif isinstance(obj, Axis):
            obj.axis_label_text_font = CJK_FONT
            obj.major_label_text_font = CJK_FONT
        elif isinstance(obj, Legend):
            obj.label_text_font = CJK_FONT
            obj.title_text_font = CJK_FONT
    return fig


def round_axis(fig) -> None:
    """Make the x axis of a figure drawn over a contest's rounds (``history`` points' ``x``) read in rounds.

    Major ticks fall on whole rounds only (1, 2, 10, 20... rounds apart as the contest grows, never
    0.2 or 0.5), with a minor tick halfway between rounds, where the between-round events sit. The
    range keeps half a round either side of the points, and always reaches from round 0 to round 1:
    before the first roll (a single point at round 0) it shows the round to come instead of Bokeh's
    -1..1. Call it after drawing the data, on a figure whose y range includes 0.
    """
    fig.x_range = DataRange1d(range_padding=0.5, range_padding_units="absolute")
    fig.xaxis.ticker = AdaptiveTicker(base=10, mantissas=[1, 2], min_interval=1, num_minor_ticks=2,
                                     desired_num_ticks=8)
    # an invisible point at rounds 0 and 1: the range always spans them, with no update on every stream
    fig.add_glyph(ColumnDataSource(data={"x": [0, 1], "y": [0, 0]}),
                  Scatter(x="x", y="y", fill_alpha=0, line_alpha=0))


def push(pane) -> None:
    """After changing a Bokeh model in place, send the change to a notebook's frontend (no-op served)."""
    try:
        pn.io.push_notebook(pane)
    except Exception:  # pragma: no cover - a display that was closed meanwhile
        pass


#: name -> columns: the data of a chart's sources, e.g. ``{"lines": {"x": [...], ...}}``
Columns = dict[str, dict[str, list]]


class FigurePane(pn.pane.Bokeh):
    """A Bokeh pane that gives every document it is shown in a figure and data sources of its own.

    A Bokeh model belongs to one document. Panel's own Bokeh pane moves its figure into the newest
    document that shows it, so a chart shown in two notebook outputs goes stale in the older one
    (its streams reach the newer output only, and the older output's page is sent references to
    models it never got). Here ``make(columns)`` draws a figure over new sources holding
    ``columns``; the first document to show the pane gets the figure drawn by :meth:`draw`, and
    every other document a copy drawn over the same rows. :meth:`stream`, :meth:`patch` and
    :meth:`set_data` change the sources of every copy alike; :meth:`push` sends the changes to
    notebook outputs. Served, a component lives on one document and there is only ever one figure.

    Parameters
    ----------
    make
        ``make(columns) -> (figure, {name: ColumnDataSource})``.
    """

    def __init__(self, make: Callable[[Columns], tuple], **params):
        self._make = make
        # [document (weak) or None while not shown yet, figure, sources]; the first is the drawn one
        self._views: list[list] = []
        super().__init__(**params)

    def draw(self, columns: Columns) -> None:
        """Draw a new figure over ``columns``, in every document that shows the pane."""
        figure, sources = self._make(columns)
        self._views = [[None, figure, sources]]
        self.object = figure  # Panel replaces the model in each document, asking _get_model for each

    @property
    def sources(self) -> dict:
        """The sources of the drawn figure (the copies hold the same rows)."""
        return self._views[0][2] if self._views else {}

    def _all(self, name: str):
        return [view[2][name] for view in self._views]

    def stream(self, name: str, rows: dict) -> None:
        """Append ``rows`` to source ``name`` of every figure."""
        for source in self._all(name):
            source.stream({k: list(v) for k, v in rows.items()})

    def patch(self, name: str, patches: dict) -> None:
        """Patch source ``name`` of every figure (``ColumnDataSource.patch``)."""
        for source in self._all(name):
            source.patch(patches)

    def push(self) -> None:
        """Send what changed in the figures to the notebook outputs showing them (no-op served)."""
        push(self)

    def _view_for(self, doc) -> list:
        for view in self._views:
            if view[0] is not None and view[0]() is doc:
                return view
        for view in self._views:
            if view[0] is None:
                view[0] = weakref.ref(doc)
                return view
        columns = {name: {k: list(v) for k, v in source.data.items()} for name, source in self.sources.items()}
        figure, sources = self._make(columns)
        view = [weakref.ref(doc), figure, sources]
        self._views.append(view)
        return view

    def _get_model(self, doc, root=None, parent=None, comm=None):
        if root is None:
            return self.get_root(doc, comm)
        if self.object is None or not self._views:
            return super()._get_model(doc, root, parent, comm)
        model = self._view_for(doc)[1]
        self._models[root.ref["id"]] = (model, parent)
        self._design.apply_bokeh_theme_to_model(model, self.theme)
        return model

    def _cleanup(self, root=None) -> None:
        doc = root.document if root is not None else None
        super()._cleanup(root)
        if doc is None:
            return
        if any(model.document is doc for model, _ in self._models.values()):
            return  # still shown there
        self._views = [v for i, v in enumerate(self._views) if i == 0 or v[0] is None or v[0]() is not doc]
