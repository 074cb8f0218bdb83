"""Action checks (행동 판정): one roll of a cliché against a target number."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .character import Character, check_lucky
from .cliche import Cliche
from .dice import DiceSource, SeededDice
from .errors import Phrase, RuleError
from .profile import SUITABILITY_STEPS, RulesProfile
from .validation import whole_number

#: Target-number presets from the rules: easy, professional, heroic, master, superhuman.
TN_PRESETS = {"easy": 5, "professional": 10, "heroic": 15, "master": 20, "superhuman": 30}
#: The highest target number we accept (a 100-die cliché can reach 600; anything higher is a typo).
MAX_TN = 1000


@dataclass(frozen=True)
class CheckResult:
    """What happened in one action check.

    Attributes
    ----------
    cliche, dice
        The cliché's name and the number of dice rolled (0 for an automatic success).
    base_tn, tn
        The target number the GM set, and the one rolled against after the suitability step and
        any other adjustment.
    faces, total, success
        The dice faces, their sum, and whether ``total >= tn``.
    automatic
        True when the GM declared the action automatic: it succeeds and no die is rolled.
    lucky, pumped
        Lucky shots spent and points pumped on the roll (campaign options; counted in ``dice``). The
        pump is paid from the cliché after the check.
    """

    cliche: str
    dice: int
    base_tn: int
    tn: int
    suitability: str = "suitable"
    adjustment: int = 0
    faces: tuple[int, ...] = field(default_factory=tuple)
    total: int = 0
    success: bool = False
    automatic: bool = False
    lucky: int = 0
    pumped: int = 0

    @property
    def margin(self) -> int:
        """How far above (positive) or below (negative) the target number the roll landed."""
        return self.total - self.tn

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record of the check (an event's payload)."""
        data = asdict(self)
        data["faces"] = list(self.faces)
        for key in ("lucky", "pumped"):  # the campaign options' only when used: a check is recorded as before
            if not data[key]:
                del data[key]
        return data


_DEFAULT_PROFILE = RulesProfile()


def effective_tn(base_tn: int, suitability: str = "suitable", adjustment: int = 0,
                 profile: RulesProfile | None = None) -> int:
    """The target number after the suitability step and the GM's extra adjustment."""
    if suitability not in SUITABILITY_STEPS:
        raise RuleError(f"Suitability is one of {', '.join(SUITABILITY_STEPS)}; not {suitability!r}.",
                        key="error.check.suitability", choices=", ".join(SUITABILITY_STEPS), value=repr(suitability))
    base_tn = whole_number(base_tn, Phrase("target number", "term.tn"), low=1, high=MAX_TN)
    adjustment = whole_number(adjustment, Phrase("target number adjustment", "term.tn_adjustment"),
                              low=-MAX_TN, high=MAX_TN)
    profile = profile or _DEFAULT_PROFILE
    return max(1, base_tn + profile.step_for(suitability) + adjustment)


