"""Contest odds with a pump and lucky shots on the next roll (RULES.md section 11), checked against a
small solver written here from the rules' words: dice added to one decided roll (ties re-rolled with
them), a pump paid after the damage, won or lost; a revenge bonus doubles the score, not the pump."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from raisus_panel.rules.errors import RuleError
from raisus_panel.rules.odds import contest_odds, round_chance


@cache
def sums(n: int) -> dict[int, int]:
    """Ways to roll each total with ``n`` six-sided dice, by counting every roll (n is small here)."""
    out: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=n):
        out[sum(faces)] = out.get(sum(faces), 0) + 1
    return out


@cache
def decided(x: int, y: int) -> Fraction:
    """A's chance of winning one decided roll, x dice against y (ties re-rolled)."""
    win = sum(a * b for ta, a in sums(x).items() for tb, b in sums(y).items() if ta > tb)
    lose = sum(a * b for ta, a in sums(x).items() for tb, b in sums(y).items() if ta < tb)
    return Fraction(win, win + lose)


@cache
def plain(x: int, y: int) -> Fraction:
    """A's chance of winning from scores (x, y), 1 damage a round, nothing extra."""
    if y <= 0:
        return Fraction(1)
    if x <= 0:
        return Fraction(0)
    p = decided(x, y)
    return p * plain(x, y - 1) + (1 - p) * plain(x - 1, y)


def by_hand(a: int, b: int, *, a_extra=0, b_extra=0, a_pump=0, b_pump=0, a_revenge=False) -> Fraction:
    p = decided((2 if a_revenge else 1) * a + a_extra, b + b_extra)
    return p * plain(a - a_pump, b - 1 - b_pump) + (1 - p) * plain(a - 1 - a_pump, b - b_pump)


def test_a_pump_from_two_is_a_gamble_counted_exactly():
    # Knight 2 pumps 1 against Ogre 2: 3 dice against 2 now; won, both are at 1; lost, the Knight is out
    pumped = contest_odds(2, 2, a_extra=1, a_pump=1, exact=True).p_win
    assert pumped == round_chance(3, 2) * Fraction(1, 2)
    assert pumped < contest_odds(2, 2, exact=True).p_win  # here the pump costs more than it gives


CASES = [
    (3, 3, {"a_extra": 2, "a_pump": 2}),  # pump 2 from 3
    (4, 2, {"a_extra": 1, "a_pump": 1}),
    (2, 3, {"a_extra": 2}),  # two lucky shots: dice, no cost
    (3, 2, {"a_extra": 2, "a_pump": 1}),  # a double-pump cliché: 2 dice for 1 point
    (3, 3, {"a_extra": 1, "a_pump": 1, "b_extra": 2, "b_pump": 2}),  # both sides pump
    (2, 2, {"a_extra": 1, "a_pump": 1, "a_revenge": True}),  # revenge doubles the score, not the pump
    (1, 3, {"a_extra": 3}),  # lucky shots at 1 (no pump from 1)
]


@pytest.mark.parametrize(("a", "b", "extras"), CASES)
def test_extras_and_pumps_match_the_rules_words(a, b, extras):
    assert contest_odds(a, b, exact=True, **extras).p_win == by_hand(a, b, **extras)


def test_extras_only_on_the_next_roll_and_none_changes_nothing():
    assert contest_odds(3, 3, a_extra=0, a_pump=0, exact=True) == contest_odds(3, 3, exact=True)
    once = contest_odds(3, 3, a_extra=2, exact=True).p_win
    every = contest_odds(3, 3, a_bonus=2, exact=True).p_win
    assert contest_odds(3, 3, exact=True).p_win < once < every


@pytest.mark.parametrize(("a", "pump"), [(1, 1), (3, 3), (2, 5)])
def test_no_pump_from_one_nor_beyond_the_score(a, pump):
    with pytest.raises(RuleError) as err:
        contest_odds(a, 2, a_extra=pump, a_pump=pump)
    assert err.value.key == "error.odds.pump_too_much"


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True, None])
def test_extras_must_be_whole_numbers(bad):
    with pytest.raises(RuleError):
        contest_odds(3, 3, a_extra=bad)
    with pytest.raises(RuleError):
        contest_odds(3, 3, b_pump=bad)
