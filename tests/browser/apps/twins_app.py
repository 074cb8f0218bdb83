"""Two units at the same score in every round, for the browser tests (issue 21: one line hid the other):
``panel serve tests/browser/apps/twins_app.py``, then ``?lang=ko`` or ``?lang=en``. The score chart as a
Bokeh figure (a player's page) and as a picture (a watching page's), on scripted dice."""

import panel as pn

from raisus_panel.dashboard.settings import query_param
from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import Actions, ScoreChart

pn.extension(notifications=False)


def twins() -> Actions:
    """Knight 3 and Viking 3 against the Ogre 6: the Ogre wins every exchange, so the two lose a die together."""
    knight, viking, ogre = (Character("Knight", {"Knight": 3}), Character("Viking", {"Viking": 3}),
                            Character("Ogre", {"Ogre": 6}))
    rolls = [[1, 1, 1], [6] * 6, [1, 1, 1], [6] * 6, [1, 1], [6] * 6, [1, 1], [6] * 6]
    actions = Actions.local(Contest("Twins", [knight, viking], ogre, dice=ScriptedDice(rolls)))
    for _ in range(2):
        for attacker in (knight, viking):
            actions.act("exchange", attacker=attacker.uid, target=ogre.uid)
        actions.act("end_round")
    return actions


lang = query_param("lang") or "en"
actions = twins()
pn.Column(
    pn.Column(ScoreChart(actions=actions, lang=lang), css_classes=["raisus-test-chart"], sizing_mode="stretch_width"),
    pn.Column(ScoreChart(actions=actions, lang=lang, picture=True), css_classes=["raisus-test-picture"],
              sizing_mode="stretch_width"),
    sizing_mode="stretch_width").servable(title="twins")
