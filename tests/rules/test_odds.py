"""The exact odds engine: reference data, float accuracy, properties and input errors."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raisus_panel.rules import odds
from raisus_panel.rules.errors import RuleError
from raisus_panel.rules.odds import (
    AUTO_EXACT_DICE,
    MAX_EXACT_DICE,
    MAX_ODDS_DICE,
    ContestOdds,
    check_chance,
    clear_cache,
    contest_odds,
    contest_table,
    round_chance,
    sum_distribution,
    tie_chance,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
# A copy of the workspace's ../shared/data/dice_odds_reference.json, so a plain clone can run the tests;
# test_reference_copy_is_current checks it against the workspace's file where that exists.
REFERENCE = REPO_ROOT / "tests" / "data" / "dice_odds_reference.json"
SHARED_REFERENCE = REPO_ROOT.parent / "shared" / "data" / "dice_odds_reference.json"


def test_reference_copy_is_current():
    if not SHARED_REFERENCE.is_file():
        pytest.skip("no workspace copy of the reference odds beside this clone")
    assert REFERENCE.read_bytes() == SHARED_REFERENCE.read_bytes()


@pytest.fixture(scope="module")
def reference() -> dict:
    if not REFERENCE.is_file():
        pytest.fail(f"Reference odds not found at {REFERENCE}; the exact-odds tests cannot run without it.")
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def frac(value: dict) -> Fraction:
    return Fraction(int(value["num"]), int(value["den"]))


def rel_err(approx: float, exact: Fraction) -> float:
    return abs(Fraction(approx) - exact) / exact if exact else abs(approx)


# --------------------------------------------------------------------------------------------------
# reference data


def test_action_checks_match_reference(reference):
    rows = reference["action_check"]["rows"]
    assert len(rows) == 900
    for row in rows:
        n, tn = row["N"], row["TN"]
        assert check_chance(n, tn) == frac(row), row
        assert check_chance(n, tn, exact=False) == row["float"], row
        assert sum(sum_distribution(n)[tn:]) == int(row["ways_at_least"]), row


def test_rounds_match_reference(reference):
    rows = reference["round"]["rows"]
    assert len(rows) == 100
    for row in rows:
        a, b = row["a"], row["b"]
        assert round_chance(a, b) == frac(row["p_win_round"]), row
        assert tie_chance(a, b) == frac(row["p_tie_per_roll"]), row
        raw = row["raw_ways"]
        assert tie_chance(a, b) * int(raw["den"]) == int(raw["tie"]), row
        a_higher, b_higher = int(raw["a_higher"]), int(raw["b_higher"])
        assert round_chance(a, b) == Fraction(a_higher, a_higher + b_higher), row


def test_contests_match_reference(reference):
    section = reference["contest_appropriate"]
    assert section["damage_when_A_wins"] == section["damage_when_B_wins"] == 1
    rows = section["rows"]
    assert len(rows) == 64
    clear_cache()
    table = contest_table(8, 8, exact=True)
    for row in rows:
        start = (row["a"], row["b"])
        expected = (
            frac(row["p_A_wins"]),
            frac(row["expected_decisive_rounds"]),
            frac(row["expected_rolls_including_ties"]),
        )
        got = table[start]
        assert (got.p_win, got.expected_rounds, got.expected_rolls) == expected, start
        assert got.p_win + got.p_lose == 1
        assert contest_odds(*start) == got  # auto mode is exact here, and agrees with the table
    clear_cache()  # a single start from a cold cache gives the same answer as the table
    assert contest_odds(8, 5) == table[8, 5]


# --------------------------------------------------------------------------------------------------
# sums, checks and rounds


@pytest.mark.parametrize("n", [0, 1, 2, 7, 80, 81, 250])
def test_sum_distribution_counts_every_roll(n):
    ways = sum_distribution(n)
    assert len(ways) == 6 * n + 1
    assert sum(ways) == 6**n
    assert isinstance(ways, tuple)  # indexed by total
    assert all(w == 0 for w in ways[:n]) and ways[n] == 1 == ways[6 * n]
    assert ways[n : 6 * n + 1] == ways[n : 6 * n + 1][::-1]  # symmetric about 3.5 n


def test_sum_distribution_beyond_kept_cache_continues_the_recursion():
    prev, nxt = sum_distribution(95), sum_distribution(96)
    assert nxt[300] == sum(prev[300 - k] for k in range(1, 7))


def test_check_chance_edges():
    assert check_chance(3, 3) == 1 == check_chance(3, -5)
    assert check_chance(3, 19) == 0
    assert check_chance(3, 18) == Fraction(1, 216)
    assert check_chance(1, 4, exact=False) == 0.5
    assert isinstance(check_chance(2, 7), Fraction)
    assert isinstance(check_chance(2, 7, exact=False), float)
    # far tail of a big pool: exact count, one correctly rounded division
    assert check_chance(MAX_ODDS_DICE, 6 * MAX_ODDS_DICE, exact=False) == float(
        Fraction(1, 6**MAX_ODDS_DICE)
    )


def test_scenario_odds_of_worked_examples():
    # RULES scenario 1: Viking(4) at TN 10 succeeds with 65/72
    assert check_chance(4, 10) == Fraction(65, 72)
    # scenario 7: the Viking(4) beats the Pirate(3) in a round more often than not
    assert round_chance(4, 3) > Fraction(1, 2) > round_chance(3, 4)


# --------------------------------------------------------------------------------------------------
# contests: options


def test_contest_already_over():
    lost = contest_odds(0, 3)
    assert (lost.p_win, lost.p_lose, lost.expected_rounds, lost.expected_rolls) == (0, 1, 0, 0)
    won = contest_odds(2, 0, exact=False)
    assert (won.p_win, won.p_lose, won.expected_rounds, won.expected_rolls) == (1.0, 0.0, 0.0, 0.0)


def test_inappropriate_damage_raises_p_win():
    # scenario 10: Cook(3) inappropriate vs Demon King(4) appropriate; a win costs the King 3
    plain = contest_odds(3, 4)
    inappropriate = contest_odds(3, 4, a_damage=3)
    assert inappropriate.p_win > plain.p_win
    assert inappropriate.expected_rounds < plain.expected_rounds
    # one win ends it against a score of 3 or less
    one_blow = contest_odds(3, 3, a_damage=3)
    all_lost = (1 - round_chance(3, 3)) * (1 - round_chance(2, 3)) * (1 - round_chance(1, 3))
    assert one_blow.p_win == 1 - all_lost


def test_team_bonus_raises_p_win():
    # scenario 17: Knight(4) leads, two appropriate members: pool 4 + 2
    alone = contest_odds(4, 8)
    team = contest_odds(4, 8, a_bonus=2)
    assert team.p_win > alone.p_win
    # the bonus dice are rolled every round but do not keep the team in at score 0
    assert contest_odds(1, 1, a_bonus=3).p_win == round_chance(4, 1)


def test_revenge_raises_p_win_and_only_lasts_one_round():
    # scenario 20: pool 2 * 4 + 1 in the first decided round, then 4 + 1 again
    base = contest_odds(4, 7, a_bonus=1)
    revenge = contest_odds(4, 7, a_bonus=1, a_revenge=True)
    assert revenge.p_win > base.p_win
    p = round_chance(9, 7)
    after_win, after_loss = contest_odds(4, 6, a_bonus=1), contest_odds(3, 7, a_bonus=1)
    assert revenge.p_win == p * after_win.p_win + (1 - p) * after_loss.p_win
    assert revenge.expected_rounds == 1 + p * after_win.expected_rounds + (1 - p) * after_loss.expected_rounds
    # B's revenge hurts A; both at once is symmetric
    assert contest_odds(4, 4, b_revenge=True).p_win < contest_odds(4, 4).p_win
    assert contest_odds(4, 4, a_revenge=True, b_revenge=True).p_win == Fraction(1, 2)


def test_table_agrees_with_single_contests_for_every_option():
    options = dict(a_bonus=1, b_bonus=2, a_damage=3, b_damage=2, a_revenge=True)
    table = contest_table(5, 6, **options)
    clear_cache()
    for (a, b), entry in table.items():
        assert contest_odds(a, b, **options) == entry
    assert set(table) == {(a, b) for a in range(1, 6) for b in range(1, 7)}


def test_contest_odds_is_frozen():
    result = contest_odds(2, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.p_win = Fraction(1)
    assert [f.name for f in dataclasses.fields(ContestOdds)] == [
        "p_win",
        "p_lose",
        "expected_rounds",
        "expected_rolls",
    ]


# --------------------------------------------------------------------------------------------------
# floats


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"a_bonus": 2},
        {"a_damage": 3, "b_damage": 2},
        {"b_bonus": 1, "a_revenge": True, "b_revenge": True},
    ],
)
def test_float_mode_agrees_with_exact_mode(options):
    exact = contest_table(12, 12, exact=True, **options)
    approx = contest_table(12, 12, exact=False, **options)
    for start, e in exact.items():
        f = approx[start]
        for field in ("p_win", "p_lose", "expected_rounds", "expected_rolls"):
            assert isinstance(getattr(f, field), float)
            assert rel_err(getattr(f, field), getattr(e, field)) < 1e-12, (start, field)


def test_auto_mode_switches_to_floats_above_the_threshold():
    assert isinstance(contest_odds(AUTO_EXACT_DICE, 3).p_win, Fraction)
    assert isinstance(contest_odds(AUTO_EXACT_DICE + 1, 3).p_win, float)
    assert isinstance(contest_odds(AUTO_EXACT_DICE - 2, 3, a_bonus=3).p_win, float)  # pools count
    assert isinstance(contest_odds(11, 3, a_revenge=True).p_win, float)  # 22 dice in round one
    assert isinstance(contest_odds(MAX_EXACT_DICE, 2, exact=True).p_win, Fraction)


def test_tiny_p_lose_stays_accurate_in_floats():
    # 20 dice against 4: B must win round after round against far bigger pools
    exact = contest_odds(20, 4, exact=True)
    approx = contest_odds(20, 4, exact=False)
    assert 0 < exact.p_lose < Fraction(1, 10**100)
    assert approx.p_lose > 0
    assert rel_err(approx.p_lose, exact.p_lose) < 1e-9
    assert 1 - approx.p_win == 0.0  # why p_lose has its own recursion
    # 20 dice against 1 die cannot lose a round at all, so the zero is exact
    assert contest_odds(20, 1, exact=True).p_lose == 0 == contest_odds(20, 1, exact=False).p_lose
    # and a tiny p_win seen from the other side
    assert rel_err(contest_odds(4, 20, exact=False).p_win, exact.p_lose) < 1e-9


def test_large_pools_in_floats():
    result = contest_odds(150, 160)
    assert all(isinstance(v, float) for v in dataclasses.astuple(result))
    assert 0.0 <= result.p_win <= 1.0 and 0.0 <= result.p_lose <= 1.0
    assert abs(result.p_win + result.p_lose - 1.0) < 1e-12
    assert 0.0 < result.p_win < 1e-3  # ten dice short, over some 150 rounds
    assert result.expected_rolls > result.expected_rounds >= 150
    tie = contest_odds(MAX_ODDS_DICE, MAX_ODDS_DICE)
    assert abs(tie.p_win - 0.5) < 1e-12 and abs(tie.p_lose - 0.5) < 1e-12


# --------------------------------------------------------------------------------------------------
# properties

scores = st.integers(min_value=1, max_value=7)


@settings(max_examples=60, deadline=None)
@given(a=scores, b=scores, a_bonus=st.integers(0, 2), a_damage=st.integers(1, 3), b_damage=st.integers(1, 3))
def test_exact_contest_probabilities(a, b, a_bonus, a_damage, b_damage):
    result = contest_odds(a, b, a_bonus=a_bonus, a_damage=a_damage, b_damage=b_damage, exact=True)
    assert 0 <= result.p_win <= 1 and 0 <= result.p_lose <= 1
    assert result.p_win + result.p_lose == 1
    assert result.expected_rolls >= result.expected_rounds >= 1
    mirrored = contest_odds(b, a, b_bonus=a_bonus, a_damage=b_damage, b_damage=a_damage, exact=True)
    assert mirrored.p_win == result.p_lose


@settings(max_examples=60, deadline=None)
@given(a=scores, b=scores, a_bonus=st.integers(0, 2), a_damage=st.integers(1, 3))
def test_more_dice_never_hurt(a, b, a_bonus, a_damage):
    base = contest_odds(a, b, a_bonus=a_bonus, a_damage=a_damage).p_win
    assert contest_odds(a + 1, b, a_bonus=a_bonus, a_damage=a_damage).p_win >= base
    assert contest_odds(a, b, a_bonus=a_bonus + 1, a_damage=a_damage).p_win >= base
    assert contest_odds(a, b + 1, a_bonus=a_bonus, a_damage=a_damage).p_win <= base


@settings(max_examples=100, deadline=None)
@given(a=st.integers(1, 40), b=st.integers(1, 40))
def test_round_chance_symmetry(a, b):
    assert round_chance(a, b) + round_chance(b, a) == 1
    assert tie_chance(a, b) == tie_chance(b, a)
    assert 0 <= round_chance(a, b, exact=False) <= 1
    if a > b:
        assert round_chance(a, b) > Fraction(1, 2)


@settings(max_examples=50, deadline=None)
@given(dice=st.integers(1, 30), tn=st.integers(-5, 200))
def test_check_chance_is_a_falling_probability(dice, tn):
    p = check_chance(dice, tn)
    assert 0 <= p <= 1
    assert check_chance(dice, tn + 1) <= p
    assert check_chance(dice, tn, exact=False) == float(p)


# --------------------------------------------------------------------------------------------------
# errors and caching


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: check_chance(True, 5), "whole number"),
        (lambda: check_chance(2.5, 5), "whole number"),
        (lambda: check_chance(0, 5), "at least 1"),
        (lambda: check_chance(3, 10.0), "target number"),
        (lambda: check_chance(MAX_ODDS_DICE + 1, 5), "MAX_ODDS_DICE"),
        (lambda: check_chance(3, 5, exact=None), "exact must be True"),
        (lambda: round_chance(-1, 3), "at least 1"),
        (lambda: round_chance(3, "3"), "whole number"),
        (lambda: tie_chance(3, MAX_ODDS_DICE + 1), "MAX_ODDS_DICE"),
        (lambda: sum_distribution(-1), "at least 0"),
        (lambda: contest_odds(-1, 3), "at least 0"),
        (lambda: contest_odds(False, 3), "whole number"),
        (lambda: contest_odds(0, 0), "Both scores are 0"),
        (lambda: contest_odds(3, 3, a_damage=0), "inappropriate cliché"),
        (lambda: contest_odds(3, 3, b_bonus=-1), "extra dice"),
        (lambda: contest_odds(3, 3, a_revenge=1), "True or False"),
        (lambda: contest_odds(3, 3, exact="yes"), "exact"),
        (lambda: contest_odds(MAX_EXACT_DICE + 1, 3, exact=True), "exact=False"),
        (lambda: contest_odds(3, MAX_ODDS_DICE + 1), "MAX_ODDS_DICE"),
        (lambda: contest_odds(101, 3, a_revenge=True), "revenge"),
        (lambda: contest_table(0, 3), "max_a"),
        (lambda: contest_table(3, 3.0), "max_b"),
    ],
)
def test_bad_input_raises_rule_error_that_says_what_to_do(call, message):
    with pytest.raises(RuleError, match=message):
        call()


def test_clear_cache_recomputes_the_same_numbers():
    before = contest_table(6, 6, a_bonus=1)
    clear_cache()
    assert not odds._CONTEST_TABLES and not odds._ROUND_WAYS
    assert contest_table(6, 6, a_bonus=1) == before


def test_odds_module_imports_only_the_standard_library():
    code = (
        "import sys, raisus_panel.rules.odds; "
        "bad = {'numpy', 'panel', 'bokeh'} & set(sys.modules); "
        "sys.exit(sorted(bad) or 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
