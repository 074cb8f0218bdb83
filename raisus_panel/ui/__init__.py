"""Panel components for Risus: one ``pn.viewable.Viewer`` per module, the same in JupyterLab and served.

Components show the state of the rules models and turn clicks into commands through an
:class:`~raisus_panel.ui.actions.Actions` adapter -- :class:`ContestActions` on local models in a
notebook, :class:`SessionActions` on a shared room when served. They never change game state
themselves.

Examples
--------
>>> from raisus_panel.rules import Character, Contest
>>> from raisus_panel.ui import ContestActions, ContestTable, ScoreChart
>>> contest = Contest("Brawl", Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3}))
>>> actions = ContestActions(contest)
>>> table, chart = ContestTable(actions=actions), ScoreChart(actions=actions)
"""

from .action_check import ActionCheckPanel
from .actions import Actions, ContestActions, NotAllowed, SessionActions
from .character_sheet import CharacterSheet
from .contest_table import ContestTable
from .live_odds import Chances, LiveOdds, contest_chances
from .round_log import RoundLog
from .score_chart import ScoreChart
from .team_builder import TeamBuilder

__all__ = [
    "ActionCheckPanel", "Actions", "Chances", "CharacterSheet", "ContestActions", "ContestTable",
    "LiveOdds", "NotAllowed", "RoundLog", "ScoreChart", "SessionActions", "TeamBuilder",
    "contest_chances",
]
