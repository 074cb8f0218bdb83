"""Bokeh helpers shared by the charts: fonts that can show Korean, a colour per side and unit, axes
that read in rounds and whole dice, a key below the plot, a figure per document, notebook pushes."""

from __future__ import annotations

import html
import logging
import weakref
from typing import Callable

import panel as pn
from bokeh.models import AdaptiveTicker, Axis, ColumnDataSource, DataRange1d, Label, LabelSet, Legend, Scatter, Title
from bokeh.palettes import Category10_10

from raisus_panel import upstream

log = logging.getLogger(__name__)

#: A font stack that can draw Korean on every platform (the Makefile installs Noto CJK on Debian).
CJK_FONT = ("'Noto Sans CJK KR', 'Noto Sans KR', 'Source Han Sans KR', 'Apple SD Gothic Neo', "
            "'Malgun Gothic', 'NanumGothic', sans-serif")

PALETTE = Category10_10

#: Colours of each side's units, in the order the units stand in the contest's start: side A cool
#: (blues, greens, purple), side B warm (vermillion, orange, pinks, brown), so the sides stay apart
#: even where the units' own colours are hard to tell apart. Mostly the Okabe-Ito and Tol palettes,
#: chosen to stay distinct with the common colour-vision deficiencies.
SIDE_PALETTES = (
    ("#0072B2", "#009E73", "#56B4E9", "#332288", "#44AA99", "#88CCEE"),
    ("#D55E00", "#E69F00", "#CC79A7", "#882255", "#AA4499", "#997700"),
)

#: A side's own colour (a team's, the side's key): its first unit's colour.
SIDE_COLORS = tuple(palette[0] for palette in SIDE_PALETTES)

#: How a side's lines are drawn, so that colour is never the only thing telling the sides apart.
SIDE_DASHES = ("solid", "dashed")


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


def dice_axis(fig) -> None:
    """Make the y axis of a figure of scores read in whole dice: ticks on 0, 1, 2... (or 0, 5, 10... as
    the scores grow), never on half a die, and no minor ticks between dice."""
    fig.yaxis.ticker = AdaptiveTicker(base=10, mantissas=[1, 2, 5], min_interval=1, num_minor_ticks=0,
                                     desired_num_ticks=6)


def side_color(side: int) -> str:
    """The colour of side 0 (A) or 1 (B)."""
    return SIDE_COLORS[side]


def unit_colors(contest) -> dict[str, str]:
    """A stable colour for every unit of a contest: character, grunt mob and team uid -> ``"#rrggbb"``.

    Made from the contest's start (its first event): each side's characters, team members included,
    take their side's palette (:data:`SIDE_PALETTES`) in the order they stand there, so a unit has the
    same colour on every page, in every language and after a reload or an undo. A team formed later
    takes its side's colour (:data:`SIDE_COLORS`); its members keep theirs. A side with more units
    than colours starts its palette again: names and line styles still tell them apart.

    Parameters
    ----------
    contest
        A :class:`~raisus_panel.rules.Contest` (None gives an empty mapping).

    Examples
    --------
    >>> from raisus_panel.rules import Character, Contest
    >>> viking, pirate = Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3})
    >>> colors = unit_colors(Contest("Brawl", viking, pirate))
    >>> colors[viking.uid] == SIDE_PALETTES[0][0] and colors[pirate.uid] == SIDE_PALETTES[1][0]
    True
    """
    if contest is None or not contest.events:
        return {}
    start = contest.events[0]
    teams = {data["uid"]: data for data in start.get("teams", [])}
    out: dict[str, str] = {}
    for side, uids in enumerate(start.get("sides", [])):
        palette = SIDE_PALETTES[side % 2]
        members = []
        for uid in uids:
            if uid in teams:
                out[uid] = SIDE_COLORS[side % 2]
                members += [m["character"] for m in teams[uid]["members"]]
            else:
                members.append(uid)
        for i, uid in enumerate(members):
            out.setdefault(uid, palette[i % len(palette)])
    for e in contest.events:
        if e["type"] == "team_formed":
            out.setdefault(e["team"]["uid"], SIDE_COLORS[e["side"] % 2])
    return out


