"""What a command's ids name in a room: its characters, the current contest and the contest's units.

Shared by the commands' decisions and the players' permissions (below both), so a missing id is
refused with the same words wherever it is looked up.
"""

from __future__ import annotations

from raisus_panel.rules import Character, CharacterTeam, Contest, RuleError
from raisus_panel.rules.contest_queries import Unit

from .projection import RoomState


def no_such_character(uid: object) -> RuleError:
    """The refusal of a character id the room does not know."""
    return RuleError(f"There is no character with id {uid!r} in this room.", key="error.room.no_character",
                     uid=repr(uid))


def room_character(state: RoomState, uid: object) -> Character:
    """The room's character with id ``uid``; RuleError when there is none."""
    char = state.characters.get(uid) if isinstance(uid, str) else None
    if char is None:
        raise no_such_character(uid)
    return char


def in_current_contest(state: RoomState, uid: str) -> bool:
    """Whether the character ``uid`` plays in the room's current contest."""
    contest = state.contest
    return contest is not None and any(c.uid == uid for c in contest.characters())


def current_contest(state: RoomState) -> Contest:
    """The current contest, or RuleError when there is none."""
    contest = state.contest
    if contest is None:
        raise RuleError("There is no contest right now: the GM starts one first.", key="error.room.no_contest")
    return contest


def contest_unit(contest: Contest, uid: object) -> Unit:
    """The unit (character, mob or team) with id ``uid`` on a side of ``contest``."""
    sides: list[list[Unit]] = contest.sides
    for side in sides:
        for unit in side:
            if unit.uid == uid:
                return unit
    raise RuleError(f"There is no unit with id {uid!r} in this contest.", key="error.room.no_unit", uid=repr(uid))


def contest_member(contest: Contest, uid: object) -> Character:
    """The character with id ``uid`` playing in ``contest`` (alone, in a mob or in a team)."""
    for char in contest.characters():
        if char.uid == uid:
            return char
    raise RuleError(f"There is no character with id {uid!r} in this contest.", key="error.room.no_contest_character",
                    uid=repr(uid))


def unit_members(unit: Unit) -> list[Character]:
    """The characters a unit is: a team's members, or the character itself."""
    return list(unit.members) if isinstance(unit, CharacterTeam) else [unit]


def team_of(contest: Contest, uid: str) -> CharacterTeam | None:
    """The character team on a side of ``contest`` that the character ``uid`` is a member of, if any."""
    for side in contest.sides:
        for unit in side:
            if isinstance(unit, CharacterTeam) and any(m.uid == uid for m in unit.members):
                return unit
    return None
