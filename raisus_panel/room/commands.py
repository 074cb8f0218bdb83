"""The room's commands: check the arguments against the room's state and say what should happen.

Room commands are *planned*: a plan reads the state, checks everything and returns the payloads of
the events to write, changing nothing (so a refused or dry-run command leaves no trace). Contest
commands are *prepared*: ids become the contest's objects and a call is returned that the room runs
on the live :class:`~raisus_panel.rules.Contest`, which rolls, records and rolls back by itself.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from collections.abc import Callable

from raisus_panel.rules import (
    Character, CharacterTeam, Contest, RuleError, RulesProfile, action_check, effective_tn,
)
from raisus_panel.rules.dice import CommittedDice, DiceSource
from raisus_panel.rules.errors import Phrase
from raisus_panel.rules.recovery import recovery_gains
from raisus_panel.rules.validation import clean_name, has_invisible

from .projection import RoomState, contest_summary
from .roles import Actor, Role

_PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
_CHARACTER_FIELDS = {"kind", "uid", "name", "description", "owner", "cliches", "member_rating", "count"}
_CLICHE = Phrase("cliché", "term.cliche")
#: What messages call a room's title.
ROOM_TITLE = Phrase("room title", "term.room_title")

#: Every command and the arguments it takes.
ARGUMENTS: dict[str, set[str]] = {
    "join": {"name", "player_id"},
    "set_title": {"title"},
    "create_character": _CHARACTER_FIELDS,
    "update_character": _CHARACTER_FIELDS,
    "remove_character": {"uid"},
    "action_check": {"character", "cliche", "tn", "suitability", "adjustment", "automatic", "private"},
    "start_contest": {"name", "side_a", "side_b", "teams", "single_roll", "profile"},
    "close_contest": set(),
    "open_round": {"open"},
    "recover": {"character", "cliche", "amount"},
    "undo": set(),
    "choose": {"unit", "cliche", "appropriate", "approved"},
    "approve": {"unit"},
    "give_tickets": {"fitting", "name"},
    "roll_round": set(),
    "exchange": {"attacker", "target"},
    "end_round": set(),
    "volunteer": {"member"},
    "assign_loss": {"member"},
    "form_team": {"members", "leader", "name"},
    "disband": {"team"},
    "drop_out": {"member"},
    "end_contest": {"outcome", "winner"},
    "decide_fate": {"character", "text"},
    "veto_fate": {"character"},
    "set_client_seed": {"seed"},
    "reveal_dice": set(),
    "reveal_checks": set(),
}

#: Other names accepted for a command (the Contest method's name).
ALIASES = {"end": "end_contest"}
#: ``save_character(data=Character.to_dict())`` creates the character, or updates it if its uid is known.
SAVE_CHARACTER = "save_character"


def new_player_id() -> str:
    """A fresh player id."""
    return uuid.uuid4().hex[:12]


def check_arguments(name: str, args, state: RoomState | None = None) -> tuple[str, dict]:
    """The command's canonical name and its arguments, or RuleError naming what is wrong.

    Aliases become their command (``end`` -> ``end_contest``; ``save_character`` -> create or
    update, by whether ``state`` knows the character's uid).
    """
    if not isinstance(name, str):
        raise RuleError(f"A command is named by text, not {name!r}.", key="error.room.command_not_text",
                        command=repr(name))
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RuleError(f"The arguments of {name} are a mapping of names to values.",
                        key="error.room.args_not_mapping", command=name)
    if name == SAVE_CHARACTER:
        if set(args) != {"data"} or not isinstance(args["data"], dict):
            raise RuleError("save_character takes 'data': the character as Character.to_dict() gives it.",
                            key="error.room.save_character_data")
        args = args["data"]
        known = state is not None and args.get("uid") in state.characters
        name = "update_character" if known else "create_character"
    name = ALIASES.get(name, name)
    if name not in ARGUMENTS:
        commands = ", ".join(sorted(ARGUMENTS))
        raise RuleError(f"Unknown command {name!r}; the commands are: {commands}.", key="error.room.unknown_command",
                        command=repr(name), commands=commands)
    unknown = set(args) - ARGUMENTS[name]
    if unknown:
        allowed = ", ".join(sorted(ARGUMENTS[name])) or Phrase("none", "term.none")
        names = ", ".join(sorted(map(str, unknown)))
        raise RuleError(f"{name} does not take {names} (it takes: {allowed}).", key="error.room.unknown_arguments",
                        command=name, names=names, allowed=allowed)
    return name, dict(args)


def _flag(args: dict, key: str, default: bool) -> bool:
    value = args.get(key, default)
    if not isinstance(value, bool):
        raise RuleError(f"'{key}' is true or false, not {value!r}.", key="error.room.not_flag", argument=key,
                        value=repr(value))
    return value


def _text(args: dict, key: str, what: Phrase) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value:
        raise RuleError(f"Say which {what} ('{key}').", key="error.room.say_which", what=what, argument=key)
    return value


def no_such_character(uid) -> RuleError:
    """The refusal of a character id the room does not know."""
    return RuleError(f"There is no character with id {uid!r} in this room.", key="error.room.no_character",
                     uid=repr(uid))


def _room_character(state: RoomState, uid) -> Character:
    char = state.characters.get(uid) if isinstance(uid, str) else None
    if char is None:
        raise no_such_character(uid)
    return char


def _in_current_contest(state: RoomState, uid: str) -> bool:
    contest = state.contest
    return contest is not None and any(c.uid == uid for c in contest.characters())


def _unlocked(state: RoomState, char: Character, what: Phrase) -> None:
    if _in_current_contest(state, char.uid):
        raise RuleError(f"{char.name} is in the current contest: {what} after the GM closes it.",
                        key="error.room.in_contest", name=char.name, what=what)


def _check_owner(state: RoomState, owner) -> None:
    if owner and owner not in state.players:
        raise RuleError(f"There is no player with id {owner!r} in this room: the owner is a player's id, "
                        "or empty for an NPC.", key="error.room.no_player", owner=repr(owner))


def _no_temporary(char: Character) -> None:
    if any(c.temporary or c.extra for c in char.cliches):
        raise RuleError("Temporary clichés and extra dice come only from tickets during a contest.",
                        key="error.room.no_temporary")


# ----------------------------------------------------------------------------- room commands --
#: Cyrillic and Greek letters drawn like Latin ones (after casefolding), read as those Latin letters.
#: A font draws Cyrillic "Аnn" exactly like "Ann": the table cannot tell them apart, so neither may
#: the room. A small hand-made table, not Unicode's full confusables list: it covers the letters of
#: these two scripts that pass for Latin in the fonts pages use, and leaves every other script alone.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "һ": "h",
    "ӏ": "l", "ԛ": "q", "ԝ": "w", "ү": "y", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j",
})


def name_key(name: str) -> str:
    """What makes two names the same to people reading them: case, width, spacing, invisible
    characters and Cyrillic or Greek letters that look Latin aside ("G\u200bM" is "GM", "Аnn" is "Ann")."""
    visible = "".join(ch for ch in unicodedata.normalize("NFKC", name) if not has_invisible(ch))
    return " ".join(visible.casefold().translate(_LOOKALIKES).split())


def same_name(a: str, b: str) -> bool:
    """Whether people would read ``a`` and ``b`` as the same name ("서연" and " 서연", "Ann" and "ANN")."""
    return name_key(a) == name_key(b)


def plan_join(state: RoomState, actor: Actor, args: dict, **_) -> list[dict]:
    name = clean_name(args.get("name") or actor.name, Phrase("player name", "term.player_name"))
    # a name tells players apart at the table (presence, owners, the log): a second one is refused,
    # so the person chooses how they differ ("서연 K") instead of getting a number they did not pick
    taken = next((n for pid, n in state.players.items() if same_name(n, name) and pid != actor.player_id), None)
    if taken is not None:
        raise RuleError(f"A player called {taken} is already in this room: add something to your name "
                        f"(an initial, a nickname) so people can tell you apart.", key="error.room.name_taken",
                        name=taken)
    requested = args.get("player_id")
    if actor.role is Role.PLAYER and actor.player_id:
        if requested not in (None, actor.player_id):
            raise RuleError("You join as yourself: leave out 'player_id'.", key="error.room.join_as_yourself")
        requested = actor.player_id
    player_id = requested or new_player_id()
    if not isinstance(player_id, str) or not _PLAYER_ID.fullmatch(player_id):
        raise RuleError(f"A player id is 1-40 letters, digits, '-' or '_'; not {player_id!r}.",
                        key="error.room.bad_player_id", player_id=repr(player_id))
    if player_id in state.players:
        raise RuleError(f"{state.players[player_id]} has already joined this room.", key="error.room.already_joined",
                        name=state.players[player_id])
    return [{"type": "player_joined", "player": {"player_id": player_id, "name": name}}]


def plan_set_title(state: RoomState, actor: Actor, args: dict, **_) -> list[dict]:
    title = clean_name(args.get("title"), ROOM_TITLE)
    if title == state.title:
        raise RuleError("The room already has that title.", key="error.room.same_title")
    return [{"type": "title_set", "title": title}]


def plan_create_character(state: RoomState, actor: Actor, args: dict, **_) -> list[dict]:
    data = dict(args)
    if actor.role is Role.PLAYER:
        data["owner"] = actor.player_id
    _check_owner(state, data.get("owner"))
    if data.get("uid") in state.characters:
        raise RuleError(f"There is already a character with id {data['uid']!r}: leave 'uid' out for a new one.",
                        key="error.room.character_exists", uid=repr(data["uid"]))
    char = Character.from_dict(data)
    _no_temporary(char)
    return [{"type": "character_created", "character": char.to_dict()}]


def plan_update_character(state: RoomState, actor: Actor, args: dict, **_) -> list[dict]:
    char = _room_character(state, args.get("uid"))
    _unlocked(state, char, Phrase("edit it", "term.edit_it"))
    before = char.to_dict()
    if "owner" in args:
        _check_owner(state, args["owner"])
    after = Character.from_dict({**before, **args})
    _no_temporary(after)
    if after.to_dict() == before:
        raise RuleError(f"Nothing to change: {char.name} is already like that.", key="error.room.nothing_to_change",
                        name=char.name)
    return [{"type": "character_updated", "character": after.to_dict(), "before": before}]


def plan_remove_character(state: RoomState, actor: Actor, args: dict, **_) -> list[dict]:
    char = _room_character(state, args.get("uid"))
    _unlocked(state, char, Phrase("remove it", "term.remove_it"))
    return [{"type": "character_removed", "character": char.to_dict()}]


def plan_action_check(state: RoomState, actor: Actor, args: dict, *, dice: DiceSource | None,
                      dry: bool = False, **_) -> list[dict]:
    char = _room_character(state, args.get("character"))
    cliche = char.cliche(_text(args, "cliche", _CLICHE))
    automatic, private = _flag(args, "automatic", False), _flag(args, "private", False)
    suitability = args.get("suitability", "suitable")
    effective_tn(args.get("tn"), suitability, args.get("adjustment", 0))  # checks them all
    if not automatic and cliche.pool < 1:
        raise RuleError(f"{char.name}'s {cliche.name} has no dice left: choose another cliché or recover first.",
                        key="error.check.cliche_no_dice", name=char.name, cliche=cliche.name)
    if dry:
        return []
    before = dice.next_roll
    result = action_check(cliche, args["tn"], suitability=suitability, adjustment=args.get("adjustment", 0),
                          automatic=automatic, dice=dice)
    drawn = isinstance(dice, CommittedDice) and dice.next_roll != before
    draw = {"scope": dice.scope, "roll": before} if drawn else None
    return [{"type": "action_checked", "character": char.uid, "check": result.to_dict(), "private": private,
             "draw": draw}]


def _team(state: RoomState, spec) -> tuple[int, CharacterTeam]:
    if not isinstance(spec, dict) or set(spec) - {"side", "members", "leader", "name"}:
        raise RuleError("A team is {'side': 0 or 1, 'members': [[id, cliché, appropriate], ...], "
                        "'leader': id (on a tie), 'name': optional}.", key="error.room.team_spec")
    side = spec.get("side")
    if side not in (0, 1) or isinstance(side, bool):
        raise RuleError("A team's 'side' is 0 (side A) or 1 (side B).", key="error.room.team_side")
    members = _member_specs(lambda uid: _room_character(state, uid), spec.get("members"))
    leader = spec.get("leader")
    leader = _room_character(state, leader) if leader is not None else None
    return side, CharacterTeam(members, leader=leader, name=spec.get("name"))


def _member_specs(lookup: Callable[[str], Character], members) -> list:
    if not isinstance(members, list) or not members:
        raise RuleError("List the team's members: [[id, cliché, appropriate], ...].", key="error.room.team_members")
    out = []
    for spec in members:
        if isinstance(spec, dict):  # {"character": id, "cliche": name, "appropriate": bool}
            if set(spec) - {"character", "cliche", "appropriate"} or "character" not in spec:
                raise RuleError(f"A team member is {{'character': id, 'cliche': name, 'appropriate': bool}}; "
                                f"not {spec!r}.", key="error.room.member_mapping", spec=repr(spec))
            spec = [spec["character"], spec["cliche"], spec.get("appropriate", True)] if "cliche" in spec else spec["character"]
        if isinstance(spec, str):
            out.append(lookup(spec))
        elif isinstance(spec, (list, tuple)) and len(spec) in (2, 3) and isinstance(spec[1], str):
            appropriate = spec[2] if len(spec) == 3 else True
            if not isinstance(appropriate, bool):
                raise RuleError("A member's 'appropriate' is true or false.", key="error.room.member_appropriate")
            out.append((lookup(spec[0]), spec[1], appropriate))
        else:
            raise RuleError(f"A team member is an id, [id, cliché, appropriate] or "
                            f"{{'character': id, 'cliche': name, 'appropriate': bool}}; not {spec!r}.",
                            key="error.room.member_spec", spec=repr(spec))
    return out


def plan_start_contest(state: RoomState, actor: Actor, args: dict, *, dice: DiceSource | None = None,
                       **_) -> list[dict]:
    """Start a contest; with committed ``dice`` its commitment follows the start (before any roll)."""
    payloads = []
    current = state.contest
    if current is not None:
        if current.status == "active":
            raise RuleError("A contest is running: end it (end_contest) before starting another.",
                            key="error.room.contest_running")
        payloads.append({"type": "contest_closed", "contest": current.uid, "summary": contest_summary(current)})
    sides: list[list] = [[], []]
    for i, key in enumerate(("side_a", "side_b")):
        uids = args.get(key, [])
        if not isinstance(uids, list):
            raise RuleError(f"'{key}' lists the ids of the characters on that side.", key="error.room.side_ids",
                            argument=key)
        sides[i] = [_room_character(state, uid) for uid in uids]
    teams = args.get("teams") or []
    if not isinstance(teams, list):
        raise RuleError("'teams' is a list of teams.", key="error.room.teams_list")
    for spec in teams:
        side, team = _team(state, spec)
        sides[side].append(team)
    profile = args.get("profile")
    profile = RulesProfile.from_dict(profile) if profile is not None else None
    committed = dice if isinstance(dice, CommittedDice) else None
    contest = Contest(args.get("name", "Contest"), sides[0], sides[1],
                      single_roll=_flag(args, "single_roll", False), profile=profile, dice=committed)
    payloads += [{"type": "contest", "contest": contest.uid, "event": e} for e in contest.events]
    return payloads


def plan_close_contest(state: RoomState, actor: Actor, args: dict, **_) -> list[dict]:
    contest = state.contest
    if contest is None:
        raise RuleError("There is no contest to close.", key="error.room.nothing_to_close")
    if contest.status == "active":
        raise RuleError("The contest is still running: play it out or end it (end_contest) first.",
                        key="error.room.still_running")
    return [{"type": "contest_closed", "contest": contest.uid, "summary": contest_summary(contest)}]


def plan_open_round(state: RoomState, actor: Actor, args: dict, **_) -> list[dict]:
    contest = state.contest
    if contest is None or contest.status != "active":
        raise RuleError("There is no running contest whose round could be opened.",
                        key="error.room.no_running_contest")
    want = _flag(args, "open", True)
    if want == state.round_open:
        if want:
            raise RuleError("The round is already open.", key="error.room.round_open")
        raise RuleError("The round is not open.", key="error.room.round_not_open")
    return [{"type": "round_opened", "open": want}]


def plan_recover(state: RoomState, actor: Actor, args: dict, **_) -> list[dict]:
    """Recovery of a character outside the current contest (inside it, the contest recovers)."""
    char = _room_character(state, args.get("character"))
    gains = recovery_gains(char, args.get("cliche"), args.get("amount"))
    return [{"type": "recovered", "gains": gains}]


def plan_reveal_checks(state: RoomState, actor: Actor, args: dict, *, pending: list[dict] | None = None,
                       **_) -> list[dict]:
    """The GM reveals the checks sessions' seeds: ``pending`` are the reveals the room can write (every
    checks commitment of its log not yet revealed whose seed it kept), each as private as its commitment."""
    if not pending:
        raise RuleError("There is no committed seed to reveal.", key="error.dice.nothing_to_reveal")
    return [dict(p) for p in pending]


#: Commands the room plans itself (``undo`` is the room's own: it needs the whole log).
ROOM_PLANS = {
    "join": plan_join, "set_title": plan_set_title, "create_character": plan_create_character,
    "update_character": plan_update_character, "remove_character": plan_remove_character,
    "action_check": plan_action_check, "start_contest": plan_start_contest,
    "close_contest": plan_close_contest, "open_round": plan_open_round, "recover": plan_recover,
    "reveal_checks": plan_reveal_checks,
}


# ---------------------------------------------------------------------------- contest commands --
def current_contest(state: RoomState) -> Contest:
    """The current contest, or RuleError when there is none."""
    contest = state.contest
    if contest is None:
        raise RuleError("There is no contest right now: the GM starts one first.", key="error.room.no_contest")
    return contest


def contest_unit(contest: Contest, uid):
    """The unit (character, mob or team) with id ``uid`` on a side of ``contest``."""
    for side in contest.sides:
        for unit in side:
            if unit.uid == uid:
                return unit
    raise RuleError(f"There is no unit with id {uid!r} in this contest.", key="error.room.no_unit", uid=repr(uid))


def _member(contest: Contest, uid) -> Character:
    for char in contest.characters():
        if char.uid == uid:
            return char
    raise RuleError(f"There is no character with id {uid!r} in this contest.", key="error.room.no_contest_character",
                    uid=repr(uid))


def client_seed_owner(actor: Actor | None) -> str:
    """Whose client seed an actor sets: a player's is theirs (by player id), the GM's is ``gm``."""
    return actor.player_id if actor is not None and actor.player_id else "gm"


def prepare_contest_command(state: RoomState, name: str, args: dict,
                            actor: Actor | None = None) -> tuple[str, tuple, dict]:
    """The current contest's method for command ``name`` and its arguments, ids mapped to objects.

    Returns ``(method name, positional args, keyword args)`` for ``getattr(contest, method)(...)``
    or ``contest.why_not(method, ...)``. ``actor`` is who gives it (a client seed is their own).
    """
    contest = current_contest(state)
    if name == "set_client_seed":
        return "set_client_seed", (client_seed_owner(actor), args.get("seed")), {}
    if name == "reveal_dice":
        return "reveal_dice", (), {}
    if name == "choose":
        return "choose", (contest_unit(contest, args.get("unit")), _text(args, "cliche", _CLICHE)), {
            "appropriate": _flag(args, "appropriate", True), "approved": _flag(args, "approved", False)}
    if name in ("approve", "disband"):
        return name, (contest_unit(contest, args.get("team" if name == "disband" else "unit")),), {}
    if name == "give_tickets":
        fitting = args.get("fitting") or {}
        if not isinstance(fitting, dict) or not all(isinstance(v, str) for v in fitting.values()):
            raise RuleError("'fitting' maps character ids to the name of their fitting cliché.",
                            key="error.room.fitting")
        fitting = {_member(contest, uid): cliche for uid, cliche in fitting.items()}
        return "give_tickets", (fitting or None,), {"name": args.get("name")}
    if name in ("roll_round", "end_round"):
        return name, (), {}
    if name == "exchange":
        return "exchange", (contest_unit(contest, args.get("attacker")), contest_unit(contest, args.get("target"))), {}
    if name in ("volunteer", "assign_loss", "drop_out"):
        return name, (_member(contest, args.get("member")),), {}
    if name == "form_team":
        members = _member_specs(lambda uid: _member(contest, uid), args.get("members"))
        leader = args.get("leader")
        leader = _member(contest, leader) if leader is not None else None
        return "form_team", (members, leader), {"name": args.get("name")}
    if name == "end_contest":
        winner = args.get("winner")
        if isinstance(winner, bool):
            raise RuleError("The winner is side 0, side 1, or None for no winner.", key="error.contest.winner")
        return "end", (args.get("outcome", ""), winner), {}
    if name == "decide_fate":
        return "decide_fate", (_member(contest, args.get("character")), args.get("text", "")), {}
    if name == "veto_fate":
        return "veto_fate", (_member(contest, args.get("character")),), {}
    if name == "recover":
        return "recover", (_member(contest, args.get("character")), args.get("cliche"), args.get("amount")), {}
    raise ValueError(f"{name} is not a contest command.")  # pragma: no cover - a caller's bug


CONTEST_COMMANDS = frozenset({
    "choose", "approve", "give_tickets", "roll_round", "exchange", "end_round", "volunteer",
    "assign_loss", "form_team", "disband", "drop_out", "end_contest", "decide_fate", "veto_fate",
    "set_client_seed", "reveal_dice",
})


def runs_on_contest(state: RoomState, name: str, args: dict) -> bool:
    """Whether command ``name`` is run by the current contest (``recover`` is, for its characters)."""
    if name == "recover":
        uid = args.get("character")
        return isinstance(uid, str) and _in_current_contest(state, uid)
    return name in CONTEST_COMMANDS
