"""ScoreChart: every unit's cliché scores over the rounds of a contest, streamed one point at a time."""

from __future__ import annotations

import math

import panel as pn
import param
from bokeh.models import CDSView, ColumnDataSource, HoverTool, Scatter, Step
from bokeh.plotting import figure
from bokeh.transform import dodge

from . import _derive as d
from ._base import HTML, ComponentBase
from ._charts import (
    FigurePane,
    apply_fonts,
    dice_axis,
    key_html,
    key_line,
    key_marker,
    round_axis,
    series_offsets,
    series_styles,
)
from ._shared import contest_state, once_per_change
from ._svg_chart import BOTTOM, HEIGHT, TOP, Line, Marker, dice_ticks, step_chart
from ._trail import marked_series, point_words, trail

#: Between-round events that get a marker, and its shape (shown in the chart's key).
MARKERS = {
    "volunteered": "triangle", "team_disbanded": "x", "dropped_out": "inverted_triangle",
    "team_formed": "square", "recovered": "star", "loss_assigned": "diamond", "cliche_chosen": "circle_dot",
}


def faces_text(point: dict, t) -> str:
    """The dice of a round point: every attempt, ties marked, e.g. ``"3+3=6 vs 2+4=6 (tie) → …"``."""
    attempts = []
    for fa, fb in point.get("faces") or []:
        a, b = sum(fa), sum(fb)
        text = f"{'+'.join(map(str, fa))}={a} {t('chart.vs')} {'+'.join(map(str, fb))}={b}"
        if a == b:
            text += f" ({t('roll.tie')})"
        attempts.append(text)
    return " → ".join(attempts)


