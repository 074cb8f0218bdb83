"""The commands the current contest runs: ids become the contest's objects, the contest decides.

Each returns the :class:`~raisus_panel.rules.Contest` method to call (:class:`~.spec.ContestCall`);
the room runs it on the live contest, which rolls, records and rolls back by itself, or asks the
contest's ``why_not`` for a dry run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from raisus_panel.rules import Character, CharacterTeam, RuleError
from raisus_panel.rules.errors import Phrase

from ..lookup import contest_member, contest_unit, current_contest, team_of
from ..permissions import require_own, require_own_unit
from ..projection import RoomState
from ..roles import Actor, PermissionDenied
from .spec import Args, CommandSpec, ContestCall, ContestStep, Member, Raw, flag, members, required_id, some_id, text
from .table import anyone

_CLICHE = Phrase("cliché", "term.cliche")
_UNIT = Phrase("unit", "term.unit")
_TEAM = Phrase("team", "term.team")


def client_seed_owner(actor: Actor | None) -> str:
    """Whose client seed an actor sets: a player's is theirs (by player id), the GM's is ``gm``."""
    return actor.player_id if actor is not None and actor.player_id else "gm"


def _call(method: str) -> ContestStep[Args]:
    """The step of a command that is the contest method ``method`` without arguments."""
    def step(state: RoomState, actor: Actor, args: Args) -> ContestCall:
        current_contest(state)
        return ContestCall(method)
    return step


# ------------------------------------------------------------------------------------ units --
@dataclass(frozen=True)
class UnitArgs(Args):
    """``approve``: the unit (character, mob or team) by its id."""

    unit: str | None = None

    @classmethod
    def parse(cls, raw: Raw) -> UnitArgs:
        return cls(some_id(raw, "unit", _UNIT))


@dataclass(frozen=True)
class ChooseArgs(UnitArgs):
    """``choose``: the unit, the cliché it rolls from now on, and whether that fits (and is approved)."""

    cliche: object = None
    appropriate: bool = True
    approved: bool = False

    @classmethod
    def parse(cls, raw: Raw) -> ChooseArgs:
        return cls(some_id(raw, "unit", _UNIT), raw.get("cliche"), flag(raw, "appropriate", True),
                   flag(raw, "approved", False))


def players_choose(state: RoomState, actor: Actor, args: ChooseArgs) -> None:
    require_own_unit(state, actor, contest_unit(current_contest(state), required_id(args.unit, "unit", _UNIT)))
    if args.approved:
        raise PermissionDenied("Only the GM can approve an inappropriate cliché: ask, and describe "
                               "it convincingly.", key="error.permission.approve")


def contest_choose(state: RoomState, actor: Actor, args: ChooseArgs) -> ContestCall:
    unit = contest_unit(current_contest(state), args.unit)
    return ContestCall("choose", (unit, text(args.cliche, "cliche", _CLICHE)),
                       {"appropriate": args.appropriate, "approved": args.approved})


def contest_approve(state: RoomState, actor: Actor, args: UnitArgs) -> ContestCall:
    return ContestCall("approve", (contest_unit(current_contest(state), args.unit),))


# ---------------------------------------------------------------------- pumps, lucky shots --
@dataclass(frozen=True)
class PumpArgs(UnitArgs):
    """``pump``: the unit about to roll, and how many points it pumps (the rules judge the number)."""

    amount: object = None

    @classmethod
    def parse(cls, raw: Raw) -> PumpArgs:
        return cls(some_id(raw, "unit", _UNIT), raw.get("amount"))


def players_pump(state: RoomState, actor: Actor, args: PumpArgs) -> None:
    contest = current_contest(state)
    unit = contest_unit(contest, required_id(args.unit, "unit", _UNIT))
    pumper = unit.lead if isinstance(unit, CharacterTeam) else unit  # a team pumps its leader: its player decides
    require_own(state, actor, pumper.uid)


def contest_pump(state: RoomState, actor: Actor, args: PumpArgs) -> ContestCall:
    return ContestCall("pump", (contest_unit(current_contest(state), args.unit), args.amount))


@dataclass(frozen=True)
class LuckyArgs(Args):
    """``spend_lucky``: whose lucky shots (a character id), and how many (the rules judge the number)."""

    character: str | None = None
    amount: object = None

    @classmethod
    def parse(cls, raw: Raw) -> LuckyArgs:
        return cls(some_id(raw, "character"), raw.get("amount"))


def players_lucky(state: RoomState, actor: Actor, args: LuckyArgs) -> None:
    require_own(state, actor, required_id(args.character, "character"))


def contest_lucky(state: RoomState, actor: Actor, args: LuckyArgs) -> ContestCall:
    return ContestCall("spend_lucky", (contest_member(current_contest(state), args.character), args.amount))


@dataclass(frozen=True)
class TeamArgs(Args):
    """``disband``: the team by its id."""

    team: str | None = None

    @classmethod
    def parse(cls, raw: Raw) -> TeamArgs:
        return cls(some_id(raw, "team", _TEAM))


def players_disband(state: RoomState, actor: Actor, args: TeamArgs) -> None:
    require_own_unit(state, actor, contest_unit(current_contest(state), required_id(args.team, "team", _TEAM)))


def contest_disband(state: RoomState, actor: Actor, args: TeamArgs) -> ContestCall:
    return ContestCall("disband", (contest_unit(current_contest(state), args.team),))


# ---------------------------------------------------------------------------------- tickets --
@dataclass(frozen=True)
class TicketArgs(Args):
    """``give_tickets``: the ticket's name, and which cliché fits each character given extra dice."""

    fitting: tuple[tuple[str, str], ...] = ()
    name: object = None

    @classmethod
    def parse(cls, raw: Raw) -> TicketArgs:
        fitting = raw.get("fitting") or {}
        if not isinstance(fitting, dict) or not all(isinstance(v, str) for v in fitting.values()):
            raise RuleError("'fitting' maps character ids to the name of their fitting cliché.",
                            key="error.room.fitting")
        return cls(tuple(fitting.items()), raw.get("name"))


