"""ScoreChart: one streamed row per history point, rebuilt only when needed, served-safe."""

from __future__ import annotations

import threading
from types import SimpleNamespace

from panel.io.state import set_curdoc
import pytest
from bokeh.models import ColumnDataSource, HoverTool

from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import Actions, ScoreChart
from raisus_panel.ui._charts import CJK_FONT

from .conftest import duel, team_vs_ogre


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
    contest, actions, viking, pirate = duel(a=("바이킹", 4), b=("해적", 3))
    chart = ScoreChart(actions=actions)
    fig = chart.figure
    assert fig.title.text_font == CJK_FONT and fig.xaxis[0].axis_label_text_font == CJK_FONT
    assert fig.legend[0].label_text_font == CJK_FONT
    assert [item.label.value for item in fig.legend[0].items] == ["바이킹", "해적"]
    tips = [dict(h.tooltips) for h in fig.select(type=HoverTool)]
    assert any("@faces" in t.values() and "@round" in t.values() for t in tips)
    assert fig.xaxis[0].axis_label == "라운드"


class FakeDoc:
    """Stands in for a served session's Bokeh document."""

    session_context = SimpleNamespace(id="fake-session",
                                      request=SimpleNamespace(arguments={}, cookies={}, headers={}))

    def __init__(self):
        self.next_tick = []
        self.destroyed = []

    def add_next_tick_callback(self, cb):
        self.next_tick.append(cb)

    def on_session_destroyed(self, cb):
        self.destroyed.append(cb)

    def run(self):
        while self.next_tick:
            self.next_tick.pop(0)()


@pytest.fixture
def served():
    doc = FakeDoc()
    with set_curdoc(doc):
        yield doc


def test_changes_from_elsewhere_are_applied_on_the_own_document(served):
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    chart = ScoreChart(actions=actions)
    assert chart._doc is served and served.destroyed
    other = FakeDoc()
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
    with set_curdoc(FakeDoc()):
        actions.act("roll_round")
    served.run()
    assert len(chart.source.data["x"]) == 1
