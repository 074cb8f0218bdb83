"""The table's own commands: joining, the room's title, starting and closing contests, rounds, undo."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from raisus_panel.rules import CharacterTeam, CommittedDice, Contest, RuleError, RulesProfile
from raisus_panel.rules.contest_queries import Unit
from raisus_panel.rules.errors import Phrase
from raisus_panel.rules.validation import clean_name

from ..events import Event, room_event
from ..lookup import room_character
from ..projection import RoomState, contest_summary
from ..roles import Actor, Role
from .names import PLAYER_ID, new_player_id, same_name
from .spec import Args, CommandSpec, Context, Member, Raw, flag, members

#: What messages call a room's title.
ROOM_TITLE = Phrase("room title", "term.room_title")
_PLAYER_NAME = Phrase("player name", "term.player_name")


def anyone(state: RoomState, actor: Actor, args: Args) -> None:
    """Every player may (once joined, unless the declaration says ``before_joining``)."""


# ------------------------------------------------------------------------------------ join --
@dataclass(frozen=True)
class JoinArgs(Args):
    """``join``: the player's name (the actor's when absent) and, for the GM adding someone, an id."""

    name: object = None
    player_id: object = None

    @classmethod
    def parse(cls, raw: Raw) -> JoinArgs:
        return cls(raw.get("name"), raw.get("player_id"))


def plan_join(state: RoomState, actor: Actor, args: JoinArgs, ctx: Context) -> list[Event]:
    name = clean_name(args.name or actor.name, _PLAYER_NAME)
    # a name tells players apart at the table (presence, owners, the log): a second one is refused,
    # so the person chooses how they differ ("서연 K") instead of getting a number they did not pick
    taken = next((n for pid, n in state.players.items() if same_name(n, name) and pid != actor.player_id), None)
    if taken is not None:
        raise RuleError(f"A player called {taken} is already in this room: add something to your name "
                        f"(an initial, a nickname) so people can tell you apart.", key="error.room.name_taken",
                        name=taken)
    requested = args.player_id
    if actor.role is Role.PLAYER and actor.player_id:
        if requested not in (None, actor.player_id):
            raise RuleError("You join as yourself: leave out 'player_id'.", key="error.room.join_as_yourself")
        requested = actor.player_id
    player_id = requested or new_player_id()
    if not isinstance(player_id, str) or not PLAYER_ID.fullmatch(player_id):
        raise RuleError(f"A player id is 1-40 letters, digits, '-' or '_'; not {player_id!r}.",
                        key="error.room.bad_player_id", player_id=repr(player_id))
    if player_id in state.players:
        raise RuleError(f"{state.players[player_id]} has already joined this room.", key="error.room.already_joined",
                        name=state.players[player_id])
    return [room_event("player_joined", player={"player_id": player_id, "name": name})]


# ------------------------------------------------------------------------------- set_title --
@dataclass(frozen=True)
class TitleArgs(Args):
    """``set_title``: the new title (cleaned as a name when decided)."""

    title: object = None

    @classmethod
    def parse(cls, raw: Raw) -> TitleArgs:
        return cls(raw.get("title"))


def plan_set_title(state: RoomState, actor: Actor, args: TitleArgs, ctx: Context) -> list[Event]:
    title = clean_name(args.title, ROOM_TITLE)
    if title == state.title:
        raise RuleError("The room already has that title.", key="error.room.same_title")
    return [room_event("title_set", title=title)]


# --------------------------------------------------------------------------- start_contest --
@dataclass(frozen=True)
class TeamSpec:
    """A team a contest starts with: its side, members, leader (on a tie) and name."""

    side: int
    members: tuple[Member, ...]
    leader: object = None
    name: object = None

    @classmethod
    def parse(cls, spec: object) -> TeamSpec:
        if not isinstance(spec, dict) or set(spec) - {"side", "members", "leader", "name"}:
            raise RuleError("A team is {'side': 0 or 1, 'members': [[id, cliché, appropriate], ...], "
                            "'leader': id (on a tie), 'name': optional}.", key="error.room.team_spec")
        side = spec.get("side")
        if not isinstance(side, int) or isinstance(side, bool) or side not in (0, 1):
            raise RuleError("A team's 'side' is 0 (side A) or 1 (side B).", key="error.room.team_side")
        return cls(side, members(spec.get("members")), spec.get("leader"), spec.get("name"))


@dataclass(frozen=True)
class StartArgs(Args):
    """``start_contest``: its name, the ids on each side, the teams, and its options."""

    name: object = "Contest"
    side_a: tuple[object, ...] = ()
    side_b: tuple[object, ...] = ()
    teams: tuple[TeamSpec, ...] = ()
    single_roll: bool = False
    profile: object = None

    @classmethod
    def parse(cls, raw: Raw) -> StartArgs:
        sides = []
        for key in ("side_a", "side_b"):
            uids = raw.get(key, [])
            if not isinstance(uids, list):
                raise RuleError(f"'{key}' lists the ids of the characters on that side.", key="error.room.side_ids",
                                argument=key)
            sides.append(tuple(uids))
        teams = raw.get("teams") or []
        if not isinstance(teams, list):
            raise RuleError("'teams' is a list of teams.", key="error.room.teams_list")
        return cls(raw.get("name", "Contest"), sides[0], sides[1], tuple(TeamSpec.parse(t) for t in teams),
                   flag(raw, "single_roll", False), raw.get("profile"))


def plan_start_contest(state: RoomState, actor: Actor, args: StartArgs, ctx: Context) -> list[Event]:
    """Start a contest; with committed dice its commitment follows the start (before any roll)."""
    payloads = []
    current = state.contest
    if current is not None:
        if current.status == "active":
            raise RuleError("A contest is running: end it (end_contest) before starting another.",
                            key="error.room.contest_running")
        payloads.append(room_event("contest_closed", contest=current.uid, summary=contest_summary(current)))
    sides: list[list[Unit]] = [[room_character(state, uid) for uid in args.side_a],
                               [room_character(state, uid) for uid in args.side_b]]
    for team in args.teams:
        chosen = [room_character(state, m.character) if m.cliche is None
                  else (room_character(state, m.character), m.cliche, m.appropriate) for m in team.members]
        leader = room_character(state, team.leader) if team.leader is not None else None
        # the rules clean the names (clean_name), whatever was sent
        sides[team.side].append(CharacterTeam(chosen, leader=leader, name=cast("str | None", team.name)))
    profile = RulesProfile.from_dict(args.profile) if args.profile is not None else state.profile
    committed = ctx.dice if isinstance(ctx.dice, CommittedDice) else None
    contest = Contest(cast(str, args.name), sides[0], sides[1], single_roll=args.single_roll, profile=profile, dice=committed)
    payloads += [room_event("contest", contest=contest.uid, event=e) for e in contest.events]
    return payloads


# --------------------------------------------------------------------- close / open / undo --
def plan_close_contest(state: RoomState, actor: Actor, args: Args, ctx: Context) -> list[Event]:
    contest = state.contest
    if contest is None:
        raise RuleError("There is no contest to close.", key="error.room.nothing_to_close")
    if contest.status == "active":
        raise RuleError("The contest is still running: play it out or end it (end_contest) first.",
                        key="error.room.still_running")
    return [room_event("contest_closed", contest=contest.uid, summary=contest_summary(contest))]


@dataclass(frozen=True)
class OpenArgs(Args):
    """``open_round``: open it (the default) or close it again."""

    open: bool = True

    @classmethod
    def parse(cls, raw: Raw) -> OpenArgs:
        return cls(flag(raw, "open", True))


def plan_open_round(state: RoomState, actor: Actor, args: OpenArgs, ctx: Context) -> list[Event]:
    contest = state.contest
    if contest is None or contest.status != "active":
        raise RuleError("There is no running contest whose round could be opened.",
                        key="error.room.no_running_contest")
    if args.open == state.round_open:
        if args.open:
            raise RuleError("The round is already open.", key="error.room.round_open")
        raise RuleError("The round is not open.", key="error.room.round_not_open")
    return [room_event("round_opened", open=args.open)]


def plan_reveal_checks(state: RoomState, actor: Actor, args: Args, ctx: Context) -> list[Event]:
    """The GM reveals the checks sessions' seeds: every checks commitment of the log not yet revealed
    whose seed the room kept (``ctx.pending``), each as private as its commitment."""
    pending = ctx.pending()
    if not pending:
        raise RuleError("There is no committed seed to reveal.", key="error.dice.nothing_to_reveal")
    return [dict(p) for p in pending]


SPECS: list[CommandSpec[Any]] = [  # each with its own arguments
    CommandSpec("join", JoinArgs, players=anyone, before_joining=True, undoable=False, plan=plan_join),
    CommandSpec("set_title", TitleArgs, gm_only=Phrase("rename the room", "term.gm.set_title"), plan=plan_set_title),
    CommandSpec("start_contest", StartArgs, gm_only=Phrase("start a contest", "term.gm.start_contest"),
                plan=plan_start_contest, dice="contest"),
    CommandSpec("close_contest", Args, gm_only=Phrase("close a contest", "term.gm.close_contest"),
                plan=plan_close_contest),
    CommandSpec("open_round", OpenArgs, gm_only=Phrase("open a round for the players to roll", "term.gm.open_round"),
                state_bound=True, plan=plan_open_round),
    # the room's own: it needs the whole log (neither planned nor run on the contest)
    CommandSpec("undo", Args, gm_only=Phrase("undo", "term.gm.undo"), state_bound=True, undoable=False),
    CommandSpec("reveal_checks", Args, gm_only=Phrase("reveal the action checks' seed", "term.gm.reveal_checks"),
                plan=plan_reveal_checks),
]
