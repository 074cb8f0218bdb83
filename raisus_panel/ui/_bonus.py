"""A unit card's pump and lucky-shot fields (RULES.md section 11), set before the roll.

The campaign options add dice to a unit's next roll: a pump (its cliché pays for it after the roll)
and lucky shots (each character spends its own). On a card they are two number fields and a line that
says, in words, what they add now and what they will cost -- shown only when the contest's rules have
them, so a game without them looks as before. A change is a command (``pump``, ``spend_lucky``)
through the card's table, as every click is; a refused one is set back from the room's state.
"""

from __future__ import annotations

import panel as pn

from ._base import HTML, IntInput, esc, grey, wrap


class BonusFields:
    """The pump field of a unit (``pump_unit``) and the lucky-shot field of a character (``lucky_of``),
    each optional, with the line of what they add. ``run`` gives a command, as a table's ``_run``."""

    def __init__(self, run, *, pump_unit: str | None = None, lucky_of: str | None = None) -> None:
        self._run, self._pump_unit, self._lucky_of = run, pump_unit, lucky_of
        self._syncing = False
        self.pump = IntInput(value=0, start=0, end=0, width=130, visible=False)
        self.lucky = IntInput(value=0, start=0, end=0, width=130, visible=False)
        self.line = HTML(visible=False, sizing_mode="stretch_width", margin=(0, 10))
        self.pump.param.watch(lambda e: self._send("pump", unit=pump_unit, amount=e.new), "value")
        self.lucky.param.watch(lambda e: self._send("spend_lucky", character=lucky_of, amount=e.new), "value")
        self.view = pn.Column(wrap(self.pump, self.lucky), self.line, visible=False, sizing_mode="stretch_width")

    def _send(self, command: str, **args) -> None:
        if not self._syncing and args["amount"] is not None:
            self._run(command, **args)

    def relabel(self, t, left: int = 0) -> None:
        """The fields' names in the page's language (``left``: the lucky shots the character has)."""
        self.pump.name = t("campaign.pump")
        self.lucky.name = t("campaign.lucky", n=left)

    def sync(self, contest, unit, t, why_not) -> None:
        """Show what the contest's rules allow this unit now, set from the room's state.

        ``why_not(command, **args)`` is the table's reason to refuse a command (None if it would be
        taken): a field that could not be changed says why under it.
        """
        rules, active = contest.profile, contest.status == "active" and contest.is_active(unit.uid)
        bonus = contest.bonus(unit.uid) if active else {"pump": 0, "pump_dice": 0, "lucky": {}, "dice": 0}
        show_pump = self._pump_unit is not None and rules.pumps and not contest.single_roll and active
        char = next((c for c in contest.characters() if c.uid == self._lucky_of), None)
        spent = bonus["lucky"].get(self._lucky_of, 0) if char is not None else 0
        show_lucky = (char is not None and rules.lucky_shots and active
                      and (char.lucky_left > 0 or spent > 0))
        cliche = contest.pumped_cliche(unit.uid) if show_pump else None
        self._syncing = True
        try:
            if show_pump:
                most = max((cliche.pool if cliche is not None else 1) - 1, 0)
                self.pump.param.update(end=max(most, bonus["pump"]), value=bonus["pump"])
                # a unit at 1 has nothing to pump: said under the field, not left to guess
                grey(self.pump, why_not("pump", unit=unit.uid, amount=1) if not bonus["pump"] else None)
            if show_lucky:
                assert char is not None
                self.lucky.param.update(end=char.lucky_left, value=spent)
                self.lucky.name = t("campaign.lucky", n=char.lucky_left)
        finally:
            self._syncing = False
        self.pump.visible, self.lucky.visible = show_pump, show_lucky
        self.view.visible = show_pump or show_lucky
        lines = []
        if show_pump and bonus["pump"] and cliche is not None:
            lines.append(t("campaign.pump_line", n=bonus["pump"], dice=bonus["pump_dice"], cliche=cliche.name))
        if show_lucky and spent:
            lines.append(t("campaign.lucky_line", n=spent))
        self.line.object = "<br>".join(esc(line) for line in lines)
        self.line.visible = bool(lines)