def contest_tickets(state: RoomState, actor: Actor, args: TicketArgs) -> ContestCall:
    contest = current_contest(state)
    fitting = {contest_member(contest, uid): cliche for uid, cliche in args.fitting}
    return ContestCall("give_tickets", (fitting or None,), {"name": args.name})


# ----------------------------------------------------------------------------------- rounds --
def players_roll(state: RoomState, actor: Actor, args: Args) -> None:
    contest = current_contest(state)
    if not state.round_open:
        raise PermissionDenied("Wait for the GM to open the round: only the GM can roll before that.",
                               key="error.permission.round_closed")
    if not any(c.owner == actor.player_id for c in contest.characters()):
        raise PermissionDenied("Only players with a character in this contest can roll.",
                               key="error.permission.not_in_contest")


@dataclass(frozen=True)
class ExchangeArgs(Args):
    """``exchange``: who attacks whom (unit ids)."""

    attacker: str | None = None
    target: str | None = None

    @classmethod
    def parse(cls, raw: Raw) -> ExchangeArgs:
        return cls(some_id(raw, "attacker", _UNIT), some_id(raw, "target", _UNIT))


def contest_exchange(state: RoomState, actor: Actor, args: ExchangeArgs) -> ContestCall:
    contest = current_contest(state)
    return ContestCall("exchange", (contest_unit(contest, args.attacker), contest_unit(contest, args.target)))


# ------------------------------------------------------------------------------------ teams --
@dataclass(frozen=True)
class MemberArgs(Args):
    """``volunteer``, ``assign_loss``, ``drop_out``: a team member by its character id."""

    member: str | None = None

    @classmethod
    def parse(cls, raw: Raw) -> MemberArgs:
        return cls(some_id(raw, "member"))


def players_own_member(state: RoomState, actor: Actor, args: MemberArgs) -> None:
    require_own(state, actor, required_id(args.member, "member"))


def players_assign(state: RoomState, actor: Actor, args: MemberArgs) -> None:
    team = team_of(current_contest(state), required_id(args.member, "member"))
    if team is None:
        raise RuleError("That character is not in a character team.", key="error.room.not_in_team")
    leader = team.leader
    assert leader is not None  # a team always has one (CharacterTeam names it)
    if leader.owner != actor.player_id:
        raise PermissionDenied(f"Only the player of the team's leader ({leader.name}) can hand on "
                               "the hit.", key="error.permission.leader_assigns", name=leader.name)


def _member_step(method: str) -> ContestStep[MemberArgs]:
    def step(state: RoomState, actor: Actor, args: MemberArgs) -> ContestCall:
        return ContestCall(method, (contest_member(current_contest(state), args.member),))
    return step


@dataclass(frozen=True)
class FormArgs(Args):
    """``form_team``: its members (see :class:`~.spec.Member`), its leader on a tie, and a name."""

    members: tuple[Member, ...] = ()
    leader: object = None
    name: object = None

    @classmethod
    def parse(cls, raw: Raw) -> FormArgs:
        return cls(members(raw.get("members")), raw.get("leader"), raw.get("name"))


def players_form(state: RoomState, actor: Actor, args: FormArgs) -> None:
    for member in args.members:
        require_own(state, actor, member.character)


def contest_form(state: RoomState, actor: Actor, args: FormArgs) -> ContestCall:
    contest = current_contest(state)
    chosen: list[Character | tuple[Character, str, bool]] = [
        contest_member(contest, m.character) if m.cliche is None
        else (contest_member(contest, m.character), m.cliche, m.appropriate) for m in args.members]
    leader = contest_member(contest, args.leader) if args.leader is not None else None
    return ContestCall("form_team", (chosen, leader), {"name": args.name})