class ScoreChart(ComponentBase):
    """A step line per unit and cliché over the rounds of the contest (``contest.history``).

    One row is streamed into :attr:`source` per new history point (``ColumnDataSource.stream``): one
    per decided round or exchange and one per between-round event, which also gets a marker
    (volunteer, disband, drop out, re-form, recovery, cliché switch) on the line of each cliché it
    changed, at that cliché's new score. The figure is rebuilt only when the history shrinks (undo),
    a new series appears, the contest is replaced or the language changes. Hovering a point says what
    happened there in words, with its round, score and dice faces.

    Each unit has its colour (:func:`~raisus_panel.ui._charts.unit_colors`: the same on every page);
    side B's lines are dashed, so the sides differ by more than colour. Lines at the same score are
    drawn a few pixels apart (:func:`~raisus_panel.ui._charts.series_offsets`), so none hides another;
    the data, the hover and the key keep the true scores. The key under the plot names
    every line and every marker shape shown; it wraps on a narrow page, so the plot keeps its width.
    The y axis reads in whole dice. Served, changes from other sessions or threads are applied on this
    session's own document (next tick); the watchers go when the session ends. Shown in several
    notebook outputs, each output gets a figure of its own, kept up to date alike.

    Parameters
    ----------
    actions
        The adapter whose ``contest`` is drawn.
    height
        Height of the figure in pixels.
    """

    height = param.Integer(default=320, bounds=(120, None), doc="""
        Height of the chart in pixels (the picture's height follows the page's width).""")

    picture = param.Boolean(default=False, constant=True, doc="""
        Draw the chart as one SVG picture, made once per change for every page of the room in a
        language (:mod:`._svg_chart`), instead of a Bokeh figure per page: for pages that only
        watch (a spectator's, the stream view), which then hold no chart models at all. Hovering a
        point still says what happened there (a tooltip); there is no ``source`` or ``figure``.""")

    def _build(self) -> None:
        self._keys: list[str] = []
        self._n = 0
        self._last = None
        self._stale = True
        self._built_for = None
        self._kinds: list[str] = []  # marker kinds in the chart, for the key
        self._styles: dict[str, tuple[str, str, str]] = {}  # series key -> (colour, dash, dot fill)
        self._names: dict[str, str] = {}
        if self.picture:  # one pane: the picture with its key under it (each pane costs a page)
            self._pane = self._layout = HTML(sizing_mode="stretch_width", css_classes=["raisus-score-picture"])
            return
        self._pane = FigurePane(self._draw, sizing_mode="stretch_width", height=self.height)
        self._key = HTML(sizing_mode="stretch_width", margin=(0, 5, 5, 5))
        self.param.watch(lambda e: setattr(self._pane, "height", e.new), "height")
        self._layout = pn.Column(self._pane, self._key, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def _contest_params(self) -> list[str]:
        return ["history", "series"]

    @property
    def source(self) -> ColumnDataSource:
        """The data of the lines: ``x``, ``round``, ``event``, ``faces`` and one column per series."""
        return self._pane.sources["lines"]

    @property
    def events_source(self) -> ColumnDataSource:
        """The data of the between-round markers: ``x``, ``y`` (the score of the line it sits on),
        ``round``, ``event`` (its kind in words), ``marker`` (shape), ``series`` (the line's label),
        ``what`` (what happened, in words) and ``color`` (the line's)."""
        return self._pane.sources["events"]

    @property
    def figure(self):
        """The Bokeh figure on show."""
        return self._pane.object

    def columns(self) -> dict[str, str]:
        """Series key (``"<uid>:<cliché>"``) -> column name in :attr:`source`."""
        return {k: f"s{i}" for i, k in enumerate(self._keys)}

    # -- rows -------------------------------------------------------------------------------------
    @staticmethod
    def _empty_events() -> dict:
        return {"x": [], "y": [], "round": [], "event": [], "marker": [], "series": [], "what": [], "color": []}

    def _event_label(self, kind: str) -> str:
        return self._t(f"event.{kind}")

    def _what(self, index: int, history: list[dict], points) -> str:
        event = points[index].event if index < len(points) else None
        return point_words(history[index], event, self._names, self._t)

    def _row(self, index: int, history: list[dict], points) -> dict:
        point = history[index]
        row = {"x": [float(point["x"])], "round": [point["round"]],
               "event": [self._event_label(point["kind"])], "what": [self._what(index, history, points)],
               "faces": [faces_text(point, self._t)]}
        for key, col in self.columns().items():
            # NaN before a series came into play: the line starts where the cliché was first used
            row[col] = [point["scores"].get(key, math.nan)]
        return row

    def _marker_rows(self, index: int, history: list[dict], points, contest) -> dict:
        point = history[index]
        rows = self._empty_events()
        if point["kind"] not in MARKERS:
            return rows
        event = points[index].event if index < len(points) else None
        keys = marked_series(point, event, d.teams_by_uid(contest))
        labels, styles = contest.series, self._styles
        for key in keys:  # none: no marker, rather than one on no line
            rows["x"].append(float(point["x"]))
            rows["y"].append(point["scores"][key])
            rows["round"].append(point["round"])
            rows["event"].append(self._event_label(point["kind"]))
            rows["marker"].append(MARKERS[point["kind"]])
            rows["series"].append(labels.get(key, key))
            rows["what"].append(self._what(index, history, points))
            rows["color"].append(styles[key][0] if key in styles else "#222")
        return rows

    def _key_html(self, contest) -> str:
        """The key under the plot: every line and every marker shape the chart shows, named."""
        labels = contest.series if contest is not None else {}
        items = [(key_line(*self._styles[key]), labels[key]) for key in self._keys]
        items += [(key_marker(MARKERS[kind]), self._event_label(kind)) for kind in MARKERS if kind in self._kinds]
        return key_html(items, label=self._t("chart.series")) if items else ""

    def _show_key(self, contest) -> None:
        text = self._key_html(contest)
        if self._key.object != text:
            self._key.object = text

    # -- sync -------------------------------------------------------------------------------------
    def _relabel(self) -> None:
        self._stale = True

    def _refresh(self) -> None:
        contest = self.contest
        if self.picture:
            self._show_picture(contest)
            return
        history = contest.history if contest is not None else []
        keys = list(contest.series) if contest is not None else []
        grown = (len(history) >= self._n and (self._n == 0 or history[self._n - 1] == self._last))
        if self._stale or contest is not self._built_for or keys != self._keys or not grown:
            self._rebuild(contest)
        elif len(history) > self._n:
            self._stream(contest, history)

    def _stream(self, contest, history) -> None:
        points = trail(contest)
        self._names = d.names(contest)
        for i in range(self._n, len(history)):
            self._pane.stream("lines", self._row(i, history, points))
            markers = self._marker_rows(i, history, points, contest)
            if markers["x"]:
                self._pane.stream("events", markers)
                if history[i]["kind"] not in self._kinds:
                    self._kinds.append(history[i]["kind"])
        self._n = len(history)
        self._last = history[-1]
        self._show_key(contest)
        self._pane.push()

    def _rebuild(self, contest) -> None:
        """A new figure and sources from the whole history."""
        self._stale = False
        self._built_for = contest
        data, events = self._columns(contest)
        self._pane.draw({"lines": data, "events": events})
        self._show_key(contest)

    def _columns(self, contest) -> tuple[dict, dict]:
        """The lines' and the markers' columns of the whole history (and the series and marker
        kinds the key names)."""
        history = contest.history if contest is not None else []
        self._keys = list(contest.series) if contest is not None else []
        self._styles = series_styles(contest)
        self._names = d.names(contest) if contest is not None else {}
        points = trail(contest)
        data = {"x": [], "round": [], "event": [], "what": [], "faces": [], **{c: [] for c in self.columns().values()}}
        events = self._empty_events()
        self._kinds = []
        for i, point in enumerate(history):
            for k, v in self._row(i, history, points).items():
                data[k].extend(v)
            marks = self._marker_rows(i, history, points, contest)
            for k, v in marks.items():
                events[k].extend(v)
            if marks["x"] and point["kind"] not in self._kinds:
                self._kinds.append(point["kind"])
        self._n = len(history)
        self._last = history[-1] if history else None
        return data, events

    # -- the picture ------------------------------------------------------------------------------
    def _show_picture(self, contest) -> None:
        # the same for every watching page of the room in this language
        self._pane.object = "" if contest is None else once_per_change(
            contest, ("ScoreChart.picture", self.language), contest_state(contest), lambda: self._picture(contest))

    def _picture(self, contest) -> str:
        """The chart as SVG, with its key under it."""
        t = self._t
        data, events = self._columns(contest)
        labels, columns = contest.series, self.columns()
        lines = [Line(data[col], self._styles[key][0], self._styles[key][1] == "dashed", self._styles[key][2])
                 for key, col in columns.items()]
        markers = [Marker(*m) for m in zip(events["x"], events["y"], events["marker"], events["color"])]
        # what happened at each point, and every line's score there
        tips = []
        for i, r in enumerate(data["round"]):
            scores = ", ".join(f"{labels[key]} {data[col][i]:g}" for key, col in columns.items()
                               if not math.isnan(data[col][i]))
            parts = [f"{t('chart.round')} {r}", data["what"][i], scores, data["faces"][i]]
            tips.append(" · ".join(p for p in parts if p))
        top = max([1.0, *(v for col in columns.values() for v in data[col] if not math.isnan(v))])
        offsets = series_offsets(list(columns), top, HEIGHT - TOP - BOTTOM)
        for line, key in zip(lines, columns):
            line.offset = offsets[key]
        picture = step_chart(title=contest.name, x_label=t("chart.round"), y_label=t("chart.score"), xs=data["x"],
                             lines=lines, markers=markers, tips=tips, y_range=(-0.4, top + 0.4),
                             y_ticks=dice_ticks(top), kind="score")
        return picture + self._key_html(contest)

    def _draw(self, columns):
        """A figure over new sources holding ``columns`` (for :class:`FigurePane`)."""
        sources = {name: ColumnDataSource(data=data) for name, data in columns.items()}
        return self._figure(self._built_for, sources["lines"], sources["events"]), sources

    def _figure(self, contest, source, events_source):
        t = self._t
        # no toolbar: the hover is the chart's one tool (pan and zoom only cost a phone its width and a
        # keyboard user seven stops between the roll button and the rest of the page)
        fig = figure(height=self.height, sizing_mode="stretch_width", tools="", toolbar_location=None,
                     title=contest.name if contest is not None else t("chart.no_contest"),
                     x_axis_label=t("chart.round"), y_axis_label=t("chart.score"))
        fig.y_range.start = -0.4  # a little below 0: a defeated line and its markers show whole
        labels = contest.series if contest is not None else {}
        # glyphs added directly (no selection/muted copies made in Python) on one shared view, and a
        # single hover for every series: a served page carries each of these models per session
        view = CDSView()
        dots = []
        columns = self.columns()
        # lines at one score side by side (a few pixels apart), not on top of each other; data unchanged
        top = max([1.0, *(v for col in columns.values() for v in source.data[col] if not math.isnan(v))])
        offsets = series_offsets(list(columns), top, self.height - 80)  # the plot: the figure less its frame
        for key, col in columns.items():
            color, dash, fill = self._styles[key]
            y = dodge(col, offsets[key], range=fig.y_range) if offsets[key] else col
            fig.add_glyph(source, Step(x="x", y=y, mode="after", line_width=2, line_color=color, line_dash=dash),
                          view=view)
            dots.append(fig.add_glyph(source, Scatter(x="x", y=y, size=7, fill_color=fill, line_color=color,
                                                      line_width=1.5), view=view, name=labels[key]))
        if dots:
            fig.add_tools(HoverTool(renderers=dots, tooltips=[
                (t("chart.series"), "$name"), (t("chart.round"), "@round"), (t("chart.score"), "$snap_y{0}"),
                (t("chart.event"), "@what"), (t("chart.dice"), "@faces")]))
        # the markers sit on the line of the cliché they concern, outlined in its colour; the line's
        # own dot under each says what happened (a second hover would only repeat it)
        fig.add_glyph(events_source, Scatter(x="x", y="y", marker="marker", size=13, fill_color="white",
                                             line_color="color", line_width=2))
        round_axis(fig)
        dice_axis(fig)
        apply_fonts(fig)
        return fig
