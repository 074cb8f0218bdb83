"""Contests (대결): two sides, rounds, ties, damage, defeat, teams and fates -- event-sourced.

Every method that changes a contest is a *command*: it checks the rules first (a refused command raises
:class:`RuleError` and changes nothing), rolls any dice, turns what happened into *events*, and applies
them. The events are the truth; everything else on the contest and on its characters is their
projection, so a contest can be saved, loaded, replayed and undone exactly.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable

import param

from .character import Character, new_uid
from .cliche import Cliche
from .dice import DiceSource, SeededDice
from .errors import Phrase, RuleError, SaveFileError
from .contest_state import ContestProjection
from .events import dumps_save, loads_save, make_event
from .profile import RulesProfile
from .recovery import recovery_gains
from .team import CharacterTeam
from .validation import clean_name, clean_text

#: Safety net for tie re-rolls: fair dice tie this often in a row with probability far below 1e-300.
MAX_TIE_REROLLS = 400

Unit = Character | CharacterTeam


class _NeedsFullRun(Exception):
    """Internal: a dry check cannot finish without applying an event first."""


class _DryDice(DiceSource):
    """Dice for checking a command without using the real dice source (faces are irrelevant)."""

    def __init__(self):
        self._rng = __import__("random").Random(0)

    def _faces(self, n: int) -> list[int]:
        return [self._rng.randint(1, 6) for _ in range(n)]


_DRY_DICE = _DryDice()

#: How the rules name the sides in messages (as the UI does: "Side A", "Side B").
_SIDE = (Phrase("Side A", "side.0"), Phrase("Side B", "side.1"))
#: The team actions of the volunteer window, for its messages.
_VOLUNTEER = Phrase("volunteer", "term.volunteering")
_TAKE_THE_HIT = Phrase("take the hit", "term.taking_the_hit")


def _nothing_to_undo() -> RuleError:
    return RuleError("Nothing to undo: the contest has just started.", key="error.contest.nothing_to_undo")


def _cliche_at_zero(unit: Character, cliche: Cliche) -> RuleError:
    return RuleError(f"{unit.name}'s {cliche.name} is at 0 and cannot be used: choose another cliché.",
                     key="error.contest.cliche_at_zero", name=unit.name, cliche=cliche.name)


def _translate(value, characters: dict, teams: dict):
    """Swap characters and teams inside ``value`` for the replica's objects with the same uid."""
    if isinstance(value, CharacterTeam):
        return teams.get(value.uid, value.uid)
    if isinstance(value, Character):
        return characters.get(value.uid, value.uid)
    if isinstance(value, (list, tuple)):
        return type(value)(_translate(v, characters, teams) for v in value)
    if isinstance(value, dict):
        return {_translate(k, characters, teams): _translate(v, characters, teams) for k, v in value.items()}
    return value


