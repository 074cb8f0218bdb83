"""Issue 26: the advisor counts pumps and lucky shots exactly (RULES.md section 11).

Under the pumps option every pump a unit could declare for its coming roll is a choice, rated as the
rules say: its dice on that roll (through ties), the cliché paying it after the damage, won or lost.
What either side has declared counts in every choice. Checked against the plain recursions of
``test_advisor`` (written from the rules' words, not from the advisor's model).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from raisus_panel.rules import Character, Contest, RulesProfile, ScriptedDice, advise

from .test_advisor import after_hit, duel, p_beats, replica_accepts, team_contest, team_odds

PUMPS = RulesProfile(pumps=True, lucky_shots=True)


def brawl(profile=PUMPS, viking=4, spy=3, **kw):
    olaf = Character("Olaf", {"Viking": viking}, lucky_shots=3)
    foe = Character("Spy", {"Spy": spy})
    contest = Contest("Brawl", olaf, foe, profile=profile, dice=ScriptedDice(), **kw)
    contest.choose(olaf, "Viking")
    contest.choose(foe, "Spy")
    return contest, olaf, foe


def pumped(x, y, extra, pump, their_extra=0, their_pump=0):
    """P(A wins) from x against y when the coming roll has extra dice and each side pays its pump."""
    p = p_beats(x + extra, y + their_extra)
    return p * duel(x - pump, y - 1 - their_pump) + (1 - p) * duel(x - 1 - pump, y - their_pump)


def test_every_pump_is_a_choice_rated_exactly_and_offered_only_as_the_rules_allow():
    contest, olaf, spy = brawl()
    advice = advise(contest, olaf)
    pumps = [c for c in advice.choices if c.key.startswith("pump:")]
    assert [c.key for c in pumps] == ["pump:0", "pump:1", "pump:2", "pump:3"]  # no pump from 1: at most 3
    for c in pumps:
        n = int(c.key.split(":")[1])
        assert c.as_is == pumped(4, 3, n, n)
        assert c.best >= c.as_is
        assert (c.command, c.args) == ("pump", (olaf.uid, n)) and replica_accepts(contest, c)
        assert c.label == ("advice.pump" if n else "advice.no_pump")
        assert c.field_map == {"n": n, "cliche": "Viking", "dice": n}
    assert [c.current for c in pumps] == [True, False, False, False]
    assert advice.choice("pump:3").as_is < Fraction(1, 10)  # 7 dice now, then Viking at 1: ruinous


def test_a_declared_pump_is_the_current_choice_and_counts_for_the_other_side_too():
    contest, olaf, spy = brawl()
    contest.pump(olaf, 2)
    mine = advise(contest, olaf)
    assert mine.choice("pump:2").current and not mine.choice("pump:0").current
    assert mine.choice("cliche:Viking").as_is == pumped(4, 3, 2, 2)  # kept with a cliché choice
    theirs = advise(contest, spy)
    assert theirs.choice("cliche:Spy").as_is == 1 - pumped(4, 3, 2, 2)
    assert theirs.choice("pump:1").as_is == 1 - pumped(4, 3, 2, 2, their_extra=1, their_pump=1)


def test_lucky_shots_add_dice_and_stay_with_every_pump():
    contest, olaf, spy = brawl()
    contest.spend_lucky(olaf, 2)
    advice = advise(contest, olaf)
    assert advice.choice("cliche:Viking").as_is == pumped(4, 3, 2, 0)
    assert advice.choice("pump:1").as_is == pumped(4, 3, 3, 1)


def test_a_double_pump_cliche_rolls_two_dice_a_point():
    olaf = Character("Olaf", "[Wizard] (4)")
    spy = Character("Spy", {"Spy": 3})
    contest = Contest("Duel", olaf, spy, profile=PUMPS, dice=ScriptedDice())
    contest.choose(olaf, "Wizard")
    contest.choose(spy, "Spy")
    choice = advise(contest, olaf).choice("pump:1")
    assert choice.field_map["dice"] == 2 and choice.as_is == pumped(4, 3, 2, 1)


def test_a_team_pumps_its_leader_who_pays_it_after_the_hit():
    contest, t, members, ogre = team_contest((4, 2), 4, profile=PUMPS)
    contest.choose(ogre, "Ogre")
    advice = advise(contest, t)
    for n in range(4):
        # leader 4 + 1 helper die + the pump; won: the leader pays; lost: the hit, then the pump
        p = p_beats(4 + 1 + n, 4)
        lost = after_hit((4 - 1 - n, 2), False, False, 4, False)
        expected = p * team_odds((4 - n, 2), False, 3, False) + (1 - p) * lost
        assert advice.choice(f"pump:{n}").as_is == expected


@pytest.mark.parametrize(("profile", "kw", "viking"), [
    (RulesProfile(lucky_shots=True), {}, 4),  # the option is off
    (PUMPS, {"single_roll": True}, 4),  # no pumps in single-roll contests
    (PUMPS, {}, 1),  # no pump from 1
])
def test_no_pump_choices_where_the_rules_allow_none(profile, kw, viking):
    contest, olaf, spy = brawl(profile, viking=viking, **kw)
    assert not [c for c in advise(contest, olaf).choices if c.key.startswith("pump:")]


def test_in_a_single_roll_contest_lucky_shots_count_in_the_one_roll():
    contest, olaf, spy = brawl(single_roll=True)
    contest.spend_lucky(olaf, 1)
    assert advise(contest, olaf).choice("cliche:Viking").as_is == p_beats(5, 3)
