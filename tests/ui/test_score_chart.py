"""ScoreChart: one streamed row per history point, rebuilt only when needed, served-safe."""

from __future__ import annotations

import html
import re
import threading

from bokeh.models import AdaptiveTicker, ColumnDataSource, HoverTool, Legend, Scatter, Step
from panel.io.state import set_curdoc

from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import Actions, ScoreChart
from raisus_panel.ui._charts import CJK_FONT, SIDE_PALETTES, key_marker, series_styles, side_color, unit_colors
from raisus_panel.ui.score_chart import MARKERS

from .conftest import duel, team_vs_ogre
from .drivers import ServedDoc, chart_key, chart_plot


class StreamSpy:
    """Counts rows streamed into one ColumnDataSource (Bokeh models take no instance attributes,
    so the class method is wrapped)."""

    def __init__(self, monkeypatch, source):
        self.calls = []
        original = ColumnDataSource.stream

        def stream(cds, data, rollover=None, **kwargs):
            if cds is source:
                self.calls.append({k: list(v) for k, v in data.items()})
            return original(cds, data, rollover, **kwargs)
        monkeypatch.setattr(ColumnDataSource, "stream", stream)

    @property
    def rows(self):
        return sum(len(c["x"]) for c in self.calls)


def scores(chart, key):
    return chart.source.data[chart.columns()[key]]


def test_one_row_streamed_per_decided_round_ties_included(monkeypatch):
    rolls = [[1, 1, 1, 2], [6, 1], [3, 3, 3], [4, 5], [6, 6, 6], [1, 1]]  # R2 ties once
    contest, actions, viking, pirate = duel(b=("Pirate", 2), rolls=rolls)
    chart = ScoreChart(actions=actions)
    source, fig = chart.source, chart.figure
    spy = StreamSpy(monkeypatch, source)
    assert len(source.data["x"]) == 1
    for expected in (2, 3):
        actions.act("roll_round")
        assert len(spy.calls) == expected - 1 and spy.rows == expected - 1
        assert len(source.data["x"]) == expected
    assert chart.source is source and chart.figure is fig  # streamed, never rebuilt
    assert source.data["x"] == [0.0, 1.0, 2.0]
    assert "3+3+3=9" in source.data["faces"][2] and source.data["faces"][2].count("→") == 1


def test_the_series_of_scenario_26():
    contest, actions, viking, pirate = duel(b=("Pirate", 1), rolls=[[1, 1, 1, 2], [6], [6, 6, 6], [1]])
    chart = ScoreChart(actions=actions)
    actions.act("roll_round")
    actions.act("roll_round")
    assert scores(chart, f"{viking.uid}:Viking") == [4, 3, 3]
    assert scores(chart, f"{pirate.uid}:Pirate") == [1, 1, 0]
    assert chart.source.data["round"] == [0, 1, 2]


