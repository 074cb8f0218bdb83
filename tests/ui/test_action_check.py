"""ActionCheckPanel: exact odds before the roll, following the inputs; the roll through the adapter."""

from __future__ import annotations

from fractions import Fraction

from raisus_panel.rules import Character, ScriptedDice, odds
from raisus_panel.ui import ActionCheckPanel, Actions
from raisus_panel.ui._base import hint

from .conftest import click, room_for_two


def panel_for(*chars, rolls=()):
    actions = Actions.local(*chars, dice=ScriptedDice(rolls))
    return ActionCheckPanel(actions=actions, lang="en"), actions


def test_chance_is_shown_before_rolling_and_follows_the_inputs():
    viking = Character("Viking", {"Viking": 4, "Cook": 1})
    panel, _ = panel_for(viking)
    assert panel._character.value == viking.uid and panel._cliche.value == "Viking"
    assert panel._tn.value == 10
    assert panel.chance() == odds.check_chance(4, 10)
    assert f"{100 * float(odds.check_chance(4, 10)):.1f}%" in panel._chance.object
    panel._preset.value = 15
    assert panel._tn.value == 15 and panel.chance() == odds.check_chance(4, 15)
    panel._suitability.value = "unsuitable"
    assert panel.chance() == odds.check_chance(4, 20) and "TN 20" in panel._chance.object
    panel._adjustment.value = -3
    assert panel.chance() == odds.check_chance(4, 17)
    panel._tn.value = 12
    assert panel._preset.value == "custom"
    panel._cliche.value = "Cook"
    assert panel.chance() == odds.check_chance(1, 14) == 0
    assert "0%" in panel._chance.object
    panel._automatic.value = True
    assert panel.chance() == 1 and "Automatic" in panel._chance.object


def test_presets_are_the_rules_tns():
    panel, _ = panel_for(Character("Viking", {"Viking": 4}))
    assert [v for v in panel._preset.options.values() if v != "custom"] == [5, 10, 15, 20, 30]


def test_roll_success_at_the_tn():
    viking = Character("Viking", {"Viking": 4})
    panel, actions = panel_for(viking, rolls=[[1, 2, 3, 4], [1, 1, 2, 5]])
    click(panel._roll)
    assert panel.result["success"] and panel.result["total"] == 10
    assert "1, 2, 3, 4" in panel._outcome.object and "Success" in panel._outcome.object
    click(panel._roll)
    assert not panel.result["success"] and "Failure" in panel._outcome.object
    assert len(actions.checks) == 2


def test_unsuitable_and_automatic():
    soldier = Character("Soldier", {"Soldier": 3})
    panel, _ = panel_for(soldier, rolls=[[4, 3, 3]])
    panel._tn.value = 5
    panel._suitability.value = "very unsuitable"
    click(panel._roll)
    assert panel.result["tn"] == 15 and not panel.result["success"]
    panel._automatic.value = True
    click(panel._roll)  # no dice asked for (the script is empty)
    assert panel.result["automatic"] and panel.result["success"]


def test_a_cliché_at_zero_is_refused_in_place():
    hurt = Character("Hurt", [("Viking", 4, 0)])
    panel, actions = panel_for(hurt)
    assert panel.chance() is None
    click(panel._roll)
    assert panel._error.visible and actions.checks == []


def test_exactness():
    panel, _ = panel_for(Character("Viking", {"Viking": 4}))
    assert isinstance(panel.chance(), Fraction)


def test_the_secret_toggle_is_for_the_gm_only():
    local, _ = panel_for(Character("Viking", {"Viking": 4}))  # a notebook's table: one path, same toggle
    assert local.actions.role == "gm" and local._secret.visible
    assert local.check_args()["private"] is False
    gm, ann, olaf, spy = room_for_two()
    assert ActionCheckPanel(actions=Actions(gm))._secret.visible
    assert not ActionCheckPanel(actions=Actions(ann))._secret.visible


def test_a_gm_secret_check_is_in_the_gms_log_and_not_the_players():
    gm, ann, olaf, spy = room_for_two([[6, 6, 5], [1, 2, 3, 4]])
    gm_panel = ActionCheckPanel(actions=Actions(gm), lang="en")
    ann_panel = ActionCheckPanel(actions=Actions(ann), lang="en")
    assert "No checks" in ann_panel._log.object
    gm_panel._character.value = spy.uid
    gm_panel._secret.value = True
    assert gm_panel.check_args()["private"] is True
    click(gm_panel._roll)
    assert not gm_panel._error.visible and gm_panel.result["private"]
    assert "Secret" in gm_panel._outcome.object
    assert gm_panel.log_entries() == [(gm_panel.log_entries()[0][0], True)]
    assert "Secret" in gm_panel._log.object and "Spy" in gm_panel._log.object
    assert ann_panel.actions.checks == [] and ann_panel.log_entries() == []
    assert "Spy" not in ann_panel._log.object and "No checks" in ann_panel._log.object
    # the player rolls for their own character, in the open: both logs show it, unmarked
    ann_panel._character.value = olaf.uid
    assert not ann_panel._roll.disabled
    click(ann_panel._roll)
    assert not ann_panel._error.visible and not ann_panel.result["private"]
    assert [secret for _, secret in gm_panel.log_entries()] == [False, True]
    assert [secret for _, secret in ann_panel.log_entries()] == [False]
    assert "Olaf" in ann_panel._log.object and "Secret" not in ann_panel._log.object


def test_the_roll_button_says_why_a_room_refuses():
    gm, ann, olaf, spy = room_for_two()
    panel = ActionCheckPanel(actions=Actions(ann), lang="en")
    panel._character.value = spy.uid
    assert panel._roll.disabled and hint(panel._roll)  # not Ann's character: the room's reason
    gm_panel = ActionCheckPanel(actions=Actions(gm), lang="en")
    assert not gm_panel._roll.disabled and hint(gm_panel._roll) == "Roll this cliché against the target number."


def test_players_see_no_gm_only_controls_and_the_log_says_how_and_who():
    """Issue 21 (low): Automatic and Other adjustment are the GM's, hidden from players; an adjustment
    does not stick to the next check; a log line gives the base TN, the suitability and who rolled."""
    gm, ann, olaf, spy = room_for_two([[6, 6, 5], [1, 2, 3, 4]])
    ann_panel = ActionCheckPanel(actions=Actions(ann), lang="en")
    assert not ann_panel._automatic.visible and not ann_panel._adjustment.visible
    gm_panel = ActionCheckPanel(actions=Actions(gm), lang="en")
    assert gm_panel._automatic.visible and gm_panel._adjustment.visible
    gm_panel._character.value = spy.uid
    gm_panel._tn.value = 5
    gm_panel._suitability.value = "unsuitable"
    gm_panel._adjustment.value = 2
    click(gm_panel._roll)
    assert gm_panel.result["tn"] == 5 + 5 + 2 and gm_panel._adjustment.value == 0  # reset for the next check
    assert not gm_panel._automatic.value
    line = gm_panel.log_entries()[0][0]
    assert "base TN 5" in line and "Unsuitable (+5)" in line and "other adjustment +2" in line
    assert "rolled by GM" in line
    ann_panel._character.value = olaf.uid
    click(ann_panel._roll)
    line = ann_panel.log_entries()[0][0]
    assert "base TN 10" in line and "Suitable (+0)" in line and "rolled by Ann" in line
    assert "adjustment" not in line
