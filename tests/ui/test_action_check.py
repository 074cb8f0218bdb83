"""ActionCheckPanel: exact odds before the roll, following the inputs; the roll through the adapter."""

from __future__ import annotations

from fractions import Fraction

from raisus_panel.rules import Character, ScriptedDice, odds
from raisus_panel.ui import ActionCheckPanel, Actions

from .conftest import room_for_two
from .drivers import Screen


def panel_for(*chars, rolls=()):
    actions = Actions.local(*chars, dice=ScriptedDice(rolls))
    return ActionCheckPanel(actions=actions, lang="en"), actions


def test_chance_is_shown_before_rolling_and_follows_the_inputs():
    viking = Character("Viking", {"Viking": 4, "Cook": 1})
    panel, _ = panel_for(viking)
    s = Screen(panel)
    character, cliche, tn = s.t("check.character"), s.t("check.cliche"), s.t("check.tn")
    assert s.chosen(character) == "Viking" and s.chosen(cliche).startswith("Viking")
    assert s.control("number", tn).value == 10
    assert panel.chance() == odds.check_chance(4, 10)
    assert s.shows(f"{100 * float(odds.check_chance(4, 10)):.1f}%")
    s.pick("15")
    assert s.control("number", tn).value == 15 and panel.chance() == odds.check_chance(4, 15)
    s.pick("Unsuitable")
    assert panel.chance() == odds.check_chance(4, 20) and s.shows("TN 20")
    s.control("number", s.t("check.adjustment")).value = -3
    assert panel.chance() == odds.check_chance(4, 17)
    s.control("number", tn).value = 12
    assert s.picked("15") == s.t("tn.custom")
    s.choose(cliche, "Cook")
    assert panel.chance() == odds.check_chance(1, 14) == 0
    assert s.shows("0%")
    s.tick(s.t("check.automatic"))
    assert panel.chance() == 1 and s.shows("Automatic")


def test_presets_are_the_rules_tns():
    panel, _ = panel_for(Character("Viking", {"Viking": 4}))
    s = Screen(panel)
    toggle, _ = s.toggle("15")
    assert [int(o.split()[0]) for o in toggle.options if o != s.t("tn.custom")] == [5, 10, 15, 20, 30]


def test_roll_success_at_the_tn():
    viking = Character("Viking", {"Viking": 4})
    panel, actions = panel_for(viking, rolls=[[1, 2, 3, 4], [1, 1, 2, 5]])
    s = Screen(panel)
    s.click(s.t("check.roll"))
    assert panel.result["success"] and panel.result["total"] == 10
    assert s.shows("1, 2, 3, 4") and s.shows("Success")
    s.click(s.t("check.roll"))
    assert not panel.result["success"] and s.shows("Failure")
    assert len(actions.checks) == 2


def test_unsuitable_and_automatic():
    soldier = Character("Soldier", {"Soldier": 3})
    panel, _ = panel_for(soldier, rolls=[[4, 3, 3]])
    s = Screen(panel)
    s.control("number", s.t("check.tn")).value = 5
    s.pick("Very unsuitable")
    s.click(s.t("check.roll"))
    assert panel.result["tn"] == 15 and not panel.result["success"]
    s.tick(s.t("check.automatic"))
    s.click(s.t("check.roll"))  # no dice asked for (the script is empty)
    assert panel.result["automatic"] and panel.result["success"]


def test_a_cliché_at_zero_is_refused_in_place():
    hurt = Character("Hurt", [("Viking", 4, 0)])
    panel, actions = panel_for(hurt)
    s = Screen(panel)
    assert panel.chance() is None
    s.click(s.t("check.roll"))
    assert s.error and actions.checks == []


def test_exactness():
    panel, _ = panel_for(Character("Viking", {"Viking": 4}))
    assert isinstance(panel.chance(), Fraction)


def test_the_secret_toggle_is_for_the_gm_only():
    local, _ = panel_for(Character("Viking", {"Viking": 4}))  # a notebook's table: one path, same toggle
    secret = Screen(local).t("check.secret")
    assert local.actions.role == "gm" and Screen(local).has("checkbox", secret)
    assert local.check_args()["private"] is False
    gm, ann, olaf, spy = room_for_two()
    gm_page, ann_page = Screen(ActionCheckPanel(actions=Actions(gm))), Screen(ActionCheckPanel(actions=Actions(ann)))
    assert gm_page.has("checkbox", gm_page.t("check.secret"))
    assert not ann_page.has("checkbox", ann_page.t("check.secret"))


