"""Issue 21: lines at the same score hid each other on the score chart.

Two units of one side at the same score in every round (same colour family, same dash): the Bokeh
figure draws their lines a few pixels apart while its data keep the true scores, and the picture of
watching pages (SVG) draws them at different heights too.
"""

from __future__ import annotations

import re

from bokeh.models import Scatter, Step

from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import Actions, ScoreChart
from raisus_panel.ui._charts import MAX_SPREAD, series_offsets

from .drivers import chart_plot


def twins():
    """Knight 3 and Viking 3 on side A against the Ogre 6; both A lines lose a die together each round
    (exchanges: the Ogre wins one against each, in turn)."""
    knight, viking, ogre = Character("Knight", {"Knight": 3}), Character("Viking", {"Viking": 3}), \
        Character("Ogre", {"Ogre": 6})
    # each exchange: side A's dice, then the Ogre's (it wins every one)
    rolls = [[1, 1, 1], [6] * 6, [1, 1, 1], [6] * 6, [1, 1], [6] * 6, [1, 1], [6] * 6]
    contest = Contest("Twins", [knight, viking], ogre, dice=ScriptedDice(rolls))
    actions = Actions.local(contest)
    for attacker in (knight, viking):
        actions.act("exchange", attacker=attacker.uid, target=ogre.uid)
    actions.act("end_round")
    for attacker in (knight, viking):
        actions.act("exchange", attacker=attacker.uid, target=ogre.uid)
    actions.act("end_round")
    return contest, actions, knight, viking


def offset_of(glyph) -> tuple[str, float]:
    """(column, offset in dice) of a glyph's y: a column's name, or a field dodged by an offset."""
    if isinstance(glyph.y, str):
        return glyph.y, 0.0
    return glyph.y.field, glyph.y.transform.value


def test_the_figure_draws_lines_at_one_score_apart():
    contest, actions, knight, viking = twins()
    chart = ScoreChart(actions=actions, lang="en")
    cols = chart.columns()
    k, v = (cols[f"{c.uid}:{c.cliches[0].name}"] for c in (knight, viking))
    data = chart.source.data
    # after each round both stand at the same score: the data hold the true scores, not the drawn ones
    assert [data[k][i] for i in (0, 2, 4)] == [data[v][i] for i in (0, 2, 4)] == [3, 2, 1]
    glyphs = [r.glyph for r in chart.figure.renderers if isinstance(r.glyph, Step)
              or (isinstance(r.glyph, Scatter) and r.glyph.marker != "marker")]
    steps = dict(offset_of(g) for g in glyphs if isinstance(g, Step))
    dots = dict(offset_of(g) for g in glyphs if isinstance(g, Scatter) and g.x == "x" and g.y != "y")
    assert set(steps) == set(cols.values()) and steps == dots  # every line with its dots, shifted alike
    offsets = sorted(steps.values())
    assert len(set(offsets)) == 3  # the twins (and the Ogre) each at a height of their own
    assert offsets[-1] - offsets[0] <= MAX_SPREAD  # within half a die: each line still reads as its score
    # 6 dice high on about 240 px: the twins lie at least 3 px apart
    assert abs(steps[k] - steps[v]) * 240 / (6 + 0.8) >= 3


def test_the_picture_draws_lines_at_one_score_apart():
    contest, actions, knight, viking = twins()
    chart = ScoreChart(actions=actions, lang="en", picture=True)
    svg = chart_plot(chart).object
    paths = re.findall(r"<path d=(M[^ ]+) fill=none stroke=(#[0-9A-Fa-f]{6}) stroke-width=2", svg)
    assert len(paths) == 3
    ys = [sorted({int(y) for y in re.findall(r"(?:,|V)(\d+)", d)}) for d, _ in paths]
    # the twins' lines (side A: not dashed) never share a height: every drawn y of one differs from the other's
    solid = [ys[i] for i, (d, _) in enumerate(paths)
             if f"<path d={d} fill=none stroke={paths[i][1]} stroke-width=2 />" in svg]
    assert len(solid) == 2 and not set(solid[0]) & set(solid[1])


def test_offsets_are_centred_and_bounded():
    assert series_offsets(["a"], 4, 240) == {"a": 0.0}
    two = series_offsets(["a", "b"], 4, 240)
    assert two["a"] == -two["b"] and two["b"] > 0
    many = series_offsets([str(i) for i in range(12)], 4, 240)
    assert max(many.values()) - min(many.values()) <= MAX_SPREAD + 1e-9
