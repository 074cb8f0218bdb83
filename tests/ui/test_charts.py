"""The charts' shared helpers: fonts that can show Korean and each unit's colour (public, for notebook
authors' own charts), an x axis that reads in whole rounds, and the key under a chart."""

from __future__ import annotations

import math

import pytest
from bokeh.models import AdaptiveTicker, DataRange1d, GlyphRenderer, Label, LabelSet, Title
from bokeh.plotting import figure

import raisus_panel.ui as ui
from raisus_panel.rules import Character, CharacterTeam, Contest, GruntMob
from raisus_panel.ui import LiveOdds, ScoreChart
from raisus_panel.ui._charts import SIDE_PALETTES, key_html, key_line

from .conftest import duel
from .drivers import chart_key, chart_plot


def test_the_korean_font_helper_is_public():
    assert {"apply_fonts", "CJK_FONT", "unit_colors", "side_color"} <= set(ui.__all__)
    assert "apply_fonts" in ui.__doc__ and "Noto Sans CJK KR" in ui.CJK_FONT
    assert "Parameters" in ui.apply_fonts.__doc__ and "Examples" in ui.apply_fonts.__doc__


def test_apply_fonts_styles_every_text_of_a_figure():
    fig = figure(title="라운드별 점수", x_axis_label="라운드", y_axis_label="점수")
    fig.line([0, 1], [4, 3], legend_label="바이킹")
    fig.add_layout(Title(text="부제"), "above")
    fig.add_layout(Label(x=1, y=3, text="승리"))
    fig.add_layout(LabelSet(x="x", y="y", text="t"))
    assert ui.apply_fonts(fig) is fig  # for show(apply_fonts(figure(...)))
    fonts = [t.text_font for t in fig.select(type=Title)] + [l.text_font for l in fig.select(type=Label)]
    fonts += [l.text_font for l in fig.select(type=LabelSet)]
    fonts += [a.axis_label_text_font for a in (*fig.xaxis, *fig.yaxis)]
    fonts += [a.major_label_text_font for a in (*fig.xaxis, *fig.yaxis)]
    fonts += [legend.label_text_font for legend in fig.legend] + [legend.title_text_font for legend in fig.legend]
    assert len(fonts) == 10 and set(fonts) == {ui.CJK_FONT}


def x_extent(fig):
    """The x range BokehJS computes for a DataRange1d: every visible glyph's x values, padded."""
    xr = fig.x_range
    assert isinstance(xr, DataRange1d) and math.isnan(xr.start) and math.isnan(xr.end)  # follows the data
    xs = [x for r in fig.renderers if isinstance(r, GlyphRenderer) and r.visible
          for x in r.data_source.data[r.glyph.x] if not math.isnan(x)]
    assert xr.range_padding_units == "absolute"
    return min(xs) - xr.range_padding, max(xs) + xr.range_padding


def figure_of(component):
    return component.figure if isinstance(component, ScoreChart) else chart_plot(component).object


@pytest.mark.parametrize("cls", [ScoreChart, LiveOdds])
def test_the_round_axis_reads_in_whole_rounds(cls):
    contest, actions, viking, pirate = duel(a=("Viking", 3), b=("Pirate", 3), rolls=[[6, 6, 6], [1, 1, 1], [6, 6, 6], [1, 1]])
    chart = cls(actions=actions)
    ticker = figure_of(chart).xaxis[0].ticker
    # major ticks only on whole rounds: every interval the ticker may pick is a whole number >= 1
    assert isinstance(ticker, AdaptiveTicker) and ticker.min_interval >= 1 and float(ticker.base).is_integer()
    assert all(float(m).is_integer() for m in ticker.mantissas)
    assert ticker.num_minor_ticks == 2  # one rounds apart: a minor tick at .5, where between-round events sit
    assert x_extent(figure_of(chart)) == (-0.5, 1.5)  # before the first roll: round 0 and the round to come
    actions.act("roll_round")
    actions.act("roll_round")
    assert x_extent(figure_of(chart)) == (-0.5, 2.5)


def test_a_chart_with_no_contest_has_a_round_axis_too():
    assert x_extent(ScoreChart().figure) == (-0.5, 1.5)


def test_unit_colours_for_every_kind_of_side():
    assert ui.unit_colors(None) == {}
    knight, viking = Character("Knight", {"Knight": 3}), Character("Viking", {"Viking": 2})
    rats = GruntMob("700 Skeletal Rats", rating=7)
    team = CharacterTeam([knight, viking])
    colors = ui.unit_colors(Contest("Cellar", team, rats))
    assert colors[team.uid] == ui.side_color(0) == SIDE_PALETTES[0][0]  # a team: its side's colour
    assert [colors[knight.uid], colors[viking.uid]] == list(SIDE_PALETTES[0][:2])  # members: their own
    assert colors[rats.uid] == ui.side_color(1)
    crowd = [Character(f"Goblin {i}", {"Goblin": 1}) for i in range(len(SIDE_PALETTES[1]) + 1)]
    many = ui.unit_colors(Contest("Horde", Character("Hero", {"Hero": 5}), crowd))
    assert [many[g.uid] for g in crowd] == [*SIDE_PALETTES[1], SIDE_PALETTES[1][0]]  # more units: round again


def test_the_key_escapes_what_people_typed():
    contest, actions, viking, pirate = duel(a=("<img src=x onerror=alert(1)>", 4))
    chart = ScoreChart(actions=actions)
    assert "<img" not in chart_key(chart).object and "&lt;img src=x onerror=alert(1)&gt;" in chart_key(chart).object
    assert key_html([(key_line("#000"), "a & b")], label='"x"').count("&amp;") == 1
    assert 'aria-label="&quot;x&quot;"' in key_html([], label='"x"')
