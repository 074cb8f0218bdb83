"""A contest on local models, for the browser tests: ``panel serve tests/browser/apps/contest_app.py``.

Knight(4), Viking(2) and Squire(1) on side A against an Ogre(8) on side B (RULES.md scenarios 19-20),
played on a local room (``Actions.local``) with seeded dice, so a browser session is
repeatable: ``?seed=15`` picks the seed (each browser session gets its own contest). The team is
formed by clicking the team builder.
"""

import panel as pn

from raisus_panel.dashboard.settings import query_param
from raisus_panel.rules import Character, Contest, SeededDice
from raisus_panel.ui import Actions, ContestTable, LiveOdds, RoundLog, ScoreChart

pn.extension(notifications=False)


def roster():
    """The four characters, fresh for each session."""
    return (Character("Knight", {"Knight": 4}), Character("Viking", {"Viking": 2}),
            Character("Squire", {"Squire": 1}), Character("Ogre", {"Ogre": 8}))


def build(seed: int):
    knight, viking, squire, ogre = roster()
    contest = Contest("Ogre fight", [knight, viking, squire], ogre, dice=SeededDice(seed))
    actions = Actions.local(contest)
    table, chart = ContestTable(actions=actions), ScoreChart(actions=actions)
    odds, log = LiveOdds(actions=actions), RoundLog(actions=actions)
    return pn.Column(
        pn.pane.HTML("<h2>Contest component</h2>"), table,
        pn.Row(pn.Column(chart, css_classes=["raisus-test-chart"], sizing_mode="stretch_width"),
               pn.Column(odds, css_classes=["raisus-test-odds"], sizing_mode="stretch_width"),
               sizing_mode="stretch_width"),
        pn.Column(log, css_classes=["raisus-test-log"], sizing_mode="stretch_width"),
        sizing_mode="stretch_width")


build(int(query_param("seed") or 15)).servable(title="contest component")
