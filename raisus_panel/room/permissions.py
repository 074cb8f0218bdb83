"""Who may do what in a room: checked on every command, in the room, never only in the UI.

The GM may do everything. A spectator may do nothing but watch (presence is not a command). A
player acts for the characters they own -- the table, one row per command:

==================  ======================================================================
command             a player may ...
==================  ======================================================================
join                register themselves (once)
create_character    create a character they own (``owner`` is theirs or left empty)
update_character    edit their own character (not give it away); once it has been in a
                    contest, only its name and description: its clichés, ratings and
                    current dice are the GM's (a player must not restore lost dice)
remove_character    remove their own character
action_check        roll for their own character, in the open (no secret roll, no
                    automatic success, no TN adjustment: those are the GM's)
choose              pick the cliché of their own unit; an inappropriate one waits for the GM
roll_round          roll, once the GM opened the round (``open_round``), if one of their
exchange            characters is in the contest
volunteer, drop_out for their own team member
assign_loss         hand on a hit, if they play the team's leader ("leader assigns" option)
form_team, disband  with (of) their own characters only; the GM teams up anyone
decide_fate         when one of their characters is on the winning side
set_client_seed     set their own client seed (mixed into the dice), before the first roll
==================  ======================================================================

GM only: ``set_title``, ``start_contest``, ``close_contest``, ``open_round``, ``approve``,
``give_tickets``, ``end_round``, ``end_contest``, ``veto_fate``, ``recover``, ``undo``,
``reveal_dice``, ``reveal_checks``, and the secret, automatic or adjusted forms of ``action_check``.

Why ``open_round``: in Risus the GM says when a round is rolled. Rather than let any player roll at
any moment, the GM opens the round; it closes by itself when the round is decided (or ended, or the
contest ends), so each opening allows one round.
"""

from __future__ import annotations

from raisus_panel.rules import Character, CharacterTeam, RuleError
from raisus_panel.rules.errors import Phrase

from .commands import contest_unit, current_contest, no_such_character
from .roles import Actor, PermissionDenied, Role

#: What each GM-only command does, for "Only the GM can ..." messages.
GM_ONLY = {
    "set_title": Phrase("rename the room", "term.gm.set_title"),
    "start_contest": Phrase("start a contest", "term.gm.start_contest"),
    "close_contest": Phrase("close a contest", "term.gm.close_contest"),
    "open_round": Phrase("open a round for the players to roll", "term.gm.open_round"),
    "approve": Phrase("approve an inappropriate cliché", "term.gm.approve"),
    "give_tickets": Phrase("give tickets", "term.gm.give_tickets"),
    "end_round": Phrase("end a round", "term.gm.end_round"),
    "end_contest": Phrase("end a contest early", "term.gm.end_contest"),
    "veto_fate": Phrase("veto a fate", "term.gm.veto_fate"),
    "recover": Phrase("restore spent dice", "term.gm.recover"),
    "undo": Phrase("undo", "term.gm.undo"),
    "reveal_dice": Phrase("reveal the dice's seed early", "term.gm.reveal_dice"),
    "reveal_checks": Phrase("reveal the action checks' seed", "term.gm.reveal_checks"),
}

_CHARACTER = Phrase("character", "term.character")
_UNIT = Phrase("unit", "term.unit")
_TEAM = Phrase("team", "term.team")
_OWNERS = {False: Phrase("the GM (an NPC)", "term.owner.gm"), True: Phrase("another player", "term.owner.player")}


def _only_the_gm(action) -> PermissionDenied:
    return PermissionDenied(f"Only the GM can {action}.", key="error.permission.gm_only", action=action)


def _text_id(args: dict, key: str, what: Phrase = _CHARACTER) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value:
        raise RuleError(f"Say which {what} ('{key}': its id).", key="error.room.say_which_id", what=what,
                        argument=key)
    return value


def _character(state, uid: str) -> Character:
    char = state.characters.get(uid)
    if char is None:
        raise no_such_character(uid)
    return char


