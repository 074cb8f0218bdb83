"""How long a component lives: as long as something shows or keeps it (a layout it was put in), and
no longer -- a component and its view that nobody keeps are collected together, watchers and all."""

from __future__ import annotations

import gc
import weakref

import panel as pn

from raisus_panel import i18n
from raisus_panel.ui import ContestTable, LiveOdds, RoundLog, ScoreChart

from .conftest import duel, settle, watcher_count


def test_components_kept_only_by_their_layout_keep_updating():
    """``pn.Row(ScoreChart(...), RoundLog(...))`` keeps only the views Panel got from ``__panel__``;
    the components must live on with them, or the chart and log freeze after the next collection."""
    contest, actions, viking, pirate = duel(rolls=[[6, 6, 6, 6], [1, 1, 1]])
    row = pn.Row(ScoreChart(actions=actions), RoundLog(actions=actions, lang="en"), LiveOdds(actions=actions))
    gc.collect()
    actions.act("roll_round")
    chart, log, odds = row
    figure_data = chart.objects[0].object.renderers[0].data_source.data  # the figure, above its key
    assert figure_data["x"] == [0.0, 1.0]  # the round was streamed into the chart on show
    assert "Round 1" in log.objects[1].object
    assert odds.objects[1].object.renderers[0].data_source.data["x"] == [0.0, 1.0]


def test_a_component_and_its_view_nobody_keeps_are_collected_and_unwatch():
    """The weak watchers exist for re-run notebook cells: keeping the view alive must not keep an
    abandoned component (and its view) alive through the shared state's watchers."""
    contest, actions, viking, pirate = duel(rolls=[[6, 6, 6, 6], [1, 1, 1]])
    settle()
    before = watcher_count(contest), watcher_count(actions), watcher_count(i18n.settings)
    components = [ScoreChart(actions=actions), RoundLog(actions=actions), LiveOdds(actions=actions),
                  ContestTable(actions=actions)]
    row = pn.Row(*components)
    refs = [weakref.ref(c) for c in components] + [weakref.ref(row)]
    views = [weakref.ref(v) for v in row]
    del components, row
    gc.collect()
    assert [r() for r in refs + views] == [None] * len(refs + views)
    # the dead components' watchers remove themselves when they fire
    actions.act("roll_round")
    actions.seq += 1
    i18n.settings.lang = "en"
    assert (watcher_count(contest), watcher_count(actions), watcher_count(i18n.settings)) == before


def test_a_view_rendered_alone_keeps_its_component():
    """``pn.panel(component)`` (what a notebook displays, or ``.servable()`` serves) holds the component."""
    contest, actions, viking, pirate = duel(rolls=[[6, 6, 6, 6], [1, 1, 1]])
    view = pn.panel(RoundLog(actions=actions, lang="en"))
    gc.collect()
    actions.act("roll_round")
    assert "Round 1" in view.objects[1].object
