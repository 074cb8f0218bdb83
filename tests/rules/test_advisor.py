"""The odds advisor: every legal choice rated exactly, against a computation written out plainly here."""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raisus_panel.rules import (
    Character,
    CharacterTeam,
    Contest,
    GruntMob,
    RuleError,
    RulesProfile,
    ScriptedDice,
    SeededDice,
    advise,
)
from raisus_panel.rules.advisor_model import round_chance


# ------------------------------------------------------------------------- the plain computation --
@functools.cache
def ways(n):
    """{total: number of rolls} of n dice, by adding one die at a time."""
    out = {0: 1}
    for _ in range(n):
        nxt = {}
        for total, count in out.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + count
        out = nxt
    return out


@functools.cache
def p_beats(a, b):
    """P(a dice beat b dice), ties re-rolled: every pair of totals counted."""
    win = lose = 0
    for ta, ca in ways(a).items():
        for tb, cb in ways(b).items():
            if ta > tb:
                win += ca * cb
            elif ta < tb:
                lose += ca * cb
    return Fraction(win, win + lose)


@functools.cache
def duel(x, y, dx=1, dy=1):
    """P(A wins) with scores x, y kept on one cliché each; A's win costs B dx, B's win costs A dy."""
    if y <= 0:
        return Fraction(1)
    if x <= 0:
        return Fraction(0)
    p = p_beats(x, y)
    return p * duel(x, y - dx, dx, dy) + (1 - p) * duel(x - dy, y, dx, dy)


@functools.cache
def switching(scores, y):
    """P(A wins) when A picks the best of its clichés (all appropriate) before every roll."""
    if y <= 0:
        return Fraction(1)
    best = Fraction(0)
    for i, x in enumerate(scores):
        if x > 0:
            p = p_beats(x, y)
            worse = scores[:i] + (x - 1,) + scores[i + 1:]
            lost = Fraction(0) if x == 1 else switching(worse, y)
            best = max(best, p * switching(scores, y - 1) + (1 - p) * lost)
    return best


@functools.cache
def team_odds(scores, revenge, y, best):
    """A team (scores[0] leads, every member appropriate, one cliché each) against one cliché of y.

    Default rules: +1 die per other member with dice, the leader takes a hit, a volunteer takes 2
    and doubles the leader's score next round, a lost leader disbands (each survivor -1) and the
    survivors re-form around the highest score, passing on revenge if the leader fell volunteering.
    With ``best`` the team picks who takes each hit.
    """
    if y <= 0:
        return Fraction(1)
    lead = scores[0]
    pool = lead * (2 if revenge else 1) + sum(1 for s in scores[1:] if s > 0)
    p = p_beats(pool, y)
    won = team_odds(scores, False, y - 1, best)
    options = []
    for who, amount, rev in [(0, 1, False)] + ([(i, 2, True) for i, s in enumerate(scores) if s > 0] if best else []):
        after = list(scores)
        after[who] = max(0, after[who] - amount)
        options.append(after_hit(tuple(after), rev, who == 0 and rev, y, best))
    return p * won + (1 - p) * max(options)


def after_hit(scores, revenge, carry, y, best):
    if scores[0] > 0:
        return team_odds((scores[0], *sorted(scores[1:])), revenge, y, best)
    survivors = sorted((s - 1 for s in scores[1:] if s - 1 > 0), reverse=True)
    if not survivors:
        return Fraction(0)
    if len(survivors) == 1:
        return duel(survivors[0], y)
    return team_odds((survivors[0], *sorted(survivors[1:])), carry, y, best)


# -------------------------------------------------------------------------------------- helpers --
def chars(*specs):
    return [Character(name, cliches) for name, cliches in specs]


def team_contest(scores, ogre, profile=None, dice=None):
    members = [Character(f"M{i}", {f"C{i}": s}) for i, s in enumerate(scores)]
    t = CharacterTeam([(m, m.cliches[0].name) for m in members], leader=members[0])
    foe = Character("Ogre", {"Ogre": ogre})
    return Contest("Fight", [t], foe, profile=profile, dice=dice or ScriptedDice()), t, members, foe


