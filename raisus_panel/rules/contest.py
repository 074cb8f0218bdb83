"""Contests (대결): two sides, rounds, ties, damage, defeat, teams and fates -- event-sourced.

Every method that changes a contest is a *command*: it checks the rules first (a refused command raises
:class:`RuleError` and changes nothing), rolls any dice, turns what happened into *events*, and applies
them. The events are the truth; everything else on the contest and on its characters is their
projection, so a contest can be saved, loaded, replayed and undone exactly.

:class:`Contest` holds the commands -- the rules that decide -- and composes one module per other job:

* ``contest_state.py`` -- :class:`ContestProjection`: how each event changes the state, the chart history;
* ``contest_queries.py`` -- :class:`ContestQueries`: lookups and where things stand (``is_active``, ``pool``...);
* ``dry_run.py`` -- :class:`DryRun`: ``why_not``, ``why_not_error`` and ``can``, by the commands themselves;
* ``contest_log.py`` -- :class:`EventLog`: committing a command's events, rollback, ``undo``, ``from_events``;
* ``save.py`` -- :class:`ContestSave`: ``to_json`` and ``from_json``;
* ``events.py`` -- the shape of every event.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import param

from .character import Character, check_lucky, new_uid
from .character import lucky_shots as _shots
from .cliche import Cliche
from .commitment import SCHEME
from .contest_log import EventLog
from .contest_queries import ContestQueries, Unit
from .contest_state import ContestProjection
from .dice import CommittedDice, DiceSource, SeededDice, clean_client_seed, seeds_fixed
from .dry_run import DryRun
from .errors import Phrase, RuleError
from .events import make_event
from .profile import RulesProfile
from .recovery import recovery_gains
from .save import ContestSave
from .team import CharacterTeam
from .validation import clean_name, clean_text, whole_number

#: Safety net for tie re-rolls: fair dice tie this often in a row with probability far below 1e-300.
MAX_TIE_REROLLS = 400

#: How the rules name the sides in messages (as the UI does: "Side A", "Side B").
_SIDE = (Phrase("Side A", "side.0"), Phrase("Side B", "side.1"))
#: The team actions of the volunteer window, for its messages.
_VOLUNTEER = Phrase("volunteer", "term.volunteering")
_TAKE_THE_HIT = Phrase("take the hit", "term.taking_the_hit")


def _cliche_at_zero(unit: Character, cliche: Cliche) -> RuleError:
    return RuleError(f"{unit.name}'s {cliche.name} is at 0 and cannot be used: choose another cliché.",
                     key="error.contest.cliche_at_zero", name=unit.name, cliche=cliche.name)


class Contest(EventLog, DryRun, ContestQueries, ContestProjection, ContestSave, param.Parameterized):
    """A contest between two sides, played round by round.

    Each side holds units: characters, grunt mobs and character teams. Use :meth:`choose` to pick a
    unit's cliché, :meth:`roll_round` to play a round (or :meth:`exchange` and :meth:`end_round` when a
    side has several units), and the team commands :meth:`volunteer`, :meth:`disband`,
    :meth:`drop_out` and :meth:`form_team` between rounds. When a side has no active unit left the
    contest ends; the winners :meth:`decide_fate` of the fallen, and the GM may :meth:`recover`
    spent dice. :meth:`undo` takes back the last command.

    Parameters
    ----------
    name
        The kind of contest ("Martial-arts bout", "피 튀기는 난투"); tickets are named after it.
    side_a, side_b
        A unit or a list of units for each side.
    single_roll
        One round decides the contest (한방 대결).
    profile
        The rules options; :class:`RulesProfile` defaults when omitted.
    dice
        The dice source; a :class:`SeededDice` from the operating system when omitted.
    uid
        The contest's id in events and saves; made up when omitted.
    event_sink
        Called with each command's new events before the command returns (see the parameter).

    Notes
    -----
    After the contest has ended only the commands in :attr:`AFTER_END` are taken. One command runs
    at a time: a command given while another command of this contest is still running (from the
    dice source, ``event_sink`` or a watcher) is refused with ``error.contest.busy``
    (``contest_log.py``).

    Examples
    --------
    >>> from raisus_panel.rules import ScriptedDice
    >>> viking = Character("Viking", {"Viking": 4}); pirate = Character("Pirate", {"Pirate": 3})
    >>> contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6, 5, 1, 1], [4, 4, 4]]))
    >>> _ = contest.roll_round()
    >>> pirate.cliche("Pirate").current, contest.round
    (2, 1)
    """

    uid = param.String(default="", doc="""A stable id for events and saves.""")

    name = param.String(default="", constant=False, doc="""
        What kind of contest this is; it decides which clichés are appropriate and names tickets.""")

    single_roll = param.Boolean(default=False, constant=True, doc="""
        True for a single-roll contest: one decided round ends it.""")

    profile = param.ClassSelector(class_=RulesProfile, default=RulesProfile(), doc="""
        The rules options this contest is played by.""")

    dice = param.ClassSelector(class_=DiceSource, precedence=-1, doc="""
        Where the dice come from. Events keep the faces, so replaying never needs it.""")

    status: param.Selector[str] = param.Selector(default="active", objects=["active", "ended"], doc="""
        "active" while rounds can be played; "ended" once a side has no active unit or the GM ended it.""")

    round = param.Integer(default=0, bounds=(0, None), doc="""
        How many rounds have been decided. The next roll belongs to round ``round + 1``.""")

    sides = param.List(default=[[], []], doc="""
        The two sides, each a list of units (characters, grunt mobs, character teams).""")

    winner = param.Integer(default=None, allow_None=True, doc="""
        Index (0 or 1) of the side that won, once the contest has ended with a winner.""")

    outcome = param.String(default="", doc="""
        The GM's narration when a contest was ended early.""")

    owed_fates = param.List(default=[], item_type=str, doc="""
        Uids of the characters whose fate the winners decide: defeated or dropped-out characters of
        the losing side and dropped-out characters of either side.""")

    fates = param.Dict(default={}, doc="""
        The fates written so far, by character uid.""")

    events = param.List(default=[], doc="""
        The event log: the truth of this contest. Replaced (never mutated) after every command.""")

    history = param.List(default=[], doc="""
        One point per decided round (and per between-round event) for charts: ``round``, ``x``,
        ``kind``, ``scores`` (series key -> score) and details.""")

    series = param.Dict(default={}, doc="""
        The chart series in play so far: key ``"<character uid>:<cliché>"`` -> display label.""")

    last_roll = param.Dict(default=None, allow_None=True, doc="""
        The latest ``round_decided`` event, for showing the dice.""")

    event_sink = param.Callable(default=None, precedence=-1, doc="""
        Called with each command's new events after they apply and before the command returns (a
        room stores them here). If it raises, the command is rolled back and the error re-raised.""")

    def __init__(self, name: str = "Contest", side_a: Unit | Iterable[Unit] = (),
                 side_b: Unit | Iterable[Unit] = (), *, single_roll: bool = False,
                 profile: RulesProfile | None = None, dice: DiceSource | None = None,
                 uid: str | None = None, event_sink: Callable[..., Any] | None = None, _events: list[Any] | None = None,
                 _characters: dict[str, Any] | None = None) -> None:
        super().__init__(uid=uid or new_uid(), profile=profile or RulesProfile(),
                         dice=dice or SeededDice(), event_sink=event_sink, single_roll=single_roll)  # type: ignore[no-untyped-call]  # Parameterized.__init__ takes **params untyped
        self._objects: dict[str, Character] = dict(_characters or {})
        self._teams: dict[str, CharacterTeam] = {}
        if _events is not None:
            self._events = [copy.deepcopy(e) for e in _events]
            self._replay()
            return
        start = self._start_event(clean_name(name, Phrase("contest name", "term.contest_name")), side_a, side_b)
        self._events = []
        self._cmd = 0
        self._commit_new(lambda: self._then_end(lambda: self._starting(start)))

    def _starting(self, start: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The start, then the commitment of committed dice, before anything can be rolled."""
        yield start
        yield from self._commitment_events()

    # ------------------------------------------------------------------ construction and replay --
    def _start_event(self, name: str, side_a: Unit | Iterable[Unit], side_b: Unit | Iterable[Unit]) -> dict[str, Any]:
        sides: list[list[str]] = []
        characters: dict[str, Character] = {}
        teams: list[dict[str, Any]] = []
        for raw in (side_a, side_b):
            units = [raw] if isinstance(raw, (Character, CharacterTeam)) else list(raw)
            if not units:
                raise RuleError("Each side of a contest needs at least one character, mob or team.",
                                key="error.contest.empty_side")
            side = []
            for unit in units:
                if isinstance(unit, CharacterTeam):
                    for m in unit.members:
                        characters.setdefault(m.uid, m)
                    self._teams[unit.uid] = unit
                    teams.append(unit.to_dict())
                elif isinstance(unit, Character):
                    characters.setdefault(unit.uid, unit)
                else:
                    raise RuleError(f"A side holds characters, grunt mobs and teams, not {unit!r}.",
                                    key="error.contest.bad_unit", unit=repr(unit))
                side.append(unit.uid)
            sides.append(side)
        for char in characters.values():
            if not any(c.pool > 0 for c in char.cliches) and not any(char in t.members for t in self._teams.values()):
                raise RuleError(f"{char.name} has no cliché with dice left: recover or add a cliché first.",
                                key="error.contest.no_dice", name=char.name)
        all_ids = [uid for side in sides for uid in side]
        member_ids = [m["character"] for t in teams for m in t["members"]]
        if len(set(all_ids + member_ids)) != len(all_ids + member_ids):
            raise RuleError("A character can be in a contest only once (on one side, in at most one team).",
                            key="error.contest.twice")
        self._objects.update(characters)
        return make_event("contest_started", contest=self.uid, name=name, single_roll=self.single_roll,
                          profile=self.profile.to_dict(), sides=sides, teams=teams,
                          characters=[c.to_dict() for c in characters.values()])

    # ------------------------------------------------------------------------ the command gate --
    #: The commands, by name: what :meth:`can` and :meth:`why_not` (and a room) accept.
    COMMANDS = ("choose", "approve", "pump", "spend_lucky", "give_tickets", "roll_round", "exchange", "end_round", "volunteer",
                "assign_loss", "form_team", "disband", "drop_out", "end", "decide_fate", "veto_fate",
                "recover", "set_client_seed", "reveal_dice", "undo")

    #: The commands that roll dice: committed dice are (re)committed to before their plan runs.
    ROLLING = frozenset({"roll_round", "exchange"})

    #: Committed dice this contest renewed away from (their seeds must reach the log all the same).
    _retired: tuple[Any, ...] = ()

    #: Commitments handed to :meth:`reveal_also`: revealed even if the dice drew nothing since.
    _reveal_anyway: frozenset[Any] = frozenset()

    #: The commands still allowed once the contest has ended: the winners write fates (the GM may
    #: veto them), the GM restores spent dice, and the last command can be taken back.
    AFTER_END = frozenset({"decide_fate", "veto_fate", "recover", "undo"})

    def _admit(self, command: str) -> None:
        """Refuse ``command`` if the contest is in no state to take it at all: busy, or ended.

        A dry run is not refused as busy here: ``why_not_error`` has already answered "busy" while
        a command changes the contest, and answers about the published state after that.
        """
        if not self._dry_run:
            self._refuse_if_busy()  # first: a half-made state cannot judge the rest
        if self._status == "ended" and command not in self.AFTER_END:
            raise RuleError("This contest has ended: start a new contest to roll again.", key="error.contest.ended")

    def _command(self, command: str, plan: Callable[..., Any]) -> list[dict[str, Any]]:
        """Give ``command``: ``plan`` is a generator function that checks, rolls and yields its events.

        While dry-running (:mod:`.dry_run`) only the plan's checks run; otherwise the events are
        committed to the log, followed by the end of the contest when they ended it.
        """
        self._admit(command)
        if self._dry_run:
            self._check_only(plan)
            return []
        return self._commit_new(lambda: self._then_end(plan, rolls=command in self.ROLLING))

    def _then_end(self, plan: Callable[[], Iterable[dict[str, Any]]], *, rolls: bool = False) -> Iterator[dict[str, Any]]:
        """The plan's events, then ``contest_ended`` if they left a side with no active unit.

        A generator, so the end is judged only after the plan's events have been applied. Before a
        command that ``rolls``, committed dice are committed to (again, if need be); once the
        contest has ended, their seed is revealed.
        """
        if rolls:
            yield from self._commitment_events()
        yield from plan()
        yield from self._check_end()
        if self._status == "ended":
            yield from self._reveal_events()

    # ------------------------------------------------------------------------ committed dice --
    @property
    def dice_commitment(self) -> dict[str, Any] | None:
        """The commitment in force in the log (committed dice), or None: a copy of ``commitment``,
        ``scope``, ``first_roll``, ``client_seeds``, ``rolled`` and ``revealed``."""
        session = self._dice_session
        return None if session is None else {**session, "client_seeds": dict(session["client_seeds"])}

    def _current_commitment(self) -> dict[str, Any] | None:
        """The log's commitment in force, if this contest's dice are the ones it committed to."""
        session, dice = self._dice_session, self.dice
        if (session is None or session["revealed"] or not isinstance(dice, CommittedDice)
                or dice.commitment != session["commitment"]):
            return None
        return session

    def _commitment_events(self) -> Iterator[dict[str, Any]]:
        """``dice_committed`` before committed dice roll, if the log has no commitment they can roll under.

        Fresh dice are bound to this contest. Dice whose seed was revealed (early, or by an end that
        was undone), whose client seeds an undo changed after they rolled, or that the log does not
        know (loaded without its secret seed) are renewed: a new seed, the roll counter going on.
        Before renewing, the old seed is written to the log if it committed or rolled anything and the
        log does not reveal it yet, so every die it gave can still be checked.
        """
        dice = self.dice
        if self._dry_run or not isinstance(dice, CommittedDice):
            return
        session = self._dice_session
        current = self._current_commitment()
        if current is not None and not dice.revealed and (
                not dice.rolled or dice.client_seeds == current["client_seeds"]):
            dice.use_client_seeds(current["client_seeds"])
            return
        yield from self._reveal_events()
        seeds = dict(session["client_seeds"]) if session else dice.client_seeds
        fresh = session is None and not dice.revealed and not dice.rolled and dice.scope in (None, self.uid)
        if fresh:
            dice.scope = self.uid
            dice.use_client_seeds(seeds)
        else:
            self._retired = (*self._retired, dice)[-8:]  # an undo may take their reveals back
            dice = dice.renewed(scope=self.uid, client_seeds=seeds, first_roll=self._next_roll)
            self.dice = dice
        yield make_event("dice_committed", commitment=dice.commitment, scheme=SCHEME, scope=dice.scope,
                         first_roll=dice.next_roll, client_seeds=dice.client_seeds)

    def roll_on_with(self, dice: CommittedDice) -> None:
        """Roll on with ``dice``: a room restoring the commitment its log holds in force.

        The dice replaced still reveal their seed with the others if they committed or rolled
        anything (an undo may have taken back the commitment they rolled under).
        """
        own = self.dice
        if isinstance(own, CommittedDice) and own.commitment == dice.commitment:
            dice.next_roll = max(own.next_roll, dice.next_roll)  # the log's client seeds, the later counter
            if own.revealed:
                dice.reveal()
        else:
            self.reveal_also(own)
        self.dice = dice

    def reveal_also(self, *dice: DiceSource | None) -> None:
        """Reveal the seeds of ``dice`` too, when this contest reveals its own (at the end, or the
        GM's ``reveal_dice``): committed dice of this contest that an undo took back from its log."""
        known = {d.commitment for d in self._retired if isinstance(d, CommittedDice)}
        fresh = [d for d in dice if isinstance(d, CommittedDice) and d.commitment not in known]
        self._retired = (*self._retired, *fresh)[-8:]
        self._reveal_anyway = self._reveal_anyway | {d.commitment for d in fresh}

    @property
    def commitments_held(self) -> set[str]:
        """The commitments of the dice this contest holds: in force, and to reveal with them."""
        return {d.commitment for d in (*self._retired, self.dice) if isinstance(d, CommittedDice)}

    def _reveal_event(self, dice: CommittedDice) -> dict[str, Any]:
        return make_event("dice_revealed", commitment=dice.commitment, seed=dice.reveal(),
                          next_roll=max(dice.next_roll, self._next_roll))

    def _to_reveal(self) -> list[CommittedDice]:
        """This contest's dice that committed or rolled something whose seed the log does not reveal:
        the dice in force, and dice renewed away after an undo took their reveal back."""
        out: dict[str, CommittedDice] = {}
        for dice in [*self._retired, self.dice]:
            if (isinstance(dice, CommittedDice) and dice.scope == self.uid and dice.commitment not in self._revealed
                    and (dice.rolled or dice.commitment in self._commitments | self._reveal_anyway)):
                out[dice.commitment] = dice  # the latest copy of a commitment knows its last roll
        return list(out.values())

    def _reveal_events(self) -> Iterator[dict[str, Any]]:
        for dice in self._to_reveal():
            yield self._reveal_event(dice)

    def set_client_seed(self, who: str, seed: str) -> list[dict[str, Any]]:
        """A player's own entropy: ``seed`` is mixed into every die of the commitment in force.

        Client seeds are fixed before the first roll of a commitment: the server committed to its
        seed before it saw them, so it cannot steer the dice even knowing its own seed.

        Parameters
        ----------
        who
            Whose seed it is (a room uses the player's id).
        seed
            Any words or characters, one line.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            Without committed dice (``error.dice.not_committed``), once a die of the commitment has
            been rolled (``error.dice.seeds_fixed``), or for a seed that is not one line of text.
        """
        def _plan_seed() -> Iterator[dict[str, Any]]:
            name, text = clean_client_seed(who, seed)
            current = self._current_commitment()
            if current is None:
                raise RuleError("These dice are not committed dice: there is no commitment to add a seed to.",
                                key="error.dice.not_committed")
            if current["rolled"] or (isinstance(self.dice, CommittedDice) and self.dice.rolled):
                raise seeds_fixed()
            yield make_event("client_seed_set", who=name, seed=text)
        return self._command("set_client_seed", _plan_seed)

    def reveal_dice(self) -> list[dict[str, Any]]:
        """The GM reveals the seed before the contest ends; the next roll commits to a new seed first.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When there is no unrevealed commitment of these dice (``error.dice.nothing_to_reveal``).
        """
        def _plan_reveal() -> Iterator[dict[str, Any]]:
            if not self._to_reveal():
                raise RuleError("There is no committed seed to reveal.", key="error.dice.nothing_to_reveal")
            if not self._dry_run:
                yield from self._reveal_events()
            else:
                yield {"type": "dice_revealed"}
        return self._command("reveal_dice", _plan_reveal)

    # --------------------------------------------------------------------------- commands: setup --
    def choose(self, unit: Unit | str, cliche: str, *, appropriate: bool = True, approved: bool = False) -> list[dict[str, Any]]:
        """Pick the cliché a character or grunt mob rolls from now on (switching between rounds).

        An inappropriate cliché needs the GM's approval (``approved=True`` or :meth:`approve`) before
        it can roll.

        Parameters
        ----------
        unit
            A character or grunt mob of this contest: object, uid or name (a team's clichés are fixed
            when it forms).
        cliche
            The name of one of its clichés with dice left.
        appropriate
            Whether the cliché fits the kind of contest.
        approved
            The GM's approval of an inappropriate cliché, given at once.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_choose() -> Iterator[dict[str, Any]]:
            uid = self._resolve_unit(unit)
            obj = self._unit(uid)
            if isinstance(obj, CharacterTeam):
                raise RuleError("A team's clichés are fixed when it forms; disband and re-form to change them.",
                                key="error.team.cliches_fixed")
            if not self.is_active(uid):
                raise RuleError(f"{obj.name} is out of this contest and cannot choose a cliché.",
                                key="error.contest.out_choose", name=obj.name)
            pick = obj.cliche(cliche)
            if pick.pool < 1:
                raise _cliche_at_zero(obj, pick)
            yield make_event("cliche_chosen", unit=uid, cliche=pick.name, appropriate=bool(appropriate),
                             approved=bool(approved) and not appropriate)
        return self._command("choose", _plan_choose)

    def approve(self, unit: Unit | str) -> list[dict[str, Any]]:
        """The GM approves a unit's inappropriate cliché (or a team whose members are all inappropriate).

        Parameters
        ----------
        unit
            A unit of this contest waiting for approval: object, uid or name.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_approve() -> Iterator[dict[str, Any]]:
            uid = self._resolve_unit(unit)
            if not self.needs_approval(uid):
                raise RuleError(f"{self._unit(uid).name} has no inappropriate cliché waiting for approval.",
                                key="error.contest.nothing_to_approve", name=self._unit(uid).name)
            yield make_event("approved", unit=uid)
        return self._command("approve", _plan_approve)

    def pump(self, unit: Unit | str, amount: int) -> list[dict[str, Any]]:
        """Pump the cliché a unit rolls next by ``amount``: +``amount`` dice on its next roll (twice that
        for a double-pump cliché), and the cliché loses ``amount`` once that roll is decided, won or
        lost (the "pumps" option, RULES.md section 11). ``amount=0`` takes a pump back.

        Pumped dice are extra dice, not score: a revenge bonus doubles a leader's score, not its pump.
        A team pumps its leader's cliché. The pump stays through tie re-rolls and is paid once.

        Parameters
        ----------
        unit
            A character, grunt mob or team of this contest about to roll: object, uid or name.
        amount
            How many points to pump: from 0 to the cliché's score − 1 (no pump from 1).

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_pump() -> Iterator[dict[str, Any]]:
            if not self.profile.pumps:
                raise RuleError("Pumps are not in this game's rules: the GM turns them on in the rules options.",
                                key="error.pump.off")
            if self.single_roll:
                raise RuleError("There are no pumps in a single-roll contest.", key="error.pump.single_roll")
            uid = self._resolve_unit(unit)
            obj = self._unit(uid)
            if not self.is_active(uid):
                raise RuleError(f"{obj.name} is out of this contest and cannot pump.",
                                key="error.pump.out", name=obj.name)
            char, cliche = self._pumped_cliche(uid)
            points = whole_number(amount, Phrase("pump", "term.pump"), low=0, high=10_000)
            if points > cliche.pool - 1:
                raise RuleError(f"{char.name}'s {cliche.name} is at {cliche.pool}: it can pump at most "
                                f"{max(cliche.pool - 1, 0)} (no pump from 1).", key="error.pump.too_much",
                                name=char.name, cliche=cliche.name, score=cliche.pool, most=max(cliche.pool - 1, 0))
            yield make_event("pumped", unit=uid, amount=points)
        return self._command("pump", _plan_pump)

    def _pumped_cliche(self, uid: str) -> tuple[Character, Cliche]:
        """Who pumps for a unit, and which cliché: a team's leader with its team cliché."""
        obj = self._unit(uid)
        if isinstance(obj, CharacterTeam):
            return obj.lead, obj.cliche_of(obj.lead)
        return obj, self._chosen_or_refused(obj)

    def _chosen_or_refused(self, char: Character) -> Cliche:
        """The cliché ``char`` uses in this contest; refused while it has not chosen one."""
        cliche = self.chosen(char)
        if cliche is None:
            names = ", ".join(c.name for c in char.cliches if c.pool > 0)
            raise RuleError(f"Choose which cliché {char.name} uses ({names}).", key="error.contest.choose_cliche",
                            name=char.name, choices=names)
        return cliche

    def spend_lucky(self, character: Character | str, amount: int) -> list[dict[str, Any]]:
        """Spend lucky shots on a character's next roll in this contest: +1 die each (the "lucky shots"
        option, RULES.md section 11). In a team, any active member may spend its own on the team's
        roll. They stay in force through tie re-rolls and are spent once, when the roll is decided.
        ``amount=0`` takes them back.

        Parameters
        ----------
        character
            A character of this contest whose unit is about to roll: object, uid or name.
        amount
            How many lucky shots, at most those it has left.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_lucky() -> Iterator[dict[str, Any]]:
            if not self.profile.lucky_shots:
                raise RuleError("Lucky shots are not in this game's rules: the GM turns them on in the rules options.",
                                key="error.lucky.off")
            char = self._resolve_character(character)
            team = self._team_of(char)
            unit = team.uid if team else char.uid
            if not self.is_active(unit) or (team is not None and not team.is_active(char)):
                raise RuleError(f"{char.name} is out of this contest and cannot spend lucky shots.",
                                key="error.lucky.out", name=char.name)
            points = whole_number(amount, Phrase("lucky shots", "term.lucky_shots"), low=0, high=10_000)
            check_lucky(char, points)
            yield make_event("lucky_declared", character=char.uid, unit=unit, amount=points)
        return self._command("spend_lucky", _plan_lucky)

    def give_tickets(self, fitting: Mapping[Character | str, str] | None = None, *,
                     name: str | None = None) -> list[dict[str, Any]]:
        """Give everyone in the scene a temporary cliché rated 2, named after the contest.

        Only before the first roll and before teams form, when nobody has a cliché that fits. The
        temporary clichés vanish when the contest ends.

        Parameters
        ----------
        fitting
            With the "brevet" option only: characters who do have a fitting cliché -> its name; they
            get +2 temporary dice on it instead.
        name
            The ticket's name; the contest's name when omitted.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_tickets() -> Iterator[dict[str, Any]]:
            if self._rolled:
                raise RuleError("Tickets are handed out when a contest is about to start, not after a roll.",
                                key="error.tickets.after_roll")
            if self._tickets:
                raise RuleError("Tickets were already given in this contest.", key="error.tickets.already")
            if any(u in self._teams for side in self._side_ids for u in side):
                raise RuleError("Give tickets before forming teams: the teams then form with the ticket clichés.",
                                key="error.tickets.before_teams")
            ticket = clean_name(name or self._name, Phrase("ticket name", "term.ticket_name"))
            brevet = []
            if fitting:
                if self.profile.tickets != "brevet":
                    raise RuleError("Fitting clichés get extra dice only with the 'brevet' tickets option.",
                                    key="error.tickets.brevet_only")
                for named, cliche_name in fitting.items():
                    char = self._resolve_character(named)
                    brevet.append({"character": char.uid, "cliche": char.cliche(cliche_name).name})
            boosted = {b["character"] for b in brevet}
            temporary = [c.uid for c in self.characters() if c.uid not in boosted]
            for uid in temporary:
                if self._objects[uid].has_cliche(ticket):
                    raise RuleError(f"{self._objects[uid].name} already has a cliché called {ticket!r}: "
                                    "give the ticket another name.", key="error.tickets.name_taken",
                                    name=self._objects[uid].name, cliche=repr(ticket))
            yield make_event("tickets_given", cliche=ticket, rating=self.profile.ticket_rating,
                             temporary=temporary, brevet=brevet)
        return self._command("give_tickets", _plan_tickets)

    # ------------------------------------------------------------------------ commands: rounds --
    def roll_round(self) -> list[dict[str, Any]]:
        """Play one round between the two sides' units (one active unit per side).

        Ties are re-rolled in the same round until one side wins; only that roll counts. The loser
        loses 1 from the cliché it used, or 3 if the winner used an approved inappropriate cliché.
        A team's leader knocked to 0 with nobody volunteering first loses the team (lost leader).

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_round() -> Iterator[dict[str, Any]]:
            yield from self._close_window()
            if self._a_side_has_fallen():
                return
            units = [self._single_active(0), self._single_active(1)]
            yield self._decide_exchange(units, closes_round=True)
            yield from self._costs_paid(units)
        return self._command("roll_round", _plan_round)

    def exchange(self, attacker: Unit | str, target: Unit | str) -> list[dict[str, Any]]:
        """One exchange of a round when a side has several units: ``attacker`` against ``target``.

        Damage applies at once, so later exchanges of the round use the new scores. Call
        :meth:`end_round` when the GM has played the round's exchanges.

        Parameters
        ----------
        attacker, target
            Active units of opposite sides: object, uid or name.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_exchange() -> Iterator[dict[str, Any]]:
            yield from self._close_window()
            if self._a_side_has_fallen():
                return
            a, b = self._resolve_unit(attacker), self._resolve_unit(target)
            if self._side_of(a) == self._side_of(b):
                raise RuleError("An exchange is between units of opposite sides.", key="error.contest.same_side")
            for uid in (a, b):
                if not self.is_active(uid):
                    raise RuleError(f"{self._unit(uid).name} is out of the contest and cannot take part.",
                                    key="error.contest.out_exchange", name=self._unit(uid).name)
            if self.single_roll:
                raise RuleError("A single-roll contest is one roll between two units: use roll_round().",
                                key="error.contest.single_roll_exchange")
            ordered = [a, b] if self._side_of(a) == 0 else [b, a]
            yield self._decide_exchange(ordered, closes_round=False)
            yield from self._costs_paid(ordered)
        return self._command("exchange", _plan_exchange)

    def end_round(self) -> list[dict[str, Any]]:
        """Close a round played as exchanges; the next exchange belongs to the next round.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_end_round() -> Iterator[dict[str, Any]]:
            if self._exchanges == 0:
                raise RuleError("No exchange has been played in this round yet.", key="error.contest.no_exchange")
            yield from self._close_window()
            yield make_event("round_ended", round=self._rounds + 1)
        return self._command("end_round", _plan_end_round)

    def _a_side_has_fallen(self) -> bool:
        return not all(self.active_units(s) for s in (0, 1))

    def _single_active(self, side: int) -> str:
        active = [u for u in self._side_ids[side] if self.is_active(u)]
        if len(active) != 1:
            names = ", ".join(self._unit(u).name for u in active)
            raise RuleError(f"{_SIDE[side]} has {len(active)} active units ({names}): play the round as "
                            "exchanges (exchange(attacker, target), then end_round()), or form a team.",
                            key="error.contest.needs_exchanges", side=_SIDE[side], count=len(active), names=names)
        return active[0]

    def _roll_spec(self, uid: str) -> dict[str, Any]:
        """Check a unit may roll and say what it rolls."""
        obj = self._unit(uid)
        if isinstance(obj, CharacterTeam):
            if obj.inappropriate and not obj.approved:
                raise RuleError(f"Every member of {obj.name} uses an inappropriate cliché: the GM must approve first.",
                                key="error.team.needs_approval", team=obj.name)
            leader_cliche = obj.cliche_of(obj.lead)
            return {"unit": uid, "character": obj.lead.uid, "cliche": leader_cliche.name,
                    "inappropriate": obj.inappropriate, "revenge": obj.revenge,
                    "pool": self.pool(uid), "helpers": [m.uid for m in obj.helpers]}
        cliche = self._chosen_or_refused(obj)
        if cliche.pool < 1:
            raise _cliche_at_zero(obj, cliche)
        choice = self._choice.get(obj.uid, {"appropriate": True, "approved": False})
        if not choice["appropriate"] and not choice["approved"]:
            raise RuleError(f"{obj.name}'s {cliche.name} is inappropriate here: describe it convincingly "
                            "and get the GM's approval before rolling.", key="error.contest.needs_approval",
                            name=obj.name, cliche=cliche.name)
        return {"unit": uid, "character": obj.uid, "cliche": cliche.name,
                "inappropriate": not choice["appropriate"], "revenge": False, "pool": cliche.pool,
                "helpers": []}

    def _with_bonus(self, spec: dict[str, Any]) -> dict[str, Any]:
        """A roll spec with the unit's pump and lucky shots in force added to its dice (checked again:
        an exchange or a check since may have lowered what they were declared on)."""
        uid = spec["unit"]
        pump, lucky = self._pumps.get(uid, 0), self._lucky.get(uid, {})
        if not pump and not any(lucky.values()):
            return spec
        char, cliche = self._pumped_cliche(uid)
        if pump > cliche.pool - 1:
            raise RuleError(f"{char.name}'s {cliche.name} is at {cliche.pool} now: pump again, at most "
                            f"{max(cliche.pool - 1, 0)}.", key="error.pump.now_too_much", name=char.name,
                            cliche=cliche.name, score=cliche.pool, most=max(cliche.pool - 1, 0))
        for who, points in lucky.items():
            if points > self._objects[who].lucky_left:
                name = self._objects[who].name
                raise RuleError(f"{name} has only {_shots(self._objects[who].lucky_left)} left now: "
                                "spend them again.", key="error.lucky.now_too_many", name=name,
                                left=self._objects[who].lucky_left)
        extra = pump * cliche.dice_per_pump + sum(lucky.values())
        return {**spec, "pool": spec["pool"] + extra, "pump": pump, "lucky": sum(lucky.values())}

    def _costs_paid(self, units: list[str]) -> Iterator[dict[str, Any]]:
        """After a decided roll: the pumps of its units are paid (after any damage) and their lucky
        shots spent, in one event, if any were in force."""
        pumps = {u: self._pumps[u] for u in units if self._pumps.get(u)}
        lucky = [{"character": who, "amount": n} for u in units for who, n in self._lucky.get(u, {}).items() if n]
        if not pumps and not lucky:
            return
        hits = []
        for uid, points in pumps.items():
            char, cliche = self._pumped_cliche(uid)
            hits.append(self._hit(char.uid, cliche.name, points))
        yield make_event("costs_paid", units=units, hits=hits, lucky=lucky)

    def _roll_unit(self, spec: dict[str, Any]) -> dict[str, Any]:
        faces = self._dice().roll(spec["pool"])
        roll = {"pool": spec["pool"], "faces": faces, "total": sum(faces)}
        if spec["helpers"] and self.profile.team_dice == "member_sixes":
            obj = self._unit(spec["unit"])
            assert isinstance(obj, CharacterTeam)  # only a team has helpers
            helper_faces = [self._dice().roll(obj.cliche_of(self._objects[h]).pool) for h in spec["helpers"]]
            roll["helper_faces"] = helper_faces
            roll["total"] += 6 * sum(f.count(6) for f in helper_faces)
        return roll

    def _decide_exchange(self, units: list[str], *, closes_round: bool) -> dict[str, Any]:
        specs = [self._with_bonus(self._roll_spec(u)) for u in units]
        draw = self._dice().next_roll
        attempts = []
        while True:
            rolls = [self._roll_unit(s) for s in specs]
            attempts.append(rolls)
            if rolls[0]["total"] != rolls[1]["total"]:
                break
            if len(attempts) > MAX_TIE_REROLLS:
                raise RuleError("The dice tied hundreds of times in a row; the dice source looks broken.",
                                key="error.dice.broken")
        win = 0 if rolls[0]["total"] > rolls[1]["total"] else 1
        winner, loser = specs[win], specs[1 - win]
        inappropriate_win = winner["inappropriate"] and (
            self.profile.inappropriate_damage == "always" or not loser["inappropriate"])
        damage = 3 if inappropriate_win else 1
        hit_char, rolloff = loser["character"], None
        if loser["unit"] in self._teams and self.profile.team_loss == "roll_off":
            hit_char, rolloff = self._roll_off(self._teams[loser["unit"]])
        single = self.single_roll
        hits = [] if single and not self.profile.single_roll_damage else [self._hit(hit_char, self._cliche_in_use(loser["unit"], hit_char), damage)]
        return make_event("round_decided", round=self._rounds + 1, units=units, used=specs,
                          attempts=attempts, winner=win, damage=damage, hits=hits,
                          rolloff=rolloff, closes_round=closes_round or single, draw=draw)

    def _cliche_in_use(self, unit_uid: str, char_uid: str) -> str:
        obj = self._unit(unit_uid)
        if isinstance(obj, CharacterTeam):
            name: str = obj.member_cliches[char_uid]
            return name
        cliche = self.chosen(obj)
        assert cliche is not None  # a unit that rolled has chosen one
        return cliche.name

    def _roll_off(self, team: CharacterTeam) -> tuple[str, dict[str, Any]]:
        """Each active member rolls a die; the lowest takes the hit (ties among the lowest roll again)."""
        contenders, rounds = [m.uid for m in team.active_members], []
        while len(contenders) > 1:
            faces = {uid: self._dice().roll(1)[0] for uid in contenders}
            rounds.append(faces)
            low = min(faces.values())
            contenders = [uid for uid in contenders if faces[uid] == low]
        return contenders[0], {"rolls": rounds, "loser": contenders[0]}

    def _hit(self, char_uid: str, cliche_name: str, amount: int) -> dict[str, Any]:
        """How ``amount`` points of damage land on a cliché: extra dice first, never below 0."""
        cliche = self._objects[char_uid].cliche(cliche_name)
        extra = min(cliche.extra, amount)
        current = min(cliche.current, amount - extra)
        return {"character": char_uid, "cliche": cliche_name, "extra": extra, "current": current}

    # -------------------------------------------------------------------------- commands: teams --
    def _close_window(self) -> list[dict[str, Any]]:
        """Before anything else happens, a leader knocked to 0 by a lost round loses the team."""
        if self._window and self._window["leader_down"]:
            team = self._teams[self._window["team"]]
            return [self._disband_event(team, "lost_leader", revenge_carry=False)]
        return []

    def _disband_event(self, team: CharacterTeam, reason: str, *, revenge_carry: bool) -> dict[str, Any]:
        penalty = self.profile.disband_penalty
        hits = [self._hit(m.uid, team.member_cliches[m.uid], penalty)
                for m in team.members if m.uid not in self._dropped and team.cliche_of(m).pool > 0 and penalty]
        return make_event("team_disbanded", team=team.uid, reason=reason, hits=hits,
                          revenge_carry=revenge_carry)

    def _after_team_change(self, team_uid: str) -> list[dict[str, Any]]:
        """A team whose leader is gone disbands at once (lost leader)."""
        team = self._teams[team_uid]
        leader_gone = team.lead.uid in self._dropped or team.cliche_of(team.lead).pool == 0
        if not leader_gone:
            return []
        by_volunteering = team.revenge and team.lead.uid not in self._dropped
        return [self._disband_event(team, "lost_leader", revenge_carry=by_volunteering)]

    def form_team(self, members: Iterable[Any], leader: Character | None = None, *, name: str | None = None) -> list[dict[str, Any]]:
        """Form a character team from units of one side, between rounds (also to re-form after a disband).

        After a leader fell by volunteering, the new team inherits the revenge bonus.

        Parameters
        ----------
        members
            Active characters of one side (not in a team), each a character or
            ``(character, "cliché"[, appropriate])``.
        leader
            The leader; needed only when several members tie for the highest score.
        name
            The team's name; the members' names joined with "+" when omitted.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_form() -> Iterator[dict[str, Any]]:
            yield from self._close_window()
            team = CharacterTeam(members, leader=leader, name=name)
            sides = set()
            for member in team.members:
                uid = self._resolve_unit(member)
                if not self.is_active(uid):
                    raise RuleError(f"{member.name} is out of the contest and cannot join a team.",
                                    key="error.team.out_join", name=member.name)
                sides.add(self._side_of(uid))
            if len(sides) != 1:
                raise RuleError("A team's members must all be on the same side.", key="error.team.one_side")
            yield make_event("team_formed", side=sides.pop(), team=team.to_dict())
        return self._command("form_team", _plan_form)

    def volunteer(self, member: Character | str) -> list[dict[str, Any]]:
        """Right after its team lost a round, ``member`` takes the hit instead: twice the damage.

        The leader's score then counts double in the team's next decided round (the revenge bonus).
        If the leader volunteers and falls, the team disbands and the revenge bonus passes on to the
        team its survivors form next.

        Parameters
        ----------
        member
            An active member of the team that just lost a round: object, uid or name.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_volunteer() -> Iterator[dict[str, Any]]:
            char = self._resolve_character(member)
            team, window = self._window_team(char, _VOLUNTEER)
            restore = window["hits"]
            after_restore = team.cliche_of(char).pool + sum(h["extra"] + h["current"] for h in restore
                                                            if h["character"] == char.uid)
            if char.uid in self._dropped or after_restore < 1:
                raise RuleError(f"{char.name} is down or has dropped out and cannot volunteer.",
                                key="error.team.down_volunteer", name=char.name)
            amount = self.profile.volunteer_factor * window["damage"]
            cliche = team.member_cliches[char.uid]
            pre = self._objects[char.uid].cliche(cliche)
            extra_back = sum(h["extra"] for h in restore if h["character"] == char.uid)
            current_back = sum(h["current"] for h in restore if h["character"] == char.uid)
            extra = min(pre.extra + extra_back, amount)
            hit = {"character": char.uid, "cliche": cliche, "extra": extra,
                   "current": min(pre.current + current_back, amount - extra)}
            yield make_event("volunteered", team=team.uid, member=char.uid, damage=window["damage"],
                             restore=restore, hits=[hit])
            yield from self._after_team_change(team.uid)
        return self._command("volunteer", _plan_volunteer)

    def assign_loss(self, member: Character | str) -> list[dict[str, Any]]:
        """With the "leader assigns" option: right after a lost round, hand the hit to another member.

        Parameters
        ----------
        member
            The active member who takes the hit instead: object, uid or name.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_assign() -> Iterator[dict[str, Any]]:
            if self.profile.team_loss != "leader_assigns":
                raise RuleError("Only with the 'leader assigns' team-loss option can the leader hand on a hit.",
                                key="error.team.assign_option")
            char = self._resolve_character(member)
            team, window = self._window_team(char, _TAKE_THE_HIT)
            if not team.is_active(char):
                raise RuleError(f"{char.name} is down or has dropped out and cannot take the hit.",
                                key="error.team.down_take_hit", name=char.name)
            hit = self._hit(char.uid, team.member_cliches[char.uid], window["damage"])
            yield make_event("loss_assigned", team=team.uid, member=char.uid, restore=window["hits"],
                             hits=[hit])
            yield from self._after_team_change(team.uid)
        return self._command("assign_loss", _plan_assign)

    def _window_team(self, char: Character, what: Phrase) -> tuple[CharacterTeam, dict[str, Any]]:
        team = self._team_of(char)
        if team is None:
            raise RuleError(f"{char.name} is not in a character team; only team members {what}.",
                            key="error.team.not_member", name=char.name, what=what)
        window = self._window
        if not window or window["team"] != team.uid:
            last = self._last_exchange_of(team.uid)
            if last is not None and last["units"][last["winner"]] == team.uid:
                raise RuleError(f"{team.name} won its last round: members {what} only right after a lost round.",
                                key="error.team.won_last", team=team.name, what=what)
            raise RuleError(f"Members {what} right after their team loses a round, before anything else happens.",
                            key="error.team.not_now", what=what)
        return team, window

    def _last_exchange_of(self, unit_uid: str) -> dict[str, Any] | None:
        for event in reversed(self._events):
            if event["type"] == "round_decided" and unit_uid in event["units"]:
                return event
        return None

    def disband(self, team: CharacterTeam | str) -> list[dict[str, Any]]:
        """Break a team up between rounds: every member's team cliché loses 1; a pending revenge is lost.

        Parameters
        ----------
        team
            A character team of this contest: object, uid or name.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_disband() -> Iterator[dict[str, Any]]:
            uid = self._resolve_unit(team)
            if uid not in self._teams:
                raise RuleError(f"{self._unit(uid).name} is not a character team.", key="error.team.not_a_team",
                                name=self._unit(uid).name)
            closing = self._close_window()
            yield from closing
            if not any(e["team"] == uid for e in closing):  # a lost leader may have broken it up already
                yield self._disband_event(self._teams[uid], "disband", revenge_carry=False)
        return self._command("disband", _plan_disband)

    def drop_out(self, member: Character | str) -> list[dict[str, Any]]:
        """A member leaves its team between rounds; its team cliché becomes 0 and the winners decide its fate.

        Parameters
        ----------
        member
            An active member of a team: object, uid or name.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_drop() -> Iterator[dict[str, Any]]:
            yield from self._close_window()
            char = self._resolve_character(member)
            team = self._team_of(char)
            if team is None:
                raise RuleError(f"Only a character team's member can drop out; {char.name} is not in one.",
                                key="error.team.drop_not_member", name=char.name)
            if not team.is_active(char):
                raise RuleError(f"{char.name} is already down or out.", key="error.team.already_out", name=char.name)
            hit = self._hit(char.uid, team.member_cliches[char.uid], team.cliche_of(char).pool)
            yield make_event("dropped_out", team=team.uid, member=char.uid, hits=[hit])
            yield from self._after_team_change(team.uid)
        return self._command("drop_out", _plan_drop)

    # ----------------------------------------------------------------------- commands: the end --
    def end(self, outcome: str = "", winner: int | None = None) -> list[dict[str, Any]]:
        """The GM ends the contest early with a narrated outcome (and, optionally, a winning side).

        Parameters
        ----------
        outcome
            The GM's narration of how it ended (required).
        winner
            0 or 1 for the winning side, or None for no winner (then no fate is owed).

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_end() -> Iterator[dict[str, Any]]:
            text = clean_text(outcome, Phrase("outcome", "term.outcome"), required=True)
            if isinstance(winner, bool) or winner not in (None, 0, 1):  # True == 1, but is no side
                raise RuleError("The winner is side 0, side 1, or None for no winner.", key="error.contest.winner")
            yield self._end_event(winner, text, early=True)
        return self._command("end", _plan_end)

    def decide_fate(self, character: Character | str, text: str) -> list[dict[str, Any]]:
        """The winners write what happens to a defeated or dropped-out character (GM may veto).

        Parameters
        ----------
        character
            A character whose fate is owed (``owed_fates``): object, uid or name.
        text
            The fate, as free text that fits the kind of contest.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_fate() -> Iterator[dict[str, Any]]:
            if self._status != "ended":
                raise RuleError("Fates are decided when the contest is over.", key="error.fate.not_over")
            char = self._resolve_character(character)
            if char.uid not in self._owed:
                raise RuleError(f"No fate is owed for {char.name}: only the losers' fallen and those who "
                                "dropped out have their fate decided by the winners.", key="error.fate.not_owed",
                                name=char.name)
            if char.uid in self._fates:
                raise RuleError(f"{char.name}'s fate is already written; the GM vetoes it first if it "
                                "does not fit the contest.", key="error.fate.written", name=char.name)
            fate = clean_text(text, Phrase("fate", "term.fate"), required=True)
            yield make_event("fate_decided", character=char.uid, text=fate)
        return self._command("decide_fate", _plan_fate)

    def veto_fate(self, character: Character | str) -> list[dict[str, Any]]:
        """The GM vetoes a fate that does not fit the kind of contest; the winners write another.

        Parameters
        ----------
        character
            A character whose fate was written: object, uid or name.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_veto() -> Iterator[dict[str, Any]]:
            char = self._resolve_character(character)
            if char.uid not in self._fates:
                raise RuleError(f"No fate has been written for {char.name} yet.", key="error.fate.none_written",
                                name=char.name)
            yield make_event("fate_vetoed", character=char.uid)
        return self._command("veto_fate", _plan_veto)

    def recover(self, character: Character | str, cliche: str | None = None, amount: int | None = None) -> list[dict[str, Any]]:
        """After the contest the GM restores spent dice, never above a cliché's rating.

        Parameters
        ----------
        character
            A character of this contest: object, uid or name.
        cliche
            The cliché to restore; None for every cliché of the character.
        amount
            How many dice each cliché gets back; None for all.

        Returns
        -------
        list of dict
            The events the command made (copies; see ``events.py``).

        Raises
        ------
        RuleError
            When the rules refuse the command, or another command of this contest is still running
            (``error.contest.busy``); nothing has changed then.
        """
        def _plan_recover() -> Iterator[dict[str, Any]]:
            if self._status != "ended":
                raise RuleError("Recovery comes after the contest: end it first.", key="error.recovery.not_over")
            char = self._resolve_character(character)
            gains = recovery_gains(char, cliche, amount)
            yield make_event("recovered", gains=gains)
        return self._command("recover", _plan_recover)

    def _check_end(self) -> list[dict[str, Any]]:
        if self._status != "active":
            return []
        if self.single_roll and self._last_roll is not None:  # its one roll decided it
            return [self._end_event(self._last_roll["winner"], "", early=False)]
        alive = [bool(self.active_units(s)) for s in (0, 1)]
        if all(alive):
            return []
        winner = alive.index(True) if any(alive) else None
        return [self._end_event(winner, "", early=False)]

    def _end_event(self, winner: int | None, outcome: str, *, early: bool) -> dict[str, Any]:
        owed = []
        if winner is not None:
            for side in (0, 1):
                for char in self.characters(side):
                    fallen = self.is_defeated(char) and side != winner
                    if fallen or char.uid in self._dropped:
                        owed.append(char.uid)
        return make_event("contest_ended", winner=winner, outcome=outcome, early=early, owed=owed)

    def __repr__(self) -> str:
        return (f"Contest({self._name!r}, {self.side_label(0)!r} vs {self.side_label(1)!r}, "
                f"round={self._rounds}, status={self._status!r})")
