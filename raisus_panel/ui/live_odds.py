"""LiveOdds: the exact chance of winning the contest and the next round, after every round."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import panel as pn
import param
from bokeh.models import CDSView, ColumnDataSource, HoverTool, NumeralTickFormatter, Scatter, Step
from bokeh.plotting import figure

from raisus_panel.rules import CharacterTeam, RuleError, odds

from . import _derive as d
from ._base import HTML, ComponentBase, esc, percent
from ._charts import SIDE_COLORS, FigurePane, apply_fonts, key_html, key_line, round_axis
from ._shared import contest_state, once_per_change
from ._svg_chart import Line, percent_ticks, step_chart
from ._trail import point_words, trail


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
    p_exchange
        In exchanges: side A's chance of winning an exchange between a pair picked at random, the
        mean of ``pairs`` (None if none is known). The GM orders the exchanges, so there is no one
        chance of the contest or of the next round; this is what the chart draws instead.
    reason
        Catalog key of why the odds are unavailable.
    pumps
        In a duel under the pumps option: ``(side, unit name, ((pump, P(that side wins)), ...))`` for
        each unit that could pump its next roll, every pump from 0 to the most it may (the other
        side's pump and every lucky shot as declared now). The question a player asks: "pump 0, 1,
        2: my chance of winning the contest".
    """

    mode: str
    p_win: float | None = None
    p_next: float | None = None
    pools: tuple[int, int] | None = None
    scores: tuple[int, int] | None = None
    expected_rounds: float | None = None
    pairs: tuple = field(default_factory=tuple)
    reason: str = ""
    p_exchange: float | None = None
    pumps: tuple = field(default_factory=tuple)


@dataclass(frozen=True)
class _Terms:
    """What the odds engine needs of one side's unit: its score, bonus dice every round, a pending
    revenge bonus, and what its next roll adds (a pump's dice and lucky shots) and costs (the pump)."""

    score: int
    bonus: int = 0
    revenge: bool = False
    extra: int = 0
    pump: int = 0
    dice_per_pump: int = 1


def _side_terms(contest, u) -> _Terms | None:
    """The odds terms of a unit, or None if it has no cliché to roll yet."""
    if isinstance(u, CharacterTeam):
        if contest.profile.team_dice == "member_sixes":
            raise RuleError("No exact odds for the 'members roll, sixes count' team option.", key="odds.sixes")
        score, bonus, revenge = u.cliche_of(u.leader).pool, len(u.helpers), bool(u.revenge)
    else:
        chosen = contest.chosen(u.uid)
        if chosen is None:
            return None
        score, bonus, revenge = chosen.pool, 0, False
    declared = contest.bonus(u.uid)
    cliche = contest.pumped_cliche(u.uid)
    return _Terms(score, bonus, revenge, declared["dice"], declared["pump"],
                  cliche.dice_per_pump if cliche is not None else 1)


def _duel_odds(contest, ua, ub, ta: _Terms, tb: _Terms):
    """Side A's contest odds in a duel between ``ua`` and ``ub``, with what their next rolls add."""
    return odds.contest_odds(ta.score, tb.score, a_bonus=ta.bonus, b_bonus=tb.bonus,
                             a_damage=_damage(contest, ua, ub), b_damage=_damage(contest, ub, ua),
                             a_revenge=ta.revenge, b_revenge=tb.revenge, a_extra=ta.extra, b_extra=tb.extra,
                             a_pump=ta.pump, b_pump=tb.pump)


