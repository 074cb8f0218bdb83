"""The commands about characters: create, change and remove them, action checks, recovery."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, cast

from raisus_panel.rules import (
    Character,
    CommittedDice,
    RuleError,
    action_check,
    check_budget,
    creation_budget,
    effective_tn,
)
from raisus_panel.rules.character import CAMPAIGN_FIELDS
from raisus_panel.rules.check import check_extras
from raisus_panel.rules.errors import Phrase
from raisus_panel.rules.recovery import recovery_gains

from ..events import Event, room_event
from ..lookup import contest_member, current_contest, in_current_contest, room_character
from ..permissions import dice_of_a_veteran, require_own
from ..projection import RoomState
from ..roles import Actor, PermissionDenied, Role
from .spec import Args, CommandSpec, ContestCall, Context, Raw, flag, required_id, some_id, text

_CLICHE = Phrase("cliché", "term.cliche")

#: A character's fields as ``Character.to_dict()`` gives them: the arguments of creating and changing one.
CHARACTER_FIELDS = frozenset({"kind", "uid", "name", "description", "owner", "cliches", "member_rating", "count",
                              *CAMPAIGN_FIELDS})


def _unlocked(state: RoomState, char: Character, what: Phrase) -> None:
    if in_current_contest(state, char.uid):
        raise RuleError(f"{char.name} is in the current contest: {what} after the GM closes it.",
                        key="error.room.in_contest", name=char.name, what=what)


def _check_owner(state: RoomState, owner: object) -> None:
    if owner and owner not in state.players:
        raise RuleError(f"There is no player with id {owner!r} in this room: the owner is a player's id, "
                        "or empty for an NPC.", key="error.room.no_player", owner=repr(owner))


def _no_temporary(char: Character) -> None:
    if any(c.temporary or c.extra for c in char.cliches):
        raise RuleError("Temporary clichés and extra dice come only from tickets during a contest.",
                        key="error.room.no_temporary")


@dataclass(frozen=True)
class CharacterArgs(Args):
    """``create_character`` and ``update_character``: the fields given (``Character.to_dict()``'s).

    The rules check them when the character is built (``Character.from_dict``).
    """

    NAMES = CHARACTER_FIELDS
    data: MappingProxyType[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def parse(cls, raw: Raw) -> CharacterArgs:
        return cls(MappingProxyType(dict(raw)))

    @property
    def uid(self) -> object:
        """The character's id as given (None when absent)."""
        return self.data.get("uid")


def players_create(state: RoomState, actor: Actor, args: CharacterArgs) -> None:
    if (args.data.get("owner") or actor.player_id) != actor.player_id:
        raise PermissionDenied("You can create characters only for yourself; the GM creates the others.",
                               key="error.permission.create_own")
    _gm_accepts(args.data.get("accepted") or [], [])
    if "lucky_left" in args.data and args.data["lucky_left"] != args.data.get("lucky_shots", 0):
        raise PermissionDenied("A new character starts with all the lucky shots it bought; only the GM sets "
                               "how many are left.", key="error.permission.lucky_left")


#: The texts the GM accepts (each +1 creation die), with their words.
_ACCEPTED_TEXTS = {"hook": Phrase("hook", "term.hook"), "tale": Phrase("tale", "term.tale")}


def _gm_accepts(after: object, before: list[str]) -> None:
    """What the GM accepts of a character's creation (a hook, a tale, over the budget) is the GM's to change."""
    if after != before:
        raise PermissionDenied("Only the GM accepts a hook, a tale or a character over the creation budget.",
                               key="error.permission.accept")


def _within_budget(state: RoomState, char: Character, before: Character | None = None) -> None:
    """A player character keeps to the table's creation budget, when there is one (NPCs have none);
    checked when it is made, and when a change moves what it costs."""
    if not char.owner:
        return
    if before is not None and creation_budget(before, state.profile) == creation_budget(char, state.profile) \
            and char.accepted == before.accepted:
        return
    check_budget(char, state.profile)


def plan_create_character(state: RoomState, actor: Actor, args: CharacterArgs, ctx: Context) -> list[Event]:
    data = dict(args.data)
    if actor.role is Role.PLAYER:
        data["owner"] = actor.player_id
    _check_owner(state, data.get("owner"))
    if data.get("uid") in state.characters:
        raise RuleError(f"There is already a character with id {data['uid']!r}: leave 'uid' out for a new one.",
                        key="error.room.character_exists", uid=repr(data["uid"]))
    char = Character.from_dict(data)
    _no_temporary(char)
    _within_budget(state, char)
    return [room_event("character_created", character=char.to_dict())]


def _uid(args: CharacterArgs) -> str:
    """The id a player's change names: text (the lookup then says whether the room knows it)."""
    uid = args.uid
    return required_id(uid if isinstance(uid, str) and uid else None, "uid")


def players_update(state: RoomState, actor: Actor, args: CharacterArgs) -> None:
    char = require_own(state, actor, _uid(args))
    if "owner" in args.data and args.data["owner"] != actor.player_id:
        raise PermissionDenied("Only the GM can give a character to someone else.", key="error.permission.give_away")
    if "accepted" in args.data:
        _gm_accepts(args.data["accepted"], char.accepted)
    for what, term in _ACCEPTED_TEXTS.items():  # the GM accepted that text: a new one is the GM's to accept
        if what in char.accepted and what in args.data and args.data[what] != getattr(char, what):
            raise PermissionDenied(f"The GM accepted this {what} as it is: ask the GM to change it.",
                                   key="error.permission.accepted_text", what=term)
    if "lucky_left" in args.data and args.data["lucky_left"] != char.lucky_left:
        raise PermissionDenied("Only the GM sets how many lucky shots are left; they refill at each new session.",
                               key="error.permission.lucky_refill")
    dice_of_a_veteran(state, char, args.data)


def plan_update_character(state: RoomState, actor: Actor, args: CharacterArgs, ctx: Context) -> list[Event]:
    char = room_character(state, args.uid)
    _unlocked(state, char, Phrase("edit it", "term.edit_it"))
    before = char.to_dict()
    if "owner" in args.data:
        _check_owner(state, args.data["owner"])
    after = Character.from_dict({**before, **args.data})
    _no_temporary(after)
    _within_budget(state, after, char)
    if after.to_dict() == before:
        raise RuleError(f"Nothing to change: {char.name} is already like that.", key="error.room.nothing_to_change",
                        name=char.name)
    return [room_event("character_updated", character=after.to_dict(), before=before)]


@dataclass(frozen=True)
class UidArgs(Args):
    """``remove_character``: the character's id."""

    uid: str | None = None

    @classmethod
    def parse(cls, raw: Raw) -> UidArgs:
        return cls(some_id(raw, "uid"))


def players_remove(state: RoomState, actor: Actor, args: UidArgs) -> None:
    require_own(state, actor, required_id(args.uid, "uid"))


def plan_remove_character(state: RoomState, actor: Actor, args: UidArgs, ctx: Context) -> list[Event]:
    char = room_character(state, args.uid)
    _unlocked(state, char, Phrase("remove it", "term.remove_it"))
    return [room_event("character_removed", character=char.to_dict())]


# ------------------------------------------------------------------------------ action_check --
@dataclass(frozen=True)
class CheckArgs(Args):
    """``action_check``: who rolls, from which cliché, against which target number, and how.

    ``tn``, ``suitability`` and ``adjustment`` are checked by the rules (``effective_tn``).
    """

    character: str | None = None
    cliche: object = None
    tn: object = None
    suitability: object = "suitable"
    adjustment: object = 0
    automatic: bool = False
    private: bool = False
    lucky: object = 0
    pump: object = 0

    @classmethod
    def parse(cls, raw: Raw) -> CheckArgs:
        return cls(some_id(raw, "character"), raw.get("cliche"), raw.get("tn"), raw.get("suitability", "suitable"),
                   raw.get("adjustment", 0), flag(raw, "automatic", False), flag(raw, "private", False),
                   raw.get("lucky", 0), raw.get("pump", 0))

    @property
    def in_secret(self) -> bool:
        return self.private


def players_check(state: RoomState, actor: Actor, args: CheckArgs) -> None:
    require_own(state, actor, required_id(args.character, "character"))
    if args.private:
        raise PermissionDenied("Only the GM can roll in secret.", key="error.permission.secret")
    if args.automatic:
        raise PermissionDenied("Only the GM can declare an action automatic.", key="error.permission.automatic")
    if args.adjustment:
        raise PermissionDenied("Only the GM can adjust the target number beyond suitability.",
                               key="error.permission.adjustment")


def plan_action_check(state: RoomState, actor: Actor, args: CheckArgs, ctx: Context) -> list[Event]:
    char = room_character(state, args.character)
    cliche = char.cliche(text(args.cliche, "cliche", _CLICHE))
    # as given: the rules refuse what is not a target number, a suitability or an adjustment
    tn, suitability, adjustment = cast(int, args.tn), cast(str, args.suitability), cast(int, args.adjustment)
    effective_tn(tn, suitability, adjustment)  # checks them all
    if not args.automatic and cliche.pool < 1:
        raise RuleError(f"{char.name}'s {cliche.name} has no dice left: choose another cliché or recover first.",
                        key="error.check.cliche_no_dice", name=char.name, cliche=cliche.name)
    lucky, pump = cast(int, args.lucky), cast(int, args.pump)  # as given: the rules judge them
    if lucky or pump:
        _spends_outside_contests(state, char)
    dice = ctx.dice
    check_extras(cliche, lucky=lucky, pump=pump, automatic=args.automatic, profile=state.profile, owner=char)
    if ctx.dry:
        return []
    if dice is None:  # pragma: no cover - the room always gives a check its dice
        raise ValueError("an action check needs dice")
    before = dice.next_roll
    result = action_check(cliche, tn, suitability=suitability, adjustment=adjustment, automatic=args.automatic,
                          lucky=lucky, pump=pump, dice=dice, profile=state.profile)
    drawn = isinstance(dice, CommittedDice) and dice.next_roll != before
    draw = {"scope": dice.scope, "roll": before} if isinstance(dice, CommittedDice) and drawn else None
    return [room_event("action_checked", character=char.uid, check=result.to_dict(), draw=draw,
                       private=args.private)]


def _spends_outside_contests(state: RoomState, char: Character) -> None:
    """Lucky shots and pumps in a check are for characters outside the contest on the table: within
    one, its replay restores them as they stood at its start, so what a check spent would not last."""
    if in_current_contest(state, char.uid):
        raise RuleError(f"{char.name} is in the contest on the table: spend lucky shots or pump on its rounds, "
                        "or roll this check without them.", key="error.check.spend_in_contest", name=char.name)


# --------------------------------------------------------------------------------- recover --
@dataclass(frozen=True)
class RecoverArgs(Args):
    """``recover``: whose dice come back, from which cliché (all when absent), how many (all)."""

    character: str | None = None
    cliche: object = None
    amount: object = None

    @classmethod
    def parse(cls, raw: Raw) -> RecoverArgs:
        return cls(some_id(raw, "character"), raw.get("cliche"), raw.get("amount"))


def plan_recover(state: RoomState, actor: Actor, args: RecoverArgs, ctx: Context) -> list[Event]:
    """Recovery of a character outside the current contest (inside it, the contest recovers)."""
    char = room_character(state, args.character)
    gains = recovery_gains(char, cast("str | None", args.cliche), cast("int | None", args.amount))  # it checks them
    return [room_event("recovered", gains=gains)]


def contest_recover(state: RoomState, actor: Actor, args: RecoverArgs) -> ContestCall:
    contest = current_contest(state)
    return ContestCall("recover", (contest_member(contest, args.character), args.cliche, args.amount))


def recovers_in_contest(state: RoomState, args: RecoverArgs) -> bool:
    """A character of the current contest recovers by the contest's rules."""
    return args.character is not None and in_current_contest(state, args.character)


SPECS: list[CommandSpec[Any]] = [  # each with its own arguments
    CommandSpec("create_character", CharacterArgs, players=players_create, plan=plan_create_character),
    CommandSpec("update_character", CharacterArgs, players=players_update, plan=plan_update_character),
    CommandSpec("remove_character", UidArgs, players=players_remove, plan=plan_remove_character),
    CommandSpec("action_check", CheckArgs, players=players_check, plan=plan_action_check, dice="checks"),
    CommandSpec("recover", RecoverArgs, gm_only=Phrase("restore spent dice", "term.gm.recover"), plan=plan_recover,
                contest=contest_recover, on_contest=recovers_in_contest),
]
