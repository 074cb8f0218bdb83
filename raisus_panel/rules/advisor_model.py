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
from collections.abc import Iterable
from fractions import Fraction
from itertools import compress
from math import comb, gcd
from typing import Any

from . import odds

#: A member of a team: (pools of all its clichés, index of its team cliché, team cliché appropriate).
Member = tuple[tuple[int, ...], int, bool]
#: A unit state: ("solo", pools, appropriate flags (None: not to switch to), chosen index) or ("team", members, revenge, inappropriate).
State = tuple[Any, ...]

ONE = Fraction(1)
ZERO = Fraction(0)
#: A chance in floats: (P(win), P(lose)). Both are kept because each is a sum of products of
#: non-negative numbers, so each has a small *relative* error (under 1e-13 for a few hundred rounds),
#: and the small one of the two is what tells choices apart: near-certain wins differ in P(lose).
Floats = tuple[float, float]
_WON: Floats = (1.0, 0.0)
_LOST: Floats = (0.0, 1.0)
#: Two chances whose floats are this close (relative, in both numbers) are compared exactly.
_CLOSE = 1e-11
_INF = float("inf")
#: Odds this close to the highest (a factor) are kept for the exact pass (see _kept).
_KEEP = 1 - 3 * _CLOSE
#: A pair of nodes as one int memo key, ``mine * _PAIR + theirs`` (cheaper to make and hash than a
#: tuple; one key per pair while node ids stay below it). An int hashes to itself and a dict slot is
#: its low bits, so the multiplier is odd with well-mixed low bits (the golden ratio's): with
#: ``mine << 32 | theirs`` every pair with the same ``theirs`` collided, and lookups cost more than
#: the tuples they replaced.
_PAIR = 0x9E3779B1


def _kept(options: tuple[int, ...], odds: list[float]) -> tuple[int, tuple[int, ...]]:
    """The option with the highest odds, and every option too close to it to tell by the floats.

    The odds of a chance are P(win) / P(lose): one float that orders chances and is as precise as both
    of its numbers (relative), so it tells near-certain wins and near-certain losses apart alike.

    Two chances whose numbers are each within ``_CLOSE`` (relative) have odds within ``2 * _CLOSE``;
    ``_KEEP`` leaves room for the division's rounding too, so no option that could be the best is left
    out (the exact pass compares those kept).
    """
    top = max(odds)
    floor = top * _KEEP  # infinite for certain wins: only they are kept
    # compress and map, not a generator: this runs for most states of the first pass
    return options[odds.index(top)], tuple(compress(options, map(floor.__le__, odds)))


