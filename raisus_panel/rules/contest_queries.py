"""Asking a contest where things stand: who is in it, who can still fight, what each unit rolls next.

Everything here reads the state the events built (``contest_state.py``) and changes nothing, so
views, the room and the commands themselves can ask as often as they like. Units and characters may
be named by object, uid or (unique) name wherever a method takes one.

While the contest runs, the status queries (:meth:`ContestQueries.is_defeated`,
:meth:`~ContestQueries.is_active`, :meth:`~ContestQueries.active_units`) read the clichés as they are
now. Once it has ended they report the standing at its end, kept when ``contest_ended`` was applied:
the end removes tickets' temporary clichés and brevet dice, and recovery restores spent dice
afterwards, but neither changes who fell in this contest.
"""

from __future__ import annotations

import copy
from typing import Any

from .character import Character
from .cliche import Cliche
from .contest_parts import ContestParts
from .errors import RuleError
from .team import CharacterTeam

Unit = Character | CharacterTeam


class ContestQueries(ContestParts):
    """Mixin of :class:`~raisus_panel.rules.contest.Contest`: lookups and derived state.

    It reads the private state :class:`~raisus_panel.rules.contest_state.ContestProjection` keeps
    (``_side_ids``, ``_objects``, ``_teams``, ``_choice``, ``_start_scores``, ...) and the contest's
    ``profile``.
    """

    # -------------------------------------------------------------------------------- lookups --
    def _unit(self, uid: str) -> Unit:
        return self._teams[uid] if uid in self._teams else self._objects[uid]

    def _resolve_unit(self, unit: Unit | str) -> str:
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

    def _resolve_character(self, char: Character | str) -> Character:
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
        """Every character in the contest, team members included.

        Parameters
        ----------
        side
            0 or 1 for one side's characters; None for both.

        Returns
        -------
        list of Character
            In side order, a team's members where the team stands.
        """
        out = []
        for i, ids in enumerate(self._side_ids):
            if side is None or side == i:
                for uid in ids:
                    unit = self._unit(uid)
                    out.extend(unit.members if isinstance(unit, CharacterTeam) else [unit])
        return out

    def side_label(self, side: int) -> str:
        """The names of a side's units, joined with commas.

        Parameters
        ----------
        side
            0 or 1.
        """
        return ", ".join(self._unit(u).name for u in self._side_ids[side])

    # --------------------------------------------------------------------------- derived state --
    def is_defeated(self, char: Character) -> bool:
        """Whether ``char`` is defeated: a cliché it had at the start of this contest (or got from a
        ticket) is now 0 -- or was when the contest ended.

        Parameters
        ----------
        char
            A character of this contest.
        """
        if self._final is not None:
            return char.uid in self._final["defeated"]
        start = self._start_scores.get(char.uid, {})
        return any(c.pool == 0 and start.get(c.name, 0) > 0 for c in char.cliches)

    def is_dropped(self, char: Character) -> bool:
        """Whether ``char`` dropped out of its team in this contest.

        Parameters
        ----------
        char
            A character of this contest.
        """
        return char.uid in self._dropped

    def is_active(self, unit: Unit | str) -> bool:
        """Whether a unit can still fight (a team while its leader stands or may still be saved).

        Once the contest has ended: whether it still stood at the end.

        Parameters
        ----------
        unit
            A unit of this contest: object, uid or name.
        """
        uid = unit if isinstance(unit, str) and (unit in self._teams or unit in self._objects) else self._resolve_unit(unit)
        obj = self._unit(uid)
        if isinstance(obj, CharacterTeam):
            if self._final is not None:  # a ticket team's clichés are gone: read its standing at the end
                return uid in self._final["active_teams"]
            if self._window and self._window["team"] == uid and self._window["leader_down"]:
                return True
            return obj.lead.uid not in self._dropped and obj.cliche_of(obj.lead).pool > 0
        return not self.is_defeated(obj) and obj.uid not in self._dropped

    def active_units(self, side: int) -> list[Unit]:
        """The units of ``side`` (0 or 1) that can still fight."""
        return [self._unit(u) for u in self._side_ids[side] if self.is_active(u)]

    def chosen(self, unit: Unit | str) -> Cliche | None:
        """The cliché a unit will roll next.

        Parameters
        ----------
        unit
            A unit of this contest: object, uid or name.

        Returns
        -------
        Cliche or None
            A character's or mob's chosen cliché (its only usable one when it has not chosen), the
            leader's team cliché for a team; None while a character with several usable clichés has
            not chosen. A team formed on tickets keeps answering once the end has removed them: its
            leader's ticket as it stood at the end (:meth:`CharacterTeam.cliche_of`).
        """
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return obj.cliche_of(obj.lead)
        choice = self._choice.get(obj.uid)
        if choice and obj.has_cliche(choice["cliche"]):
            return obj.cliche(choice["cliche"])
        usable = [c for c in obj.cliches if c.pool > 0]
        return usable[0] if len(usable) == 1 else None

    def ended_ticket(self, unit: Unit | str) -> Cliche | None:
        """The ticket an individual fought this contest on, once the end has removed it.

        The end removes tickets' temporary clichés, so :meth:`chosen` then answers with the
        character's own cliché; this gives the ticket as it stood at the end (for a card of the
        ended contest), or None when the unit fought on a cliché of its own or the contest is on.
        A team's members are read from the team (:meth:`CharacterTeam.cliche_of`).
        """
        if self._final is None:
            return None
        tickets: dict[str, Cliche] = self._final["tickets"]
        return tickets.get(self._resolve_unit(unit))

    def needs_approval(self, unit: Unit | str) -> bool:
        """Whether the unit's inappropriate choice still waits for the GM's approval.

        Parameters
        ----------
        unit
            A unit of this contest: object, uid or name.
        """
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return obj.inappropriate and not obj.approved
        choice = self._choice.get(obj.uid)
        return bool(choice and not choice["appropriate"] and not choice["approved"])

    def pool(self, unit: Unit | str) -> int:
        """How many dice the unit rolls next (for a team: the leader's dice with the members' dice).

        For a team formed on tickets, once the end has removed them: its pool as it stood at the end.

        Parameters
        ----------
        unit
            A unit of this contest: object, uid or name.
        """
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return obj.leader_dice + (0 if self.profile.team_dice == "member_sixes" else len(obj.helpers))
        cliche = self.chosen(obj)
        return cliche.pool if cliche else 0

    def bonus(self, unit: Unit | str) -> dict[str, Any]:
        """The pump and lucky shots declared for a unit's next roll (the campaign options).

        Returns ``{"pump": points, "pump_dice": dice it adds, "lucky": {character uid: shots},
        "dice": every extra die}``; all 0 (and no lucky shots) when none are declared.

        Parameters
        ----------
        unit
            A unit of this contest: object, uid or name.
        """
        uid = self._resolve_unit(unit)
        pump = self._pumps.get(uid, 0)
        cliche = self.pumped_cliche(uid)
        pump_dice = pump * (cliche.dice_per_pump if cliche is not None else 1)
        lucky = {who: n for who, n in self._lucky.get(uid, {}).items() if n}
        return {"pump": pump, "pump_dice": pump_dice, "lucky": lucky, "dice": pump_dice + sum(lucky.values())}

    def pumped_cliche(self, unit: Unit | str) -> Cliche | None:
        """The cliché a pump of ``unit`` lowers: a team's leader's team cliché, or the cliché a
        character has chosen (None until it has chosen).

        Parameters
        ----------
        unit
            A unit of this contest: object, uid or name.
        """
        obj = self._unit(self._resolve_unit(unit))
        return obj.cliche_of(obj.lead) if isinstance(obj, CharacterTeam) else self.chosen(obj)

    def choice(self, unit: Unit | str) -> dict[str, Any] | None:
        """A character's or mob's current choice.

        Parameters
        ----------
        unit
            A unit of this contest: object, uid or name.

        Returns
        -------
        dict or None
            ``{"cliche", "appropriate", "approved"}``; None for a team or before a choice is made.
        """
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return None
        cliche = self.chosen(obj)
        if cliche is None:
            return None
        made = self._choice.get(obj.uid, {"appropriate": True, "approved": False})
        return {"cliche": cliche.name, "appropriate": made["appropriate"], "approved": made["approved"]}

    def is_inappropriate(self, unit: Unit | str) -> bool:
        """Whether the unit rolls an inappropriate cliché (a team only if every member does).

        Parameters
        ----------
        unit
            A unit of this contest: object, uid or name.
        """
        obj = self._unit(self._resolve_unit(unit))
        if isinstance(obj, CharacterTeam):
            return obj.inappropriate
        made = self.choice(obj)
        return bool(made and not made["appropriate"])

    def pending_revenge(self, side: int) -> bool:
        """Whether the next team formed on ``side`` (0 or 1) inherits a revenge bonus (its leader fell
        volunteering)."""
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
    def volunteer_window(self) -> dict[str, Any] | None:
        """While a team may still volunteer for the round it just lost: team uid, damage, who was hit."""
        return copy.deepcopy(self._window)

    @property
    def needs_exchanges(self) -> bool:
        """True while a side has several active units, so rounds are played as exchanges."""
        return any(len(self.active_units(s)) > 1 for s in (0, 1))