def _pump_options(contest, units, terms) -> tuple:
    """For each side's unit that may pump: its side's chance of winning the contest at every pump it
    could declare (see :attr:`Chances.pumps`)."""
    if not contest.profile.pumps or contest.single_roll:
        return ()
    out = []
    for side in (0, 1):
        mine = terms[side]
        if mine.score < 2:  # no pump from 1
            continue
        options = []
        for n in range(mine.score):
            lucky = mine.extra - mine.pump * mine.dice_per_pump  # the lucky shots stay as declared
            tried = list(terms)
            tried[side] = _Terms(mine.score, mine.bonus, mine.revenge, lucky + n * mine.dice_per_pump, n,
                                 mine.dice_per_pump)
            p = float(_duel_odds(contest, *units, *tried).p_win)
            options.append((n, p if side == 0 else 1 - p))
        out.append((side, units[side].name, tuple(options)))
    return tuple(out)


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
            known = [p for _, _, p in pairs if p is not None]
            return Chances("exchanges", pairs=tuple(pairs), p_exchange=sum(known) / len(known) if known else None)
        ua, ub = contest.active_units(0)[0], contest.active_units(1)[0]
        ta, tb = _side_terms(contest, ua), _side_terms(contest, ub)
        pa, pb = contest.pool(ua.uid), contest.pool(ub.uid)
        if ta is None or tb is None:
            p_next = float(odds.round_chance(pa, pb)) if pa > 0 and pb > 0 else None
            return Chances("duel", p_next=p_next, pools=(pa, pb))
        pa, pb = pa + ta.extra, pb + tb.extra  # the next roll's pump and lucky shots
        p_next = float(odds.round_chance(pa, pb)) if pa > 0 and pb > 0 else None
        if contest.single_roll:
            return Chances("duel", p_win=p_next, p_next=p_next, pools=(pa, pb), scores=(ta.score, tb.score),
                           expected_rounds=1.0)
        result = _duel_odds(contest, ua, ub, ta, tb)
        return Chances("duel", p_win=float(result.p_win), p_next=p_next, pools=(pa, pb),
                       scores=(ta.score, tb.score), expected_rounds=float(result.expected_rounds),
                       pumps=_pump_options(contest, (ua, ub), (ta, tb)))
    except RuleError as exc:
        reason = exc.key if exc.key == "odds.sixes" else "odds.too_big"
        return Chances("unavailable", reason=reason)
    except IndexError:
        return Chances("unavailable", reason="odds.no_units")


