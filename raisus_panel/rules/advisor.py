"""The odds advisor: what each legal choice of a unit does to its side's chance of winning, exactly.

:func:`advise` reads a contest as it stands and lists, for one unit, every choice it may make before
the coming roll -- each cliché it may use (an inappropriate one needs the GM's approval), right after
its team lost a round who takes the hit (nobody volunteering, a member volunteering, the leader
assigning it), disbanding and re-forming, dropping out, tickets, and under the pumps option every pump
it could declare for the coming roll -- and rates each twice:

* ``as_is``: this choice now, and every later choice stays as it is;
* ``best``: this choice now, and from then on this side always makes the choice that maximises its
  chance (switching clichés, who takes each hit), the other side as is.

A pump and lucky shots declared for the coming roll (either side's) are counted in every choice: their
dice on that roll, the pump paid after it (RULES.md section 11); best play does not pump later rolls.
Both are exact fractions from :mod:`.advisor_model` (a memoised recursion over the dice left, no
simulation). Every choice offered is one the rules accept now: each is checked by the contest's
own dry run (:meth:`~raisus_panel.rules.Contest.why_not_error`). Labels are catalog keys with their
fields; the UI translates them.

The advisor rates a duel, one active unit a side (with several, the GM orders exchanges, and no
single chance of the contest exists); several characters against one unit are offered teaming up
(all of them, with the clichés chosen now), which makes it a duel. Assumptions, where "as it is" needs one: after a lost leader
(or the advisor's "disband") the survivors re-form at once around the highest score, or one fights
on alone; a later switch to another cliché is rated as an appropriate one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .advisor_model import Member, Solver, State, member_pool, solo, team
from .character import Character, GruntMob
from .errors import RuleError
from .team import CharacterTeam

__all__ = ["Advice", "Choice", "advise", "clear_cache"]


@dataclass(frozen=True)
class Choice:
    """One legal choice of a unit before the coming roll, with its two exact chances.

    Attributes
    ----------
    key
        A stable id: ``"cliche:<name>"``, ``"cliche:<name>:inappropriate"``, ``"keep"``,
        ``"no_volunteer"``, ``"volunteer:<uid>"``, ``"assign:<uid>"``, ``"disband"``,
        ``"drop_out:<uid>"``, ``"form_team"`` (``"form_team:<leader uid>"`` on a leader tie),
        ``"tickets"``, ``"tickets:brevet"`` or, under the pumps option, ``"pump:<n>"``.
    label
        The catalog key of its label (``"advice.<kind>"``); ``fields`` fill it in.
    fields
        The values of the label, as ``(name, value)`` pairs (see :attr:`field_map`).
    command, args, kwargs
        The contest command that makes this choice, with its arguments (plain values: uids and
        names; ``form_team`` takes the characters themselves, as the command does); ``command`` is
        None when it is what happens anyway (the next roll).
    needs_approval
        An inappropriate cliché: it rolls only once the GM approves it.
    current
        This is what happens if nobody does anything before the roll.
    as_is
        P(this side wins the contest) with this choice, every later choice as it is.
    best
        P(this side wins the contest) with this choice, then best play by this side.
    """

    key: str
    label: str
    fields: tuple[tuple[str, Any], ...]
    command: str | None
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...]
    needs_approval: bool
    current: bool
    as_is: Fraction
    best: Fraction

    @property
    def field_map(self) -> dict[str, Any]:
        """``fields`` as a dict, for the catalog text."""
        return dict(self.fields)


@dataclass(frozen=True)
class Advice:
    """The advisor's answer for one unit: its side, every legal choice, and which is best.

    Attributes
    ----------
    unit
        The uid of the unit advised.
    side
        Its side, 0 or 1; the chances are this side's.
    choices
        Every legal choice, in a stable order (clichés, then the hit, then team changes, tickets).
    best_key
        The key of the best choice: the highest ``best`` (then ``as_is``; the first on a tie).
    other_as_is
        Always True: the other side is assumed to keep everything as it is.
    """

    unit: str
    side: int
    choices: tuple[Choice, ...]
    best_key: str
    other_as_is: bool = field(default=True)

    def choice(self, key: str) -> Choice:
        """The choice with ``key`` (KeyError if it is not offered)."""
        for c in self.choices:
            if c.key == key:
                return c
        raise KeyError(key)

    @property
    def best_choice(self) -> Choice:
        """The best choice (see ``best_key``)."""
        return self.choice(self.best_key)


_SOLVERS: dict[tuple[Any, ...], Solver] = {}


def clear_cache() -> None:
    """Forget every memoised state (for cold timings); :func:`raisus_panel.rules.odds.clear_cache` too."""
    from . import advisor_model, odds

    _SOLVERS.clear()
    advisor_model.round_chance.cache_clear()
    advisor_model._sixes_distribution.cache_clear()
    advisor_model._chance.cache_clear()
    odds.clear_cache()


#: Memoised states kept per rules profile before they are forgotten: a long-running server rates
#: many contests, and one large team's table is some ten thousand states.
MAX_STATES = 200_000


def _solver(contest: Any) -> Solver:
    profile = contest.profile
    key = (profile.team_dice, profile.team_loss, profile.inappropriate_damage, profile.disband_penalty,
           profile.volunteer_factor)
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = _SOLVERS[key] = Solver(
            sixes=profile.team_dice == "member_sixes", team_loss=profile.team_loss,
            inappropriate_always=profile.inappropriate_damage == "always",
            disband_penalty=profile.disband_penalty, volunteer_factor=profile.volunteer_factor)
    elif solver.size > MAX_STATES:
        solver.forget()
    return solver


# --------------------------------------------------------------------------------------------------
# the contest as states


def _pools(char: Character) -> tuple[int, ...]:
    return tuple(c.pool for c in char.cliches)


def _members(t: CharacterTeam) -> list[Member]:
    order = [t.lead, *(m for m in t.members if m is not t.lead)]
    return [(_pools(m), [c.name for c in m.cliches].index(t.member_cliches[m.uid]), bool(t.appropriate[m.uid]))
            for m in order]


def _apps(contest: Any, obj: Character, at: int, appropriate: bool) -> tuple[bool | None, ...]:
    """Which clichés fit: the one chosen as said, a later switch as appropriate -- but after tickets
    no real cliché fits (that is why they were given), so best play does not switch to one."""
    return tuple(appropriate if i == at else None if contest.tickets_given and not c.temporary else True
                 for i, c in enumerate(obj.cliches))


def _solo_state(contest: Any, obj: Character) -> State | None:
    """A character's or mob's state with its current choice, or None if it has not chosen."""
    chosen = contest.chosen(obj.uid)
    if chosen is None:
        return None
    at = [c.name for c in obj.cliches].index(chosen.name)
    made = contest.choice(obj.uid)
    return solo(_pools(obj), _apps(contest, obj, at, bool(made["appropriate"])), at)


def _team_state(solver: Solver, t: CharacterTeam) -> State | None:
    """A team's state as it stands (a leader knocked down and not saved: its survivors, re-formed)."""
    return solver.settle(_members(t), t.revenge, t.inappropriate, carry=False)


