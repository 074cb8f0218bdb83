"""LiveOdds: the exact chance of winning the contest and the next round, after every round."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import panel as pn
import param
from bokeh.models import CDSView, ColumnDataSource, HoverTool, Legend, Line, NumeralTickFormatter, Scatter
from bokeh.plotting import figure

from raisus_panel.rules import CharacterTeam, RuleError, odds

from . import _derive as d
from ._base import HTML, ComponentBase, esc, percent
from ._charts import PALETTE, FigurePane, apply_fonts, round_axis
from ._shared import contest_state, once_per_change


@dataclass(frozen=True)
class Chances:
    """What the odds engine says about a contest now, from side A's (side 0's) point of view.

    Attributes
    ----------
    mode
        "none" (no contest), "duel" (one unit a side), "exchanges" (several units on a side),
        "ended", or "unavailable" (the odds engine cannot rate it, see ``reason``).
    p_win
        Chance that side A wins the contest if both keep their current clichés (None if unknown).
    p_next
        Chance that side A wins the next decided round (None if unknown).
    pools, scores
        Dice each side rolls next, and the scores the contest is fought down from.
    expected_rounds
        Expected number of decided rounds still to come (None if unknown).
    pairs
        In exchanges: ``(attacker uid, target uid, P(attacker wins the exchange))`` for every pair of
        active units across the sides.
    reason
        Catalog key of why the odds are unavailable.
    """

    mode: str
    p_win: float | None = None
    p_next: float | None = None
    pools: tuple[int, int] | None = None
    scores: tuple[int, int] | None = None
    expected_rounds: float | None = None
    pairs: tuple = field(default_factory=tuple)
    reason: str = ""


def _side_terms(contest, u) -> tuple[int, int, bool] | None:
    """(score, bonus dice, revenge) of a unit, or None if it has no cliché to roll yet."""
    if isinstance(u, CharacterTeam):
        if contest.profile.team_dice == "member_sixes":
            raise RuleError("No exact odds for the 'members roll, sixes count' team option.", key="odds.sixes")
        return u.cliche_of(u.leader).pool, len(u.helpers), bool(u.revenge)
    chosen = contest.chosen(u.uid)
    if chosen is None:
        return None
    return chosen.pool, 0, False


def _damage(contest, winner, loser) -> int:
    """Points the loser loses when ``winner`` wins a round (3 for an inappropriate win)."""
    if not contest.is_inappropriate(winner):
        return 1
    if contest.profile.inappropriate_damage == "always" or not contest.is_inappropriate(loser):
        return 3
    return 1


def contest_chances(contest) -> Chances:
    """The exact odds of ``contest`` from its current state (see :class:`Chances`).

    Team bonus dice, a pending revenge bonus and the damage of an inappropriate win are taken from
    the contest; the contest is assumed to be fought on with the clichés chosen now. The state is
    its event log, so every page showing one shared contest gets the answer worked out once per change.
    """
    if contest is None:
        return Chances("none")
    return once_per_change(contest, ("chances",), contest_state(contest), lambda: _rate(contest))


def _rate(contest) -> Chances:
    if contest.status == "ended":
        p = None if contest.winner is None else (1.0 if contest.winner == 0 else 0.0)
        return Chances("ended", p_win=p, p_next=None)
    try:
        if contest.needs_exchanges and not contest.single_roll:
            pairs = []
            for a in contest.active_units(0):
                for b in contest.active_units(1):
                    pa, pb = contest.pool(a.uid), contest.pool(b.uid)
                    p = float(odds.round_chance(pa, pb)) if pa > 0 and pb > 0 else None
                    pairs.append((a.uid, b.uid, p))
            return Chances("exchanges", pairs=tuple(pairs))
        ua, ub = contest.active_units(0)[0], contest.active_units(1)[0]
        ta, tb = _side_terms(contest, ua), _side_terms(contest, ub)
        pa, pb = contest.pool(ua.uid), contest.pool(ub.uid)
        p_next = float(odds.round_chance(pa, pb)) if pa > 0 and pb > 0 else None
        if ta is None or tb is None:
            return Chances("duel", p_next=p_next, pools=(pa, pb))
        if contest.single_roll:
            return Chances("duel", p_win=p_next, p_next=p_next, pools=(pa, pb), scores=(ta[0], tb[0]),
                           expected_rounds=1.0)
        result = odds.contest_odds(ta[0], tb[0], a_bonus=ta[1], b_bonus=tb[1],
                                   a_damage=_damage(contest, ua, ub), b_damage=_damage(contest, ub, ua),
                                   a_revenge=ta[2], b_revenge=tb[2])
        return Chances("duel", p_win=float(result.p_win), p_next=p_next, pools=(pa, pb),
                       scores=(ta[0], tb[0]), expected_rounds=float(result.expected_rounds))
    except RuleError as exc:
        reason = exc.key if exc.key == "odds.sixes" else "odds.too_big"
        return Chances("unavailable", reason=reason)
    except IndexError:
        return Chances("unavailable", reason="odds.no_units")


class LiveOdds(ComponentBase):
    """Side A's exact chance of winning the contest and the next round, after every change.

    The numbers come from :mod:`raisus_panel.rules.odds` (exact counts, no simulation) and respect
    team bonus dice, a pending revenge bonus and the 3-point damage of an inappropriate win. With
    several units on a side, the chance of each possible exchange is listed instead. A small chart
    draws both chances over the rounds, beside the score chart: one row is streamed into
    :attr:`source` per new history point (the last row is patched when the odds change without a
    new point, e.g. after an approval); served, changes from elsewhere are applied on this session's
    document. Shown in several notebook outputs, each output gets a chart of its own.

    Parameters
    ----------
    actions
        The adapter whose ``contest`` is rated.
    height
        Height of the chart in pixels.
    """

    height = param.Integer(default=200, bounds=(100, None), doc="""
        Height of the odds chart in pixels.""")

    chances = param.ClassSelector(class_=Chances, default=Chances("none"), doc="""
        The odds now (read-only output, recomputed after every change of the contest).""")

    def _build(self) -> None:
        self._n = 0
        self._last = None
        self._stale = True
        self._built_for = None
        self._text = HTML(sizing_mode="stretch_width")
        self._pane = FigurePane(self._draw, sizing_mode="stretch_width", height=self.height)
        self.param.watch(lambda e: setattr(self._pane, "height", e.new), "height")
        self._layout = pn.Column(self._text, self._pane, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def _contest_params(self) -> list[str]:
        return ["events", "history"]

    @property
    def source(self) -> ColumnDataSource:
        """The chart's data: ``x``, ``round``, ``p_win`` and ``p_next`` (NaN where unknown)."""
        return self._pane.sources["odds"]

    @staticmethod
    def _empty() -> dict:
        return {"x": [], "round": [], "p_win": [], "p_next": []}

    @staticmethod
    def _value(p) -> float:
        return math.nan if p is None else float(p)

    def _row(self, point: dict, chances: Chances) -> dict:
        return {"x": [float(point["x"])], "round": [point["round"]], "p_win": [self._value(chances.p_win)],
                "p_next": [self._value(chances.p_next)]}

    # -- sync -------------------------------------------------------------------------------------
    def _relabel(self) -> None:
        self._stale = True

    def _refresh(self) -> None:
        contest = self.contest
        chances = contest_chances(contest)
        if chances != self.chances:
            self.chances = chances
        self._text.object = self._text_html(chances) if contest is None else once_per_change(
            contest, ("LiveOdds", self.language), contest_state(contest), lambda: self._text_html(chances))
        history = contest.history if contest is not None else []
        grown = len(history) >= self._n and (self._n == 0 or history[self._n - 1] == self._last)
        if self._stale or contest is not self._built_for or not grown:
            self._rebuild(contest, history, chances)
            return
        if len(history) > self._n:
            for point in history[self._n:]:
                self._pane.stream("odds", self._row(point, chances))
            self._n, self._last = len(history), history[-1]
            self._pane.push()
        elif self._n:
            data = self.source.data
            last = len(data["x"]) - 1
            new = (self._value(chances.p_win), self._value(chances.p_next))
            old = (data["p_win"][last], data["p_next"][last])
            if not all(a == b or (math.isnan(a) and math.isnan(b)) for a, b in zip(new, old)):
                self._pane.patch("odds", {"p_win": [(last, new[0])], "p_next": [(last, new[1])]})
                self._pane.push()

    def _rebuild(self, contest, history, chances) -> None:
        """Keep the rows of the points still in the history; rate the rest now."""
        self._stale = False
        kept = 0
        old = self._pane.sources["odds"].data if self._pane.sources else self._empty()
        if contest is self._built_for:
            kept = min(len(history), self._n, len(old["x"]))
            if history and kept and history[kept - 1] != self._last and kept == self._n:
                kept -= 1
        data = {k: list(old[k][:kept]) for k in self._empty()}
        for point in history[kept:]:
            for k, v in self._row(point, chances).items():
                data[k].extend(v)
        self._built_for = contest
        self._n = len(history)
        self._last = history[-1] if history else None
        self._pane.draw({"odds": data})

    def _draw(self, columns):
        """A figure over a new source holding ``columns`` (for :class:`FigurePane`)."""
        sources = {"odds": ColumnDataSource(data=columns["odds"])}
        return self._figure(sources["odds"]), sources

    def _figure(self, source):
        t = self._t
        fig = figure(height=self.height, sizing_mode="stretch_width", tools="pan,wheel_zoom,reset,save",
                     title=t("odds.chart_title"), x_axis_label=t("chart.round"), y_axis_label=t("odds.axis"))
        fig.y_range.start, fig.y_range.end = 0, 1
        fig.yaxis.formatter = NumeralTickFormatter(format="0%")
        view = CDSView()  # glyphs added directly, on one view: fewer models on every served page
        win = fig.add_glyph(source, Line(x="x", y="p_win", line_width=2, line_color=PALETTE[0]), view=view)
        nxt = fig.add_glyph(source, Line(x="x", y="p_next", line_width=2, line_dash="dashed",
                                               line_color=PALETTE[1]), view=view)
        dots = fig.add_glyph(source, Scatter(x="x", y="p_win", size=6, fill_color=PALETTE[0],
                                                   line_color=PALETTE[0]), view=view)
        fig.add_tools(HoverTool(renderers=[dots], tooltips=[
            (t("chart.round"), "@round"), (t("odds.p_win_short"), "@p_win{0.0%}"),
            (t("odds.p_next_short"), "@p_next{0.0%}")]))
        fig.add_layout(Legend(items=[(t("odds.p_win_short"), [win, dots]), (t("odds.p_next_short"), [nxt])],
                              location="top_left", click_policy="hide"))
        round_axis(fig)
        apply_fonts(fig)
        return fig

    # -- text -------------------------------------------------------------------------------------
    def _text_html(self, chances: Chances) -> str:
        t = self._t
        contest = self.contest
        if chances.mode == "none":
            return f"<i>{esc(t('odds.no_contest'))}</i>"
        if chances.mode == "unavailable":
            return f"<i>{esc(t(chances.reason))}</i>"
        a = ", ".join(u.name for u in contest.sides[0])
        b = ", ".join(u.name for u in contest.sides[1])
        lines = []
        if chances.mode == "ended":
            if chances.p_win is not None:
                lines.append(t("odds.decided", side=t(f"side.{contest.winner}")))
        elif chances.mode == "exchanges":
            names = d.names(contest)
            lines.append(t("odds.exchanges"))
            for ua, ub, p in chances.pairs:
                value = percent(p) if p is not None else t("odds.unknown")
                lines.append(t("odds.pair", a=names.get(ua, ua), b=names.get(ub, ub), p=value))
        else:
            if chances.p_win is not None:
                lines.append(t("odds.p_win", side=t("side.0"), names=a, p=percent(chances.p_win)))
                lines.append(t("odds.p_win", side=t("side.1"), names=b, p=percent(1 - chances.p_win)))
            else:
                lines.append(t("odds.pick_cliches"))
            if chances.p_next is not None:
                lines.append(t("odds.p_next", n=contest.round + 1, p=percent(chances.p_next),
                               a=chances.pools[0], b=chances.pools[1]))
            if chances.expected_rounds is not None and not contest.single_roll:
                lines.append(t("odds.expected_rounds", n=f"{chances.expected_rounds:.1f}"))
        return "<br>".join(esc(line) for line in lines)