def _require_own(state, actor: Actor, uid: str) -> Character:
    char = _character(state, uid)
    if char.owner != actor.player_id:
        whose = _OWNERS[bool(char.owner)]
        raise PermissionDenied(f"You can act only for your own characters: {char.name} belongs to {whose}.",
                               key="error.permission.not_yours", name=char.name, whose=whose)
    return char


def _members(unit) -> list[Character]:
    return list(unit.members) if isinstance(unit, CharacterTeam) else [unit]


def _team_of(contest, uid: str) -> CharacterTeam | None:
    for side in contest.sides:
        for unit in side:
            if isinstance(unit, CharacterTeam) and any(m.uid == uid for m in unit.members):
                return unit
    return None


#: What a character change may touch besides its dice: a player may still change these after a contest.
WORDS = frozenset({"name", "description"})


def character_changes(before: dict, after: dict) -> list[dict]:
    """What changed between two ``Character.to_dict()`` forms, one entry per change, in words a log can show.

    Each entry is ``{"field", "cliche", "from", "to"}``: ``field`` is ``name``, ``description``,
    ``owner``, ``kind``, ``member_rating``, ``count``, ``rating``, ``current``, ``extra``,
    ``temporary`` (of ``cliche``), or ``cliche`` itself for a cliché added (``from`` None) or removed
    (``to`` None). A ``character_updated`` event keeps ``before`` and the new ``character``, so a log
    names who (the event's actor) changed what (this).
    """
    out = []
    for field in ("name", "description", "owner", "kind", "member_rating", "count"):
        if before.get(field) != after.get(field):
            out.append({"field": field, "cliche": None, "from": before.get(field), "to": after.get(field)})
    old = {c["name"]: c for c in before.get("cliches", [])}
    new = {c["name"]: c for c in after.get("cliches", [])}
    for cname, c in old.items():
        if cname not in new:
            out.append({"field": "cliche", "cliche": cname, "from": c, "to": None})
            continue
        for field in ("rating", "current", "extra", "temporary"):
            if c.get(field) != new[cname].get(field):
                out.append({"field": field, "cliche": cname, "from": c.get(field), "to": new[cname].get(field)})
    out += [{"field": "cliche", "cliche": cname, "from": None, "to": c} for cname, c in new.items() if cname not in old]
    return out


def has_been_in_contest(past_contests: list[dict], uid: str) -> bool:
    """Whether the character ``uid`` took part in one of the closed contests (their summaries)."""
    return any(uid in summary.get("characters", ()) for summary in past_contests)


def _dice_of_a_veteran(state, char: Character, args: dict) -> None:
    """Refuse a player's change to the dice of a character that has been in a contest."""
    if not has_been_in_contest(state.past, char.uid):
        return
    before = char.to_dict()
    try:
        after = Character.from_dict({**before, **args}).to_dict()
    except RuleError:
        return  # not a character at all: the command's own check says what is wrong
    if any(change["field"] not in WORDS for change in character_changes(before, after)):
        raise PermissionDenied(f"{char.name} has been in a contest: only the GM changes its clichés and dice "
                               "now. You may still change its name and description; ask the GM for the rest.",
                               key="error.permission.veteran_dice", name=char.name)


