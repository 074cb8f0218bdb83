"""The advisor's model of a duel: unit states, one decided round, and the exact solver.

A duel is one unit a side. Each unit is a small hashable tuple (see :func:`solo` and :func:`team`),
so the odds from a pair of states can be memoised. :class:`Solver` answers two questions from a pair
``(mine, theirs)`` of states before a roll, exactly (:class:`fractions.Fraction`):

* ``value(mine, theirs, best=False)`` -- the chance that *mine* wins the contest if both sides keep
  everything as it is: the same cliché, nobody volunteers, the default hit (the leader's, or the
  roll-off's loser with that option);
* ``value(mine, theirs, best=True)`` -- the same when *mine* always makes the choice that maximises
  that chance (the other side as is): before each roll a character may switch to any cliché with
  dice left, and right after each lost round a team picks who takes the hit (the default, any
  member volunteering, or with the "leader assigns" option any member taking it).

It is a Markov decision problem over the dice left: every round lowers a score, so the recursion
ends, and memoisation makes each state cost one visit. A lost leader disbands its team (with the
disband penalty); the survivors re-form at once around the highest score (revenge passed on when
the leader fell volunteering), or fight on alone. Disbanding, dropping out and tickets are choices
the advisor rates *now* (``advisor.py``); the solver does not search them later.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from math import comb
from typing import Any

from . import odds

#: A member of a team: (pools of all its clichés, index of its team cliché, team cliché appropriate).
Member = tuple[tuple[int, ...], int, bool]
#: A unit state: ("solo", pools, appropriate flags (None: not to switch to), chosen index) or ("team", members, revenge, inappropriate).
State = tuple[Any, ...]

ONE = Fraction(1)
ZERO = Fraction(0)
#: A chance exactly and as the nearest float.
Pair = tuple[Fraction, float]
_WON: Pair = (ONE, 1.0)
_LOST: Pair = (ZERO, 0.0)
#: Two floats closer than this (relative) are compared exactly; float errors here are far smaller.
_CLOSE = 1e-9


def _best(values: list[Pair]) -> Pair:
    """The highest of several chances: by the floats, exactly where they are too close to tell."""
    if len(values) == 1:
        return values[0]
    top = max(values, key=lambda v: v[1])
    for v in values:
        if v is not top and top[1] - v[1] <= _CLOSE * top[1] and v[0] > top[0]:
            top = v
    return top


def solo(pools: tuple[int, ...], apps: tuple[bool | None, ...], chosen: int) -> State:
    """A character or grunt mob: the pool of each of its clichés, which fit, and the one it rolls."""
    return ("solo", tuple(pools), tuple(apps), chosen)


def team(members: list[Member] | tuple[Member, ...], revenge: bool, inappropriate: bool) -> State:
    """A character team; ``members[0]`` is the leader. Other members are sorted: order does not matter."""
    lead, *rest = members
    return ("team", (lead, *sorted(rest)), bool(revenge), bool(inappropriate))


def member_pool(member: Member) -> int:
    return member[0][member[1]]


def is_team(unit: State) -> bool:
    return bool(unit[0] == "team")


def inappropriate(unit: State) -> bool:
    return bool(unit[3]) if is_team(unit) else not unit[2][unit[3]]


def _clear_revenge(unit: State) -> State:
    return ("team", unit[1], False, unit[3]) if is_team(unit) and unit[2] else unit


def _hit_member(members: tuple[Member, ...], index: int, amount: int) -> list[Member]:
    out = list(members)
    pools, at, app = out[index]
    out[index] = (pools[:at] + (max(0, pools[at] - amount),) + pools[at + 1:], at, app)
    return out


# --------------------------------------------------------------------------------------------------
# one round


@functools.lru_cache(maxsize=512)
def _sixes_distribution(main: int, sixes: int) -> tuple[int, ...]:
    """Ways to roll each total: ``main`` dice summed plus 6 for every six among ``sixes`` dice.

    Over ``6 ** (main + sixes)`` equally likely rolls (each helper die is a six 1 way in 6).
    """
    base = odds.sum_distribution(main) if main else (1,)
    out = [0] * (len(base) + 6 * sixes)
    for k in range(sixes + 1):
        weight = comb(sixes, k) * 5 ** (sixes - k)
        for total, ways in enumerate(base):
            if ways:
                out[total + 6 * k] += ways * weight
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def round_chance(a: tuple[int, int, int], b: tuple[int, int, int]) -> Fraction:
    """P(A's total beats B's | the roll is decided) for rolls ``(main dice, flat extra dice, sixes dice)``."""
    if not a[2] and not b[2]:
        return Fraction(odds.round_chance(a[0] + a[1], b[0] + b[1]))
    da = _sixes_distribution(a[0] + a[1], a[2])
    db = _sixes_distribution(b[0] + b[1], b[2])
    below_b = [0]
    for ways in db:
        below_b.append(below_b[-1] + ways)
    below_a = [0]
    for ways in da:
        below_a.append(below_a[-1] + ways)
    win = sum(w * below_b[min(t, len(db))] for t, w in enumerate(da))
    lose = sum(w * below_a[min(t, len(da))] for t, w in enumerate(db))
    return Fraction(win, win + lose)


class Solver:
    """Exact duel odds under one set of rules options, memoised per state (see the module docstring).

    Parameters
    ----------
    sixes
        The "members roll, sixes count" team option.
    team_loss
        "leader", "leader_assigns" or "roll_off" (``RulesProfile.team_loss``).
    inappropriate_always
        Whether an inappropriate win deals 3 whatever the loser used (``inappropriate_damage``).
    disband_penalty, volunteer_factor
        As on :class:`~raisus_panel.rules.RulesProfile`.
    """

    def __init__(self, *, sixes: bool, team_loss: str, inappropriate_always: bool, disband_penalty: int,
                 volunteer_factor: int) -> None:
        self.sixes = sixes
        self.team_loss = team_loss
        self.inappropriate_always = inappropriate_always
        self.disband_penalty = disband_penalty
        self.volunteer_factor = volunteer_factor
        self._memo: dict[tuple[bool, State, State], Pair] = {}
        self._rolled_memo: dict[tuple[bool, State, State], Pair] = {}
        self._roll_memo: dict[State, tuple[int, int, int]] = {}
        self._loss_memo: dict[tuple[State, int, bool], list[tuple[Fraction, list[State | None]]]] = {}

    @property
    def size(self) -> int:
        """How many states are memoised."""
        return len(self._memo) + len(self._rolled_memo) + len(self._loss_memo)

    def forget(self) -> None:
        """Forget every memoised state."""
        self._memo.clear()
        self._rolled_memo.clear()
        self._loss_memo.clear()
        self._roll_memo.clear()

    # -- what a unit rolls and loses ------------------------------------------------------------
    def roll(self, unit: State) -> tuple[int, int, int]:
        """(main dice, flat extra dice, sixes dice) the unit rolls next."""
        if not is_team(unit):
            return unit[1][unit[3]], 0, 0
        lead, *rest = unit[1]
        main = member_pool(lead) * (2 if unit[2] else 1)
        helpers = [member_pool(m) for m in rest if m[2] and member_pool(m) > 0]
        return (main, 0, sum(helpers)) if self.sixes else (main, len(helpers), 0)

    def damage(self, winner: State, loser: State) -> int:
        """Points the loser loses: 3 when the winner won with an inappropriate cliché (as the option says)."""
        if inappropriate(winner) and (self.inappropriate_always or not inappropriate(loser)):
            return 3
        return 1

    def default_hits(self, unit: State) -> list[tuple[Fraction, int]]:
        """Who takes a lost round's hit when nobody volunteers: (chance, member index)."""
        if self.team_loss != "roll_off":
            return [(ONE, 0)]
        # each active member rolls a die, the lowest takes it: by symmetry each is equally likely
        active = [i for i, m in enumerate(unit[1]) if member_pool(m) > 0]
        return [(Fraction(1, len(active)), i) for i in active]

    def settle(self, members: list[Member], revenge: bool, inapp: bool, *, carry: bool) -> State | None:
        """The team after a hit: itself, or (its leader down) the survivors of the lost-leader disband."""
        if member_pool(members[0]) > 0:
            return team(members, revenge, inapp)
        return self.reform(self._penalised(tuple(members)), carry=carry)

    def disband(self, unit: State) -> list[Member]:
        """The members left with dice after a disband: each active member loses the penalty."""
        return self._penalised(unit[1])

    def _penalised(self, members: tuple[Member, ...]) -> list[Member]:
        for i, m in enumerate(members):
            if member_pool(m) > 0 and self.disband_penalty:
                members = tuple(_hit_member(members, i, self.disband_penalty))
        return [m for m in members if member_pool(m) > 0]

    def reform(self, survivors: list[Member], *, carry: bool) -> State | None:
        """Survivors of a disband re-form around the highest score, or one fights on alone."""
        if not survivors:
            return None
        if len(survivors) == 1:
            pools, at, app = survivors[0]
            return solo(pools, tuple(app if i == at else True for i in range(len(pools))), at)
        # the leader has the highest score; of several, an appropriate one (it adds no die anyway)
        lead = max(range(len(survivors)), key=lambda i: (member_pool(survivors[i]), survivors[i][2], -i))
        members = [survivors[lead], *survivors[:lead], *survivors[lead + 1:]]
        return team(members, carry, not any(m[2] for m in survivors))

    def lose(self, unit: State, damage: int, *, choices: bool = True) -> list[tuple[Fraction, list[State | None]]]:
        """A lost round: per default hit (chance), the states the loser may end in, the default first.

        For a team: the default hit, then each active member volunteering (twice the damage, revenge),
        then with "leader assigns" each other member taking the hit. A solo unit has no choice.
        """
        unit = _clear_revenge(unit)
        if not is_team(unit):
            pools, apps, at = unit[1], unit[2], unit[3]
            left = max(0, pools[at] - damage)
            return [(ONE, [solo(pools[:at] + (left,) + pools[at + 1:], apps, at) if left else None])]
        members, inapp = unit[1], unit[3]
        active = [i for i, m in enumerate(members) if member_pool(m) > 0]
        options: list[State | None] = []
        for i in active if choices else ():
            options.append(self.settle(_hit_member(members, i, self.volunteer_factor * damage), True, inapp,
                                       carry=i == 0))
        if choices and self.team_loss == "leader_assigns":
            for i in active[1:] if active and active[0] == 0 else active:
                options.append(self.settle(_hit_member(members, i, damage), False, inapp, carry=False))
        return [(chance, [self.settle(_hit_member(members, i, damage), False, inapp, carry=False), *options])
                for chance, i in self.default_hits(unit)]

    # -- the odds -------------------------------------------------------------------------------
    # Values are kept as (exact, float) pairs: best play compares the floats and falls back to the
    # fractions only when two are too close to tell apart, because comparing fractions of thousands
    # of bits was most of the cost.
    def value(self, mine: State | None, theirs: State | None, *, best: bool) -> Fraction:
        """P(mine's side wins the contest) from these states before a roll (see the module docstring)."""
        return self._value(mine, theirs, best)[0]

    def _value(self, mine: State | None, theirs: State | None, best: bool) -> Pair:
        if mine is None:
            return _LOST
        if theirs is None:
            return _WON
        key = (best, mine, theirs)
        found = self._memo.get(key)
        if found is not None:
            return found
        if best and not is_team(mine):
            pools, apps = mine[1], mine[2]
            result = _best([self._rolled(solo(pools, apps, i), theirs, True)
                            for i in range(len(pools)) if pools[i] > 0 and apps[i] is not None])
        else:
            result = self._rolled(mine, theirs, best)
        self._memo[key] = result
        return result

    def _rolled(self, mine: State, theirs: State, best: bool) -> Pair:
        """The odds once the roll is made with these states (the choice before it already made)."""
        key = (best, mine, theirs)
        found = self._rolled_memo.get(key)
        if found is not None:
            return found
        p = round_chance(self._roll(mine), self._roll(theirs))
        mine_after, theirs_after = _clear_revenge(mine), _clear_revenge(theirs)
        won = self._expected([(chance, [self._value(mine_after, outcomes[0], best)])
                              for chance, outcomes in self._losses(theirs, self.damage(mine, theirs), False)])
        lost = self._expected([(chance, [self._value(m, theirs_after, best) for m in outcomes])
                               for chance, outcomes in self._losses(mine, self.damage(theirs, mine), best)])
        # p * won + (1 - p) * lost as one fraction: one gcd instead of one per operation
        pn, pd = p.numerator, p.denominator
        wn, wd = won[0].numerator, won[0].denominator
        ln, ld = lost[0].numerator, lost[0].denominator
        pf = float(p)
        result = (Fraction(pn * wn * ld + (pd - pn) * ln * wd, pd * wd * ld), pf * won[1] + (1 - pf) * lost[1])
        self._rolled_memo[key] = result
        return result

    @staticmethod
    def _expected(branches: list[tuple[Fraction, list[Pair]]]) -> Pair:
        """The mean over chance branches of the best option in each."""
        if len(branches) == 1 and branches[0][0] == 1:
            return _best(branches[0][1])
        exact, approx = ZERO, 0.0
        for chance, options in branches:
            v, f = _best(options)
            exact += chance * v
            approx += float(chance) * f
        return exact, approx

    def _roll(self, unit: State) -> tuple[int, int, int]:
        found = self._roll_memo.get(unit)
        if found is None:
            found = self._roll_memo[unit] = self.roll(unit)
        return found

    def _losses(self, unit: State, damage: int, choices: bool) -> list[tuple[Fraction, list[State | None]]]:
        key = (unit, damage, choices)
        found = self._loss_memo.get(key)
        if found is None:
            found = self._loss_memo[key] = self.lose(unit, damage, choices=choices)
        return found

    def after_choice(self, mine: State, theirs: State) -> Fraction:
        """The best-play odds once ``mine`` is fixed for the coming roll (best play from the round after)."""
        return self._rolled(mine, theirs, True)[0]

    def next_round(self, mine: State, theirs: State) -> Fraction:
        """P(mine wins the next decided round) with these states."""
        return round_chance(self.roll(mine), self.roll(theirs))
