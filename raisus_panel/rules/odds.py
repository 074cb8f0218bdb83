"""Exact odds of Risus rolls: action checks, single rounds and whole contests.

Everything here counts outcomes instead of simulating them. A pool of ``n`` six-sided dice has
``6**n`` equally likely rolls, so every probability is a count of rolls over ``6**n`` and can be
given exactly as a :class:`fractions.Fraction`. Two facts keep the counting cheap:

* ``sum_distribution(n)`` (ways to roll each total) is built from ``n - 1`` by one sliding sum.
* A round between pools of ``x`` and ``y`` dice needs no pairing of the two sums: since a die's
  ``7 - face`` is again a fair die, ``A - B`` has the distribution of ``S(x + y) - 7*y`` where ``S(n)``
  is the sum of ``n`` dice. So ``P(A > B)`` is one tail count of ``S(x + y)``.

A contest is solved by dynamic programming over the scores ``(x, y)`` still left: the odds from a
state only depend on the two states one decided round later, so a whole table of starting states
costs one pass (:func:`contest_table`). Results are memoised; :func:`clear_cache` forgets them.

Exact fractions grow with the number of states, so contests are exact for pools up to
:data:`MAX_EXACT_DICE` dice and computed in floats above :data:`AUTO_EXACT_DICE` unless asked
otherwise, up to :data:`MAX_ODDS_DICE`. Float results come from exact integer counts divided once
(correctly rounded) and from recursions that only add products of non-negative numbers, so a tiny
probability keeps its relative accuracy instead of drowning in ``1 - p`` (values below about
``1e-300`` underflow to subnormals or zero, as any float must).

This module imports only the standard library. The caches are safe to share between threads;
:func:`clear_cache` is meant for a quiet moment (tests, benchmarks), not while others compute.
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Any, cast

from .errors import Phrase, RuleError

__all__ = [
    "AUTO_EXACT_DICE",
    "MAX_EXACT_DICE",
    "MAX_ODDS_DICE",
    "ContestOdds",
    "check_chance",
    "clear_cache",
    "contest_odds",
    "contest_table",
    "round_chance",
    "sum_distribution",
    "tie_chance",
]

#: Contests whose every pool is at most this many dice are exact when ``exact=None`` (the default).
AUTO_EXACT_DICE = 20

#: The largest pool (dice rolled by one side in one round) for which a contest can be exact
#: (``exact=True``). Exact contest fractions grow with the number of score states: a 30 x 30 table
#: has denominators of some 30,000 bits and takes about a second; 40 x 40 would take ~9 s and tens
#: of megabytes, where floats answer the same in milliseconds.
MAX_EXACT_DICE = 30

#: The largest pool any odds function accepts. Floats stay accurate well beyond it, but a contest
#: table of this size already takes a noticeable fraction of a second.
MAX_ODDS_DICE = 200

# Distributions and tail sums up to two exact pools are kept; larger ones are streamed, because
# caching every distribution up to ``2 * MAX_ODDS_DICE`` dice would hold tens of megabytes.
_KEPT_DIST_MAX = 2 * MAX_EXACT_DICE


@dataclass(frozen=True)
class ContestOdds:
    """The odds of one contest from its starting scores, seen from side A.

    All four numbers are :class:`~fractions.Fraction` when computed exactly, else ``float``.

    Attributes
    ----------
    p_win
        Probability that A wins the contest (B's score reaches 0 first).
    p_lose
        Probability that A loses the contest (A's score reaches 0 first). Computed on its own, not
        as ``1 - p_win``, so a tiny chance stays accurate in floats; exactly ``1 - p_win`` when exact.
    expected_rounds
        Expected number of decided rounds until the contest ends (re-rolled ties not counted).
    expected_rolls
        Expected number of roll-offs until the contest ends, tied roll-offs that were re-rolled
        included.
    """

    p_win: Fraction | float
    p_lose: Fraction | float
    expected_rounds: Fraction | float
    expected_rolls: Fraction | float


# --------------------------------------------------------------------------------------------------
# caches

_DISTS: list[tuple[int, ...]] = [(1,)]  # _DISTS[n] = ways for each total of n dice, n <= _KEPT_DIST_MAX
_DISTS_LOCK = threading.Lock()
_TAILS: dict[int, tuple[int, ...]] = {}  # n -> ways to roll at least each total
_ROUND_WAYS: dict[tuple[int, int], tuple[int, int, int]] = {}  # (x, y) -> (A wins, B wins, 6**(x+y))
_ROUND_FLOATS: dict[tuple[int, int], tuple[float, float, float]] = {}  # (x, y) -> (p, q, rolls/round)
#: A DP state: exact ``(wins, losses, rounds, rolls, denominator)`` integers, or float ``(p, q, rounds, rolls)``.
State = tuple[Any, ...]
#: Scores (or pools) of side A and side B.
Pair = tuple[int, int]
_CONTEST_TABLES: dict[tuple[Any, ...], dict[Pair, State]] = {}  # rules key -> {(x, y): state}


def clear_cache() -> None:
    """Forget every memoised distribution, round and contest table.

    The next call computes from scratch: use it to measure cold-cache timings or to free memory
    after a very large float table.
    """
    with _DISTS_LOCK:
        del _DISTS[1:]
    _TAILS.clear()
    _ROUND_WAYS.clear()
    _ROUND_FLOATS.clear()
    _CONTEST_TABLES.clear()
    _big_distribution.cache_clear()


# --------------------------------------------------------------------------------------------------
# validation


def _whole(
    value: object,
    name: str | Phrase,
    *,
    minimum: int,
    maximum: int | None = None,
    hint: str | Phrase = "",
    limit: str = "MAX_ODDS_DICE",
) -> int:
    """``value`` as an int in range, else a RuleError; ``hint`` says in brackets what it counts."""
    # numbers.Integral admits other integer types (say, from a widget) but bool is refused:
    # True dice is always a mistake.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise RuleError(f"{name} must be a whole number{hint}, not {value!r}.", key="error.odds.not_whole",
                        name=name, hint=hint, value=repr(value))
    value = int(value)
    if value < minimum:
        raise RuleError(f"{name} must be at least {minimum}{hint}, not {value}.", key="error.odds.too_low",
                        name=name, hint=hint, minimum=minimum, value=value)
    if maximum is not None and value > maximum:
        raise RuleError(
            f"{name} is {value}, more than the {maximum} this odds engine computes ({limit}); "
            "ask about fewer dice.", key="error.odds.too_high", name=name, value=value, maximum=maximum,
            limit=limit,
        )
    return value


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(f"{name} must be True or False, not {value!r}.", key="error.odds.not_flag",
                        name=name, value=repr(value))
    return value


def _exact_flag(value: object, name: str | Phrase = "exact") -> bool:
    if not isinstance(value, bool):
        raise RuleError(f"{name} must be True (a Fraction) or False (a float), not {value!r}.",
                        key="error.odds.not_exact_flag", name=name, value=repr(value))
    return value


_DICE_ROLLED = Phrase(" (dice rolled)", "term.hint_dice_rolled")


def _pool(value: object, name: str | Phrase) -> int:
    return _whole(value, name, minimum=1, maximum=MAX_ODDS_DICE, hint=_DICE_ROLLED)


# --------------------------------------------------------------------------------------------------
# dice sums


def _next_distribution(prev: tuple[int, ...]) -> tuple[int, ...]:
    # ways(n, t) = ways(n-1, t-1) + ... + ways(n-1, t-6): a difference of two prefix sums, done
    # with C-level accumulate/map because this is the inner loop of every large table.
    total = sum(prev)
    prefix = [0] * 7
    prefix.extend(accumulate(prev))
    prefix.extend([total] * 6)
    return tuple(map(operator.sub, prefix[6 : len(prev) + 12], prefix[: len(prev) + 6]))


def _kept_distribution(n: int) -> tuple[int, ...]:
    if len(_DISTS) <= n:
        # _DISTS[n] is found by position, so two threads must not both append the next one
        with _DISTS_LOCK:
            while len(_DISTS) <= n:
                _DISTS.append(_next_distribution(_DISTS[-1]))
    return _DISTS[n]


@functools.lru_cache(maxsize=4)
def _big_distribution(n: int) -> tuple[int, ...]:
    dist = _kept_distribution(_KEPT_DIST_MAX)
    for _ in range(n - _KEPT_DIST_MAX):
        dist = _next_distribution(dist)
    return dist


def _distribution(n: int) -> tuple[int, ...]:
    return _kept_distribution(n) if n <= _KEPT_DIST_MAX else _big_distribution(n)


def sum_distribution(n: int) -> tuple[int, ...]:
    """Ways to roll each total with ``n`` six-sided dice.

    Parameters
    ----------
    n : int
        Number of dice, ``0 <= n <= 2 * MAX_ODDS_DICE`` (a round between two pools uses the sum of
        both).

    Returns
    -------
    tuple of int
        ``ways[t]`` is the number of the ``6**n`` equally likely rolls whose sum is ``t``, for
        ``t`` in ``0 .. 6*n`` (entries below ``n`` are 0). The tuple is cached: do not rely on a copy.

    Raises
    ------
    RuleError
        If ``n`` is not a whole number in range.

    Examples
    --------
    >>> sum_distribution(2)[7]
    6
    """
    n = _whole(n, Phrase("The number of dice", "term.odds_dice"), minimum=0, maximum=2 * MAX_ODDS_DICE,
               limit="2 * MAX_ODDS_DICE")
    return _distribution(n)


def _tails_of(dist: tuple[int, ...]) -> tuple[int, ...]:
    # tails[t] = ways to roll at least t; one extra 0 so tails[6n + 1] needs no bounds check
    return tuple(accumulate(reversed(dist)))[::-1] + (0,)


def _tails(n: int) -> tuple[int, ...]:
    if n > _KEPT_DIST_MAX:
        return _tails_of(_big_distribution(n))
    tails = _TAILS.get(n)
    if tails is None:
        tails = _TAILS[n] = _tails_of(_kept_distribution(n))
    return tails


def _at_least(tails: tuple[int, ...], n: int, t: int) -> int:
    if t <= n:
        return cast(int, 6**n)  # a whole power (mypy types int ** int as Any)
    return tails[t] if t <= 6 * n else 0


# --------------------------------------------------------------------------------------------------
# action checks and rounds


def check_chance(dice: int, tn: int, *, exact: bool = True) -> Fraction | float:
    """Chance that an action check with ``dice`` dice meets the target number.

    Parameters
    ----------
    dice : int
        The pool: the cliché's current score (1 to ``MAX_ODDS_DICE``).
    tn : int
        Target number, after any unsuitable-cliché step; success is ``sum >= tn``.
    exact : bool, default True
        ``True`` returns a :class:`~fractions.Fraction`, ``False`` the nearest ``float``.

    Returns
    -------
    Fraction or float
        ``P(sum of dice >= tn)``: 1 when ``tn <= dice``, 0 when ``tn > 6 * dice``.

    Raises
    ------
    RuleError
        If ``dice`` is not a whole number in ``1 .. MAX_ODDS_DICE`` or ``tn`` not a whole number.

    Examples
    --------
    >>> check_chance(4, 10)
    Fraction(65, 72)
    """
    dice = _pool(dice, Phrase("The number of dice for the check", "term.odds_check_dice"))
    if isinstance(tn, bool) or not isinstance(tn, numbers.Integral):
        raise RuleError(f"The target number must be a whole number such as 10, not {tn!r}.",
                        key="error.odds.tn_not_whole", value=repr(tn))
    tn = int(tn)
    exact = _exact_flag(exact)
    total = 6**dice
    ways = _at_least(_tails(dice), dice, tn)
    return Fraction(ways, total) if exact else ways / total


def _round_ways(x: int, y: int) -> tuple[int, int, int]:
    """(ways A wins, ways B wins, 6**(x+y)) for one roll-off of ``x`` dice against ``y`` dice."""
    key = (x, y)
    ways = _ROUND_WAYS.get(key)
    if ways is None:
        n = x + y
        tails = _tails(n)
        total = 6**n
        # A - B has the law of S(n) - 7y, so A > B is S(n) >= 7y + 1 and B > A is S(n) <= 7y - 1.
        ways = _ROUND_WAYS[key] = (
            _at_least(tails, n, 7 * y + 1),
            total - _at_least(tails, n, 7 * y),
            total,
        )
    return ways


def round_chance(a: int, b: int, *, exact: bool = True) -> Fraction | float:
    """Chance that ``a`` dice win one decided round against ``b`` dice (ties are re-rolled).

    Parameters
    ----------
    a, b : int
        The two pools, each 1 to ``MAX_ODDS_DICE`` dice (team and revenge dice included).
    exact : bool, default True
        ``True`` returns a :class:`~fractions.Fraction`, ``False`` the nearest ``float``.

    Returns
    -------
    Fraction or float
        ``P(A > B) / (P(A > B) + P(B > A))``; ``round_chance(a, b) + round_chance(b, a) == 1``.

    Raises
    ------
    RuleError
        If a pool is not a whole number in ``1 .. MAX_ODDS_DICE``.

    Examples
    --------
    >>> round_chance(1, 1)
    Fraction(1, 2)
    """
    a = _pool(a, Phrase("A's pool", "term.pool_of", side="A"))
    b = _pool(b, Phrase("B's pool", "term.pool_of", side="B"))
    exact = _exact_flag(exact)
    win, lose, _ = _round_ways(a, b)
    return Fraction(win, win + lose) if exact else win / (win + lose)


def tie_chance(a: int, b: int, *, exact: bool = True) -> Fraction | float:
    """Chance that one roll-off of ``a`` dice against ``b`` dice is a tie (and must be re-rolled).

    Parameters
    ----------
    a, b : int
        The two pools, each 1 to ``MAX_ODDS_DICE`` dice.
    exact : bool, default True
        ``True`` returns a :class:`~fractions.Fraction`, ``False`` the nearest ``float``.

    Returns
    -------
    Fraction or float
        ``P(A == B)`` for a single roll-off. A decided round takes ``1 / (1 - tie)`` roll-offs
        on average.

    Raises
    ------
    RuleError
        If a pool is not a whole number in ``1 .. MAX_ODDS_DICE``.

    Examples
    --------
    >>> tie_chance(1, 1)
    Fraction(1, 6)
    """
    a = _pool(a, Phrase("A's pool", "term.pool_of", side="A"))
    b = _pool(b, Phrase("B's pool", "term.pool_of", side="B"))
    exact = _exact_flag(exact)
    win, lose, total = _round_ways(a, b)
    tie = total - win - lose
    return Fraction(tie, total) if exact else tie / total


def _fill_round_floats(pairs: Iterable[Pair]) -> None:
    """Float round odds ``(p, q, rolls per decided round)`` for all pool pairs ``(x, y)``.

    Pairs are grouped by ``x + y`` and large sums are streamed in one pass, so a big table builds
    each distribution once and keeps none of the large ones.
    """
    by_sum: dict[int, list[tuple[int, int]]] = {}
    for pair in pairs:
        if pair not in _ROUND_FLOATS:
            by_sum.setdefault(pair[0] + pair[1], []).append(pair)
    if not by_sum:
        return

    def store(n: int, tails: tuple[int, ...]) -> None:
        total = 6**n
        for x, y in by_sum[n]:
            win = _at_least(tails, n, 7 * y + 1)
            lose = total - _at_least(tails, n, 7 * y)
            decided = win + lose
            # int / int is correctly rounded however large, and p, q are divided separately
            # so a tiny q is not computed as 1 - p
            _ROUND_FLOATS[x, y] = (win / decided, lose / decided, total / decided)

    big = sorted(n for n in by_sum if n > _KEPT_DIST_MAX)
    for n in by_sum:
        if n <= _KEPT_DIST_MAX:
            store(n, _tails(n))
    if big:
        dist = _kept_distribution(_KEPT_DIST_MAX)
        for n in range(_KEPT_DIST_MAX + 1, big[-1] + 1):
            dist = _next_distribution(dist)
            if n in by_sum:
                store(n, _tails_of(dist))


# --------------------------------------------------------------------------------------------------
# contests


@dataclass(frozen=True)
class _Rules:
    """The validated contest options; the DP table is shared by all starts with the same rules."""

    a_bonus: int = 0
    b_bonus: int = 0
    a_damage: int = 1
    b_damage: int = 1
    a_revenge: bool = False
    b_revenge: bool = False
    a_extra: int = 0
    b_extra: int = 0
    a_pump: int = 0
    b_pump: int = 0

    @classmethod
    def checked(cls, a_bonus: object, b_bonus: object, a_damage: object, b_damage: object, a_revenge: object,
                b_revenge: object, a_extra: object = 0, b_extra: object = 0, a_pump: object = 0,
                b_pump: object = 0) -> _Rules:
        bonus_hint = Phrase(" (extra dice each round, such as a team's members)", "term.hint_bonus")
        damage_hint = Phrase(" (1 per lost round, 3 when the winner used an inappropriate cliché)",
                             "term.hint_damage")
        extra_hint = Phrase(" (dice on the next roll only: a pump's and lucky shots)", "term.hint_extra")
        pump_hint = Phrase(" (points the cliché pays after the next roll)", "term.hint_pump")
        return cls(
            _whole(a_bonus, "a_bonus", minimum=0, hint=bonus_hint),
            _whole(b_bonus, "b_bonus", minimum=0, hint=bonus_hint),
            _whole(a_damage, "a_damage", minimum=1, hint=damage_hint),
            _whole(b_damage, "b_damage", minimum=1, hint=damage_hint),
            _flag(a_revenge, "a_revenge"),
            _flag(b_revenge, "b_revenge"),
            _whole(a_extra, "a_extra", minimum=0, hint=extra_hint),
            _whole(b_extra, "b_extra", minimum=0, hint=extra_hint),
            _whole(a_pump, "a_pump", minimum=0, hint=pump_hint),
            _whole(b_pump, "b_pump", minimum=0, hint=pump_hint),
        )

    @property
    def first_differs(self) -> bool:
        """Whether the first decided round differs from the rest: a revenge bonus, or dice and a
        pump's cost that only the next roll has."""
        return self.a_revenge or self.b_revenge or bool(self.a_extra or self.b_extra or self.a_pump or self.b_pump)

    def pools(self, x: int, y: int) -> tuple[int, int]:
        """Dice rolled at scores ``(x, y)`` once any revenge bonus is used up."""
        return x + self.a_bonus, y + self.b_bonus

    def first_pools(self, x: int, y: int) -> tuple[int, int]:
        """Dice rolled in the first decided round, where a revenge bonus doubles the score (not the
        extra dice of a pump or lucky shots, which only this round has)."""
        return (
            (2 if self.a_revenge else 1) * x + self.a_bonus + self.a_extra,
            (2 if self.b_revenge else 1) * y + self.b_bonus + self.b_extra,
        )

    def first_after_win(self, x: int, y: int) -> tuple[int, int]:
        """Scores after A wins the first decided round: the damage, then each side's pump is paid."""
        return max(0, x - self.a_pump), max(0, y - self.a_damage - self.b_pump)

    def first_after_loss(self, x: int, y: int) -> tuple[int, int]:
        """Scores after A loses the first decided round: the damage, then each side's pump is paid."""
        return max(0, x - self.b_damage - self.a_pump), max(0, y - self.b_pump)

    def after_win(self, x: int, y: int) -> tuple[int, int]:
        return x, max(0, y - self.a_damage)

    def after_loss(self, x: int, y: int) -> tuple[int, int]:
        return max(0, x - self.b_damage), y


def _choose_exact(exact: object, rules: _Rules, max_a: int, max_b: int) -> bool:
    if exact is not None:
        exact = _exact_flag(exact, Phrase("exact (or None to choose by pool size)", "term.exact_or_none"))
    # the first round has the largest pools: scores only fall and revenge only doubles
    pools = rules.first_pools(max_a, max_b)
    for side, pool in zip("AB", pools):
        if pool > MAX_ODDS_DICE:
            raise RuleError(
                f"{side} would roll {pool} dice (score, team and revenge dice together), more "
                f"than the {MAX_ODDS_DICE} this odds engine computes (MAX_ODDS_DICE); "
                "ask about smaller scores.", key="error.odds.pool_too_big", side=side, pool=pool,
                maximum=MAX_ODDS_DICE,
            )
    largest = max(pools)
    if exact is None:
        return largest <= AUTO_EXACT_DICE
    if exact and largest > MAX_EXACT_DICE:
        raise RuleError(
            f"Exact contest odds are limited to pools of {MAX_EXACT_DICE} dice (MAX_EXACT_DICE), "
            f"and this contest rolls up to {largest}; pass exact=False (or exact=None) for floats.",
            key="error.odds.exact_too_big", maximum=MAX_EXACT_DICE, largest=largest,
        )
    return exact


# An exact state is (wins, losses, rounds, rolls, denominator): four integers over one common
# denominator, so the DP needs one gcd per state instead of several Fraction normalisations.
_EXACT_WON = (1, 0, 0, 0, 1)
_EXACT_LOST = (0, 1, 0, 0, 1)
_FLOAT_WON = (1.0, 0.0, 0.0, 0.0)
_FLOAT_LOST = (0.0, 1.0, 0.0, 0.0)
_REDUCE_ABOVE_BITS = 2048


def _exact_step(win: int, lose: int, total: int, after_win: State, after_loss: State) -> State:
    """One decided round from a state, exactly: ``(win * after_win + lose * after_loss) / decided``.

    A decided round also adds 1 round and ``total / decided`` roll-offs.
    """
    den_w = after_win[4]
    den_l = after_loss[4]
    g = math.gcd(den_w, den_l)
    fw = win * (den_l // g)
    fl = lose * (den_w // g)
    common = den_w // g * den_l
    decided = win + lose
    den = common * decided
    state = (
        fw * after_win[0] + fl * after_loss[0],
        fw * after_win[1] + fl * after_loss[1],
        fw * after_win[2] + fl * after_loss[2] + common * decided,
        fw * after_win[3] + fl * after_loss[3] + common * total,
        den,
    )
    # Large tables would otherwise carry every round's denominator along; reducing keeps the
    # integers near the size of the reduced fractions. Small ones are cheaper left alone.
    if den.bit_length() > _REDUCE_ABOVE_BITS:
        g = math.gcd(*state)
        if g != 1:
            state = tuple(v // g for v in state)
    return state


def _float_step(p: float, q: float, rolls: float, after_win: State, after_loss: State) -> State:
    # Only sums of products of non-negative numbers: tiny results keep their relative accuracy.
    return (
        p * after_win[0] + q * after_loss[0],
        p * after_win[1] + q * after_loss[1],
        1.0 + p * after_win[2] + q * after_loss[2],
        rolls + p * after_win[3] + q * after_loss[3],
    )


#: The states of a decided contest and the step of one round: exactly, or in floats.
_STEPS: dict[bool, tuple[State, State, Callable[..., State]]] = {
    True: (_EXACT_WON, _EXACT_LOST, _exact_step), False: (_FLOAT_WON, _FLOAT_LOST, _float_step)}


def _round_odds(pools: Iterable[Pair], exact: bool) -> Mapping[Pair, tuple[Any, ...]]:
    """Round odds for the given pool pairs: exact ways or float ``(p, q, rolls per round)``."""
    if exact:
        return {pair: _round_ways(*pair) for pair in pools}
    _fill_round_floats(pools)
    return _ROUND_FLOATS


def _table(max_a: int, max_b: int, rules: _Rules, exact: bool) -> dict[Pair, State]:
    """The memoised DP table: the state at every score pair ``x <= max_a``, ``y <= max_b``.

    Revenge is not part of it (it only changes the first round; see :func:`_solve`).
    """
    key = (rules.a_bonus, rules.b_bonus, rules.a_damage, rules.b_damage, exact)
    table = _CONTEST_TABLES.setdefault(key, {})
    if (max_a, max_b) in table:
        return table  # tables grow by whole rectangles, so every smaller state is there too
    odds = _round_odds(
        {rules.pools(x, y) for x in range(1, max_a + 1) for y in range(1, max_b + 1)}, exact
    )
    won, lost, step = _STEPS[exact]
    # the hot loop: rules.pools/after_win/after_loss spelled out on locals
    a_bonus, b_bonus, a_damage, b_damage = rules.a_bonus, rules.b_bonus, rules.a_damage, rules.b_damage
    for x in range(max_a + 1):
        for y in range(max_b + 1):
            if (x, y) in table or x == y == 0:  # (0, 0) cannot be reached
                continue
            if y == 0:
                table[x, y] = won
            elif x == 0:
                table[x, y] = lost
            else:
                # x and y only grow in these loops, so both successor states are already known
                table[x, y] = step(
                    *odds[x + a_bonus, y + b_bonus],
                    table[x, max(0, y - a_damage)],
                    table[max(0, x - b_damage), y],
                )
    return table


def _solve(starts: list[Pair], rules: _Rules, exact: bool) -> dict[Pair, State]:
    """DP states for the given starting scores, each ``>= 1``, with a revenge first round applied."""
    table = _table(max(a for a, _ in starts), max(b for _, b in starts), rules, exact)
    if not rules.first_differs:
        return {start: table[start] for start in starts}
    odds = _round_odds({rules.first_pools(*start) for start in starts}, exact)
    step = _STEPS[exact][2]
    return {
        start: step(
            *odds[rules.first_pools(*start)], table[rules.first_after_win(*start)],
            table[rules.first_after_loss(*start)]
        )
        for start in starts
    }


def _odds_from(state: tuple[Any, ...], exact: bool) -> ContestOdds:
    if exact:
        win, lose, rounds, rolls, den = state
        return ContestOdds(
            Fraction(win, den), Fraction(lose, den), Fraction(rounds, den), Fraction(rolls, den)
        )
    return ContestOdds(*state)


def contest_table(
    max_a: int,
    max_b: int,
    *,
    a_bonus: int = 0,
    b_bonus: int = 0,
    a_damage: int = 1,
    b_damage: int = 1,
    a_revenge: bool = False,
    b_revenge: bool = False,
    exact: bool | None = None,
) -> dict[tuple[int, int], ContestOdds]:
    """Contest odds for every pair of starting scores, in one dynamic-programming pass.

    Parameters
    ----------
    max_a, max_b : int
        The table covers starting scores ``a`` in ``1 .. max_a`` and ``b`` in ``1 .. max_b``.
    a_bonus, b_bonus, a_damage, b_damage, a_revenge, b_revenge, exact
        As in :func:`contest_odds`, the same for every entry. With ``exact=None`` the whole table
        is exact when its largest pool is at most ``AUTO_EXACT_DICE``.

    Returns
    -------
    dict
        ``{(a, b): ContestOdds}`` for every starting pair.

    Raises
    ------
    RuleError
        On an invalid argument, a pool above ``MAX_ODDS_DICE``, or ``exact=True`` with a pool above
        ``MAX_EXACT_DICE``.

    Examples
    --------
    >>> contest_table(2, 2)[1, 1].p_win
    Fraction(1, 2)
    """
    max_a = _whole(max_a, "max_a", minimum=1,
                   hint=Phrase(" (the highest score of A in the table)", "term.hint_highest_score", side="A"))
    max_b = _whole(max_b, "max_b", minimum=1,
                   hint=Phrase(" (the highest score of B in the table)", "term.hint_highest_score", side="B"))
    rules = _Rules.checked(a_bonus, b_bonus, a_damage, b_damage, a_revenge, b_revenge)
    exact = _choose_exact(exact, rules, max_a, max_b)
    starts = [(a, b) for a in range(1, max_a + 1) for b in range(1, max_b + 1)]
    return {start: _odds_from(state, exact) for start, state in _solve(starts, rules, exact).items()}


def contest_odds(
    a: int,
    b: int,
    *,
    a_bonus: int = 0,
    b_bonus: int = 0,
    a_damage: int = 1,
    b_damage: int = 1,
    a_revenge: bool = False,
    b_revenge: bool = False,
    a_extra: int = 0,
    b_extra: int = 0,
    a_pump: int = 0,
    b_pump: int = 0,
    exact: bool | None = None,
) -> ContestOdds:
    """Odds of a whole contest between A's and B's clichés from their current scores.

    Each decided round A rolls ``a + a_bonus`` dice and B ``b + b_bonus`` (ties are re-rolled).
    The loser's score drops by the winner's damage, never below 0; the contest ends when a score
    is 0. Bonus dice do not keep a side in: at score 0 it has lost.

    Parameters
    ----------
    a, b : int
        Current scores (dice left) of the clichés A and B use, ``>= 0``; not both 0. A score of 0
        means that side has already lost.
    a_bonus, b_bonus : int, default 0
        Extra dice every round, such as a character team's +1 die per other active member with an
        appropriate cliché.
    a_damage, b_damage : int, default 1
        Points the other side loses when this side wins a round: 1, or 3 when this side wins with
        an (approved) inappropriate cliché.
    a_revenge, b_revenge : bool, default False
        A pending revenge bonus: in the first decided round this side's score counts double
        (pool ``2 * a + a_bonus``); that round uses it up, whoever wins it.
    a_extra, b_extra : int, default 0
        Dice on the next decided roll only (ties re-rolled with them): a pump's dice and lucky
        shots (RULES.md section 11). Not doubled by a revenge bonus.
    a_pump, b_pump : int, default 0
        A pump's cost: the points this side's score loses after the next decided round, won or lost
        (after the damage). At most the score − 1: there is no pump from 1.
    exact : bool or None, default None
        ``True`` for :class:`~fractions.Fraction` results (pools up to ``MAX_EXACT_DICE``), ``False``
        for floats, ``None`` for exact when every pool is at most ``AUTO_EXACT_DICE``.

    Returns
    -------
    ContestOdds
        ``p_win``, ``p_lose``, ``expected_rounds`` and ``expected_rolls`` from A's side.

    Raises
    ------
    RuleError
        On a score, bonus, damage, extra or pump that is not a whole number in range, on a pump of
        more than the score − 1, on both scores 0, on a pool above ``MAX_ODDS_DICE``, or on
        ``exact=True`` with a pool above ``MAX_EXACT_DICE``.

    Examples
    --------
    >>> result = contest_odds(1, 1)
    >>> result.p_win, result.expected_rounds, result.expected_rolls
    (Fraction(1, 2), Fraction(1, 1), Fraction(6, 5))
    """
    left = Phrase(" (dice left in the cliché)", "term.hint_dice_left")
    a = _whole(a, Phrase("A's score", "term.score_of", side="A"), minimum=0, hint=left)
    b = _whole(b, Phrase("B's score", "term.score_of", side="B"), minimum=0, hint=left)
    if a == 0 and b == 0:
        raise RuleError("Both scores are 0, so there is no contest to rate; give at least one side dice.",
                        key="error.odds.no_dice")
    rules = _Rules.checked(a_bonus, b_bonus, a_damage, b_damage, a_revenge, b_revenge,
                           a_extra, b_extra, a_pump, b_pump)
    for side, score, pump in (("A", a, rules.a_pump), ("B", b, rules.b_pump)):
        if pump and pump > score - 1:
            raise RuleError(f"{side} is at {score}: it can pump at most {max(score - 1, 0)} (no pump from 1).",
                            key="error.odds.pump_too_much", side=side, score=score, most=max(score - 1, 0))
    exact = _choose_exact(exact, rules, a, b)
    if a == 0 or b == 0:  # already over: no round is rolled
        if exact:
            return _odds_from(_EXACT_LOST if a == 0 else _EXACT_WON, exact)
        return _odds_from(_FLOAT_LOST if a == 0 else _FLOAT_WON, exact)
    return _odds_from(_solve([(a, b)], rules, exact)[a, b], exact)