class Contest(ContestProjection, param.Parameterized):
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

    profile = param.ClassSelector(class_=RulesProfile, doc="""
        The rules options this contest is played by.""")

    dice = param.ClassSelector(class_=DiceSource, precedence=-1, doc="""
        Where the dice come from. Events keep the faces, so replaying never needs it.""")

    status = param.Selector(default="active", objects=["active", "ended"], doc="""
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
                 uid: str | None = None, event_sink: Callable | None = None, _events: list | None = None,
                 _characters: dict | None = None):
        super().__init__(uid=uid or new_uid(), profile=profile or RulesProfile(),
                         dice=dice or SeededDice(), event_sink=event_sink, single_roll=single_roll)
        self._dry_run = False
        self._objects: dict[str, Character] = dict(_characters or {})
        self._teams: dict[str, CharacterTeam] = {}
        if _events is not None:
            self._events = [copy.deepcopy(e) for e in _events]
            self._replay()
            return
        start = self._start_event(clean_name(name, Phrase("contest name", "term.contest_name")), side_a, side_b)
        self._events = []
        self._cmd = 0
        self._commit_new(lambda: iter([start]))

    # ------------------------------------------------------------------ construction and replay --
    def _start_event(self, name, side_a, side_b) -> dict:
        sides, characters, teams = [], {}, []
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

    @classmethod
    def from_events(cls, events: list[dict], *, dice: DiceSource | None = None,
                    characters: dict[str, Character] | None = None,
                    event_sink: Callable | None = None) -> "Contest":
        """Rebuild a contest by replaying its events.

        ``characters`` (uid -> Character) lets a room reuse its own character objects; any character
        not given is created from the start event.
        """
        if not events or events[0].get("type") != "contest_started":
            raise SaveFileError("A contest's events must begin with its start.", key="error.save.no_contest_start")
        start = events[0]
        try:
            contest = cls(uid=start["contest"], single_roll=bool(start["single_roll"]),
                          profile=RulesProfile.from_dict(start["profile"]), dice=dice,
                          event_sink=event_sink, _events=events, _characters=characters)
        except SaveFileError:
            raise
        except (RuleError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SaveFileError(f"These contest events cannot be replayed: {exc}", key="error.save.not_replayable",
                                detail=Phrase.of(exc)) from None
        return contest

    @classmethod
    def from_json(cls, text: str | bytes, *, dice: DiceSource | None = None) -> "Contest":
        """Load a contest saved with :meth:`to_json` (SaveFileError if the file is not a good save)."""
        return cls.from_events(loads_save(text), dice=dice)

    def to_json(self) -> str:
        """The contest as save-file text: its whole event log."""
        return dumps_save(self._events)

    def _replay(self) -> None:
        self._cmd = max((e.get("cmd", 0) for e in self._events), default=0)
        for i, event in enumerate(self._events):
            try:
                (self._on_start if i == 0 else self._apply)(event)
            except (RuleError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                raise SaveFileError(f"Event {i + 1} ({event.get('type')}) cannot be replayed: {exc}",
                                    key="error.save.event_not_replayable", n=i + 1, type=str(event.get("type")),
                                    detail=Phrase.of(exc)) from None
        self._publish()

    # ------------------------------------------------------------------------- the command cycle --
    def _commit_new(self, plan: Callable[[], list[dict]]) -> list[dict]:
        """Run one command: ``plan`` is a generator that checks, rolls and yields events.

        Each event is applied as soon as it is yielded, so the plan sees its effects before it goes
        on. Anything raised rolls the whole command back.
        """
        before = len(self._events)
        self._cmd += 1
        new: list[dict] = []
        try:
            for event in plan():
                new.append(self._emit(event))
            for event in self._check_end():
                new.append(self._emit(event))
            if self.event_sink is not None and new:
                self.event_sink([copy.deepcopy(e) for e in new])
        except BaseException:
            self._cmd -= 1
            if len(self._events) > before:  # something was applied: project the old log again
                del self._events[before:]
                if self._events:
                    self._rebuild()
            raise
        self._publish()
        return [copy.deepcopy(e) for e in new]

    def _emit(self, event: dict) -> dict:
        event = {**event, "seq": len(self._events) + 1, "cmd": self._cmd}
        self._events.append(event)
        (self._on_start if event["type"] == "contest_started" else self._apply)(event)
        return event

    def _command(self, plan: Callable[[], list[dict]]) -> list[dict]:
        if self._status == "ended" and plan.__name__ not in {"_plan_fate", "_plan_veto", "_plan_recover"}:
            raise RuleError("This contest has ended: start a new contest to roll again.", key="error.contest.ended")
        if self._dry_run:
            self._check_only(plan)
            return []
        return self._commit_new(plan)

    # ------------------------------------------------------------------ asking without acting --
    def why_not(self, command: str, *args, **kwargs) -> str | None:
        """Why ``command`` would be refused right now (the RuleError's message), or None if allowed.

        Nothing changes and no die of the real dice source is used: the rules run up to the point
        where the command would take effect. This is how views enable only the actions the rules
        allow, without a second copy of the rules. :meth:`why_not_error` gives the refusal itself.

        Examples
        --------
        >>> viking = Character("Viking", {"Viking": 4}); pirate = Character("Pirate", {"Pirate": 3})
        >>> Contest("Brawl", viking, pirate).why_not("volunteer", viking)
        'Viking is not in a character team; only team members volunteer.'
        """
        error = self.why_not_error(command, *args, **kwargs)
        return None if error is None else str(error)

    def why_not_error(self, command: str, *args, **kwargs) -> RuleError | None:
        """The :class:`RuleError` ``command`` would raise right now, or None if allowed.

        As :meth:`why_not`, but the refusal keeps its message ``key`` and ``fields``, so a view can
        show it in the reader's language (``raisus_panel.i18n.translate``).
        """
        if command not in self.COMMANDS:
            raise ValueError(f"{command!r} is not a contest command; commands are {', '.join(self.COMMANDS)}.")
        if command == "undo":
            return None if len(self._events) > 1 else _nothing_to_undo()
        self._dry_run = True
        try:
            getattr(self, command)(*args, **kwargs)
        except _NeedsFullRun:
            return self._why_not_on_a_copy(command, args, kwargs)
        except RuleError as exc:
            return exc.with_traceback(None)
        finally:
            self._dry_run = False
        return None

    def can(self, command: str, *args, **kwargs) -> bool:
        """Whether the rules allow ``command`` with these arguments right now (see :meth:`why_not`)."""
        return self.why_not(command, *args, **kwargs) is None

    def _check_only(self, plan) -> None:
        """Run ``plan``'s checks up to its first event, then stop: nothing is applied."""
        steps = plan()
        try:
            first = next(steps, None)
        finally:
            steps.close()
        window = self._window
        if first and window and window["leader_down"] and first["type"] == "team_disbanded" \
                and first["team"] == window["team"] and first["reason"] == "lost_leader":
            raise _NeedsFullRun  # the rest of the checks need the lost leader's disband applied

    def _why_not_on_a_copy(self, command: str, args, kwargs) -> RuleError | None:
        """Play the command for real on a throw-away replica with its own characters."""
        copy_ = Contest.from_events(self._events, dice=_DryDice())
        translate = lambda value: _translate(value, copy_._objects, copy_._teams)
        try:
            getattr(copy_, command)(*translate(list(args)), **translate(dict(kwargs)))
        except RuleError as exc:
            return exc.with_traceback(None)
        return None

    def _dice(self) -> DiceSource:
        return _DRY_DICE if self._dry_run else self.dice

    def _rebuild(self) -> None:
        self._reset_and_apply(self._events)
        self._publish()

    def _reset_and_apply(self, events: list[dict]) -> None:
        self._reset()
        for event in events:
            (self._on_start if event["type"] == "contest_started" else self._apply)(event)

    #: The commands, by name: what :meth:`can` and :meth:`why_not` (and a room) accept.
    COMMANDS = ("choose", "approve", "give_tickets", "roll_round", "exchange", "end_round", "volunteer",
                "assign_loss", "form_team", "disband", "drop_out", "end", "decide_fate", "veto_fate",
                "recover", "undo")

    def undo(self) -> list[dict]:
        """Take back the last command (all the events it made). Returns the events removed."""
        if len(self._events) <= 1:
            raise _nothing_to_undo()
        last = self._events[-1]["cmd"]
        cut = next(i for i, e in enumerate(self._events) if e["cmd"] == last)
        removed = self._events[cut:]
        del self._events[cut:]
        self._cmd = self._events[-1]["cmd"]
        self._rebuild()
        return removed

    def _publish(self) -> None:
        """Project the private state onto the public parameters in one update, so watchers fire once."""
        self.param.update(
            name=self._name, status=self._status, round=self._rounds, winner=self._winner,
            outcome=self._outcome, sides=[[self._unit(u) for u in side] for side in self._side_ids],
            owed_fates=list(self._owed), fates=dict(self._fates), events=list(self._events),
            history=list(self._history), series=dict(self._series), last_roll=self._last_roll,
        )

    # -------------------------------------------------------------------------------- lookups --
    def _unit(self, uid: str) -> Unit:
        return self._teams[uid] if uid in self._teams else self._objects[uid]

    def _resolve_unit(self, unit) -> str:
        """The uid of a unit on a side, from the object, its uid or its (unique) name."""
        ids = [u for side in self._side_ids for u in side]
        if isinstance(unit, (Character, CharacterTeam)):
            if unit.uid in ids:
                return unit.uid
            raise RuleError(f"{unit.name} is not a unit in this contest (a team member acts through its team).",
                            key="error.contest.not_a_unit", name=unit.name)
        matches = [u for u in ids if u == unit or self._unit(u).name == unit]
        if len(matches) == 1:
            return matches[0]
        raise RuleError(f"No single unit called {unit!r} in this contest.", key="error.contest.no_such_unit",
                        unit=repr(unit))

    def _resolve_character(self, char) -> Character:
        present = self.characters()
        if isinstance(char, Character) and any(c is char for c in present):
            return char
        matches = [c for c in present if c.uid == char or c.name == char]
        if len(matches) == 1:
            return matches[0]
        who = repr(getattr(char, "name", char))
        raise RuleError(f"No single character called {who} in this contest.",
                        key="error.contest.no_such_character", name=who)

    def _side_of(self, uid: str) -> int:
        return 0 if uid in self._side_ids[0] else 1

    def _team_of(self, char: Character) -> CharacterTeam | None:
        for side in self._side_ids:
            for uid in side:
                if uid in self._teams and char in self._teams[uid].members:
                    return self._teams[uid]
        return None

    def characters(self, side: int | None = None) -> list[Character]:
        """Every character in the contest (team members included), or those of one side."""
        out = []
        for i, ids in enumerate(self._side_ids):
            if side is None or side == i:
                for uid in ids:
                    unit = self._unit(uid)
                    out.extend(unit.members if isinstance(unit, CharacterTeam) else [unit])
        return out

    def side_label(self, side: int) -> str:
        """The names of a side's units, joined."""
        return ", ".join(self._unit(u).name for u in self._side_ids[side])

    # --------------------------------------------------------------------------- derived state --
    def is_defeated(self, char: Character) -> bool:
        """Defeated: a cliché it had at the start of this contest (or got from a ticket) is now 0."""
        start = self._start_scores.get(char.uid, {})
        return any(c.pool == 0 and start.get(c.name, 0) > 0 for c in char.cliches)

    def is_dropped(self, char: Character) -> bool:
        """Whether ``char`` dropped out of its team in this contest."""
        return char.uid in self._dropped

    def is_active(self, unit) -> bool:
        """Whether a unit can still fight (a team while its leader stands or may still be saved)."""
        uid = unit if isinstance(unit, str) and (unit in self._teams or unit in self._objects) else self._resolve_unit(unit)
        obj = self._unit(uid)
        if isinstance(obj, CharacterTeam):
            if self._window and self._window["team"] == uid and self._window["leader_down"]:
                return True
            return obj.leader.uid not in self._dropped and obj.cliche_of(obj.leader).pool > 0
        return not self.is_defeated(obj) and obj.uid not in self._dropped

    def active_units(self, side: int) -> list[Unit]:
        """The units of ``side`` that can still fight."""
        return [self._unit(u) for u in self._side_ids[side] if self.is_active(u)]

    def chosen(self, unit) -> Cliche | None:
        """The cliché a character or mob will roll next (its team cliché for a team's leader)."""
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return obj.cliche_of(obj.leader)
        choice = self._choice.get(obj.uid)
        if choice and obj.has_cliche(choice["cliche"]):
            return obj.cliche(choice["cliche"])
        usable = [c for c in obj.cliches if c.pool > 0]
        return usable[0] if len(usable) == 1 else None

    def needs_approval(self, unit) -> bool:
        """Whether the unit's inappropriate choice still waits for the GM's approval."""
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return obj.inappropriate and not obj.approved
        choice = self._choice.get(obj.uid)
        return bool(choice and not choice["appropriate"] and not choice["approved"])

    def pool(self, unit) -> int:
        """How many dice the unit rolls next (for a team: the leader's pool with member dice)."""
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return obj.leader_dice + (0 if self.profile.team_dice == "member_sixes" else len(obj.helpers))
        cliche = self.chosen(obj)
        return cliche.pool if cliche else 0

    def choice(self, unit) -> dict | None:
        """A character's or mob's current choice: ``{"cliche", "appropriate", "approved"}`` (None if none)."""
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return None
        cliche = self.chosen(obj)
        if cliche is None:
            return None
        made = self._choice.get(obj.uid, {"appropriate": True, "approved": False})
        return {"cliche": cliche.name, "appropriate": made["appropriate"], "approved": made["approved"]}

    def is_inappropriate(self, unit) -> bool:
        """Whether the unit rolls an inappropriate cliché (a team only if every member does)."""
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return obj.inappropriate
        made = self.choice(obj)
        return bool(made and not made["appropriate"])

    def pending_revenge(self, side: int) -> bool:
        """Whether the next team formed on ``side`` inherits a revenge bonus (its leader fell volunteering)."""
        return self._carry[side]

    @property
    def has_rolled(self) -> bool:
        """Whether any round or exchange has been decided (tickets and setup are over then)."""
        return self._rolled

    @property
    def exchanges_this_round(self) -> int:
        """How many exchanges of the current, unfinished round have been played."""
        return self._exchanges

    @property
    def tickets_given(self) -> bool:
        """Whether tickets were handed out in this contest."""
        return self._tickets

    @property
    def volunteer_window(self) -> dict | None:
        """While a team may still volunteer for the round it just lost: team uid, damage, who was hit."""
        return copy.deepcopy(self._window)

    @property
    def needs_exchanges(self) -> bool:
        """True while a side has several active units, so rounds are played as exchanges."""
        return any(len(self.active_units(s)) > 1 for s in (0, 1))

    # --------------------------------------------------------------------------- commands: setup --
    def choose(self, unit, cliche: str, *, appropriate: bool = True, approved: bool = False) -> list[dict]:
        """Pick the cliché a character or grunt mob rolls from now on (switching between rounds).

        An inappropriate cliché needs the GM's approval (``approved=True`` or :meth:`approve`) before
        it can roll.
        """
        def _plan_choose():
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
        return self._command(_plan_choose)

    def approve(self, unit) -> list[dict]:
        """The GM approves a unit's inappropriate cliché (or a team whose members are all inappropriate)."""
        def _plan_approve():
            uid = self._resolve_unit(unit)
            if not self.needs_approval(uid):
                raise RuleError(f"{self._unit(uid).name} has no inappropriate cliché waiting for approval.",
                                key="error.contest.nothing_to_approve", name=self._unit(uid).name)
            yield make_event("approved", unit=uid)
        return self._command(_plan_approve)

    def give_tickets(self, fitting: dict | None = None, *, name: str | None = None) -> list[dict]:
        """Give everyone in the scene a temporary cliché rated 2, named after the contest.

        Only before the first roll, when nobody has a cliché that fits. With the "brevet" option,
        ``fitting`` maps characters who do have a fitting cliché to its name: they get +2 temporary
        dice on it instead.
        """
        def _plan_tickets():
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
                for char, cliche_name in fitting.items():
                    char = self._resolve_character(char)
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
        return self._command(_plan_tickets)

    # ------------------------------------------------------------------------ commands: rounds --
    def roll_round(self) -> list[dict]:
        """Play one round between the two sides' units (one active unit per side).

        Ties are re-rolled in the same round until one side wins; only that roll counts. The loser
        loses 1 from the cliché it used, or 3 if the winner used an approved inappropriate cliché.
        """
        def _plan_round():
            yield from self._close_window()
            if self._a_side_has_fallen():
                return
            units = [self._single_active(0), self._single_active(1)]
            yield self._decide_exchange(units, closes_round=True)
        return self._command(_plan_round)

    def exchange(self, attacker, target) -> list[dict]:
        """One exchange of a round when a side has several units: ``attacker`` against ``target``.

        Damage applies at once, so later exchanges of the round use the new scores. Call
        :meth:`end_round` when the GM has played the round's exchanges.
        """
        def _plan_exchange():
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
        return self._command(_plan_exchange)

    def end_round(self) -> list[dict]:
        """Close a round played as exchanges; the next exchange belongs to the next round."""
        def _plan_end_round():
            if self._exchanges == 0:
                raise RuleError("No exchange has been played in this round yet.", key="error.contest.no_exchange")
            yield from self._close_window()
            yield make_event("round_ended", round=self._rounds + 1)
        return self._command(_plan_end_round)

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

    def _roll_spec(self, uid: str) -> dict:
        """Check a unit may roll and say what it rolls."""
        obj = self._unit(uid)
        if isinstance(obj, CharacterTeam):
            if obj.inappropriate and not obj.approved:
                raise RuleError(f"Every member of {obj.name} uses an inappropriate cliché: the GM must approve first.",
                                key="error.team.needs_approval", team=obj.name)
            leader_cliche = obj.cliche_of(obj.leader)
            return {"unit": uid, "character": obj.leader.uid, "cliche": leader_cliche.name,
                    "inappropriate": obj.inappropriate, "revenge": obj.revenge,
                    "pool": self.pool(uid), "helpers": [m.uid for m in obj.helpers]}
        cliche = self.chosen(obj)
        if cliche is None:
            names = ", ".join(c.name for c in obj.cliches if c.pool > 0)
            raise RuleError(f"Choose which cliché {obj.name} uses ({names}).", key="error.contest.choose_cliche",
                            name=obj.name, choices=names)
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

    def _roll_unit(self, spec: dict) -> dict:
        faces = self._dice().roll(spec["pool"])
        roll = {"pool": spec["pool"], "faces": faces, "total": sum(faces)}
        if spec["helpers"] and self.profile.team_dice == "member_sixes":
            obj = self._unit(spec["unit"])
            helper_faces = [self._dice().roll(obj.cliche_of(self._objects[h]).pool) for h in spec["helpers"]]
            roll["helper_faces"] = helper_faces
            roll["total"] += 6 * sum(f.count(6) for f in helper_faces)
        return roll

    def _decide_exchange(self, units: list[str], *, closes_round: bool) -> dict:
        specs = [self._roll_spec(u) for u in units]
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
                          rolloff=rolloff, closes_round=closes_round or single)

    def _cliche_in_use(self, unit_uid: str, char_uid: str) -> str:
        obj = self._unit(unit_uid)
        if isinstance(obj, CharacterTeam):
            return obj.member_cliches[char_uid]
        return self.chosen(obj).name

    def _roll_off(self, team: CharacterTeam) -> tuple[str, dict]:
        """Each active member rolls a die; the lowest takes the hit (ties among the lowest roll again)."""
        contenders, rounds = [m.uid for m in team.active_members], []
        while len(contenders) > 1:
            faces = {uid: self._dice().roll(1)[0] for uid in contenders}
            rounds.append(faces)
            low = min(faces.values())
            contenders = [uid for uid in contenders if faces[uid] == low]
        return contenders[0], {"rolls": rounds, "loser": contenders[0]}

    def _hit(self, char_uid: str, cliche_name: str, amount: int) -> dict:
        """How ``amount`` points of damage land on a cliché: extra dice first, never below 0."""
        cliche = self._objects[char_uid].cliche(cliche_name)
        extra = min(cliche.extra, amount)
        current = min(cliche.current, amount - extra)
        return {"character": char_uid, "cliche": cliche_name, "extra": extra, "current": current}

    # -------------------------------------------------------------------------- commands: teams --
    def _close_window(self) -> list[dict]:
        """Before anything else happens, a leader knocked to 0 by a lost round loses the team."""
        if self._window and self._window["leader_down"]:
            team = self._teams[self._window["team"]]
            return [self._disband_event(team, "lost_leader", revenge_carry=False)]
        return []

    def _disband_event(self, team: CharacterTeam, reason: str, *, revenge_carry: bool) -> dict:
        penalty = self.profile.disband_penalty
        hits = [self._hit(m.uid, team.member_cliches[m.uid], penalty)
                for m in team.members if m.uid not in self._dropped and team.cliche_of(m).pool > 0 and penalty]
        return make_event("team_disbanded", team=team.uid, reason=reason, hits=hits,
                          revenge_carry=revenge_carry)

    def _after_team_change(self, team_uid: str) -> list[dict]:
        """A team whose leader is gone disbands at once (lost leader)."""
        team = self._teams[team_uid]
        leader_gone = team.leader.uid in self._dropped or team.cliche_of(team.leader).pool == 0
        if not leader_gone:
            return []
        by_volunteering = team.revenge and team.leader.uid not in self._dropped
        return [self._disband_event(team, "lost_leader", revenge_carry=by_volunteering)]

    def form_team(self, members: Iterable, leader=None, *, name: str | None = None) -> list[dict]:
        """Form a character team from units of one side, between rounds (also to re-form after a disband).

        ``members`` are characters or ``(character, "cliché"[, appropriate])``; name the ``leader`` when
        several members tie for the highest score. After a leader fell by volunteering, the new team
        inherits the revenge bonus.
        """
        def _plan_form():
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
        return self._command(_plan_form)

    def volunteer(self, member) -> list[dict]:
        """Right after its team lost a round, ``member`` takes the hit instead: twice the damage.

        The leader's score then counts double in the team's next decided round (the revenge bonus).
        If the leader volunteers and falls, the team disbands and the revenge bonus passes on to the
        team its survivors form next.
        """
        def _plan_volunteer():
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
        return self._command(_plan_volunteer)

    def assign_loss(self, member) -> list[dict]:
        """With the "leader assigns" option: right after a lost round, hand the hit to another member."""
        def _plan_assign():
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
        return self._command(_plan_assign)

    def _window_team(self, char: Character, what: Phrase) -> tuple[CharacterTeam, dict]:
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

    def _last_exchange_of(self, unit_uid: str) -> dict | None:
        for event in reversed(self._events):
            if event["type"] == "round_decided" and unit_uid in event["units"]:
                return event
        return None

    def disband(self, team) -> list[dict]:
        """Break a team up between rounds: every member's team cliché loses 1; a pending revenge is lost."""
        def _plan_disband():
            uid = self._resolve_unit(team)
            if uid not in self._teams:
                raise RuleError(f"{self._unit(uid).name} is not a character team.", key="error.team.not_a_team",
                                name=self._unit(uid).name)
            closing = self._close_window()
            yield from closing
            if not any(e["team"] == uid for e in closing):  # a lost leader may have broken it up already
                yield self._disband_event(self._teams[uid], "disband", revenge_carry=False)
        return self._command(_plan_disband)

    def drop_out(self, member) -> list[dict]:
        """A member leaves its team between rounds; its team cliché becomes 0 and the winners decide its fate."""
        def _plan_drop():
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
        return self._command(_plan_drop)

    # ----------------------------------------------------------------------- commands: the end --
    def end(self, outcome: str = "", winner: int | None = None) -> list[dict]:
        """The GM ends the contest early with a narrated outcome (and, optionally, a winning side)."""
        def _plan_end():
            text = clean_text(outcome, Phrase("outcome", "term.outcome"), required=True)
            if winner not in (None, 0, 1):
                raise RuleError("The winner is side 0, side 1, or None for no winner.", key="error.contest.winner")
            yield self._end_event(winner, text, early=True)
        return self._command(_plan_end)

    def decide_fate(self, character, text: str) -> list[dict]:
        """The winners write what happens to a defeated or dropped-out character (GM may veto)."""
        def _plan_fate():
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
        return self._command(_plan_fate)

    def veto_fate(self, character) -> list[dict]:
        """The GM vetoes a fate that does not fit the kind of contest; the winners write another."""
        def _plan_veto():
            char = self._resolve_character(character)
            if char.uid not in self._fates:
                raise RuleError(f"No fate has been written for {char.name} yet.", key="error.fate.none_written",
                                name=char.name)
            yield make_event("fate_vetoed", character=char.uid)
        return self._command(_plan_veto)

    def recover(self, character, cliche: str | None = None, amount: int | None = None) -> list[dict]:
        """After the contest the GM restores spent dice: ``amount`` points (all when None), never above the rating.

        ``cliche`` None means every cliché of the character.
        """
        def _plan_recover():
            if self._status != "ended":
                raise RuleError("Recovery comes after the contest: end it first.", key="error.recovery.not_over")
            char = self._resolve_character(character)
            gains = recovery_gains(char, cliche, amount)
            yield make_event("recovered", gains=gains)
        return self._command(_plan_recover)

    def _check_end(self) -> list[dict]:
        if self._status != "active":
            return []
        last = self._events[-1] if self._events else None
        if self.single_roll and last and last["type"] == "round_decided":
            return [self._end_event(last["winner"], "", early=False)]
        alive = [bool(self.active_units(s)) for s in (0, 1)]
        if all(alive):
            return []
        winner = alive.index(True) if any(alive) else None
        return [self._end_event(winner, "", early=False)]

    def _end_event(self, winner: int | None, outcome: str, *, early: bool) -> dict:
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