def _state(contest: Any, solver: Solver, obj: Any) -> State | None:
    return _team_state(solver, obj) if isinstance(obj, CharacterTeam) else _solo_state(contest, obj)


def _refuse(message: str, key: str, **fields: Any) -> RuleError:
    return RuleError(message, key=key, **fields)


def exchanges_refusal(*, team_hint: bool = False) -> RuleError:
    """The refusal for a side of several units: the GM orders their exchanges; ``team_hint`` adds
    that a team of them would fight as one unit (for a side of characters that could team up)."""
    message = "The advisor rates one unit a side; with several, the GM orders the exchanges."
    if team_hint:
        return _refuse(message + " Form a team to fight as one unit.", "error.advice.exchanges_team")
    return _refuse(message, "error.advice.exchanges")


def _teamable(units: list[Any]) -> bool:
    """Whether ``units`` are all characters that may team up (not teams, not grunt mobs)."""
    return all(isinstance(u, Character) and not isinstance(u, GruntMob) for u in units)


def _forming(contest: Any, obj: Any, mine: list[Any], theirs: list[Any]) -> bool:
    """Several characters on one side against one unit: teaming them all up makes it a duel."""
    return len(theirs) == 1 and len(mine) > 1 and obj in mine and _teamable(mine)


def _units(contest: Any, unit: Any) -> tuple[str, int, Any, Any]:
    if contest.status == "ended":
        raise _refuse("This contest has ended: there is no coming roll to advise on.", "error.advice.ended")
    uid = contest._resolve_unit(unit)
    obj = contest._unit(uid)
    side = contest._side_of(uid)
    if not contest.is_active(uid):
        raise _refuse(f"{obj.name} is out of this contest: there is nothing left to choose.",
                      "error.advice.out", name=obj.name)
    mine, theirs = contest.active_units(side), contest.active_units(1 - side)
    if (len(mine) != 1 or len(theirs) != 1) and not _forming(contest, obj, mine, theirs):
        raise exchanges_refusal(team_hint=len(mine) > 1 and _teamable(mine))  # a team of them: one unit
    return uid, side, obj, theirs[0]