def check_extras(cliche: Cliche | int, *, lucky: object = 0, pump: object = 0, automatic: bool = False,
                 profile: RulesProfile | None = None, owner: Character | None = None) -> int:
    """The dice lucky shots and a pump add to an action check, after checking the rules allow them.

    Parameters are those of :func:`action_check`, and ``owner``, the character whose lucky shots are
    spent (when given, no more than it has left). Raises :class:`RuleError` when an option is off, a
    number is not a whole number, an automatic success is given extras, the pump is more than the
    cliché's score − 1, or ``owner`` has fewer lucky shots left.
    """
    profile = profile or _DEFAULT_PROFILE
    shots = whole_number(lucky, Phrase("lucky shots", "term.lucky_shots"), low=0, high=10_000)
    points = whole_number(pump, Phrase("pump", "term.pump"), low=0, high=10_000)
    if shots and not profile.lucky_shots:
        raise RuleError("Lucky shots are not in this game's rules: the GM turns them on in the rules options.",
                        key="error.lucky.off")
    if points and not (profile.pumps and profile.pump_checks):
        raise RuleError("Pumps in action checks are not in this game's rules: the GM allows them in the rules options.",
                        key="error.pump.checks_off")
    if owner is not None:
        check_lucky(owner, shots)
    if automatic and (shots or points):
        raise RuleError("An automatic success rolls no dice: there is nothing to spend lucky shots or a pump on.",
                        key="error.check.automatic_extra")
    pool = cliche.pool if isinstance(cliche, Cliche) else whole_number(
        cliche, Phrase("number of dice", "term.dice_count"), low=0, high=10_000)
    if points and points > pool - 1:
        what = cliche.name if isinstance(cliche, Cliche) and cliche.name else Phrase("That cliché", "term.that_cliche")
        raise RuleError(f"{what} is at {pool}: it can pump at most {max(pool - 1, 0)} (no pump from 1).",
                        key="error.check.pump_too_much", cliche=what, score=pool, most=max(pool - 1, 0))
    return shots + points * (cliche.dice_per_pump if isinstance(cliche, Cliche) else 1)


def action_check(cliche: Cliche | int, tn: int, *, suitability: str = "suitable", adjustment: int = 0,
                 automatic: bool = False, ticket: bool = False, lucky: int = 0, pump: int = 0,
                 dice: DiceSource | None = None, profile: RulesProfile | None = None) -> CheckResult:
    """Roll an action check: the cliché's dice against the target number.

    Parameters
    ----------
    cliche
        The cliché used (its ``current`` dice are rolled), or a plain number of dice.
    tn
        The base target number the GM set (presets in :data:`TN_PRESETS`).
    suitability
        "suitable" (+0), "unsuitable" (+5) or "very unsuitable" (+10); the steps come from ``profile``.
    adjustment
        Any other whole-number change to the target number the GM wants.
    automatic
        The GM rules the action cannot fail: success, and no die is rolled.
    ticket
        Tickets never apply to action checks; asking for one is refused.
    lucky
        Lucky shots spent on this roll, +1 die each (the "lucky shots" option; the caller takes
        them from the character).
    pump
        Points pumped, +1 die each (+2 on a double-pump cliché), with the "pumps" and "pump_checks"
        options; at most the cliché's score − 1, paid from it after the check (by the caller).
    dice
        Where the dice come from (:class:`SeededDice` for play, :class:`ScriptedDice` for tests).

    Examples
    --------
    >>> from raisus_panel.rules import ScriptedDice
    >>> action_check(Cliche("Viking", 4), 10, dice=ScriptedDice([[1, 2, 3, 4]])).success
    True
    """
    if ticket:
        raise RuleError("Tickets are only for contests, never for action checks: pick a cliché "
                        "(an unsuitable one raises the target number) or let the GM forbid the check.",
                        key="error.check.no_tickets")
    target = effective_tn(tn, suitability, adjustment, profile)
    if isinstance(cliche, Cliche):
        name, pool = cliche.name, cliche.pool
    else:
        name, pool = "", whole_number(cliche, Phrase("number of dice", "term.dice_count"), low=0, high=10_000)
    extra = check_extras(cliche, lucky=lucky, pump=pump, automatic=automatic, profile=profile)
    if automatic:
        return CheckResult(name, 0, tn, target, suitability, adjustment, (), 0, True, True)
    if pool < 1:
        what = name or Phrase("That cliché", "term.that_cliche")
        raise RuleError(f"{what} has no dice left: choose another cliché or recover first.",
                        key="error.check.no_dice", cliche=what)
    lucky, pump = int(lucky), int(pump)  # checked whole numbers
    pool += extra
    faces = tuple((dice or SeededDice()).roll(pool))
    total = sum(faces)
    return CheckResult(name, pool, tn, target, suitability, adjustment, faces, total, total >= target, False,
                       lucky, pump)
