"""Buttons look like what they do: a disabled button never looks pressable, whatever its colour, and
only a form's main action is a solid button."""

from __future__ import annotations

import panel as pn

from raisus_panel.ui import ActionCheckPanel, Actions, CharacterSheet, ContestTable, TeamBuilder

from .conftest import click, free_trio_vs_ogre, team_vs_ogre
from .drivers import Screen, roll_button
from .test_components import walk

#: The main action of each form (by the catalog key of its label): the only buttons drawn solid.
MAIN = ("contest.roll", "contest.roll_no_volunteer", "contest.exchange", "contest.recover", "contest.start",
        "team.form", "sheet.save", "contest.decide_fate", "check.roll")


def buttons(*components):
    seen = {}
    for component in components:
        for obj in walk(component):
            if isinstance(obj, (pn.widgets.Button, pn.widgets.FileDownload)):
                seen[id(obj)] = obj
    return list(seen.values())


def variant(button) -> str:
    return getattr(button, "variant", None) or button.button_style


def greys_out_when_disabled(button) -> bool:
    css = " ".join(str(s) for s in button.stylesheets)
    return ".bk-btn[disabled]" in css and "grayscale" in css and "opacity" in css


def every_kind_of_button():
    _, trio, chars = free_trio_vs_ogre()
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre([[1] * 6, [2] * 8])
    actions.characters = [knight, viking, squire, ogre]
    components = [ContestTable(actions=actions), ContestTable(actions=trio),
                  ContestTable(actions=Actions.local(*chars)), TeamBuilder(actions=trio),
                  CharacterSheet(), ActionCheckPanel(actions=actions)]
    click(roll_button(Screen(components[0])))
    actions.act("end", outcome="끝", winner=1)  # fates and recovery
    return components, team


def test_every_button_greys_out_when_disabled():
    components, _ = every_kind_of_button()
    found = buttons(*components)
    assert len(found) > 20
    assert [b.name for b in found if not greys_out_when_disabled(b)] == []


def main_actions(components):
    found = set()
    for c in components:
        s = Screen(c)
        patterns = [s.pattern(key) for key in MAIN]
        found |= {id(b) for b in buttons(c) if any(p.match(b.name or "") for p in patterns)}
    # the Yes of an "Are you sure?" step (ui/_confirm.py) is the main action of that question
    found |= {id(b) for b in buttons(*components) if "raisus-confirm-yes" in b.css_classes}
    return found


def test_only_the_main_actions_are_solid():
    components, team = every_kind_of_button()
    main = main_actions(components)
    # found by their labels: a button with none yet is never shown (a table's roll button before any contest)
    assert [b.name for b in buttons(*components) if variant(b) == "solid" and id(b) not in main and b.name] == []
    s = Screen(components[0])
    volunteer = s.card(team.name).buttons(s.t("contest.volunteer"))[0]
    assert volunteer.disabled and variant(volunteer) == "outline"