def _player_rules(state, actor: Actor, name: str, args: dict) -> None:
    """Raise PermissionDenied unless the player ``actor`` may run ``name`` with ``args``."""
    me = actor.player_id
    if name in GM_ONLY:
        raise _only_the_gm(GM_ONLY[name])
    if name == "join":
        return
    if not me or me not in state.players:
        raise PermissionDenied("Join the room first (with your name), then act for your characters.",
                               key="error.permission.join_first")
    if name == "create_character":
        if (args.get("owner") or me) != me:
            raise PermissionDenied("You can create characters only for yourself; the GM creates the others.",
                                   key="error.permission.create_own")
    elif name == "update_character":
        char = _require_own(state, actor, _text_id(args, "uid"))
        if "owner" in args and args["owner"] != me:
            raise PermissionDenied("Only the GM can give a character to someone else.",
                                   key="error.permission.give_away")
        _dice_of_a_veteran(state, char, args)
    elif name == "remove_character":
        _require_own(state, actor, _text_id(args, "uid"))
    elif name == "action_check":
        _require_own(state, actor, _text_id(args, "character"))
        if args.get("private"):
            raise PermissionDenied("Only the GM can roll in secret.", key="error.permission.secret")
        if args.get("automatic"):
            raise PermissionDenied("Only the GM can declare an action automatic.", key="error.permission.automatic")
        if args.get("adjustment", 0):
            raise PermissionDenied("Only the GM can adjust the target number beyond suitability.",
                                   key="error.permission.adjustment")
    elif name == "choose":
        for member in _members(contest_unit(current_contest(state), _text_id(args, "unit", _UNIT))):
            _require_own(state, actor, member.uid)
        if args.get("approved"):
            raise PermissionDenied("Only the GM can approve an inappropriate cliché: ask, and describe "
                                   "it convincingly.", key="error.permission.approve")
    elif name in ("roll_round", "exchange"):
        contest = current_contest(state)
        if not state.round_open:
            raise PermissionDenied("Wait for the GM to open the round: only the GM can roll before that.",
                                   key="error.permission.round_closed")
        if not any(c.owner == me for c in contest.characters()):
            raise PermissionDenied("Only players with a character in this contest can roll.",
                                   key="error.permission.not_in_contest")
    elif name in ("volunteer", "drop_out"):
        _require_own(state, actor, _text_id(args, "member"))
    elif name == "assign_loss":
        team = _team_of(current_contest(state), _text_id(args, "member"))
        if team is None:
            raise RuleError("That character is not in a character team.", key="error.room.not_in_team")
        if team.leader.owner != me:
            raise PermissionDenied(f"Only the player of the team's leader ({team.leader.name}) can hand on "
                                   "the hit.", key="error.permission.leader_assigns", name=team.leader.name)
    elif name == "form_team":
        members = args.get("members")
        if not isinstance(members, list) or not members:
            raise RuleError("List the team's members ('members').", key="error.room.list_members")
        for spec in members:
            uid = spec[0] if isinstance(spec, (list, tuple)) and spec else spec
            uid = uid.get("character") if isinstance(uid, dict) else uid
            _require_own(state, actor, uid if isinstance(uid, str) else "")
    elif name == "disband":
        for member in _members(contest_unit(current_contest(state), _text_id(args, "team", _TEAM))):
            _require_own(state, actor, member.uid)
    elif name == "decide_fate":
        contest = current_contest(state)
        if contest.winner is None or not any(c.owner == me for c in contest.characters(contest.winner)):
            raise PermissionDenied("Only the winners decide fates: none of your characters is on the "
                                   "winning side.", key="error.permission.winners_only")
    elif name == "set_client_seed":
        pass  # their own seed: the command names no one else's (the room sets it for the actor)
    else:  # a command with no rule for players is the GM's
        raise _only_the_gm(name.replace("_", " "))


def authorize(state, actor: Actor, name: str, args: dict) -> None:
    """Raise :class:`PermissionDenied` unless ``actor`` may run command ``name`` with ``args``.

    ``state`` is the room's :class:`~.projection.RoomState`. Arguments that name nothing in the room
    raise :class:`RuleError`. Rules (is it the right moment, is the cliché at 0) are checked later
    by the command itself, for every role.
    """
    if not isinstance(actor, Actor):
        raise PermissionDenied("A command needs an actor (who is asking).", key="error.permission.no_actor")
    if actor.role is Role.GM:
        return
    if actor.role is Role.SPECTATOR:
        raise PermissionDenied("Spectators watch; they cannot act.", key="error.permission.spectator")
    _player_rules(state, actor, name, args)
