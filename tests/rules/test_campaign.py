"""RULES.md section 11, the campaign options: worked cases 28-34 and the rulings around them.

Dice are scripted: ScriptedDice fails when the pool size asked for differs from the next scripted roll,
so each case also checks how many dice a pump or a lucky shot adds.
"""

import json

import pytest

from raisus_panel.rules import (
    Character,
    CharacterTeam,
    Cliche,
    Contest,
    RuleError,
    RulesProfile,
    ScriptedDice,
    action_check,
    advancement_roll,
    check_budget,
    creation_budget,
)

from .conftest import c, char

CAMPAIGN = RulesProfile(pumps=True, lucky_shots=True)


def used_up(dice):
    assert dice.remaining == 0, "the case left scripted rolls unused"


def refused(key, command, *args, **kwargs):
    """``command`` is refused with ``key``; returns the error."""
    with pytest.raises(RuleError) as caught:
        command(*args, **kwargs)
    assert caught.value.key == key
    return caught.value


def duel(a, b, rolls, profile=CAMPAIGN, **kwargs):
    dice = ScriptedDice(rolls)
    return Contest("Brawl", a, b, profile=profile, dice=dice, **kwargs), dice


# -- 28-31: pumps --------------------------------------------------------------------------------
def test_28_pump_and_pay():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    contest, dice = duel(viking, pirate, [[6, 5, 4, 1, 1, 1], [4, 4, 4]])
    contest.pump(viking, 2)
    events = contest.roll_round()
    assert (c(pirate), c(viking)) == (2, 2)
    decided = next(e for e in events if e["type"] == "round_decided")
    assert decided["used"][0]["pool"] == 6 and decided["used"][0]["pump"] == 2
    assert decided["attempts"][-1][0]["total"] == 18
    assert [e["type"] for e in events] == ["round_decided", "costs_paid"]
    used_up(dice)


def test_29_no_pump_from_1():
    viking, pirate = char("Viking", Viking=1), char("Pirate", Pirate=3)
    contest, _ = duel(viking, pirate, [])
    before = list(contest.events)
    error = refused("error.pump.too_much", contest.pump, viking, 1)
    assert "no pump from 1" in str(error)
    assert contest.events == before and c(viking) == 1


def test_30_double_pump():
    wizard = Character("Merlin", "[Wizard] (3)")
    ogre = char("Ogre", Ogre=4)
    contest, dice = duel(wizard, ogre, [[1, 1, 1, 1, 1], [6, 6, 6, 6]])
    contest.pump(wizard, 1)
    contest.roll_round()
    assert c(wizard) == 1  # 3 - 1 (damage) - 1 (pump)
    used_up(dice)


def test_31_pump_through_a_tie_is_paid_once():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    contest, dice = duel(viking, pirate, [[2, 2, 2, 2, 1], [3, 3, 3], [6, 6, 6, 6, 6], [1, 1, 1]])
    contest.pump(viking, 1)
    contest.roll_round()
    assert (c(pirate), c(viking)) == (2, 3)
    used_up(dice)


def test_a_pump_lasts_one_roll_and_a_later_round_rolls_the_score():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    contest, dice = duel(viking, pirate, [[6, 6, 6, 6, 6], [1, 1, 1], [6, 6, 6], [1, 1]])
    contest.pump(viking, 1)
    contest.roll_round()
    contest.roll_round()  # Viking at 3 rolls 3 dice: the pump was paid and is gone
    assert (c(viking), c(pirate)) == (3, 1)
    used_up(dice)


def test_a_pump_is_taken_back_with_zero_and_by_undo():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    contest, dice = duel(viking, pirate, [[6, 6, 6, 6], [1, 1, 1]])
    contest.pump(viking, 2)
    contest.pump(viking, 0)
    contest.roll_round()
    assert c(viking) == 4 and not any(e["type"] == "costs_paid" for e in contest.events)
    contest.pump(viking, 1)
    contest.undo()
    assert contest.why_not("roll_round") is None
    used_up(dice)