def series_styles(contest) -> dict[str, tuple[str, str, str]]:
    """``(colour, dash, dot fill)`` of every chart series of a contest (``contest.series`` keys
    ``"<character uid>:<cliché>"``).

    A series has its character's colour (:func:`unit_colors`) and its side's dash (:data:`SIDE_DASHES`);
    its dots are filled in that colour for the character's first cliché in the chart and white
    (hollow) for the others, so two clichés of one character differ by more than their labels.
    """
    if contest is None:
        return {}
    colors = unit_colors(contest)
    start = contest.events[0] if contest.events else {}
    teams = {data["uid"]: data for data in start.get("teams", [])}
    sides = {}
    for side, uids in enumerate(start.get("sides", [])):
        for uid in uids:
            sides[uid] = side
            for m in teams.get(uid, {}).get("members", []):
                sides[m["character"]] = side
    out, seen = {}, set()
    for i, key in enumerate(contest.series):
        uid = key.split(":", 1)[0]
        color = colors.get(uid, PALETTE[i % len(PALETTE)])
        out[key] = (color, SIDE_DASHES[sides.get(uid, 0) % 2], "white" if uid in seen else color)
        seen.add(uid)
    return out


#: How far apart (in pixels, about) the lines of a score chart are drawn, so that two lines at the same
#: score both show (issue 21: one hid the other): each series is drawn a little above or below its
#: score, centred on it, never more than :data:`MAX_SPREAD` dice from the first to the last.
SERIES_GAP_PX = 4.5
#: The widest spread of the lines in dice: under half a die, so every line still reads as its score.
MAX_SPREAD = 0.4


def series_offsets(keys: list[str], top: float, plot_px: float) -> dict[str, float]:
    """How far each series of a score chart is drawn from its score, in dice (``keys`` in the chart's
    order; ``top`` the highest score the chart shows; ``plot_px`` the plot's height in pixels).

    The offsets are centred on 0 and :data:`SERIES_GAP_PX` apart on the page (closer with many
    series, within :data:`MAX_SPREAD`), the same on every page: lines at one score lie side by side
    instead of on top of each other. The data (the hover, the key, ``source``) keep the true scores.
    """
    n = len(keys)
    if n < 2:
        return {k: 0.0 for k in keys}
    per_die = plot_px / (max(top, 1.0) + 0.8)  # the y range runs from -0.4 to top + 0.4
    gap = min(SERIES_GAP_PX / per_die, MAX_SPREAD / (n - 1))
    return {k: round((i - (n - 1) / 2) * gap, 4) for i, k in enumerate(keys)}


# -- the key under a chart ----------------------------------------------------------------------
#: SVG shapes (14 x 14) of the markers a chart uses, for its key and its picture: Bokeh marker name -> SVG.
MARKER_SHAPES = {
    "circle": '<circle cx="7" cy="7" r="4"/>',
    "triangle": '<polygon points="7,1.5 12.5,12 1.5,12"/>',
    "inverted_triangle": '<polygon points="1.5,2 12.5,2 7,12.5"/>',
    "square": '<rect x="2" y="2" width="10" height="10"/>',
    "diamond": '<polygon points="7,1 13,7 7,13 1,7"/>',
    "star": '<polygon points="7,1 8.8,5.2 13.2,5.4 9.8,8.2 10.9,12.6 7,10.2 3.1,12.6 4.2,8.2 0.8,5.4 5.2,5.2"/>',
    "x": '<path d="M2.5,2.5 L11.5,11.5 M11.5,2.5 L2.5,11.5" stroke-width="2.2"/>',
    "circle_dot": '<circle cx="7" cy="7" r="5.5"/><circle cx="7" cy="7" r="1.4" fill="#222"/>',
}

#: The key's look, as inline styles (a style sheet would be one more model on every page): items wrap
#: onto more lines on a narrow page, so the plot keeps its whole width on a phone too.
_KEY_STYLE = (f"display:flex;flex-wrap:wrap;gap:2px 14px;margin:0 4px 0 40px;font-size:13px;"
              f"font-family:{html.escape(CJK_FONT, quote=True)}")
_ITEM_STYLE = "display:inline-flex;align-items:center;gap:5px;max-width:100%;overflow-wrap:anywhere"


