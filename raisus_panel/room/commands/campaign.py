"""The commands of campaign play (RULES.md section 11): the table's rules, sessions and advancement.

The table's rules (``set_rules``) are what checks, the creation budget and sessions play by, and what
a contest starts with unless the GM gives it others. A room's game is played in sessions: the GM
starts a new one (``new_session``; lucky shots refill) and ends one (``end_session``), which offers
each character its advancement -- a roll for every cliché it used that session (``roll_advancement``,
on the checks' committed dice), or with ``advancement="points"`` one creation die to invest
(``invest_advancement``). Sessions change only between contests: a contest's replay restores its
characters as they stood at its start, so a refill in the middle of one would not last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from raisus_panel.rules import CommittedDice, RuleError, RulesProfile, advancement_roll
from raisus_panel.rules.campaign import ADVANCEMENT_MAX
from raisus_panel.rules.errors import Phrase
from raisus_panel.rules.validation import clean_name

from ..events import Event, room_event
from ..lookup import room_character
from ..permissions import require_own
from ..projection import RoomState
from ..roles import Actor
from .spec import Args, CommandSpec, Context, Raw, required_id, some_id, text

_CLICHE = Phrase("cliché", "term.cliche")


def _between_contests(state: RoomState, what: Phrase) -> None:
    if state.contest is not None:
        raise RuleError(f"A contest is on the table: close it first, then {what}.",
                        key="error.session.contest_open", what=what)


# ------------------------------------------------------------------------------- set_rules --
@dataclass(frozen=True)
class RulesArgs(Args):
    """``set_rules``: the table's rules options (``RulesProfile.to_dict()``; the rules check them)."""

    profile: object = None

    @classmethod
    def parse(cls, raw: Raw) -> RulesArgs:
        return cls(raw.get("profile"))


def plan_set_rules(state: RoomState, actor: Actor, args: RulesArgs, ctx: Context) -> list[Event]:
    profile = RulesProfile.from_dict(args.profile)
    if profile.to_dict() == state.profile.to_dict():
        raise RuleError("The table already plays by these rules.", key="error.room.same_rules")
    return [room_event("rules_set", profile=profile.to_dict())]


# -------------------------------------------------------------------------------- sessions --
def plan_new_session(state: RoomState, actor: Actor, args: Args, ctx: Context) -> list[Event]:
    _between_contests(state, Phrase("start a new session", "term.start_session"))
    return [room_event("session_started", session=state.session + 1)]


def plan_end_session(state: RoomState, actor: Actor, args: Args, ctx: Context) -> list[Event]:
    _between_contests(state, Phrase("end the session", "term.end_session"))
    if state.session_ended:
        raise RuleError(f"Session {state.session} has ended already: start a new one.",
                        key="error.session.ended", session=state.session)
    way = state.profile.advancement
    owed: dict[str, list[str]] = {}
    for uid, char in state.characters.items():
        if way == "rolls":
            used = [c.name for c in char.cliches
                    if c.name in state.used.get(uid, ()) and not c.temporary and 0 < c.rating < ADVANCEMENT_MAX]
            if used:
                owed[uid] = used
        elif way == "points" and char.owner:
            owed[uid] = []  # one creation die to invest, in any cliché or a new one
    return [room_event("session_ended", session=state.session, advancement=owed)]


# ------------------------------------------------------------------------------ advancement --
@dataclass(frozen=True)
class AdvanceArgs(Args):
    """``roll_advancement`` and ``invest_advancement``: whose advancement, and which cliché."""

    character: str | None = None
    cliche: object = None

    @classmethod
    def parse(cls, raw: Raw) -> AdvanceArgs:
        return cls(some_id(raw, "character"), raw.get("cliche"))


def players_advance(state: RoomState, actor: Actor, args: AdvanceArgs) -> None:
    require_own(state, actor, required_id(args.character, "character"))


def _owed(state: RoomState, args: AdvanceArgs, way: str) -> tuple[Any, str]:
    char = room_character(state, args.character)
    name = text(args.cliche, "cliche", _CLICHE)
    owed = state.advancement.get(char.uid)
    if owed is None or state.advancement_way != way:
        raise RuleError(f"{char.name} has no advancement waiting: it comes when the GM ends a session.",
                        key="error.advancement.none", name=char.name)
    if way == "rolls" and name not in owed:
        choices = ", ".join(owed)
        raise RuleError(f"{char.name} may roll for {choices}, the clichés it used this session; not {name}.",
                        key="error.advancement.not_used", name=char.name, choices=choices, cliche=name)
    return char, name


def plan_roll_advancement(state: RoomState, actor: Actor, args: AdvanceArgs, ctx: Context) -> list[Event]:
    char, name = _owed(state, args, "rolls")
    cliche = char.cliche(name)
    if ctx.dry:
        return []
    dice = ctx.dice
    if dice is None:  # pragma: no cover - the room always gives an advancement roll its dice
        raise ValueError("an advancement roll needs dice")
    before = dice.next_roll
    roll = advancement_roll(cliche, dice)
    drawn = isinstance(dice, CommittedDice) and dice.next_roll != before
    draw = {"scope": dice.scope, "roll": before} if isinstance(dice, CommittedDice) and drawn else None
    return [room_event("advancement_rolled", character=char.uid, roll=roll.to_dict(), draw=draw)]


def plan_invest_advancement(state: RoomState, actor: Actor, args: AdvanceArgs, ctx: Context) -> list[Event]:
    char, name = _owed(state, args, "points")
    if char.has_cliche(name):
        cliche = char.cliche(name)
        if cliche.temporary or cliche.rating >= char.max_rating:
            raise RuleError(f"{char.name}'s {cliche.name} cannot rise any more.", key="error.advancement.at_most",
                            name=char.name, cliche=cliche.name)
        return [room_event("advancement_invested", character=char.uid, cliche=cliche.name, new=False)]
    fresh = clean_name(name, Phrase("cliché name", "term.cliche_name"))
    return [room_event("advancement_invested", character=char.uid, cliche=fresh, new=True)]


SPECS: list[CommandSpec[Any]] = [  # each with its own arguments
    CommandSpec("set_rules", RulesArgs, gm_only=Phrase("change the table's rules", "term.gm.set_rules"),
                plan=plan_set_rules),
    CommandSpec("new_session", Args, gm_only=Phrase("start a new session", "term.gm.new_session"),
                plan=plan_new_session),
    CommandSpec("end_session", Args, gm_only=Phrase("end the session", "term.gm.end_session"),
                plan=plan_end_session),
    CommandSpec("roll_advancement", AdvanceArgs, players=players_advance, plan=plan_roll_advancement,
                dice="checks"),
    CommandSpec("invest_advancement", AdvanceArgs, players=players_advance, plan=plan_invest_advancement),
]