def test_undoing_a_paid_round_gives_the_pump_back_and_keeps_it_declared():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    contest, dice = duel(viking, pirate, [[6, 6, 6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6, 6, 6], [1, 1, 1]])
    contest.pump(viking, 2)
    contest.roll_round()
    assert c(viking) == 2
    contest.undo()
    assert (c(viking), c(pirate)) == (4, 3)
    contest.roll_round()  # still pumped by 2: six dice again
    assert c(viking) == 2
    used_up(dice)


def test_a_pump_that_defeats_the_loser_ends_the_contest():
    viking, pirate = char("Viking", Viking=2), char("Pirate", Pirate=3)
    contest, dice = duel(viking, pirate, [[1, 1, 1], [6, 6, 6]])
    contest.pump(viking, 1)
    contest.roll_round()  # 2 - 1 damage - 1 pump = 0
    assert c(viking) == 0 and contest.status == "ended" and contest.winner == 1
    used_up(dice)


def test_pumps_are_refused_when_off_in_a_single_roll_and_beyond_the_score():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    off, _ = duel(viking, pirate, [], profile=RulesProfile())
    refused("error.pump.off", off.pump, viking, 1)
    single, _ = duel(char("V", V=4), char("P", P=3), [], single_roll=True)
    refused("error.pump.single_roll", single.pump, single.sides[0][0], 1)
    contest, _ = duel(char("V", V=4), char("P", P=3), [])
    refused("error.pump.too_much", contest.pump, contest.sides[0][0], 4)
    for bad in (-1, "2", 1.5, True, 10**9):
        with pytest.raises(RuleError):
            contest.pump(contest.sides[0][0], bad)
    assert [e["type"] for e in contest.events] == ["contest_started"]


def test_a_team_pumps_its_leader_and_revenge_doubles_the_score_not_the_pump():
    knight, viking, squire = char("Knight", Knight=4), char("Viking", Viking=3), char("Squire", Squire=2)
    ogre = char("Ogre", Ogre=8)
    team = CharacterTeam([(knight, "Knight"), (viking, "Viking"), (squire, "Squire")])
    # round 1: the team (4 + 2 helpers) loses and the viking volunteers (3 - 2 = 1, still active);
    # round 2: revenge doubles the knight's 4, then 2 helpers, then the pump's 2 dice
    dice = ScriptedDice([[1] * 6, [6] * 8, [6] * 12, [1] * 8])
    contest = Contest("Ogre fight", team, ogre, profile=CAMPAIGN, dice=dice)
    contest.roll_round()
    contest.volunteer(viking)
    contest.pump(team, 2)
    events = contest.roll_round()
    decided = next(e for e in events if e["type"] == "round_decided")
    assert decided["used"][0]["pool"] == 2 * 4 + 2 + 2 and decided["used"][0]["revenge"]
    assert c(knight) == 2 and c(ogre) == 7
    used_up(dice)


def test_a_lost_round_and_its_pump_bring_the_leader_down_and_the_team_is_lost():
    knight, viking = char("Knight", Knight=3), char("Viking", Viking=2)
    ogre = char("Ogre", Ogre=8)
    team = CharacterTeam([(knight, "Knight"), (viking, "Viking")])
    dice = ScriptedDice([[1] * 6, [6] * 8])
    contest = Contest("Ogre fight", team, ogre, profile=CAMPAIGN, dice=dice)
    contest.pump(team, 2)
    contest.roll_round()  # 3 - 1 damage - 2 pump = 0: down, and nobody volunteered yet
    assert c(knight) == 0
    contest.volunteer(viking)  # the window is open: the viking takes the round's damage, not the pump
    assert (c(knight), c(viking)) == (1, 0)
    used_up(dice)


def test_a_leader_down_by_its_pump_with_nobody_volunteering_loses_the_team():
    knight, viking = char("Knight", Knight=3), char("Viking", Viking=2)
    team = CharacterTeam([(knight, "Knight"), (viking, "Viking")])
    dice = ScriptedDice([[1] * 6, [6] * 8, [6], [1] * 8])
    contest = Contest("Ogre fight", team, char("Ogre", Ogre=8), profile=CAMPAIGN, dice=dice)
    contest.pump(team, 2)
    contest.roll_round()
    events = contest.roll_round()  # the window closes: the leader is lost before the roll
    assert events[0]["type"] == "team_disbanded" and events[0]["reason"] == "lost_leader"
    used_up(dice)


