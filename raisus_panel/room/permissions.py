"""Who may do what in a room: checked on every command, in the room, never only in the UI.

The GM may do everything. A spectator may do nothing but watch (presence is not a command). A player
may give a command when its declaration (:mod:`.commands`) allows players -- most only once they have
joined, and only for the characters they own -- and never the GM-only ones: the declaration's
``gm_only`` says what "Only the GM can ..." names. The table of what a player may is in the commands'
package docstring, one row per declaration.

Why ``open_round``: in Risus the GM says when a round is rolled. Rather than let any player roll at
any moment, the GM opens the round; it closes by itself when the round is decided (or ended, or the
contest ends), so each opening allows one round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from raisus_panel.rules import Character, RuleError
from raisus_panel.rules.character import CAMPAIGN_FIELDS
from raisus_panel.rules.contest_queries import Unit
from raisus_panel.rules.errors import Phrase

from .lookup import room_character, unit_members
from .projection import RoomState
from .roles import Actor, PermissionDenied, Role

if TYPE_CHECKING:  # the commands read this module's helpers; it reads only their declarations' fields
    from .commands.spec import Command

_OWNERS = {False: Phrase("the GM (an NPC)", "term.owner.gm"), True: Phrase("another player", "term.owner.player")}


def only_the_gm(action: object) -> PermissionDenied:
    """The refusal of what only the GM may do; ``action`` says what (a Phrase)."""
    return PermissionDenied(f"Only the GM can {action}.", key="error.permission.gm_only", action=action)


def require_own(state: RoomState, actor: Actor, uid: str) -> Character:
    """The character ``uid`` if ``actor`` owns it; PermissionDenied if someone else does."""
    char = room_character(state, uid)
    if char.owner != actor.player_id:
        whose = _OWNERS[bool(char.owner)]
        raise PermissionDenied(f"You can act only for your own characters: {char.name} belongs to {whose}.",
                               key="error.permission.not_yours", name=char.name, whose=whose)
    return char


def require_own_unit(state: RoomState, actor: Actor, unit: Unit) -> None:
    """PermissionDenied unless ``actor`` owns every character of ``unit`` (a team's members)."""
    for member in unit_members(unit):
        require_own(state, actor, member.uid)


#: What a character change may touch besides its dice: a player may still change these after a contest.
WORDS = frozenset({"name", "description", "hook", "tale"})


def character_changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """What changed between two ``Character.to_dict()`` forms, one entry per change, in words a log can show.

    Each entry is ``{"field", "cliche", "from", "to"}``: ``field`` is ``name``, ``description``,
    ``owner``, ``kind``, ``member_rating``, ``count``, the campaign fields (``lucky_shots``,
    ``lucky_left``, ``hook``, ``tale``, ``accepted``), ``rating``, ``current``, ``extra``,
    ``temporary``, ``double_pump`` (of ``cliche``), or ``cliche`` itself for a cliché added (``from`` None) or removed
    (``to`` None). A ``character_updated`` event keeps ``before`` and the new ``character``, so a log
    names who (the event's actor) changed what (this).
    """
    out = []
    for field in ("name", "description", "owner", "kind", "member_rating", "count", *CAMPAIGN_FIELDS):
        if before.get(field) != after.get(field):
            out.append({"field": field, "cliche": None, "from": before.get(field), "to": after.get(field)})
    old = {c["name"]: c for c in before.get("cliches", [])}
    new = {c["name"]: c for c in after.get("cliches", [])}
    for cname, c in old.items():
        if cname not in new:
            out.append({"field": "cliche", "cliche": cname, "from": c, "to": None})
            continue
        for field in ("rating", "current", "extra", "temporary", "double_pump"):
            if c.get(field) != new[cname].get(field):
                out.append({"field": field, "cliche": cname, "from": c.get(field), "to": new[cname].get(field)})
    out += [{"field": "cliche", "cliche": cname, "from": None, "to": c} for cname, c in new.items() if cname not in old]
    return out


def has_been_in_contest(past_contests: list[dict[str, Any]], uid: str) -> bool:
    """Whether the character ``uid`` took part in one of the closed contests (their summaries)."""
    return any(uid in summary.get("characters", ()) for summary in past_contests)


def dice_of_a_veteran(state: RoomState, char: Character, changes: Mapping[str, object]) -> None:
    """Refuse a player's change to the dice of a character that has been in a contest."""
    if not has_been_in_contest(state.past, char.uid):
        return
    before = char.to_dict()
    try:
        after = Character.from_dict({**before, **changes}).to_dict()
    except RuleError:
        return  # not a character at all: the command's own check says what is wrong
    if any(change["field"] not in WORDS for change in character_changes(before, after)):
        raise PermissionDenied(f"{char.name} has been in a contest: only the GM changes its clichés and dice "
                               "now. You may still change its name and description; ask the GM for the rest.",
                               key="error.permission.veteran_dice", name=char.name)


def authorize(state: RoomState, actor: Actor, command: Command[Any]) -> None:
    """Raise :class:`PermissionDenied` unless ``actor`` may give ``command`` (parsed, with its arguments).

    Arguments that name nothing in the room raise :class:`RuleError`. Rules (is it the right moment,
    is the cliché at 0) are checked later by the command itself, for every role.
    """
    if not isinstance(actor, Actor):
        raise PermissionDenied("A command needs an actor (who is asking).", key="error.permission.no_actor")
    if actor.role is Role.GM:
        return
    if actor.role is Role.SPECTATOR:
        raise PermissionDenied("Spectators watch; they cannot act.", key="error.permission.spectator")
    spec = command.spec
    if spec.players is None:
        raise only_the_gm(spec.gm_only)
    if not spec.before_joining and (not actor.player_id or actor.player_id not in state.players):
        raise PermissionDenied("Join the room first (with your name), then act for your characters.",
                               key="error.permission.join_first")
    spec.players(state, actor, command.args)