# ---------------------------------------------------------------------------- end and fates --
@dataclass(frozen=True)
class EndArgs(Args):
    """``end_contest``: the GM's narration of the end, and the winning side (0, 1, or None for none)."""

    outcome: object = ""
    winner: object = None

    @classmethod
    def parse(cls, raw: Raw) -> EndArgs:
        winner = raw.get("winner")
        if isinstance(winner, bool):
            raise RuleError("The winner is side 0, side 1, or None for no winner.", key="error.contest.winner")
        return cls(raw.get("outcome", ""), winner)


def contest_end(state: RoomState, actor: Actor, args: EndArgs) -> ContestCall:
    current_contest(state)
    return ContestCall("end", (args.outcome, args.winner))


@dataclass(frozen=True)
class FateArgs(Args):
    """``decide_fate``: whose fate, in a few words."""

    character: str | None = None
    text: object = ""

    @classmethod
    def parse(cls, raw: Raw) -> FateArgs:
        return cls(some_id(raw, "character"), raw.get("text", ""))


def players_fate(state: RoomState, actor: Actor, args: FateArgs) -> None:
    contest = current_contest(state)
    if contest.winner is None or not any(c.owner == actor.player_id for c in contest.characters(contest.winner)):
        raise PermissionDenied("Only the winners decide fates: none of your characters is on the "
                               "winning side.", key="error.permission.winners_only")


def contest_fate(state: RoomState, actor: Actor, args: FateArgs) -> ContestCall:
    return ContestCall("decide_fate", (contest_member(current_contest(state), args.character), args.text))


@dataclass(frozen=True)
class VetoArgs(Args):
    """``veto_fate``: whose decided fate the GM takes back."""

    character: str | None = None

    @classmethod
    def parse(cls, raw: Raw) -> VetoArgs:
        return cls(some_id(raw, "character"))


def contest_veto(state: RoomState, actor: Actor, args: VetoArgs) -> ContestCall:
    return ContestCall("veto_fate", (contest_member(current_contest(state), args.character),))


# ------------------------------------------------------------------------------------- dice --
@dataclass(frozen=True)
class SeedArgs(Args):
    """``set_client_seed``: the giver's own client seed (the rules check it)."""

    seed: object = None

    @classmethod
    def parse(cls, raw: Raw) -> SeedArgs:
        return cls(raw.get("seed"))


def contest_seed(state: RoomState, actor: Actor, args: SeedArgs) -> ContestCall:
    current_contest(state)
    return ContestCall("set_client_seed", (client_seed_owner(actor), args.seed))


SPECS: list[CommandSpec[Any]] = [  # each with its own arguments
    CommandSpec("choose", ChooseArgs, players=players_choose, contest=contest_choose),
    CommandSpec("approve", UnitArgs, gm_only=Phrase("approve an inappropriate cliché", "term.gm.approve"),
                state_bound=True, contest=contest_approve),
    # declared before a roll, for the roll the page showed coming
    CommandSpec("pump", PumpArgs, players=players_pump, state_bound=True, contest=contest_pump),
    CommandSpec("spend_lucky", LuckyArgs, players=players_lucky, state_bound=True, contest=contest_lucky),
    CommandSpec("give_tickets", TicketArgs, gm_only=Phrase("give tickets", "term.gm.give_tickets"),
                contest=contest_tickets),
    CommandSpec("roll_round", Args, players=players_roll, state_bound=True, contest=_call("roll_round")),
    CommandSpec("exchange", ExchangeArgs, players=players_roll, state_bound=True, contest=contest_exchange),
    CommandSpec("end_round", Args, gm_only=Phrase("end a round", "term.gm.end_round"), state_bound=True,
                contest=_call("end_round")),
    CommandSpec("volunteer", MemberArgs, players=players_own_member, state_bound=True,
                contest=_member_step("volunteer")),
    CommandSpec("assign_loss", MemberArgs, players=players_assign, state_bound=True,
                contest=_member_step("assign_loss")),
    CommandSpec("form_team", FormArgs, players=players_form, contest=contest_form),
    CommandSpec("disband", TeamArgs, players=players_disband, state_bound=True, contest=contest_disband),
    CommandSpec("drop_out", MemberArgs, players=players_own_member, state_bound=True,
                contest=_member_step("drop_out")),
    CommandSpec("end_contest", EndArgs, gm_only=Phrase("end a contest early", "term.gm.end_contest"),
                state_bound=True, contest=contest_end),
    CommandSpec("decide_fate", FateArgs, players=players_fate, contest=contest_fate),
    CommandSpec("veto_fate", VetoArgs, gm_only=Phrase("veto a fate", "term.gm.veto_fate"), state_bound=True,
                contest=contest_veto),
    # a player's own entropy, mixed into the dice: no move of the game, so never undone
    CommandSpec("set_client_seed", SeedArgs, players=anyone, undoable=False, contest=contest_seed),
    CommandSpec("reveal_dice", Args, gm_only=Phrase("reveal the dice's seed early", "term.gm.reveal_dice"),
                contest=_call("reveal_dice")),
]