# -- 32: lucky shots -----------------------------------------------------------------------------
def test_32_lucky_shot_in_an_action_check():
    olaf = Character("Olaf", {"Viking": 2}, lucky_shots=3)
    dice = ScriptedDice([[4, 3, 3]])
    result = action_check(olaf.cliche("Viking"), 10, lucky=1, dice=dice, profile=CAMPAIGN)
    assert (result.dice, result.total, result.success, result.lucky) == (3, 10, True, 1)
    assert result.to_dict()["lucky"] == 1 and "pumped" not in result.to_dict()
    used_up(dice)


def test_lucky_shots_in_a_contest_are_spent_once_through_a_tie():
    olaf = Character("Olaf", {"Viking": 2}, lucky_shots=3)
    pirate = char("Pirate", Pirate=3)
    contest, dice = duel(olaf, pirate, [[3, 3, 3, 3], [4, 4, 4], [6, 6, 6, 6], [1, 1, 1]])
    contest.spend_lucky(olaf, 2)
    events = contest.roll_round()
    paid = next(e for e in events if e["type"] == "costs_paid")
    assert paid["lucky"] == [{"character": olaf.uid, "amount": 2}] and paid["hits"] == []
    assert olaf.lucky_left == 1 and c(olaf) == 2 and c(pirate) == 2
    contest.undo()
    assert olaf.lucky_left == 3
    used_up(dice)


def test_a_team_member_spends_its_own_lucky_shots_on_the_team_roll():
    knight = Character("Knight", {"Knight": 3})
    viking = Character("Viking", {"Viking": 2}, lucky_shots=3)
    team = CharacterTeam([(knight, "Knight"), (viking, "Viking")])
    dice = ScriptedDice([[6] * 6, [1] * 4])
    contest = Contest("Ogre fight", team, char("Ogre", Ogre=4), profile=CAMPAIGN, dice=dice)
    contest.spend_lucky(viking, 2)
    contest.roll_round()
    assert viking.lucky_left == 1
    used_up(dice)


def test_lucky_shots_are_refused_when_off_or_more_than_left():
    olaf = Character("Olaf", {"Viking": 2}, lucky_shots=1)
    off, _ = duel(olaf, char("P", P=3), [], profile=RulesProfile())
    refused("error.lucky.off", off.spend_lucky, olaf, 1)
    on, _ = duel(Character("Olaf", {"Viking": 2}, lucky_shots=1), char("P", P=3), [])
    refused("error.lucky.too_many", on.spend_lucky, on.characters()[0], 2)
    refused("error.lucky.off", action_check, 3, 10, lucky=1, dice=ScriptedDice([]))
    assert [e["type"] for e in on.events] == ["contest_started"]


def test_lucky_shots_in_a_single_roll_contest():
    olaf = Character("Olaf", {"Viking": 2}, lucky_shots=3)
    contest, dice = duel(olaf, char("P", P=3), [[6, 6, 6], [1, 1, 1]], single_roll=True)
    contest.spend_lucky(olaf, 1)
    contest.roll_round()
    assert contest.status == "ended" and contest.winner == 0 and olaf.lucky_left == 2
    used_up(dice)


def test_pumps_in_action_checks_only_when_the_gm_allows_them():
    viking = Cliche("Viking", 4)
    refused("error.pump.checks_off", action_check, viking, 10, pump=1, dice=ScriptedDice([]), profile=CAMPAIGN)
    allowed = RulesProfile(pumps=True, pump_checks=True)
    result = action_check(viking, 10, pump=2, dice=ScriptedDice([[1] * 6]), profile=allowed)
    assert (result.dice, result.pumped) == (6, 2)
    refused("error.check.pump_too_much", action_check, viking, 10, pump=4, dice=ScriptedDice([]), profile=allowed)