# --------------------------------------------------------------------------------------------------
# the choices


@dataclass
class _Draft:
    """A choice before it is rated: what it leaves (my state, their state) and how it is rated."""

    key: str
    label: str
    fields: dict[str, Any]
    command: str | None
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    mine: State | None
    theirs: State | None
    chosen_now: bool = False  # a cliché chosen for the coming roll: best play starts after it
    needs_approval: bool = False
    current: bool = False
    extra: int = 0  # dice the coming roll adds for this side (a pump's, lucky shots)
    pump: int = 0  # the pump this side pays after the coming roll


def _solo_drafts(contest: Any, obj: Character, theirs: State | None, other: Any) -> list[_Draft]:
    drafts = []
    made = contest.choice(obj.uid)
    pools = _pools(obj)
    for i, cliche in enumerate(obj.cliches):
        if cliche.pool < 1:
            continue
        for appropriate in (True, False):
            apps = _apps(contest, obj, i, appropriate)
            now = bool(made and made["cliche"] == cliche.name and made["appropriate"] == appropriate)
            drafts.append(_Draft(
                f"cliche:{cliche.name}" + ("" if appropriate else ":inappropriate"),
                "advice.cliche" if appropriate else "advice.cliche_inappropriate",
                {"cliche": cliche.name, "n": cliche.pool}, "choose", (obj.uid, cliche.name),
                {"appropriate": appropriate}, solo(pools, apps, i), theirs, chosen_now=True,
                needs_approval=not appropriate and not (now and made["approved"]), current=now))
    drafts.extend(_ticket_drafts(contest, obj, other))
    return drafts


def _with_ticket(contest: Any, char: Character) -> State:
    """A character once a ticket's temporary cliché is its choice."""
    pools = (*_pools(char), contest.profile.ticket_rating)
    return solo(pools, (*(None for _ in char.cliches), True), len(pools) - 1)


def _ticket_drafts(contest: Any, obj: Character, other: Any) -> list[_Draft]:
    """Tickets (before the first roll, no teams yet): everyone gets the ticket's temporary cliché.

    Offered only while no unit's choice is an appropriate cliché: the GM hands tickets out when
    nobody has a cliché that fits.
    """
    if isinstance(other, CharacterTeam) or contest.tickets_given:
        return []
    if any((contest.choice(u.uid) or {}).get("appropriate") for u in (obj, other)):
        return []
    rating = contest.profile.ticket_rating
    theirs = _with_ticket(contest, other)
    name = contest.name
    drafts = [_Draft("tickets", "advice.tickets", {"cliche": name, "n": rating}, "give_tickets", (), {},
                     _with_ticket(contest, obj), theirs, chosen_now=True)]
    chosen = contest.chosen(obj.uid)
    if contest.profile.tickets == "brevet" and chosen is not None:
        at = [c.name for c in obj.cliches].index(chosen.name)
        pools = tuple(p + rating if i == at else p for i, p in enumerate(_pools(obj)))
        drafts.append(_Draft("tickets:brevet", "advice.tickets_brevet", {"cliche": chosen.name, "n": pools[at]},
                             "give_tickets", ({obj.uid: chosen.name},), {},
                             solo(pools, tuple(True if i == at else None for i in range(len(pools))), at),
                             theirs, chosen_now=True))
    return drafts


def _hit(members: list[Member], index: int, amount: int) -> list[Member]:
    pools, at, app = members[index]
    out = list(members)
    out[index] = (pools[:at] + (max(0, pools[at] - amount),) + pools[at + 1:], at, app)
    return out