def test_a_gm_secret_check_is_in_the_gms_log_and_not_the_players():
    gm, ann, olaf, spy = room_for_two([[6, 6, 5], [1, 2, 3, 4]])
    gm_panel = ActionCheckPanel(actions=Actions(gm), lang="en")
    ann_panel = ActionCheckPanel(actions=Actions(ann), lang="en")
    g, a = Screen(gm_panel), Screen(ann_panel)
    character, roll = g.t("check.character"), g.t("check.roll")
    assert a.shows("No checks")
    g.choose(character, "Spy")
    g.tick(g.t("check.secret"))
    assert gm_panel.check_args()["private"] is True
    g.click(roll)
    assert g.error is None and gm_panel.result["private"]
    assert g.shows("Secret")
    assert gm_panel.log_entries() == [(gm_panel.log_entries()[0][0], True)]
    log = g.texts()[-1]  # the log is the last thing on the panel
    assert "Secret" in log and "Spy" in log
    assert ann_panel.actions.checks == [] and ann_panel.log_entries() == []
    assert "Spy" not in a.texts()[-1] and "No checks" in a.texts()[-1]
    # the player rolls for their own character, in the open: both logs show it, unmarked
    a.choose(character, "Olaf")
    assert a.can_press(roll)
    a.click(roll)
    assert a.error is None and not ann_panel.result["private"]
    assert [secret for _, secret in gm_panel.log_entries()] == [False, True]
    assert [secret for _, secret in ann_panel.log_entries()] == [False]
    assert "Olaf" in a.texts()[-1] and "Secret" not in a.texts()[-1]


def test_the_roll_button_says_why_a_room_refuses():
    gm, ann, olaf, spy = room_for_two()
    s = Screen(ActionCheckPanel(actions=Actions(ann), lang="en"))
    roll = s.t("check.roll")
    s.choose(s.t("check.character"), "Spy")
    assert not s.can_press(roll) and s.reason(roll)  # not Ann's character: the room's reason
    g = Screen(ActionCheckPanel(actions=Actions(gm), lang="en"))
    assert g.can_press(roll) and g.reason(roll) == "Roll this cliché against the target number."


def test_players_see_no_gm_only_controls_and_the_log_says_how_and_who():
    """Issue 21 (low): Automatic and Other adjustment are the GM's, hidden from players; an adjustment
    does not stick to the next check; a log line gives the base TN, the suitability and who rolled."""
    gm, ann, olaf, spy = room_for_two([[6, 6, 5], [1, 2, 3, 4]])
    ann_panel = ActionCheckPanel(actions=Actions(ann), lang="en")
    a = Screen(ann_panel)
    automatic, adjustment = a.t("check.automatic"), a.t("check.adjustment")
    assert not a.has("checkbox", automatic) and not a.has("number", adjustment)
    gm_panel = ActionCheckPanel(actions=Actions(gm), lang="en")
    g = Screen(gm_panel)
    assert g.has("checkbox", automatic) and g.has("number", adjustment)
    g.choose(g.t("check.character"), "Spy")
    g.control("number", g.t("check.tn")).value = 5
    g.pick("Unsuitable")
    g.control("number", adjustment).value = 2
    g.click(g.t("check.roll"))
    assert gm_panel.result["tn"] == 5 + 5 + 2 and g.control("number", adjustment).value == 0  # reset for the next check
    assert not g.checkbox(automatic).value
    line = gm_panel.log_entries()[0][0]
    assert "base TN 5" in line and "Unsuitable (+5)" in line and "other adjustment +2" in line
    assert "rolled by GM" in line
    a.choose(a.t("check.character"), "Olaf")
    a.click(a.t("check.roll"))
    line = ann_panel.log_entries()[0][0]
    assert "base TN 10" in line and "Suitable (+0)" in line and "rolled by Ann" in line
    assert "adjustment" not in line