# -- 33: the creation budget ---------------------------------------------------------------------
def test_33_budget():
    book = RulesProfile(creation_dice=10)
    check_budget(Character("Olaf", {"Viking": 4, "Cook": 3, "Sailor": 3}), book)
    refused("error.budget.over_max", check_budget, Character("Olaf", {"Viking": 5}), book)
    over = Character("Olaf", {"Viking": 4, "Cook": 4, "Sailor": 3})
    refused("error.budget.over", check_budget, over, book)
    hooked = Character("Olaf", {"Viking": 4, "Cook": 4, "Sailor": 3}, hook="Cannot swim", accepted=["hook"])
    check_budget(hooked, book)
    unaccepted_tale = Character("Olaf", {"Viking": 4, "Cook": 4, "Sailor": 3}, tale="Born at sea")
    refused("error.budget.over", check_budget, unaccepted_tale, book)
    check_budget(Character("Olaf", {"Viking": 4, "Cook": 4, "Sailor": 3}, accepted=["over_budget"]), book)


def test_double_pump_dice_and_lucky_shots_cost_creation_dice():
    book = RulesProfile(creation_dice=10)
    wizard = Character("Merlin", "[Wizard] (3), Cook (2)", lucky_shots=3)
    assert creation_budget(wizard, book).spent == 3 * 2 + 2 + 1
    assert creation_budget(Character("A", {"A": 1}, lucky_shots=4), book).spent == 1 + 2
    assert creation_budget(wizard, RulesProfile()) is None  # no budget: the option is off


# -- 34: advancement -----------------------------------------------------------------------------
def test_34_advancement():
    viking = Cliche("Viking", 3)
    assert advancement_roll(viking, ScriptedDice([[2, 4, 6]])).rises
    assert not advancement_roll(viking, ScriptedDice([[2, 4, 5]])).rises
    at_six = advancement_roll(Cliche("Viking", 6), ScriptedDice([]))
    assert not at_six.rises and at_six.faces == ()


def test_advancement_rolls_the_rating_not_the_current_score():
    hurt = Cliche("Viking", 3, current=1)
    dice = ScriptedDice([[2, 2, 2]])
    assert advancement_roll(hurt, dice).rises
    used_up(dice)


# -- saves ---------------------------------------------------------------------------------------
def test_a_campaign_contest_saves_and_loads_into_the_same_state():
    olaf = Character("Olaf", "[Viking] (4), Cook (2)", lucky_shots=3)
    pirate = char("Pirate", Pirate=3)
    contest, _ = duel(olaf, pirate, [[6] * 9, [1] * 3, [1] * 2, [6] * 2])
    contest.choose(olaf, "Viking")
    contest.pump(olaf, 2)
    contest.spend_lucky(olaf, 1)
    contest.roll_round()
    contest.roll_round()
    loaded = Contest.from_json(contest.to_json())
    mine = {ch.uid: ch for ch in loaded.characters()}
    assert mine[olaf.uid].lucky_left == 2 and mine[olaf.uid].cliche("Viking").double_pump
    assert json.loads(loaded.to_json()) == json.loads(contest.to_json())
    assert [c(ch) for ch in loaded.characters()] == [c(olaf), c(pirate)] == [1, 2]


def test_profiles_and_characters_without_campaign_options_are_saved_as_before():
    assert set(RulesProfile().to_dict()).isdisjoint({"pumps", "lucky_shots", "creation_dice", "advancement"})
    assert set(Character("Olaf", {"Viking": 2}).to_dict()) == {"kind", "uid", "name", "description", "owner", "cliches"}
    assert RulesProfile.from_dict(RulesProfile(pumps=True, advancement="rolls").to_dict()).advancement == "rolls"


def test_the_bonus_of_a_unit_says_its_declared_pump_and_lucky_shots_and_their_dice():
    wizard = Character("Merlin", "[Wizard] (3)", lucky_shots=2)
    contest, _ = duel(wizard, char("Ogre", Ogre=4), [])
    assert contest.bonus(wizard) == {"pump": 0, "pump_dice": 0, "lucky": {}, "dice": 0}
    contest.pump(wizard, 1)
    contest.spend_lucky(wizard, 2)
    assert contest.bonus(wizard) == {"pump": 1, "pump_dice": 2, "lucky": {wizard.uid: 2}, "dice": 4}