def _team_drafts(contest: Any, solver: Solver, t: CharacterTeam, theirs: State | None) -> list[_Draft]:
    members = _members(t)
    uids = [t.lead.uid, *(m.uid for m in t.members if m is not t.lead)]
    names = {m.uid: m.name for m in t.members}
    inapp = t.inappropriate
    now = solver.settle(members, t.revenge, inapp, carry=False)
    window = contest.volunteer_window
    drafts = []
    if window and window["team"] == t.uid:
        before = list(members)  # the hit restored: who takes it is still open
        for h in window["hits"]:
            i = uids.index(h["character"])
            pools, at, app = before[i]
            before[i] = (pools[:at] + (pools[at] + h["extra"] + h["current"],) + pools[at + 1:], at, app)
        damage = window["damage"]
        drafts.append(_Draft("no_volunteer", "advice.no_volunteer", {}, None, (), {}, now, theirs, current=True))
        for i, uid in enumerate(uids):
            after = solver.settle(_hit(before, i, solver.volunteer_factor * damage), True, inapp, carry=i == 0)
            drafts.append(_Draft(f"volunteer:{uid}", "advice.volunteer", {"name": names[uid]}, "volunteer",
                                 (uid,), {}, after, theirs))
        hit = {h["character"] for h in window["hits"]}
        for i, uid in enumerate(uids):
            if uid in hit:
                continue  # handing the hit to whoever took it is no choice: that is "nobody volunteers"
            after = solver.settle(_hit(before, i, damage), False, inapp, carry=False)
            drafts.append(_Draft(f"assign:{uid}", "advice.assign", {"name": names[uid]}, "assign_loss",
                                 (uid,), {}, after, theirs))
    else:
        drafts.append(_Draft("keep", "advice.keep", {"team": t.name}, None, (), {}, now, theirs, current=True))
    if now is not None and now[0] == "team" and member_pool(members[0]) > 0:
        disbanded = solver.reform(solver.disband(now), carry=False)
    else:
        disbanded = now  # a lost leader's team breaks up by itself: disbanding adds nothing
    drafts.append(_Draft("disband", "advice.disband", {"team": t.name}, "disband", (t.uid,), {}, disbanded, theirs))
    for i, uid in enumerate(uids):
        after = solver.settle(_hit(members, i, member_pool(members[i])), t.revenge, inapp, carry=False)
        drafts.append(_Draft(f"drop_out:{uid}", "advice.drop_out", {"name": names[uid]}, "drop_out", (uid,), {},
                             after, theirs))
    return drafts


def _form_drafts(contest: Any, side: int, units: list[Character], theirs: State | None) -> list[_Draft]:
    """Teaming up every character of the side, with each cliché chosen now (a tie: each leader)."""
    made = [contest.choice(u.uid) for u in units]
    waiting = next((u for u, m in zip(units, made) if m is None), None)
    if waiting is not None:
        raise _refuse(f"{waiting.name} has not chosen a cliché yet: teaming up is rated with each member's "
                      "chosen cliché.", "error.advice.member_not_chosen", name=waiting.name)
    cliches = [u.cliche(m["cliche"]) for u, m in zip(units, made)]
    top = max(c.current for c in cliches)
    members = [(u, c.name, bool(m["appropriate"])) for u, c, m in zip(units, cliches, made)]
    inapp = not any(m[2] for m in members)
    names = ", ".join(u.name for u in units)
    leaders = [u for u, c in zip(units, cliches) if c.current == top]
    drafts = []
    for lead in leaders:
        order = [lead, *(u for u in units if u is not lead)]
        states = [(_pools(u), [c.name for c in u.cliches].index(name), app)
                  for u in order for v, name, app in members if v is u]
        drafts.append(_Draft("form_team" if len(leaders) == 1 else f"form_team:{lead.uid}", "advice.form_team",
                             {"names": names, "leader": lead.name}, "form_team", (members,), {"leader": lead},
                             team(states, contest.pending_revenge(side), inapp), theirs, needs_approval=inapp))
    return drafts


def _pump_drafts(contest: Any, solver: Solver, obj: Any, theirs: State | None, declared: dict[str, Any]) -> list[_Draft]:
    """Under the pumps option, every pump the unit could declare for its coming roll, from none to its
    cliché's score − 1 (the lucky shots declared kept): the question "pump 0, 1, 2: my chance"."""
    if not contest.profile.pumps or contest.single_roll or contest.volunteer_window:
        return []
    cliche = contest.pumped_cliche(obj.uid)
    if cliche is None or cliche.pool < 2:  # no pump from 1
        return []
    mine = _state(contest, solver, obj)
    lucky = declared["dice"] - declared["pump_dice"]
    return [_Draft(f"pump:{n}", "advice.pump" if n else "advice.no_pump",
                   {"n": n, "cliche": cliche.name, "dice": n * cliche.dice_per_pump},
                   "pump", (obj.uid, n), {}, mine, theirs, chosen_now=True, current=n == declared["pump"],
                   extra=lucky + n * cliche.dice_per_pump, pump=n)
            for n in range(cliche.pool)]