class LiveOdds(ComponentBase):
    """Side A's exact chance of winning the contest and the next round, after every change.

    The numbers come from :mod:`raisus_panel.rules.odds` (exact counts, no simulation) and respect
    team bonus dice, a pending revenge bonus and the 3-point damage of an inappropriate win. With
    several units on a side, the chance of each possible exchange is listed instead, and the chart
    draws side A's chance of winning an exchange between a pair picked at random (the GM orders the
    exchanges, so there is no one chance of the contest to draw). A small chart
    draws both chances over the rounds, beside the score chart, as steps: a chance holds from the
    point it was rated at until the next one, so a between-round event (a volunteer, a switch) shows
    as a step where it happened, not as a spike between rounds. Each point is rated as the contest
    stood then (:mod:`raisus_panel.ui._trail`), so a page opened late draws the same line as one
    that watched every round. One row is streamed into :attr:`source` per new history point (a row
    is patched when its odds change without a new point, e.g. after an approval); served, changes
    from elsewhere are applied on this session's document. The key sits under the plot; hovering a
    point says what happened there. Shown in several notebook outputs, each output gets a chart of
    its own.

    Parameters
    ----------
    actions
        The adapter whose ``contest`` is rated.
    height
        Height of the chart in pixels.
    """

    height = param.Integer(default=200, bounds=(100, None), doc="""
        Height of the odds chart in pixels.""")

    picture = param.Boolean(default=False, constant=True, doc="""
        Draw the chart as one SVG picture, made once per change for every page of the room in a
        language (:mod:`._svg_chart`), instead of a Bokeh figure per page: for pages that only
        watch (a spectator's, the stream view). There is then no ``source``.""")

    chances = param.ClassSelector(class_=Chances, default=Chances("none"), doc="""
        The odds now (read-only output, recomputed after every change of the contest).""")

    def _build(self) -> None:
        self._n = 0
        self._last = None
        self._stale = True
        self._built_for = None
        self._key_exchanges = False  # whether the key names the exchange line (drawn only in exchanges)
        if self.picture:  # one pane: the odds in words, the picture and its key (each pane costs a page)
            self._pane = self._layout = HTML(sizing_mode="stretch_width", css_classes=["raisus-odds-picture"])
            return
        self._text = HTML(sizing_mode="stretch_width")
        self._key = HTML(sizing_mode="stretch_width", margin=(0, 5, 5, 5))
        self._pane = FigurePane(self._draw, sizing_mode="stretch_width", height=self.height)
        self.param.watch(lambda e: setattr(self._pane, "height", e.new), "height")
        self._layout = pn.Column(self._text, self._pane, self._key, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def _contest_params(self) -> list[str]:
        return ["events", "history"]

    @property
    def source(self) -> ColumnDataSource:
        """The chart's data: ``x``, ``round``, ``p_win`` and ``p_next`` (NaN where unknown) and
        ``what`` (what happened at the point, in words)."""
        return self._pane.sources["odds"]

    @staticmethod
    def _empty() -> dict:
        return {"x": [], "round": [], "p_win": [], "p_next": [], "p_exchange": [], "what": []}

    @staticmethod
    def _value(p) -> float:
        return math.nan if p is None else float(p)

    def _values(self, chances) -> tuple[float, float, float]:
        chances = chances if chances is not None else Chances("none")
        return self._value(chances.p_win), self._value(chances.p_next), self._value(chances.p_exchange)

    def _row(self, point: dict, at, names: dict) -> dict:
        """The row of a history point; ``at`` is its :class:`~raisus_panel.ui._trail.TrailPoint`."""
        p_win, p_next, p_exchange = self._values(at.chances if at is not None else None)
        event = at.event if at is not None else None
        return {"x": [float(point["x"])], "round": [point["round"]], "p_win": [p_win], "p_next": [p_next],
                "p_exchange": [p_exchange], "what": [point_words(point, event, names, self._t)]}

    # -- sync -------------------------------------------------------------------------------------
    def _relabel(self) -> None:
        self._stale = True

    def _refresh(self) -> None:
        contest = self.contest
        chances = contest_chances(contest)
        if chances != self.chances:
            self.chances = chances
        if self.picture:
            self._show_picture(contest, chances)
            return
        self._text.object = self._text_html(chances) if contest is None else once_per_change(
            contest, ("LiveOdds", self.language), contest_state(contest), lambda: self._text_html(chances))
        history = contest.history if contest is not None else []
        grown = len(history) >= self._n and (self._n == 0 or history[self._n - 1] == self._last)
        if self._stale or contest is not self._built_for or not grown:
            self._rebuild(contest, history)
            return
        if contest is None:  # still no contest (the room changed otherwise): nothing to draw
            return
        points = trail(contest, contest_chances)
        data = self.source.data
        # a point's odds are final once the next point exists; until then (an approval, or changes
        # shown in one batch) the last row follows them
        patches = {"p_win": [], "p_next": [], "p_exchange": []}
        for i in range(max(self._n - 1, 0), min(self._n, len(points))):
            new = self._values(points[i].chances)
            for col, value in zip(("p_win", "p_next", "p_exchange"), new):
                old = data[col][i]
                if not (old == value or (math.isnan(old) and math.isnan(value))):
                    patches[col].append((i, value))
        patches = {k: v for k, v in patches.items() if v}
        if patches:
            self._pane.patch("odds", patches)
        names = d.names(contest) if len(history) > self._n else {}
        for i in range(self._n, len(history)):
            self._pane.stream("odds", self._row(history[i], points[i] if i < len(points) else None, names))
        if patches or len(history) > self._n:
            self._n, self._last = len(history), history[-1]
            self._pane.push()
        if chances.mode == "exchanges" and not self._key_exchanges:  # the key names the exchange line once drawn
            self._key_exchanges = True
            self._key.object = self._key_html()

    def _rebuild(self, contest, history) -> None:
        """Draw the chart anew from the whole trail (every point rated as it stood)."""
        self._stale = False
        data = self._columns(contest, history)
        self._built_for = contest
        self._n = len(history)
        self._last = history[-1] if history else None
        self._pane.draw({"odds": data})
        self._key_exchanges = any(not math.isnan(v) for v in data["p_exchange"])
        self._key.object = self._key_html()

    def _columns(self, contest, history) -> dict:
        """The chart's columns for the whole trail (every point rated as it stood)."""
        points = trail(contest, contest_chances) if contest is not None else ()
        names = d.names(contest) if contest is not None else {}
        data = self._empty()
        for i, point in enumerate(history):
            for k, v in self._row(point, points[i] if i < len(points) else None, names).items():
                data[k].extend(v)
        return data

    def _key_html(self, exchanges: bool | None = None) -> str:
        t = self._t
        exchanges = self._key_exchanges if exchanges is None else exchanges
        return key_html([(key_line(SIDE_COLORS[0]), t("odds.p_win_short")),
                         (key_line(SIDE_COLORS[0], "dashed", marker=None), t("odds.p_next_short")),
                         *([(key_line(SIDE_COLORS[0], fill="white"), t("odds.p_exchange_short"))] if exchanges else [])],
                        label=t("odds.chart_title"))

    # -- the picture ------------------------------------------------------------------------------
    def _show_picture(self, contest, chances: Chances) -> None:
        if contest is None:
            self._pane.object = self._text_html(chances)
            return
        # the same for every watching page of the room in this language
        self._pane.object = once_per_change(contest, ("LiveOdds.picture", self.language), contest_state(contest),
                                            lambda: self._text_html(chances) + self._picture(contest))

    def _picture(self, contest) -> str:
        """The chart as SVG, with its key under it."""
        t = self._t
        data = self._columns(contest, contest.history)

        def tip(r, what, p_win, p_next, p_exchange) -> str:
            chances = [f"{t(label)} {percent(p)}" for label, p in (("odds.p_win_short", p_win),
                                                                    ("odds.p_next_short", p_next),
                                                                    ("odds.p_exchange_short", p_exchange))
                       if not math.isnan(p)]
            return " · ".join([f"{t('chart.round')} {r}", *([what] if what else []), *chances])

        tips = [tip(*row) for row in zip(data["round"], data["what"], data["p_win"], data["p_next"],
                                         data["p_exchange"])]
        color = SIDE_COLORS[0]  # side A's chances
        lines = [Line(data["p_win"], color, fill=color), Line(data["p_next"], color, dash=True, opacity=0.7),
                 Line(data["p_exchange"], color, fill="white", opacity=0.85)]
        picture = step_chart(title=t("odds.chart_title"), x_label=t("chart.round"), y_label=t("odds.axis"),
                             xs=data["x"], lines=lines, tips=tips, y_range=(-0.04, 1.04), y_ticks=percent_ticks(),
                             kind="odds")
        return picture + self._key_html(exchanges=any(not math.isnan(v) for v in data["p_exchange"]))

    def _draw(self, columns):
        """A figure over a new source holding ``columns`` (for :class:`FigurePane`)."""
        sources = {"odds": ColumnDataSource(data=columns["odds"])}
        return self._figure(sources["odds"]), sources

    def _figure(self, source):
        t = self._t
        # no toolbar: the hover is the chart's one tool (pan and zoom only cost a phone its width and a
        # keyboard user seven stops between the roll button and the rest of the page)
        fig = figure(height=self.height, sizing_mode="stretch_width", tools="", toolbar_location=None,
                     title=t("odds.chart_title"), x_axis_label=t("chart.round"), y_axis_label=t("odds.axis"))
        fig.y_range.start, fig.y_range.end = -0.04, 1.04  # dots at 0% and 100% show whole
        fig.yaxis.formatter = NumeralTickFormatter(format="0%")
        view = CDSView()  # glyphs added directly, on one view: fewer models on every served page
        color = SIDE_COLORS[0]  # side A's chances
        # steps: a chance holds from the point it was rated at until the next point
        fig.add_glyph(source, Step(x="x", y="p_win", mode="after", line_width=2, line_color=color), view=view)
        fig.add_glyph(source, Step(x="x", y="p_next", mode="after", line_width=2, line_dash="dashed",
                                   line_color=color, line_alpha=0.7), view=view)
        dots = fig.add_glyph(source, Scatter(x="x", y="p_win", size=6, fill_color=color, line_color=color),
                             view=view)
        # in exchanges: side A's chance in an exchange (see Chances.p_exchange), white dots
        fig.add_glyph(source, Step(x="x", y="p_exchange", mode="after", line_width=2, line_color=color,
                                   line_alpha=0.85), view=view)
        exchange_dots = fig.add_glyph(source, Scatter(x="x", y="p_exchange", size=6, fill_color="white",
                                                      line_color=color), view=view)
        fig.add_tools(HoverTool(renderers=[dots], tooltips=[
            (t("chart.round"), "@round"), (t("chart.event"), "@what"), (t("odds.p_win_short"), "@p_win{0.0%}"),
            (t("odds.p_next_short"), "@p_next{0.0%}")]))
        fig.add_tools(HoverTool(renderers=[exchange_dots], tooltips=[
            (t("chart.round"), "@round"), (t("chart.event"), "@what"),
            (t("odds.p_exchange_short"), "@p_exchange{0.0%}")]))
        round_axis(fig)
        apply_fonts(fig)
        return fig

    # -- text -------------------------------------------------------------------------------------
    def _text_html(self, chances: Chances) -> str:
        lines, notice = odds_lines(self.contest, chances, self._t)
        return f"<i>{esc(lines[0])}</i>" if notice else "<br>".join(esc(line) for line in lines)


def odds_lines(contest, chances: Chances, t) -> tuple[list[str], bool]:
    """The odds in words, a line each, in ``t``'s language; and whether they are one notice instead
    (no contest, or no exact odds), shown in italics. Shared by :class:`LiveOdds` and the table view's
    document (``_table_doc.py``)."""
    if chances.mode == "none":
        return [t("odds.no_contest")], True
    if chances.mode == "unavailable":
        return [t(chances.reason)], True
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
        for _side, name, options in chances.pumps:
            lines.append(t("odds.by_pump", name=name,
                           options=" · ".join(t("odds.pump_option", n=n, p=percent(p)) for n, p in options)))
    if (chances.p_win is not None or chances.mode == "exchanges") and not contest.single_roll \
            and contest.status == "active":
        lines.append(t("odds.same_cliches"))  # the odds are of the clichés chosen now, kept to the end
    return lines, False