def replica_accepts(contest, choice):
    copy_ = Contest.from_events(contest.events, dice=SeededDice(seed=1))
    if choice.command is None:
        return True
    args = list(choice.args)
    getattr(copy_, choice.command)(*args, **dict(choice.kwargs))
    return True


# ---------------------------------------------------------------------------------------- tests --
def test_one_on_one_matches_the_plain_recursion_for_every_cliche():
    viking, pirate = chars(("Viking", {"Viking": 4, "Cook": 2}), ("Pirate", {"Pirate": 3}))
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice())
    contest.choose(viking, "Viking")
    advice = advise(contest, viking)
    assert advice.choice("cliche:Viking").as_is == duel(4, 3)
    assert advice.choice("cliche:Cook").as_is == duel(2, 3)
    assert advice.choice("cliche:Viking:inappropriate").as_is == duel(4, 3, dx=3)
    assert advice.choice("cliche:Cook:inappropriate").as_is == duel(2, 3, dx=3)
    # best: this cliché for the coming roll, then the better cliché before every roll
    for name, i in (("Viking", 0), ("Cook", 1)):
        scores = (4, 2)
        x = scores[i]
        p = p_beats(x, 3)
        worse = scores[:i] + (x - 1,) + scores[i + 1:]
        expected = p * switching(scores, 2) + (1 - p) * (0 if x == 1 else switching(worse, 3))
        assert advice.choice(f"cliche:{name}").best == expected
    assert advice.choice("cliche:Viking").current and not advice.choice("cliche:Cook").current
    assert advice.choice("cliche:Cook:inappropriate").needs_approval
    assert not advice.choice("cliche:Cook").needs_approval
    assert advice.best_key == max(advice.choices, key=lambda c: (c.best, c.as_is)).key
    assert all(isinstance(c.as_is, Fraction) and isinstance(c.best, Fraction) for c in advice.choices)


def test_vs_appropriate_option_counts_three_only_against_an_appropriate_cliche():
    cook, king = chars(("Cook", {"Cook": 3}), ("King", {"Demon King": 4}))
    profile = RulesProfile(inappropriate_damage="vs_appropriate")
    contest = Contest("Bout", cook, king, profile=profile, dice=ScriptedDice())
    contest.choose(king, "Demon King", appropriate=False, approved=True)
    advice = advise(contest, cook)
    # the King is inappropriate: its wins cost 3 whatever; Cook's inappropriate win costs only 1 now
    assert advice.choice("cliche:Cook:inappropriate").as_is == duel(3, 4, dx=1, dy=1)
    assert advice.choice("cliche:Cook").as_is == duel(3, 4, dx=1, dy=3)


def test_a_team_keeping_as_it_is_and_with_best_play_matches_the_plain_recursion():
    contest, t, members, foe = team_contest([3, 2, 2], 5)
    advice = advise(contest, t)
    keep = advice.choice("keep")
    assert keep.current
    assert keep.as_is == team_odds((3, 2, 2), False, 5, False)
    assert keep.best == team_odds((3, 2, 2), False, 5, True)
    assert keep.best > keep.as_is


def test_best_play_tells_apart_wins_closer_to_certain_than_a_float_can():
    # a team of 4+1+3 dice against 2: best play loses about once in 10**24, every choice's P(win)
    # is 1.0 as a float, and who should volunteer is decided by the chances of losing (choosing by
    # the floats of P(win) alone comes out 2e-23 short)
    contest, t, members, foe = team_contest([4, 1, 3], 2)
    keep = advise(contest, t).choice("keep")
    assert 0 < 1 - keep.best < Fraction(1, 10**20)
    assert float(keep.best) == 1.0
    assert keep.best == team_odds((4, 1, 3), False, 2, True)
    assert keep.as_is == team_odds((4, 1, 3), False, 2, False)