def _highest(values: Iterable[Fraction]) -> Fraction:
    """The highest of several chances, stopping at a certain win (nothing beats it)."""
    top = None
    for value in values:
        n, d = value.numerator, value.denominator
        if top is None or n * top.denominator > top.numerator * d:
            top = value
            if n == d:
                break
    assert top is not None
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
        # the interned nodes (see _node), a column each
        self._ids: dict[State, int] = {}
        self._states: list[State] = []
        self._rolls: list[tuple[int, int, int]] = []
        self._roll_ids: list[int] = []  # the roll's id in _roll_index, for the round-floats memo
        self._solo: list[bool] = []
        self._inapp: list[bool] = []
        self._cleared: list[int] = []
        self._roll_index: dict[tuple[int, int, int], int] = {}
        self._switch_memo: dict[int, tuple[int, ...]] = {}
        self._loss_memo: dict[tuple[int, int, bool], list[tuple[Fraction, float, list[int]]]] = {}
        # the first pass's: (P(win), P(lose)) of one round by pair of roll ids, and lost rounds as
        # (float chance, distinct outcomes) by _float_loss_key
        self._round_floats: dict[int, Floats] = {}
        self._float_loss_memo: dict[int, list[tuple[float, tuple[int, ...], tuple[int, ...]]]] = {}
        # by (mine, theirs) node pair (as one int, _PAIR): the first pass's floats (best play only),
        # the second's fractions for "as is" (False) and best play (True)
        self._floats: dict[int, Floats] = {}
        self._rolled_floats: dict[int, Floats] = {}
        self._odds: dict[int, float] = {}  # the odds (see _kept) of each value in _floats, and of _rolled_floats
        self._rolled_odds: dict[int, float] = {}
        self._exact: dict[bool, dict[int, Fraction]] = {False: {}, True: {}}
        self._rolled_exact: dict[bool, dict[int, Fraction]] = {False: {}, True: {}}
        # best play's choices, from the first pass: the clichés of a solo unit before a roll, and
        # for each way a lost round can fall, who takes the hit
        self._switch_choice: dict[int, tuple[int, ...]] = {}
        self._hit_choice: dict[int, list[tuple[int, ...]]] = {}

    def _tables(self) -> list[dict[Any, Any]]:
        return [self._ids, self._roll_index, self._switch_memo, self._loss_memo, self._round_floats,
                self._float_loss_memo, self._switch_choice, self._hit_choice,
                self._floats, self._rolled_floats, self._odds, self._rolled_odds, *self._exact.values(),
                *self._rolled_exact.values()]

    @property
    def size(self) -> int:
        """How many states are memoised."""
        return sum(len(table) for table in self._tables())

    def forget(self) -> None:
        """Forget every memoised state."""
        for table in self._tables():
            table.clear()
        for column in (self._states, self._rolls, self._roll_ids, self._solo, self._inapp, self._cleared):
            column.clear()

    # -- what a unit rolls and loses ------------------------------------------------------------
    def roll(self, unit: State) -> tuple[int, int, int]:
        """(main dice, flat extra dice, sixes dice) the unit rolls next."""
        if not is_team(unit):
            return unit[1][unit[3]], 0, 0
        lead, *rest = unit[1]
        main = member_pool(lead) * (2 if unit[2] else 1)
        helpers = [member_pool(m) for m in rest if m[2] and member_pool(m) > 0]
        return (main, 0, sum(helpers)) if self.sixes else (main, len(helpers), 0)

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
    # Two passes for best play. The first computes every state's chance as a float and keeps, wherever
    # best play chooses, the options that come out on top (several only when their floats are too
    # close to tell). The second computes the exact fractions, following those choices only: of a
    # team's five ways to take a hit, one is usually best, so most states never need their fraction,
    # and the fractions (thousands of bits) were most of the cost. "As is" has no choices to find, so
    # it needs the second pass alone. Both passes work on small ints, not on the state tuples: each
    # unit state is interned once (``_node``) with what the recursion asks of it, because hashing
    # nested tuples again at every visit was the rest of the cost.
    def value(self, mine: State | None, theirs: State | None, *, best: bool) -> Fraction:
        """P(mine's side wins the contest) from these states before a roll (see the module docstring)."""
        m, t = self._node(mine), self._node(theirs)
        if best:
            self._float_value(m, t)
        return self._exact_value(m, t, best)

    def after_choice(self, mine: State, theirs: State) -> Fraction:
        """The best-play odds once ``mine`` is fixed for the coming roll (best play from the round after)."""
        m, t = self._node(mine), self._node(theirs)
        self._float_rolled(m, t)
        return self._exact_rolled(m, t, True)

    def next_round(self, mine: State, theirs: State, extra: tuple[int, int] = (0, 0)) -> Fraction:
        """P(mine wins the next decided round) with these states, ``extra`` dice on (mine, theirs)."""
        (a, fa, sa), (b, fb, sb) = self.roll(mine), self.roll(theirs)
        return round_chance((a, fa + extra[0], sa), (b, fb + extra[1], sb))

    def pay(self, unit: State | None, points: int) -> State | None:
        """A unit once its pump is paid (after the roll's damage): the pumped cliché -- a solo unit's
        chosen one, a team's leader's team cliché -- loses ``points``. At 0 a solo unit is out, and a
        team's leader is lost (its survivors re-form, as :meth:`settle` says). None stays None."""
        if unit is None or not points:
            return unit
        if is_team(unit):
            return self.settle(_hit_member(unit[1], 0, points), unit[2], unit[3], carry=unit[2])
        pools, apps, at = unit[1], unit[2], unit[3]
        left = max(0, pools[at] - points)
        return solo(pools[:at] + (left,) + pools[at + 1:], apps, at) if left else None

    def with_extras(self, mine: State, theirs: State, *, extra: tuple[int, int], pump: tuple[int, int],
                    best: bool) -> Fraction:
        """P(mine's side wins the contest) when the coming roll has ``extra`` dice on (mine, theirs) --
        a pump's and lucky shots, through any ties -- and each side pays its ``pump`` after it, won or
        lost, after the damage (RULES.md section 11). ``best``: mine plays best from the round after
        (the coming roll is fixed); else everything stays as it is. Not on the hot path: one roll, then
        :meth:`value` from each state it may leave."""
        p = self.next_round(mine, theirs, extra)
        to_mine, to_theirs = self._damages(self._node(mine), self._node(theirs))
        mine_won = self.pay(_clear_revenge(mine), pump[0])
        won = _mean([(chance, self.value(mine_won, self.pay(outcomes[0], pump[1]), best=best))
                     for chance, outcomes in self.lose(theirs, to_theirs, choices=False)])
        theirs_won = self.pay(_clear_revenge(theirs), pump[1])
        lost = _mean([(chance, _highest(self.value(self.pay(o, pump[0]), theirs_won, best=best) for o in outcomes))
                      for chance, outcomes in self.lose(mine, to_mine, choices=best)])
        return p * won + (1 - p) * lost

    def _node(self, unit: State | None) -> int:
        """The interned id of a unit state (-1 for None: nobody left)."""
        if unit is None:
            return -1
        found = self._ids.get(unit)
        if found is None:
            found = self._ids[unit] = len(self._states)
            self._states.append(unit)
            roll = self.roll(unit)
            self._rolls.append(roll)
            self._roll_ids.append(self._roll_index.setdefault(roll, len(self._roll_index)))
            self._solo.append(not is_team(unit))
            self._inapp.append(inappropriate(unit))
            self._cleared.append(-2)  # filled in when first asked (see _clear)
        return found

    def _clear(self, node: int) -> int:
        """The node once its revenge bonus is spent (it lasts one roll)."""
        found = self._cleared[node]
        if found == -2:
            found = self._cleared[node] = self._node(_clear_revenge(self._states[node]))
        return found

    def _switches(self, node: int) -> tuple[int, ...]:
        """A solo unit's nodes for each cliché best play may switch to before a roll."""
        found = self._switch_memo.get(node)
        if found is None:
            _, pools, apps, _ = self._states[node]
            found = self._switch_memo[node] = tuple(self._node(solo(pools, apps, i)) for i in range(len(pools))
                                                    if pools[i] > 0 and apps[i] is not None)
        return found

    def _losses(self, node: int, damage: int, choices: bool) -> list[tuple[Fraction, float, list[int]]]:
        """:meth:`lose` as nodes, with each chance also as a float."""
        key = (node, damage, choices)
        found = self._loss_memo.get(key)
        if found is None:
            found = self._loss_memo[key] = [
                (chance, float(chance), [self._node(s) for s in outcomes])
                for chance, outcomes in self.lose(self._states[node], damage, choices=choices)]
        return found

    def _float_loss(self, node: int, damage: int, choices: bool) -> list[tuple[float, tuple[int, ...], tuple[int, ...]]]:
        """:meth:`_losses` for the first pass: float chances, each branch's outcomes once each (two
        members alike volunteering end in the same node), the default first, and each outcome's
        memo key but for the other side's node (``outcome * _PAIR``: the key is that + theirs)."""
        branches = []
        for _, fchance, outcomes in self._losses(node, damage, choices):
            distinct = tuple(dict.fromkeys(outcomes))
            branches.append((fchance, distinct, tuple(o * _PAIR for o in distinct)))
        self._float_loss_memo[_float_loss_key(node, damage, choices)] = branches
        return branches

    def _damages(self, mine: int, theirs: int) -> tuple[int, int]:
        """Points each side loses when it loses a round, (mine, theirs): 3 when the winner won with an
        inappropriate cliché (against an appropriate one, or any with that option), else 1."""
        mine_inapp, theirs_inapp = self._inapp[mine], self._inapp[theirs]
        always = self.inappropriate_always
        return (3 if theirs_inapp and (always or not mine_inapp) else 1,
                3 if mine_inapp and (always or not theirs_inapp) else 1)

    def _round_float(self, mine: int, theirs: int) -> Floats:
        """P(mine wins the coming round), P(it loses it), as floats."""
        key = self._roll_ids[mine] * _PAIR + self._roll_ids[theirs]
        found = self._round_floats[key] = _chance(self._rolls[mine], self._rolls[theirs])[1:]
        return found

    # first pass: floats, and the choices of best play. It visits every state best play can reach
    # (thousands) and most of the time goes here, so the memo lookups of node data and of children
    # are written out inline, with the method that fills a missing entry as the fallback. Choosing
    # among options needs only their odds (one float each, from their own memo); the two floats are
    # read of the one chosen.
    def _float_value(self, mine: int, theirs: int) -> Floats:
        if mine < 0:
            return _LOST
        if theirs < 0:
            return _WON
        key = mine * _PAIR + theirs
        found = self._floats.get(key)
        if found is None:
            if self._solo[mine]:
                switches = self._switches(mine)
                if len(switches) == 1:
                    found = self._float_rolled(switches[0], theirs)
                    self._switch_choice[key] = switches
                else:
                    rolled_odds = self._rolled_odds
                    for s in switches:
                        self._float_rolled(s, theirs)
                    top, self._switch_choice[key] = _kept(switches, [rolled_odds[s * _PAIR + theirs]
                                                                    for s in switches])
                    found = self._rolled_floats[top * _PAIR + theirs]
            else:
                found = self._float_rolled(mine, theirs)
            self._floats[key] = found
            w, lo = found
            self._odds[key] = w / lo if lo else _INF  # its odds (see _kept)
        return found

    def _float_rolled(self, mine: int, theirs: int) -> Floats:
        key = mine * _PAIR + theirs
        found = self._rolled_floats.get(key)
        if found is not None:
            return found
        roll_ids = self._roll_ids
        p, q = self._round_floats.get(roll_ids[mine] * _PAIR + roll_ids[theirs]) or self._round_float(mine, theirs)
        # _damages, inline
        mine_inapp, theirs_inapp = self._inapp[mine], self._inapp[theirs]
        always = self.inappropriate_always
        to_mine = 3 if theirs_inapp and (always or not mine_inapp) else 1
        to_theirs = 3 if mine_inapp and (always or not theirs_inapp) else 1
        cleared = self._cleared
        mine_after, theirs_after = cleared[mine], cleared[theirs]
        if mine_after == -2:
            mine_after = self._clear(mine)
        if theirs_after == -2:
            theirs_after = self._clear(theirs)
        floats, value, losses = self._floats, self._float_value, self._float_loss_memo
        # a won round: the other side as is, one outcome per way its hit falls
        won_w = won_l = 0.0
        for fchance, (o,), _ in (losses.get(theirs << 3 | to_theirs << 1)
                                 or self._float_loss(theirs, to_theirs, False)):
            if o < 0:
                won_w += fchance
                continue
            w, lo = floats.get(mine_after * _PAIR + o) or value(mine_after, o)
            won_w += fchance * w
            won_l += fchance * lo
        # a lost round: the best of the options, per way the hit falls
        lost_w = lost_l = 0.0
        choices: list[tuple[int, ...]] = []
        odds = self._odds
        for fchance, options, bases in losses.get(mine << 3 | to_mine << 1 | 1) or self._float_loss(mine, to_mine, True):
            if len(options) == 1:
                kept: tuple[int, ...] = options
                o = options[0]
                w, lo = _LOST if o < 0 else floats.get(o * _PAIR + theirs_after) or value(o, theirs_after)
            else:
                # the options' odds, looked up at C speed (map, not a comprehension)
                found_odds = list(map(odds.get, map(theirs_after.__add__, bases)))
                if None in found_odds:
                    for o in options:
                        self._float_option(o, theirs_after)
                    found_odds = list(map(odds.__getitem__, map(theirs_after.__add__, bases)))
                o, kept = _kept(options, found_odds)  # type: ignore[arg-type]  # no None left
                w, lo = floats[o * _PAIR + theirs_after]
            lost_w += fchance * w
            lost_l += fchance * lo
            choices.append(kept)
        self._hit_choice[key] = choices
        w, lo = found = self._rolled_floats[key] = (p * won_w + q * lost_w, p * won_l + q * lost_l)
        self._rolled_odds[key] = w / lo if lo else _INF  # its odds (see _kept)
        return found

    def _float_option(self, mine: int, theirs: int) -> None:
        """Fill the first pass's memos for an option of a lost round (nobody left, too: it loses)."""
        if mine >= 0:
            self._float_value(mine, theirs)
        else:
            key = mine * _PAIR + theirs
            self._floats[key], self._odds[key] = _LOST, 0.0

    # second pass: the fractions, along best play's choices
    def _exact_value(self, mine: int, theirs: int, best: bool) -> Fraction:
        if mine < 0:
            return ZERO
        if theirs < 0:
            return ONE
        memo = self._exact[best]
        key = mine * _PAIR + theirs
        found = memo.get(key)
        if found is None:
            if best and self._solo[mine]:
                found = _highest(self._exact_rolled(s, theirs, True) for s in self._switch_choice[key])
            else:
                found = self._exact_rolled(mine, theirs, best)
            memo[key] = found
        return found

    def _exact_rolled(self, mine: int, theirs: int, best: bool) -> Fraction:
        memo = self._rolled_exact[best]
        key = mine * _PAIR + theirs
        found = memo.get(key)
        if found is not None:
            return found
        p = _chance(self._rolls[mine], self._rolls[theirs])[0]
        to_mine, to_theirs = self._damages(mine, theirs)
        mine_after, theirs_after = self._clear(mine), self._clear(theirs)
        value = self._exact_value
        won = _mean([(chance, value(mine_after, outcomes[0], best))
                     for chance, _, outcomes in self._losses(theirs, to_theirs, False)])
        losses = self._losses(mine, to_mine, best)
        kept: list[tuple[int, ...]] | list[list[int]] = (self._hit_choice[key] if best
                                                        else [outcomes for _, _, outcomes in losses])
        lost = _mean([(chance, value(options[0], theirs_after, best) if len(options) == 1
                       else _highest(value(m, theirs_after, best) for m in options))
                      for (chance, _, _), options in zip(losses, kept)])
        pn, pd = p.numerator, p.denominator
        wn, wd = won.numerator, won.denominator
        ln, ld = lost.numerator, lost.denominator
        if (wn == ln and wd == ld) or pn == pd:
            found = won  # the same either way (often a certain win), or the round is certain
        elif not pn:
            found = lost
        else:
            # p * won + (1 - p) * lost over the two values' least common denominator: the two are
            # mostly alike, and two gcds of numbers that size cost less than one of their product
            common = gcd(wd, ld)
            found = Fraction(pn * wn * (ld // common) + (pd - pn) * ln * (wd // common), pd * (wd // common) * ld)
        memo[key] = found
        return found


def _float_loss_key(node: int, damage: int, choices: bool) -> int:
    """The first pass's memo key of a lost round (damage is 1 or 3); ``_float_rolled`` spells it out."""
    return node << 3 | damage << 1 | choices


def _mean(branches: list[tuple[Fraction, Fraction]]) -> Fraction:
    """The mean over chance branches (chance, value)."""
    if len(branches) == 1:
        return branches[0][1]  # one branch has chance 1
    return sum((chance * v for chance, v in branches), ZERO)


@functools.lru_cache(maxsize=4096)
def _chance(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[Fraction, float, float]:
    """:func:`round_chance` exactly, then it and its complement as floats (each correctly rounded)."""
    p = round_chance(a, b)
    return p, float(p), float(1 - p)