def _rate(contest: Any, solver: Solver, draft: _Draft, their: tuple[int, int]) -> tuple[Fraction, Fraction]:
    """A draft's (as is, best); ``their`` is the other side's coming roll's (extra dice, pump)."""
    mine, theirs = draft.mine, draft.theirs
    if mine is None or theirs is None:
        won = Fraction(int(theirs is None and mine is not None))
        return won, won
    if contest.single_roll:
        p = solver.next_round(mine, theirs, (draft.extra, their[0]))
        return p, p
    if draft.extra or draft.pump or any(their):
        extra, pump = (draft.extra, their[0]), (draft.pump, their[1])
        return (solver.with_extras(mine, theirs, extra=extra, pump=pump, best=False),
                solver.with_extras(mine, theirs, extra=extra, pump=pump, best=True))
    as_is = solver.value(mine, theirs, best=False)
    best = solver.after_choice(mine, theirs) if draft.chosen_now else solver.value(mine, theirs, best=True)
    return as_is, best


def advise(contest: Any, unit: Any) -> Advice:
    """What each legal choice of ``unit`` does to its side's chance of winning ``contest``, exactly.

    Parameters
    ----------
    contest
        A :class:`~raisus_panel.rules.Contest` with one active unit a side.
    unit
        The unit advised (a character, grunt mob or team of the contest: object, uid or name).

    Returns
    -------
    Advice
        Every legal choice with ``as_is`` and ``best`` (see the module docstring), and the best one.

    Raises
    ------
    RuleError
        When the contest has ended, the unit is out, a side has several active units, or the other
        side's unit has not chosen its cliché yet.

    Examples
    --------
    >>> from raisus_panel.rules import Character, Contest
    >>> viking = Character("Viking", {"Viking": 1}); pirate = Character("Pirate", {"Pirate": 1})
    >>> advice = advise(Contest("Brawl", viking, pirate), viking)
    >>> advice.choice("cliche:Viking").as_is, advice.choice("cliche:Viking:inappropriate").as_is
    (Fraction(1, 2), Fraction(1, 2))
    """
    uid, side, obj, other = _units(contest, unit)
    solver = _solver(contest)
    theirs = _state(contest, solver, other)
    if theirs is None:
        raise _refuse(f"{other.name} has not chosen a cliché yet: the odds need both sides' clichés.",
                      "error.advice.other_not_chosen", name=other.name)
    mine = contest.active_units(side)
    theirs_bonus = contest.bonus(other.uid)
    their = (theirs_bonus["dice"], theirs_bonus["pump"])  # what the other side declared, as is
    if len(mine) > 1:
        drafts = _form_drafts(contest, side, mine, theirs)
    else:
        drafts = (_team_drafts(contest, solver, obj, theirs) if isinstance(obj, CharacterTeam)
                  else _solo_drafts(contest, obj, theirs, other))
        declared = contest.bonus(uid)
        for d in drafts:  # what this unit declared stays with every choice
            d.extra, d.pump = declared["dice"], declared["pump"]
        drafts.extend(_pump_drafts(contest, solver, obj, theirs, declared))
    choices = []
    for d in drafts:
        if contest.why_not_error(d.command, *d.args, **d.kwargs) if d.command else None:
            continue  # never offer what the rules would refuse
        as_is, best = _rate(contest, solver, d, their)
        choices.append(Choice(d.key, d.label, tuple(d.fields.items()), d.command, d.args,
                              tuple(d.kwargs.items()), d.needs_approval, d.current, as_is, best))
    if not choices:  # pragma: no cover - an active unit always has a cliché, or its team, to keep
        raise _refuse(f"{obj.name} has no choice the rules allow now.", "error.advice.no_choice", name=obj.name)
    top = max(range(len(choices)), key=lambda i: (choices[i].best, choices[i].as_is, -i))
    return Advice(uid, side, tuple(choices), choices[top].key)