def key_line(color: str, dash: str = "solid", fill: str | None = None, marker: str | None = "circle") -> str:
    """A key swatch (SVG) of a line of ``color`` drawn ``dash``, with a ``marker`` dot (None: none)
    filled with ``fill`` (default: ``color``)."""
    pattern = ' stroke-dasharray="5,3"' if dash == "dashed" else ""
    dot = MARKER_SHAPES[marker] if marker else ""
    return (f'<svg width="26" height="14" viewBox="0 0 26 14" style="flex:none" aria-hidden="true">'
            f'<line x1="1" y1="7" x2="25" y2="7" stroke="{color}" stroke-width="2.5"{pattern}/>'
            f'<g transform="translate(6,0)" fill="{fill or color}" stroke="{color}" stroke-width="1.5">{dot}</g>'
            f'</svg>')


def key_marker(marker: str) -> str:
    """A key swatch (SVG) of an event marker: its shape, white with a dark outline, as on the chart."""
    return (f'<svg width="14" height="14" viewBox="0 0 14 14" style="flex:none" aria-hidden="true">'
            f'<g fill="white" stroke="#222" stroke-width="1.5">{MARKER_SHAPES[marker]}</g></svg>')


def key_html(items: list[tuple[str, str]], label: str = "") -> str:
    """A chart's key as HTML: ``items`` are ``(swatch SVG, text)``; texts are escaped here.

    ``label`` names the key for screen readers (the swatches themselves are hidden from them).
    """
    aria = f' role="list" aria-label="{html.escape(label, quote=True)}"' if label else ' role="list"'
    body = "".join(f'<span role="listitem" style="{_ITEM_STYLE}">{swatch}{html.escape(text)}</span>'
                   for swatch, text in items)
    return f'<div class="raisus-key" style="{_KEY_STYLE}"{aria}>{body}</div>'


def push(pane) -> None:
    """After changing a Bokeh model in place, send the change to a notebook's frontend (no-op served)."""
    try:
        pn.io.push_notebook(pane)
    except Exception:  # pragma: no cover - a display that was closed meanwhile
        pass


#: name -> columns: the data of a chart's sources, e.g. ``{"lines": {"x": [...], ...}}``
Columns = dict[str, dict[str, list]]


#: A plot's own colours on a dark page: Panel's dark theme's background and surface, light ink.
DARK_PLOT = {"background": "#2b3035", "border": "#212529", "ink": "#dee2e6", "grid": "#495057"}


def dark_plot(fig):
    """Colour a figure for a dark page: plot area, frame, axes, grid lines and title (its lines and
    markers keep their colours, which read on both).

    Set as the figure's own values, not as a Bokeh theme: a document applies its theme to every model
    added to it, which would take a theme's values away again.
    """
    fig.background_fill_color, fig.border_fill_color = DARK_PLOT["background"], DARK_PLOT["border"]
    fig.outline_line_color = DARK_PLOT["grid"]
    if fig.title is not None:
        fig.title.text_color = DARK_PLOT["ink"]
    for axis in fig.axis:
        axis.axis_line_color = axis.major_tick_line_color = axis.minor_tick_line_color = DARK_PLOT["ink"]
        axis.major_label_text_color = axis.axis_label_text_color = DARK_PLOT["ink"]
    for grid in fig.grid:
        grid.grid_line_color = DARK_PLOT["grid"]
    return fig


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
        # a dark page (Panel's ``?theme=dark``) gets dark plots (see :func:`dark_plot`)
        self._dark = pn.config.theme == "dark"
        self._make = make
        # [document (weak) or None while not shown yet, figure, sources]; the first is the drawn one
        self._views: list[list] = []
        super().__init__(**params)

    def _drawn(self, columns: Columns) -> tuple:
        """``make(columns)``, dark on a dark page."""
        figure, sources = self._make(columns)
        return (dark_plot(figure) if self._dark else figure), sources

    def draw(self, columns: Columns) -> None:
        """Draw a new figure over ``columns``, in every document that shows the pane."""
        figure, sources = self._drawn(columns)
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
        figure, sources = self._drawn(columns)
        view = [weakref.ref(doc), figure, sources]
        self._views.append(view)
        return view

    def _get_model(self, doc, root=None, parent=None, comm=None):
        if root is None:
            return self.get_root(doc, comm)
        if self.object is None or not self._views:
            return super()._get_model(doc, root, parent, comm)
        # Panel 1.9's Bokeh pane keeps a root's model in ``_models`` and themes it with ``_design``;
        # on another Panel, Panel's own pane: one figure, moved into the newest document
        if not upstream.tested("panel"):
            upstream.warn_untested("panel", "ui.FigurePane's figure per document", log)
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
