"""ScoreChart: every unit's cliché scores over the rounds of a contest, streamed one point at a time."""

from __future__ import annotations

import math

import panel as pn
import param
from bokeh.models import CDSView, ColumnDataSource, HoverTool, Legend, Scatter, Step
from bokeh.plotting import figure

from . import _derive as d
from ._base import ComponentBase
from ._charts import PALETTE, FigurePane, apply_fonts, round_axis

#: Between-round events that get a marker, and its shape.
MARKERS = {
    "volunteered": "triangle", "team_disbanded": "x", "dropped_out": "inverted_triangle",
    "team_formed": "square", "recovered": "star", "loss_assigned": "diamond", "cliche_chosen": "circle_dot",
}


def faces_text(point: dict, t) -> str:
    """The dice of a round point: every attempt, ties marked, e.g. ``"3+3=6 vs 2+4=6 (tie) → …"``."""
    attempts = []
    for i, (fa, fb) in enumerate(point.get("faces") or []):
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
    (volunteer, disband, drop out, re-form, recovery). The figure is rebuilt only when the history
    shrinks (undo), a new series appears, the contest is replaced or the language changes. Hovering a
    point shows its round, score and dice faces. Served, changes from other sessions or threads are
    applied on this session's own document (next tick); the watchers go when the session ends. Shown
    in several notebook outputs, each output gets a figure of its own, kept up to date alike.

    Parameters
    ----------
    actions
        The adapter whose ``contest`` is drawn.
    height
        Height of the figure in pixels.
    """

    height = param.Integer(default=320, bounds=(120, None), doc="""
        Height of the chart in pixels.""")

    def _build(self) -> None:
        self._keys: list[str] = []
        self._n = 0
        self._last = None
        self._stale = True
        self._built_for = None
        self._pane = FigurePane(self._draw, sizing_mode="stretch_width", height=self.height)
        self.param.watch(lambda e: setattr(self._pane, "height", e.new), "height")

    def __panel__(self):
        return self._pane

    def _contest_params(self) -> list[str]:
        return ["history", "series"]

    @property
    def source(self) -> ColumnDataSource:
        """The data of the lines: ``x``, ``round``, ``event``, ``faces`` and one column per series."""
        return self._pane.sources["lines"]

    @property
    def events_source(self) -> ColumnDataSource:
        """The data of the between-round markers: ``x``, ``y``, ``round``, ``event``, ``marker``."""
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
        return {"x": [], "y": [], "round": [], "event": [], "marker": []}

    def _event_label(self, kind: str) -> str:
        return self._t(f"event.{kind}")

    def _row(self, point: dict) -> dict:
        row = {"x": [float(point["x"])], "round": [point["round"]],
               "event": [self._event_label(point["kind"])], "faces": [faces_text(point, self._t)]}
        for key, col in self.columns().items():
            # NaN before a series came into play: the line starts where the cliché was first used
            row[col] = [point["scores"].get(key, math.nan)]
        return row

    def _marker_rows(self, index: int, history: list[dict], contest) -> dict:
        point = history[index]
        rows = self._empty_events()
        if point["kind"] not in MARKERS:
            return rows
        prev = history[index - 1]["scores"] if index else {}
        keys = [k for k, v in point["scores"].items() if prev.get(k) != v]
        if not keys:
            who = set(filter(None, [point.get("member")])) | set(point.get("characters", []))
            if point.get("team"):
                team = d.teams_by_uid(contest).get(point["team"], {})
                who |= {m["character"] for m in team.get("members", [])}
            keys = [k for k in point["scores"] if k.split(":", 1)[0] in who]
        ys = [point["scores"][k] for k in keys] or [0]
        for y in ys:
            rows["x"].append(float(point["x"]))
            rows["y"].append(y)
            rows["round"].append(point["round"])
            rows["event"].append(self._event_label(point["kind"]))
            rows["marker"].append(MARKERS[point["kind"]])
        return rows

    # -- sync -------------------------------------------------------------------------------------
    def _relabel(self) -> None:
        self._stale = True

    def _refresh(self) -> None:
        contest = self.contest
        history = contest.history if contest is not None else []
        keys = list(contest.series) if contest is not None else []
        grown = (len(history) >= self._n and (self._n == 0 or history[self._n - 1] == self._last))
        if self._stale or contest is not self._built_for or keys != self._keys or not grown:
            self._rebuild(contest)
        elif len(history) > self._n:
            self._stream(contest, history)

    def _stream(self, contest, history) -> None:
        for i in range(self._n, len(history)):
            self._pane.stream("lines", self._row(history[i]))
            markers = self._marker_rows(i, history, contest)
            if markers["x"]:
                self._pane.stream("events", markers)
        self._n = len(history)
        self._last = history[-1]
        self._pane.push()

    def _rebuild(self, contest) -> None:
        """A new figure and sources from the whole history."""
        self._stale = False
        self._built_for = contest
        history = contest.history if contest is not None else []
        self._keys = list(contest.series) if contest is not None else []
        data = {"x": [], "round": [], "event": [], "faces": [], **{c: [] for c in self.columns().values()}}
        events = self._empty_events()
        for i, point in enumerate(history):
            for k, v in self._row(point).items():
                data[k].extend(v)
            for k, v in self._marker_rows(i, history, contest).items():
                events[k].extend(v)
        self._n = len(history)
        self._last = history[-1] if history else None
        self._pane.draw({"lines": data, "events": events})

    def _draw(self, columns):
        """A figure over new sources holding ``columns`` (for :class:`FigurePane`)."""
        sources = {name: ColumnDataSource(data=data) for name, data in columns.items()}
        return self._figure(self._built_for, sources["lines"], sources["events"]), sources

    def _figure(self, contest, source, events_source):
        t = self._t
        fig = figure(height=self.height, sizing_mode="stretch_width", tools="pan,wheel_zoom,reset,save",
                     title=contest.name if contest is not None else t("chart.no_contest"),
                     x_axis_label=t("chart.round"), y_axis_label=t("chart.score"))
        fig.y_range.start = 0
        labels = contest.series if contest is not None else {}
        # glyphs added directly (no selection/muted copies made in Python) on one shared view, and a
        # single hover for every series: a served page carries each of these models per session
        view = CDSView()
        items, dots = [], []
        for i, (key, col) in enumerate(self.columns().items()):
            color = PALETTE[i % len(PALETTE)]
            line = fig.add_glyph(source, Step(x="x", y=col, mode="after", line_width=2, line_color=color),
                                 view=view)
            dots.append(fig.add_glyph(source, Scatter(x="x", y=col, size=7, fill_color=color,
                                                            line_color=color), view=view, name=labels[key]))
            items.append((labels[key], [line, dots[-1]]))
        if dots:
            fig.add_tools(HoverTool(renderers=dots, tooltips=[
                (t("chart.series"), "$name"), (t("chart.round"), "@round"), (t("chart.score"), "$snap_y"),
                (t("chart.event"), "@event"), (t("chart.dice"), "@faces")]))
        if items:
            fig.add_layout(Legend(items=items, click_policy="hide"), "right")
        marks = fig.add_glyph(events_source, Scatter(x="x", y="y", marker="marker", size=13, fill_color="white",
                                                           line_color="black", line_width=1.5))
        fig.add_tools(HoverTool(renderers=[marks], tooltips=[
            (t("chart.round"), "@round"), (t("chart.event"), "@event")]))
        round_axis(fig)
        apply_fonts(fig)
        return fig