def test_scenario_20_the_volunteer_window_offers_each_member_and_rates_it():
    # RULES.md 19/20: Knight(4) L, Viking(2), Squire(1) vs Ogre(8); round 1 lost
    contest, t, (knight, viking, squire), ogre = team_contest([4, 2, 1], 8,
                                                               dice=ScriptedDice([[1] * 6, [2] * 8]))
    contest.roll_round()
    assert knight.cliches[0].current == 3
    advice = advise(contest, t)
    keys = [c.key for c in advice.choices]
    assert "no_volunteer" in keys and not any(k.startswith("assign:") for k in keys)  # not with this option
    assert {f"volunteer:{m.uid}" for m in (knight, viking, squire)} <= set(keys)
    assert advice.choice("no_volunteer").as_is == team_odds((3, 1, 2), False, 8, False)
    assert advice.choice(f"volunteer:{viking.uid}").as_is == team_odds((4, 0, 1), True, 8, False)
    assert advice.choice(f"volunteer:{viking.uid}").best == team_odds((4, 0, 1), True, 8, True)
    assert advice.choice(f"volunteer:{knight.uid}").as_is == team_odds((2, 1, 2), True, 8, False)


def test_scenario_20_after_a_won_round_nobody_is_offered_to_volunteer():
    contest, t, (knight, viking, squire), ogre = team_contest(
        [4, 2, 1], 8, dice=ScriptedDice([[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8]))
    contest.roll_round()
    contest.volunteer(viking)
    contest.roll_round()  # scenario 20: R2 won, Ogre 7
    keys = [c.key for c in advise(contest, t).choices]
    assert not any(k.startswith("volunteer:") for k in keys) and "keep" in keys


def test_lost_leader_disband_and_reform_match_the_plain_recursion():
    # RULES.md 21: Knight(2) L, Viking(2), Monk(2), Squire(1) vs Troll(6); lost; Knight volunteers
    contest, t, (knight, viking, monk, squire), troll = team_contest(
        [2, 2, 2, 1], 6, dice=ScriptedDice([[1] * 5, [2] * 6]))
    contest.roll_round()
    advice = advise(contest, t)
    # Knight falls volunteering: disband (Viking 1, Monk 1, Squire 0), re-form with revenge
    assert advice.choice(f"volunteer:{knight.uid}").as_is == team_odds((1, 1), True, 6, False)
    assert advice.choice(f"volunteer:{knight.uid}").best == team_odds((1, 1), True, 6, True)


def test_disband_and_drop_out_are_rated_as_the_plain_recursion_says():
    contest, t, (a, b, c_), foe = team_contest([3, 2, 2], 4)
    advice = advise(contest, t)
    # disband: every member -1, re-formed at once (no revenge)
    assert advice.choice("disband").as_is == team_odds((2, 1, 1), False, 4, False)
    assert advice.choice(f"drop_out:{b.uid}").as_is == team_odds((3, 2), False, 4, False)
    # the leader dropping out loses the leader: the others -1 each, re-formed
    assert advice.choice(f"drop_out:{a.uid}").as_is == team_odds((1, 1), False, 4, False)


def test_single_roll_contest_is_the_chance_of_one_round():
    gun, outlaw = chars(("Gunslinger", {"Gunslinger": 3, "Gambler": 5}), ("Outlaw", {"Outlaw": 3}))
    contest = Contest("Duel", gun, outlaw, single_roll=True, dice=ScriptedDice())
    advice = advise(contest, gun)
    assert advice.choice("cliche:Gambler").as_is == advice.choice("cliche:Gambler").best == p_beats(5, 3)
    assert advice.best_key == "cliche:Gambler"


def test_tickets_are_offered_before_the_first_roll_and_rated():
    # RULES.md 25: Astronaut(3) vs Accountant(3): tickets give both Pie Eating(2)
    astro, acc = chars(("Astronaut", {"Astronaut": 3}), ("Accountant", {"Accountant": 3}))
    contest = Contest("Pie Eating", astro, acc, dice=ScriptedDice([[6, 5], [1, 2]]))
    assert "tickets" not in [c.key for c in advise(contest, astro).choices]  # their clichés count as fitting
    contest.choose(astro, "Astronaut", appropriate=False)
    contest.choose(acc, "Accountant", appropriate=False)
    tickets = advise(contest, astro).choice("tickets")
    assert tickets.as_is == tickets.best == duel(2, 2) == Fraction(1, 2)  # no real cliché fits
    assert tickets.command == "give_tickets" and tickets.field_map == {"cliche": "Pie Eating", "n": 2}
    contest.give_tickets()
    contest.roll_round()
    assert not any(c.key.startswith("tickets") for c in advise(contest, astro).choices)


def test_brevet_tickets_add_two_dice_to_the_fitting_cliche():
    astro, acc = chars(("Astronaut", {"Astronaut": 3}), ("Accountant", {"Accountant": 3}))
    contest = Contest("Pie Eating", astro, acc, profile=RulesProfile(tickets="brevet"), dice=ScriptedDice())
    contest.choose(astro, "Astronaut", appropriate=False)
    contest.choose(acc, "Accountant", appropriate=False)
    brevet = advise(contest, astro).choice("tickets:brevet")
    assert brevet.as_is == duel(5, 2)
    assert replica_accepts(contest, brevet)


def test_member_sixes_round_chance_counts_every_roll():
    # leader 1 die + a helper's 2 dice (only sixes count, 6 each) against 2 dice: all 6**5 rolls
    win = lose = 0
    for faces in itertools.product(range(1, 7), repeat=5):
        a = faces[0] + 6 * sum(f == 6 for f in faces[1:3])
        b = faces[3] + faces[4]
        win += a > b
        lose += a < b
    assert round_chance((1, 0, 2), (2, 0, 0)) == Fraction(win, win + lose)


def test_member_sixes_option_rates_a_team_by_its_sixes():
    contest, t, members, foe = team_contest([2, 1], 2, profile=RulesProfile(team_dice="member_sixes"))
    keep = advise(contest, t).choice("keep")

    @functools.cache
    def plain(lead, helper, y):
        if y == 0:
            return Fraction(1)
        if lead == 0:
            return duel(helper - 1, y) if helper > 1 else Fraction(0)  # lost leader: -1, alone
        p = round_chance((lead, 0, helper), (y, 0, 0))
        return p * plain(lead, helper, y - 1) + (1 - p) * plain(lead - 1, helper, y)
    assert keep.as_is == plain(2, 1, 2)


def test_roll_off_option_hits_each_active_member_equally_often():
    contest, t, (a, b), foe = team_contest([1, 1], 1, profile=RulesProfile(team_loss="roll_off"))
    keep = advise(contest, t).choice("keep")
    p = p_beats(2, 1)
    # a loss hits the leader (lost leader: the other -1 is down too: lost) or the member (1 die against 1)
    assert keep.as_is == p + (1 - p) * (0 + p_beats(1, 1)) / 2
    leader_rule, *_ = team_contest([1, 1], 1)
    assert advise(leader_rule, leader_rule.sides[0][0]).choice("keep").as_is == p


def test_leader_assigns_offers_handing_on_the_hit():
    contest, t, (a, b, c_), foe = team_contest([3, 3, 1], 6, profile=RulesProfile(team_loss="leader_assigns"),
                                              dice=ScriptedDice([[1] * 5, [2] * 6]))
    contest.roll_round()
    advice = advise(contest, t)
    assign = advice.choice(f"assign:{b.uid}")
    assert assign.command == "assign_loss" and replica_accepts(contest, assign)
    assert assign.best >= assign.as_is
    assert advice.choice(f"assign:{b.uid}").as_is > advice.choice("no_volunteer").as_is  # the leader keeps 3
    assert assign.as_is == team_odds((3, 2, 1), False, 6, False)  # then the leader takes the hits as is
    assert f"assign:{a.uid}" not in [c.key for c in advice.choices]  # the leader took it: no choice


def test_the_memo_is_forgotten_when_it_grows_and_the_answers_stay(monkeypatch):
    from raisus_panel.rules import advisor

    contest, t, members, foe = team_contest([3, 2, 2], 5)
    first = advise(contest, t)
    monkeypatch.setattr(advisor, "MAX_STATES", 10)
    again = advise(contest, t)
    assert advisor._solver(contest).size < 10 < len(first.choices) * 10
    assert again == first


def test_every_offered_choice_is_accepted_by_the_rules():
    contest, t, (knight, viking, squire), ogre = team_contest([4, 2, 1], 8,
                                                               dice=ScriptedDice([[1] * 6, [2] * 8]))
    contest.roll_round()
    advice = advise(contest, t)
    for choice in advice.choices:
        assert replica_accepts(contest, choice), choice.key
    # a member already down is not offered: Squire at 0 after volunteering cannot drop out again
    contest.volunteer(squire)
    keys = [c.key for c in advise(contest, t).choices]
    assert f"drop_out:{squire.uid}" not in keys and f"drop_out:{viking.uid}" in keys


def test_refusals_say_what_to_do():
    a, b, c_, d = chars(("A", {"A": 2}), ("B", {"B": 2}), ("C", {"C": 2, "D": 1}), ("D", {"D": 1}))
    with pytest.raises(RuleError) as caught:  # two units a side: exchanges, no one chance to rate
        advise(Contest("Brawl", [a, b], [c_, d], dice=ScriptedDice()), a)
    assert caught.value.key == "error.advice.exchanges_team"
    with pytest.raises(RuleError) as caught:  # C's side has one unit, but it has not chosen
        advise(Contest("Brawl", [a, b], c_, dice=ScriptedDice()), a)
    assert caught.value.key == "error.advice.other_not_chosen"
    with pytest.raises(RuleError) as caught:
        advise(Contest("Brawl", a, c_, dice=ScriptedDice()), a)
    assert caught.value.key == "error.advice.other_not_chosen" and caught.value.fields == {"name": "C"}
    ended = Contest("Brawl", a, b, dice=ScriptedDice([[6, 6], [1, 1], [6, 6], [1]]))
    ended.roll_round()
    ended.roll_round()
    with pytest.raises(RuleError) as caught:
        advise(ended, a)
    assert caught.value.key == "error.advice.ended"


def test_a_grunt_mob_is_advised_like_a_character():
    knight = Character("Knight", {"Knight": 4})
    rats = GruntMob("700 Skeletal Rats", 7)
    advice = advise(Contest("Swarm", knight, rats, dice=ScriptedDice()), rats)
    assert advice.choice("cliche:700 Skeletal Rats").as_is == duel(7, 4)


def test_big_pools_agree_with_the_real_contest_played_many_times():
    # a four-member team as is against a rating-10 unit, played out by the real rules with real dice;
    # survivors of a lost leader re-form around the highest score, as the advisor assumes
    scores, ogre_score = [5, 3, 2, 2], 10
    contest, t, members, foe = team_contest(scores, ogre_score)
    exact = advise(contest, t).choice("keep").as_is
    rng = random.Random(2026)
    games, wins = 500, 0  # each game is the real engine, command by command: slow, so few
    for _ in range(games):
        game, team, _, _ = team_contest(scores, ogre_score, dice=SeededDice(seed=rng.randrange(2**32)))
        while game.status == "active":
            window = game.volunteer_window
            if window and window["leader_down"]:  # nobody saves the leader: the team breaks up now
                game.disband(window["team"])
            units = game.active_units(0)
            if len(units) > 1:
                ranked = sorted(units, key=lambda m: -m.cliches[0].pool)
                game.form_team([(m, m.cliches[0].name) for m in units], leader=ranked[0])
            if game.status == "active":
                game.roll_round()
        wins += game.winner == 0
    sigma = math.sqrt(float(exact) * (1 - float(exact)) / games)
    assert abs(wins / games - float(exact)) < 4 * sigma


def test_one_on_one_big_pools_agree_with_monte_carlo():
    exact = advise(Contest("Brawl", Character("A", {"A": 12}), Character("B", {"B": 11}), dice=ScriptedDice()),
                   "A").choice("cliche:A").as_is
    rng = random.Random(7)
    games, wins = 20000, 0
    for _ in range(games):
        x, y = 12, 11
        while x and y:
            a = sum(rng.randint(1, 6) for _ in range(x))
            b = sum(rng.randint(1, 6) for _ in range(y))
            if a > b:
                y -= 1
            elif b > a:
                x -= 1
        wins += y == 0
    sigma = math.sqrt(float(exact) * (1 - float(exact)) / games)
    assert abs(wins / games - float(exact)) < 4 * sigma


# ------------------------------------------------------------------------------------ properties --
scores = st.integers(min_value=1, max_value=4)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(x=scores, x2=st.integers(min_value=0, max_value=3), y=scores)
def test_property_best_is_never_below_as_is_and_the_two_sides_add_up(x, x2, y):
    a = Character("A", {"A": x, **({"A2": x2} if x2 else {})})
    b = Character("B", {"B": y})
    contest = Contest("Brawl", a, b, dice=ScriptedDice())
    contest.choose(a, "A")
    mine, theirs = advise(contest, a), advise(contest, b)
    for choice in mine.choices + theirs.choices:
        assert 0 <= choice.as_is <= choice.best <= 1
    assert mine.choice("cliche:A").as_is + theirs.choice("cliche:B").as_is == 1
    assert mine.choice("cliche:A").as_is == duel(x, y)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(team=st.lists(st.integers(min_value=1, max_value=3), min_size=2, max_size=3), y=scores,
       loss=st.sampled_from(["leader", "leader_assigns", "roll_off"]), sixes=st.booleans(),
       penalty=st.sampled_from([0, 1]))
def test_property_every_option_keeps_best_above_as_is_and_choices_legal(team, y, loss, sixes, penalty):
    team = sorted(team, reverse=True)
    profile = RulesProfile(team_loss=loss, team_dice="member_sixes" if sixes else "member_dice",
                           disband_penalty=penalty)
    contest, t, members, foe = team_contest(team, y, profile=profile)
    advice = advise(contest, t)
    for choice in advice.choices:
        assert 0 <= choice.as_is <= choice.best <= 1
        assert replica_accepts(contest, choice)
    if loss == "leader" and not sixes and penalty == 1:
        assert advice.choice("keep").as_is == team_odds(tuple(team), False, y, False)
        assert advice.choice("keep").best == team_odds(tuple(team), False, y, True)


def test_after_a_lost_leader_the_survivors_are_offered_to_team_up_again():
    # RULES.md 21: Knight falls volunteering, the team disbands: Viking 1, Monk 1 (Squire down)
    contest, t, (knight, viking, monk, squire), troll = team_contest(
        [2, 2, 2, 1], 6, dice=ScriptedDice([[1] * 5, [2] * 6]))
    contest.roll_round()
    contest.volunteer(knight)
    assert len(contest.active_units(0)) == 2 and contest.pending_revenge(0)
    advice = advise(contest, viking)
    keys = [c.key for c in advice.choices]
    assert keys == [f"form_team:{viking.uid}", f"form_team:{monk.uid}"]  # a leader tie: either may lead
    for choice in advice.choices:
        assert choice.as_is == team_odds((1, 1), True, 6, False)  # the revenge passes on
        assert choice.best == team_odds((1, 1), True, 6, True)
        assert replica_accepts(contest, choice)
    assert advice.choice(keys[0]).field_map == {"names": "M1, M2", "leader": "M1"}


def test_a_side_that_cannot_team_is_not_told_to_form_a_team():
    """Issue 22 (found playing 07): with several units a side the advisor told every card "Form a team
    to fight as one unit" -- also a lone unit facing several, and a side with a grunt mob, which joins
    no team. The hint is given only to a side of characters that could team up."""
    astronaut, accountant = Character("Astronaut", {"Astronaut": 3}), Character("Accountant", {"Accountant": 3})
    pigeons = GruntMob("Pigeons", 3)
    with_mob = Contest("Park", [astronaut, pigeons], accountant, dice=ScriptedDice())
    for unit in (astronaut, accountant):
        with pytest.raises(RuleError) as caught:
            advise(with_mob, unit)
        assert caught.value.key == "error.advice.exchanges" and "team" not in str(caught.value)
    a, b, c_, d = chars(("A", {"A": 2}), ("B", {"B": 2}), ("C", {"C": 2}), ("D", {"D": 1}))
    two_and_two = Contest("Brawl", [a, b], [c_, d], dice=ScriptedDice())
    with pytest.raises(RuleError) as caught:
        advise(two_and_two, a)
    assert caught.value.key == "error.advice.exchanges_team" and "Form a team" in str(caught.value)


def test_teaming_up_waits_for_each_member_s_cliche_and_names_who_has_not_chosen():
    a, b, c_ = chars(("A", {"A": 2}), ("B", {"B": 2, "Bee": 1}), ("C", {"C": 3}))
    contest = Contest("Brawl", [a, b], c_, dice=ScriptedDice())
    with pytest.raises(RuleError) as caught:
        advise(contest, a)
    assert caught.value.key == "error.advice.member_not_chosen" and caught.value.fields == {"name": "B"}