def test_between_round_events_add_a_row_and_a_marker(monkeypatch):
    rolls = [[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    chart = ScoreChart(actions=actions)
    spy = StreamSpy(monkeypatch, chart.source)
    actions.act("roll_round")
    actions.act("volunteer", member=viking.uid)
    assert spy.rows == 2 and chart.source.data["x"] == [0.0, 1.0, 1.5]
    marks = chart.events_source.data
    assert set(marks["marker"]) == {"triangle"} and set(marks["x"]) == {1.5}
    assert sorted(marks["y"]) == [0, 4]  # Viking fell to 0, the Knight got his point back
    actions.act("roll_round")
    assert spy.rows == 3 and len(chart.events_source.data["x"]) == 2


def test_undo_and_new_series_rebuild():
    a = Character("Adventurer", {"Viking": 4, "Swashbuckler": 2})
    guard = Character("Guard", {"Guard": 5})
    contest = Contest("Fight", a, guard, dice=ScriptedDice([[1, 1, 1, 1], [2] * 5, [1, 2], [1] * 5]))
    actions = Actions.local(contest)
    chart = ScoreChart(actions=actions)
    actions.act("choose", unit=a.uid, cliche="Viking")
    assert set(chart.columns()) == {f"{a.uid}:Viking", f"{guard.uid}:Guard"}
    actions.act("roll_round")
    source = chart.source
    actions.act("choose", unit=a.uid, cliche="Swashbuckler")  # a new series appears
    assert chart.source is not source and len(chart.columns()) == 3
    assert [x == x for x in scores(chart, f"{a.uid}:Swashbuckler")] == [False, False, True]  # NaN, NaN
    assert scores(chart, f"{a.uid}:Swashbuckler")[2] == 2
    source = chart.source
    actions.act("roll_round")
    assert chart.source is source and len(source.data["x"]) == 4
    actions.act("undo")
    assert chart.source is not source and len(chart.source.data["x"]) == 3


def test_hover_and_korean_fonts():
    contest, actions, viking, pirate = duel(a=("바이킹", 4), b=("해적", 3), rolls=[[6, 6, 6, 6], [1, 1, 1]])
    chart = ScoreChart(actions=actions)
    fig = chart.figure
    assert fig.title.text_font == CJK_FONT and fig.xaxis[0].axis_label_text_font == CJK_FONT
    assert fig.yaxis[0].major_label_text_font == CJK_FONT
    assert CJK_FONT.replace("'", "&#x27;") in chart_key(chart).object  # the key under the plot, in the same font
    assert key_texts(chart) == ["바이킹", "해적"]
    tips = [dict(h.tooltips) for h in fig.select(type=HoverTool)]
    assert len(tips) == 1  # one hover for every line (a served page carries each model per session)
    assert {"@what", "@faces", "@round", "$snap_y{0}"} <= set(tips[0].values())  # whole dice, words
    assert fig.xaxis[0].axis_label == "라운드"
    actions.act("roll_round")
    assert chart.source.data["what"][-1] == "1라운드: 바이킹 승리 · 해적: 해적 -1"  # in words, not keys
    chart.lang = "en"
    assert chart.source.data["what"][-1] == "Round 1: 바이킹 wins · 해적 loses 1 from 해적"
    assert chart.source.data["what"][0] == "start"


def key_texts(chart) -> list[str]:
    """The texts of the chart's key, in order."""
    return [html.unescape(t) for t in re.findall(r"</svg>([^<]*)</span>", chart_key(chart).object)]


def key_shapes(chart) -> list[str]:
    """The event markers the key shows, by their SVG."""
    return [kind for kind, shape in MARKERS.items() if key_marker(shape) in chart_key(chart).object]


def test_the_key_is_outside_the_plot_and_keeps_its_width():
    long = "Sir Reginald the Unwashed, Knight of the Soggy Moat"
    contest, actions, viking, pirate = duel(a=(long, 4), b=("Grumbleguts the Enormous", 3))
    chart = ScoreChart(actions=actions, lang="en")
    fig = chart.figure
    # no Bokeh legend in or beside the plot: nothing takes the plot's width or covers its lines
    assert not fig.legend and not [m for m in (*fig.left, *fig.right, *fig.center) if isinstance(m, Legend)]
    layout = chart.__panel__()
    assert len(layout.objects) == 2 and chart_plot(chart).object is fig  # the figure, then under it the key
    assert chart_plot(chart).sizing_mode == chart_key(chart).sizing_mode == "stretch_width"
    key = chart_key(chart).object
    assert "flex-wrap:wrap" in key and "overflow-wrap:anywhere" in key  # on a phone it wraps, never widens
    assert key_texts(chart) == [long, "Grumbleguts the Enormous"]


def test_the_y_axis_reads_in_whole_dice():
    contest, actions, viking, pirate = duel(a=("Viking", 3), b=("Pirate", 1))
    ticker = ScoreChart(actions=actions).figure.yaxis[0].ticker
    # every interval the ticker may pick is a whole number of dice, and no minor ticks between dice
    assert isinstance(ticker, AdaptiveTicker) and ticker.min_interval >= 1 and float(ticker.base).is_integer()
    assert all(float(m).is_integer() for m in ticker.mantissas) and ticker.num_minor_ticks == 0


def marks(chart) -> list[dict]:
    data = chart.events_source.data
    return [dict(zip(data, row)) for row in zip(*data.values())]


def assert_on_their_lines(chart, contest) -> None:
    """Every marker sits on its series' line: its y is that series' score in the row of its event."""
    keys = {label: key for key, label in contest.series.items()}
    lines = chart.source.data
    assert marks(chart)
    for mark in marks(chart):
        col = chart.columns()[keys[mark["series"]]]
        rows = [j for j, x in enumerate(lines["x"]) if x == mark["x"] and lines["what"][j] == mark["what"]]
        assert len(rows) == 1 and lines[col][rows[0]] == mark["y"], mark


def test_team_markers_sit_on_their_lines_with_a_key():
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre([[1] * 6, [2] * 8])
    chart = ScoreChart(actions=actions, lang="en")
    assert key_shapes(chart) == []  # no marker yet, none in the key
    actions.act("roll_round")
    actions.act("volunteer", member=viking.uid)
    actions.act("drop_out", member=squire.uid)
    actions.act("disband", team=team.uid)
    assert_on_their_lines(chart, contest)
    got = {(m["marker"], m["series"], m["y"]) for m in marks(chart)}
    assert got == {("triangle", "Knight", 4), ("triangle", "Viking", 0),  # the hit handed on
                   ("inverted_triangle", "Squire", 0), ("x", "Knight", 3)}  # the disband penalty
    assert key_shapes(chart) == ["volunteered", "team_disbanded", "dropped_out"]
    assert key_texts(chart)[-3:] == ["volunteer", "disband", "drop out"]
    assert {m["what"] for m in marks(chart) if m["marker"] == "triangle"} == {
        "Viking volunteers for Knight+Viking+Squire"}
    # colour is never the only carrier: each marker kind has its own shape, each line its label
    assert len(set(MARKERS.values())) == len(MARKERS)


def test_a_switch_back_and_a_recovery_sit_on_their_lines():
    adventurer = Character("Adventurer", {"Viking": 4, "Swashbuckler": 2})
    guard = Character("Guard", {"Guard": 5})
    contest = Contest("Fight", adventurer, guard, dice=ScriptedDice([[1] * 4, [2] * 5, [1, 1], [6] * 5]))
    actions = Actions.local(contest)
    chart = ScoreChart(actions=actions, lang="en")
    actions.act("choose", unit=adventurer.uid, cliche="Viking")
    actions.act("roll_round")
    actions.act("choose", unit=adventurer.uid, cliche="Swashbuckler")
    actions.act("roll_round")
    # back to a cliché already on the chart: no score changes, and the marker once fell to y = 0
    actions.act("choose", unit=adventurer.uid, cliche="Viking")
    actions.act("end_contest", winner=1, outcome="The guard throws him out")
    actions.act("recover", character=adventurer.uid)
    assert_on_their_lines(chart, contest)
    switches = [(m["series"], m["y"]) for m in marks(chart) if m["marker"] == "circle_dot"]
    assert switches == [("Adventurer · Swashbuckler", 2), ("Adventurer · Viking", 3)]
    assert 0 not in [y for _, y in switches]
    assert [m["what"] for m in marks(chart) if m["marker"] == "circle_dot"] == [
        "Adventurer chooses Swashbuckler", "Adventurer chooses Viking"]
    assert {m["marker"] for m in marks(chart)} == {"circle_dot", "star"}
    assert key_shapes(chart) == ["recovered", "cliche_chosen"]
    built_late = ScoreChart(actions=actions, lang="en")  # a page opened now draws the same
    assert marks(built_late) == marks(chart) and built_late.source.data == chart.source.data


def test_colours_are_stable_per_unit_and_tell_the_sides_apart():
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre([[1] * 6, [2] * 8])
    colors = unit_colors(contest)
    assert set(colors) == {team.uid, knight.uid, viking.uid, squire.uid, ogre.uid}
    side_a = {colors[u.uid] for u in (knight, viking, squire)}
    assert len(side_a) == 3 and colors[ogre.uid] not in side_a  # each unit its own; the sides apart
    assert colors[team.uid] == side_color(0) and colors[ogre.uid] in SIDE_PALETTES[1]
    actions.act("roll_round")
    actions.act("volunteer", member=viking.uid)
    assert unit_colors(contest) == colors  # the game goes on: nobody changes colour
    assert unit_colors(Contest.from_events(contest.events)) == colors  # a reload, or another process
    reloaded = Contest.from_events(contest.events)  # a page of a restarted server, in English
    chart, other_page = ScoreChart(actions=actions), ScoreChart(actions=Actions.local(reloaded), lang="en")

    def lines(c):
        return [(r.glyph.line_color, r.glyph.line_dash) for r in c.figure.renderers if isinstance(r.glyph, Step)]
    assert lines(chart) == lines(other_page)  # every page alike, after a reload too
    styles = dict(zip(contest.series, lines(chart)))
    assert styles[f"{knight.uid}:Knight"][0] == colors[knight.uid]
    assert styles[f"{ogre.uid}:Ogre"] == (colors[ogre.uid], [6])  # side B dashed (Bokeh's "dashed")
    assert styles[f"{viking.uid}:Viking"][1] == []  # side A solid


def test_a_characters_second_cliche_keeps_its_colour_with_hollow_dots():
    adventurer = Character("Adventurer", {"Viking": 4, "Swashbuckler": 2})
    contest = Contest("Fight", adventurer, Character("Guard", {"Guard": 5}), dice=ScriptedDice([[1] * 4, [2] * 5]))
    actions = Actions.local(contest)
    actions.act("choose", unit=adventurer.uid, cliche="Viking")
    actions.act("roll_round")
    actions.act("choose", unit=adventurer.uid, cliche="Swashbuckler")
    styles = series_styles(contest)
    viking, swash = styles[f"{adventurer.uid}:Viking"], styles[f"{adventurer.uid}:Swashbuckler"]
    assert viking[0] == swash[0] and viking[2] == viking[0] and swash[2] == "white"
    dots = {r.name: r.glyph for r in ScoreChart(actions=actions).figure.renderers if isinstance(r.glyph, Scatter)}
    assert dots["Adventurer · Swashbuckler"].fill_color == "white"
    assert dots["Adventurer · Viking"].fill_color == dots["Adventurer · Swashbuckler"].line_color == swash[0]


def test_changes_from_elsewhere_are_applied_on_the_own_document(served):
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    chart = ScoreChart(actions=actions)
    assert chart._doc is served and served.destroyed  # the document it was built on: kept inside, read on purpose
    other = ServedDoc()
    with set_curdoc(other):  # a player in another browser tab rolls
        actions.act("roll_round")
    assert len(chart.source.data["x"]) == 1 and served.next_tick and not other.next_tick
    served.run()
    assert len(chart.source.data["x"]) == 2
    thread = threading.Thread(target=actions.act, args=("undo",))  # a room thread, no document
    thread.start()
    thread.join()
    assert len(chart.source.data["x"]) == 2 and served.next_tick
    served.run()
    assert len(chart.source.data["x"]) == 1


def test_session_end_removes_the_watchers(served):
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])

    def count():
        return sum(len(ws) for what in contest.param.watchers.values() for ws in what.values())
    before = count()
    chart = ScoreChart(actions=actions)
    assert count() > before
    for cb in served.destroyed:
        cb(None)
    assert count() == before
    with set_curdoc(ServedDoc()):
        actions.act("roll_round")
    served.run()
    assert len(chart.source.data["x"]) == 1
