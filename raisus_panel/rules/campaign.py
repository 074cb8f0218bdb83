"""Campaign play (RULES.md section 11): the creation budget and advancement.

Pumps and lucky shots in contests are contest commands (:meth:`Contest.pump`,
:meth:`Contest.spend_lucky`), and in action checks arguments of :func:`~.check.action_check`; sessions
are the room's (``new_session``, ``end_session``). This module holds what needs no contest: what a
character's creation costs against the budget, and the advancement roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .character import Character, GruntMob
from .cliche import Cliche
from .dice import DiceSource
from .errors import RuleError
from .profile import RulesProfile

#: Lucky shots bought with one creation die.
LUCKY_SHOTS_PER_DIE = 3
#: The highest rating advancement reaches.
ADVANCEMENT_MAX = 6


@dataclass(frozen=True)
class Budget:
    """What a character's creation costs against the creation budget.

    Attributes
    ----------
    allowed
        The creation dice: the budget, +1 for each of an accepted hook and tale.
    spent
        The creation dice its clichés and lucky shots cost (a double-pump die costs 2; 3 lucky shots 1).
    over_max
        The clichés rated above the creation maximum.
    """

    allowed: int
    spent: int
    over_max: tuple[str, ...] = ()

    @property
    def left(self) -> int:
        """Creation dice not spent yet (negative when over the budget)."""
        return self.allowed - self.spent

    @property
    def fits(self) -> bool:
        """Whether the character keeps to the budget and the maximum."""
        return self.left >= 0 and not self.over_max


def creation_budget(character: Character, profile: RulesProfile) -> Budget | None:
    """What ``character`` costs against the creation budget, or None when there is none (the option is
    off, or it is a grunt mob: NPCs have no budget, and the room does not ask for theirs).

    Temporary clichés (tickets) cost nothing.

    Examples
    --------
    >>> olaf = Character("Olaf", {"Viking": 4, "Cook": 3, "Sailor": 3})
    >>> creation_budget(olaf, RulesProfile(creation_dice=10))
    Budget(allowed=10, spent=10, over_max=())
    """
    if profile.creation_dice is None or isinstance(character, GruntMob):
        return None
    real = [c for c in character.cliches if not c.temporary]
    spent = sum(c.rating * (2 if c.double_pump else 1) for c in real)
    spent += -(-character.lucky_shots // LUCKY_SHOTS_PER_DIE)  # 3 for a die: a part of 3 costs a whole die
    allowed = profile.creation_dice + sum(1 for a in ("hook", "tale") if a in character.accepted and getattr(character, a))
    over = tuple(c.name for c in real if c.rating > profile.creation_max)
    return Budget(allowed, spent, over)


def check_budget(character: Character, profile: RulesProfile) -> None:
    """Refuse a character over the creation budget, unless the GM accepted it over budget."""
    budget = creation_budget(character, profile)
    if budget is None or budget.fits or "over_budget" in character.accepted:
        return
    if budget.over_max:
        names = ", ".join(budget.over_max)
        most = profile.creation_max
        raise RuleError(f"{character.name}: {names} is over the creation maximum of {most} "
                        f"{'die' if most == 1 else 'dice'} (the GM may accept it anyway).", key="error.budget.over_max", name=character.name,
                        cliches=names, most=profile.creation_max)
    raise RuleError(f"{character.name} costs {budget.spent} creation dice, {-budget.left} over the budget of "
                    f"{budget.allowed} (an accepted hook or tale adds 1 each; the GM may accept it anyway).",
                    key="error.budget.over", name=character.name, spent=budget.spent, over=-budget.left,
                    allowed=budget.allowed)


@dataclass(frozen=True)
class AdvancementRoll:
    """One advancement roll of a cliché: its rating's dice; all even raises the rating by 1 (to 6)."""

    cliche: str
    rating: int
    faces: tuple[int, ...]

    @property
    def rises(self) -> bool:
        """Whether the cliché's rating rises: every die even, and the rating below 6."""
        return self.rating < ADVANCEMENT_MAX and all(f % 2 == 0 for f in self.faces)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record of the roll (an event's payload)."""
        return {"cliche": self.cliche, "rating": self.rating, "faces": list(self.faces), "rises": self.rises}


def advancement_roll(cliche: Cliche, dice: DiceSource) -> AdvancementRoll:
    """Roll for a cliché used this session: dice equal to its rating (not its current score).

    A cliché at 6 rolls nothing (it cannot rise); a temporary one is refused.

    Examples
    --------
    >>> from raisus_panel.rules import ScriptedDice
    >>> advancement_roll(Cliche("Viking", 3), ScriptedDice([[2, 4, 6]])).rises
    True
    """
    if cliche.temporary:
        raise RuleError(f"{cliche.name} is a ticket's temporary cliché: it does not advance.",
                        key="error.advancement.temporary", cliche=cliche.name)
    if cliche.rating >= ADVANCEMENT_MAX:
        return AdvancementRoll(cliche.name, cliche.rating, ())
    if cliche.rating < 1:
        raise RuleError(f"{cliche.name} is rated 0: there is nothing to roll.", key="error.advancement.no_dice",
                        cliche=cliche.name)
    return AdvancementRoll(cliche.name, cliche.rating, tuple(dice.roll(cliche.rating)))

