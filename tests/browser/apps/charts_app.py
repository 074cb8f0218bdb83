"""The score chart and the odds chart of a played team contest, for the browser tests:
``panel serve tests/browser/apps/charts_app.py``, then ``?lang=ko`` or ``?lang=en``.

Long names (the key must wrap, not squeeze the plot), a lost round, a volunteer, a won round, an
early end and a recovery, on scripted dice: every session gets the same game, played before the
charts are built (as a page opened mid-game sees it).
"""

import panel as pn

from raisus_panel.dashboard.settings import query_param
from raisus_panel.rules import Character, CharacterTeam, Contest, ScriptedDice
from raisus_panel.ui import Actions, LiveOdds, ScoreChart

pn.extension(notifications=False)


def played() -> Actions:
    knight = Character("Sir Reginald the Unwashed", {"Knight of the Soggy Moat": 4})
    viking = Character("Olaf Longbeard", {"Viking": 2})
    squire = Character("Pip", {"Squire": 1})
    ogre = Character("Grumbleguts the Enormous", {"Ogre": 8})
    team = CharacterTeam([knight, viking, squire])
    rolls = [[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8]
    contest = Contest("The Ogre under the Bridge", team, ogre, dice=ScriptedDice(rolls))
    actions = Actions.local(contest)
    actions.act("roll_round")
    actions.act("volunteer", member=viking.uid)
    actions.act("roll_round")
    actions.act("end_contest", winner=0, outcome="The ogre flees")
    actions.act("recover", character=viking.uid)
    return actions


lang = query_param("lang") or "en"
actions = played()
pn.Column(
    pn.Column(ScoreChart(actions=actions, lang=lang), css_classes=["raisus-test-chart"], sizing_mode="stretch_width"),
    pn.Column(LiveOdds(actions=actions, lang=lang), css_classes=["raisus-test-odds"], sizing_mode="stretch_width"),
    sizing_mode="stretch_width").servable(title="charts")
