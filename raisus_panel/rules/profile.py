"""The options a group can choose: our seed rulings by default, the originals' rules as options."""

from __future__ import annotations

from typing import Any

import param

SUITABILITY_STEPS = ("suitable", "unsuitable", "very unsuitable")

#: The options of RULES.md section 11, all off by default.
CAMPAIGN_OPTIONS = ("creation_dice", "creation_max", "lucky_shots", "pumps", "pump_checks", "advancement")


class RulesProfile(param.Parameterized):
    """Which reading of the rules a table plays by (RULES.md section 9).

    The defaults follow the Korean seed text and our rulings; each alternative follows the English
    originals or a common house rule, so a group can play "by the book" of its choice.

    Examples
    --------
    >>> RulesProfile(inappropriate_damage="vs_appropriate").inappropriate_damage
    'vs_appropriate'
    """

    unsuitable_step = param.Integer(default=5, doc="""
        How much an unsuitable cliché raises an action check's target number.""")

    very_unsuitable_step = param.Integer(default=10, doc="""
        How much a very unsuitable cliché raises an action check's target number.""")

    inappropriate_damage: param.Selector[str] = param.Selector(default="always", objects=["always", "vs_appropriate"], doc="""
        When a round won with an approved inappropriate cliché deals 3 instead of 1: "always"
        (seed reading, whatever the loser used) or "vs_appropriate" (only against an appropriate
        cliché, as in the English originals).""")

    single_roll_damage = param.Boolean(default=False, doc="""
        Whether the loser of a single-roll contest loses points as in a contest round.""")

    team_dice: param.Selector[str] = param.Selector(default="member_dice", objects=["member_dice", "member_sixes"], doc="""
        How a character team rolls: "member_dice" (the leader rolls, +1 die per other active
        appropriate member) or "member_sixes" (every member rolls its own dice and only their sixes
        add to the leader's total, as in the originals).""")

    team_loss: param.Selector[str] = param.Selector(default="leader", objects=["leader", "leader_assigns", "roll_off"], doc="""
        Who takes a lost round's damage when nobody volunteers: "leader" (seed), "leader_assigns"
        (the leader may hand the hit to another active member) or "roll_off" (each active member rolls
        one die and the lowest takes it).""")

    volunteer_factor = param.Integer(default=2, bounds=(1, None), constant=True, doc="""
        A volunteer loses this many times the round's damage. Fixed at 2 by the rules.""")

    disband_penalty = param.Integer(default=1, bounds=(0, 1), doc="""
        What every member's team cliché loses when a team disbands, also on a lost leader
        (1 by the rules, 0 as a house rule).""")

    tickets: param.Selector[str] = param.Selector(default="temporary", objects=["temporary", "brevet"], doc="""
        What tickets give: "temporary" (everyone gets a temporary cliché rated 2) or "brevet"
        (a participant with a fitting cliché gets +2 temporary dice on it instead).""")

    ticket_rating = param.Integer(default=2, bounds=(1, None), constant=True, doc="""
        The rating of a ticket's temporary cliché, and the extra dice of a brevet. 2 by the rules.""")

    # -- campaign options (RULES.md section 11): each off by default, and left out of a save while off
    creation_dice = param.Integer(default=None, allow_None=True, bounds=(1, 100), doc="""
        The creation budget: how many dice a player character is built from (10 by the book);
        None (the default) for no budget.""")

    creation_max = param.Integer(default=4, bounds=(1, 6), doc="""
        The most creation dice any one cliché may hold under a creation budget (4 by the book).""")

    lucky_shots = param.Boolean(default=False, doc="""
        Whether characters may spend lucky shots: +1 die each on one roll of their own.""")

    pumps = param.Boolean(default=False, doc="""
        Whether a character may pump its cliché before a contest round's roll: +N dice now, and the
        cliché loses N when the round is decided, won or lost.""")

    pump_checks = param.Boolean(default=False, doc="""
        Whether pumps are allowed in action checks too (paid after the check); only with ``pumps``.""")

    advancement: param.Selector[str] = param.Selector(default="off", objects=["off", "rolls", "points"], doc="""
        How characters advance when the GM ends a session: "off", "rolls" (a roll per cliché used
        that session; all dice even raises its rating by 1, to 6 at most) or "points" (RisusKr: one
        creation die per session to invest).""")

    def step_for(self, suitability: str) -> int:
        """The target-number increase for ``suitability`` ("suitable", "unsuitable", ...)."""
        return {"suitable": 0, "unsuitable": self.unsuitable_step,
                "very unsuitable": self.very_unsuitable_step}[suitability]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)  # type: ignore[no-untyped-call]  # Parameterized.__init__ takes **params untyped

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready mapping (the campaign options only when they are on, so a game
        that plays none of them is saved exactly as before they existed)."""
        return {k: v for k, v in self.param.values().items()
                if k != "name" and not (k in CAMPAIGN_OPTIONS and v == self.param[k].default)}

    @classmethod
    def from_dict(cls, data: object) -> "RulesProfile":
        """A profile from :meth:`to_dict` output (unknown keys are refused)."""
        from .errors import RuleError

        known = set(cls.param) - {"name"}
        if not isinstance(data, dict) or set(data) - known:
            options = repr(sorted(set(data) - known) if isinstance(data, dict) else data)
            raise RuleError(f"Unknown rules options: {options}.", key="error.profile.unknown", options=options)
        try:
            return cls(**data)
        except ValueError as exc:
            raise RuleError(f"Invalid rules options: {exc}", key="error.profile.invalid", detail=str(exc)) from None
