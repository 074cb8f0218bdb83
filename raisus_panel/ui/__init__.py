"""Panel components for Risus: one ``pn.viewable.Viewer`` per module, the same in JupyterLab and served.

Components show the state of the rules models and turn clicks into commands through an
:class:`~raisus_panel.ui.actions.Actions` adapter on a room session: a notebook's
:class:`~raisus_panel.room.LocalRoom` (``Actions.local(...)``) or a person's session of a shared, served
room -- the same path either way. They never change game state themselves.

For charts of your own (a notebook's plot of odds or scores), :func:`apply_fonts` draws every text of
a Bokeh figure in :data:`CJK_FONT`, a font stack that can show Korean, as the components' charts do;
:func:`unit_colors` and :func:`side_color` give the colours the components draw each unit and side in.

Examples
--------
>>> from raisus_panel.rules import Character, Contest
>>> from raisus_panel.ui import Actions, ContestTable, ScoreChart
>>> contest = Contest("Brawl", Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3}))
>>> actions = Actions.local(contest)
>>> table, chart = ContestTable(actions=actions), ScoreChart(actions=actions)

>>> from bokeh.plotting import figure
>>> from raisus_panel.ui import apply_fonts
>>> fig = apply_fonts(figure(title="승률", x_axis_label="라운드"))
"""

from ._charts import CJK_FONT, apply_fonts, side_color, unit_colors
from .action_check import ActionCheckPanel
from .actions import Actions
from .campaign import CampaignPanel
from .character_sheet import CharacterSheet
from .contest_table import ContestTable
from .contest_view import ContestView
from .fair_dice import FairDice
from .live_odds import Chances, LiveOdds, contest_chances
from .past_contests import PastContests
from .round_log import RoundLog
from .score_chart import ScoreChart
from .table_view import TableView
from .team_builder import TeamBuilder
from .what_now import WhatNow

__all__ = [
    "ActionCheckPanel", "Actions", "CJK_FONT", "CampaignPanel", "Chances", "CharacterSheet", "ContestTable",
    "ContestView", "FairDice", "LiveOdds", "PastContests", "RoundLog", "ScoreChart", "TableView", "TeamBuilder",
    "WhatNow",
    "apply_fonts", "contest_chances", "side_color", "unit_colors",
]
