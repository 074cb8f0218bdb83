"""Buttons look like what they do: a disabled button never looks pressable, whatever its colour, and
only a form's main action is a solid button."""

from __future__ import annotations

import panel as pn

from raisus_panel.ui import ActionCheckPanel, CharacterSheet, Actions, ContestTable, TeamBuilder

from .conftest import click, free_trio_vs_ogre, team_vs_ogre
from .test_components import walk

#: The main action of each form (the components' attributes): the only buttons drawn solid.
MAIN = ("_roll", "_exchange", "_recover", "_start", "_form", "_save")


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
    click(components[0]._roll)
    actions.act("end", outcome="끝", winner=1)  # fates and recovery
    return components, team


def test_every_button_greys_out_when_disabled():
    components, _ = every_kind_of_button()
    found = buttons(*components)
    assert len(found) > 20
    assert [b.name for b in found if not greys_out_when_disabled(b)] == []


def main_actions(components):
    found = {id(getattr(c, name)) for c in components for name in MAIN if hasattr(c, name)}
    found |= {id(b._form) for c in components for b in getattr(c, "_builders", [])}
    found |= {id(row["decide"]) for c in components for row in getattr(c, "_fate_rows", {}).values()}
    # the Yes of an "Are you sure?" step (ui/_confirm.py) is the main action of that question
    found |= {id(b) for b in buttons(*components) if "raisus-confirm-yes" in b.css_classes}
    return found


def test_only_the_main_actions_are_solid():
    components, team = every_kind_of_button()
    main = main_actions(components)
    assert [b.name for b in buttons(*components) if variant(b) == "solid" and id(b) not in main] == []
    volunteer = next(iter(components[0]._cards[team.uid]["members"].values()))["volunteer"]
    assert volunteer.disabled and variant(volunteer) == "outline"
