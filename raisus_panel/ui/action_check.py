"""ActionCheckPanel: one action check (행동 판정) -- cliché, target number, suitability, roll."""

from __future__ import annotations

import panel as pn
import param

from raisus_panel.rules import TN_PRESETS, RuleError, RulesProfile, effective_tn, odds
from raisus_panel.rules.check import MAX_TN

from ._base import HTML, WRAP_GROUP_CSS, Button, ComponentBase, esc, percent, set_options, style, wrap
from ._checkbox import LabelledCheckbox

_SUITABILITY = ("suitable", "unsuitable", "very unsuitable")
#: The number fields' width: their labels (above them, on one line) are 160 px wide at a phone's
#: font size, and wider than the field would overlap each other.
_NUMBER_WIDTH = 170


def _choice_style() -> dict:
    """:func:`style` for the target numbers and suitabilities: outlined, wrapping on a phone."""
    kw = style("primary", outline=True)
    return {**kw, "stylesheets": [*kw["stylesheets"], WRAP_GROUP_CSS]}


class ActionCheckPanel(ComponentBase):
    """Roll an action check: pick a character and cliché, set the target number, see the odds, roll.

    The exact chance of success (:func:`raisus_panel.rules.odds.check_chance`) is shown before the
    roll and follows every change of the inputs. The roll is an ``action_check`` command through
    ``actions``; the result shows the dice faces, their sum, the target number and success, and the
    check log below lists the checks rolled so far. On a shared room the GM also gets a "secret"
    toggle: a secret check is marked as such in the GM's log and never reaches the players (the
    room sends it to the GM's sessions only).

    Parameters
    ----------
    actions
        The adapter the check goes through; its ``characters`` fill the character picker.
    """

    result = param.Dict(default=None, allow_None=True, doc="""
        The last check rolled here (``CheckResult.to_dict()`` plus the character uid, and
        ``private`` for a secret roll), or None.""")

    log_length = param.Integer(default=10, bounds=(0, None), doc="""
        How many of the latest checks the check log shows (newest first); 0 hides the log.""")

    def _build(self) -> None:
        self._character = pn.widgets.Select(options={}, sizing_mode="stretch_width")
        self._cliche = pn.widgets.Select(options={}, sizing_mode="stretch_width")
        self._preset = pn.widgets.RadioButtonGroup(options=[*TN_PRESETS.values(), "custom"], value=10,
                                                   **_choice_style())
        self._tn = pn.widgets.IntInput(value=10, start=1, end=MAX_TN, width=_NUMBER_WIDTH)
        self._suitability = pn.widgets.RadioButtonGroup(options=list(_SUITABILITY), value="suitable",
                                                        **_choice_style())
        self._adjustment = pn.widgets.IntInput(value=0, start=-MAX_TN, end=MAX_TN, width=_NUMBER_WIDTH)
        # text as <label>: Bokeh's Checkbox leaves the box unnamed and 13 px to tap (ui/_checkbox.py)
        self._automatic = LabelledCheckbox(value=False)
        self._secret = LabelledCheckbox(value=False, visible=False)
        # the campaign options' extra dice (RULES.md section 11): shown only when the table's rules have them
        self._lucky = pn.widgets.IntInput(value=0, start=0, end=0, width=_NUMBER_WIDTH, visible=False)
        self._pump = pn.widgets.IntInput(value=0, start=0, end=0, width=_NUMBER_WIDTH, visible=False)
        self._roll = Button(**style("primary"))
        self._roll.on_click(lambda e: self.roll())
        self._title = HTML(margin=(0, 10))
        self._preset.param.watch(self._on_preset, "value")
        self._tn.param.watch(self._on_tn, "value")
        self._character.param.watch(lambda e: self._fill_cliches(), "value")
        for widget in (self._cliche, self._tn, self._suitability, self._adjustment, self._automatic,
                       self._secret, self._lucky, self._pump):
            widget.param.watch(lambda e: self._sync_roll(), "value")
        self._chance = HTML(pn.bind(self._chance_html, self._character, self._cliche, self._tn,
                                            self._suitability, self._adjustment, self._automatic.param.value,
                                            self._lucky, self._pump, self.param.lang, self.param._version),
                                    sizing_mode="stretch_width")
        self._outcome = HTML(pn.bind(self._result_html, self.param.result, self.param.lang, self.param._version),
                                     sizing_mode="stretch_width")
        self._log = HTML(pn.bind(self._log_html, self.param.log_length, self.param.lang,
                                         self.param._version), sizing_mode="stretch_width")
        self._layout = pn.Column(
            self._title, self._character, self._cliche, self._preset,
            wrap(self._tn, self._adjustment), self._suitability, wrap(self._lucky, self._pump),
            self._automatic, self._secret,
            self._chance, self._roll, self._error, self._outcome, self._log,
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout

    def _profile(self) -> RulesProfile:
        """The table's rules: a room's checks play by them (a contest may have rules of its own)."""
        profile = getattr(self.actions.room, "profile", None)
        return profile if isinstance(profile, RulesProfile) else RulesProfile()

    def _relabel(self) -> None:
        t = self._t
        self._title.object = f"<h3>{esc(t('check.title'))}</h3>"
        self._character.name = t("check.character")
        self._cliche.name = t("check.cliche")
        names = {v: t(f"tn.{k}") for k, v in TN_PRESETS.items()}
        self._preset.options = {**{f"{v} {names[v]}": v for v in TN_PRESETS.values()},
                                t("tn.custom"): "custom"}
        self._tn.name = t("check.tn")
        self._adjustment.name = t("check.adjustment")
        profile = self._profile()
        self._suitability.options = {
            t(f"suitability.{s.replace(' ', '_')}", step=profile.step_for(s)): s for s in _SUITABILITY}
        self._automatic.name = t("check.automatic")
        self._pump.name = t("campaign.pump")
        self._sync_extras()
        self._secret.name = t("check.secret")
        self._roll.name = t("check.roll")

    def _refresh(self) -> None:
        chars = self.actions.all_characters()
        options = {c.name: c.uid for c in chars}
        if len(options) != len(chars):  # two characters with one name: tell them apart
            options = {f"{c.name} ({c.uid[:4]})": c.uid for c in chars}
        set_options(self._character, options)
        offered = self.secret_offered
        # automatic success and other adjustments are the GM's (room/permissions.py): not shown to players
        for widget in (self._automatic, self._adjustment):
            if widget.visible != offered:
                widget.visible = offered
        if self._secret.visible != offered or (self._secret.value and not offered):
            self._secret.param.update(visible=offered, value=self._secret.value and offered)
        self._fill_cliches()

    @property
    def secret_offered(self) -> bool:
        """Whether the GM's "secret" toggle is offered: to the GM only."""
        return self.actions.role == "gm"

    def _fill_cliches(self) -> None:
        char = self.actions.character(self._character.value) if self._character.value else None
        options = {c.label: c.name for c in char.cliches} if char is not None else {}
        usable = [c.name for c in char.cliches if c.pool > 0] if char is not None else []
        set_options(self._cliche, options, prefer=usable[0] if usable else None)
        self._sync_extras()
        self._sync_roll()

    def _sync_extras(self) -> None:
        """The lucky-shot and pump fields, as the table's rules and the character allow (else hidden at 0)."""
        rules = self._profile()
        char = self.actions.character(self._character.value) if self._character.value else None
        cliche = char.cliche(self._cliche.value) if char is not None and char.has_cliche(self._cliche.value or "") else None
        left = char.lucky_left if char is not None and rules.lucky_shots else 0
        most = max(cliche.pool - 1, 0) if cliche is not None and rules.pumps and rules.pump_checks else 0
        for widget, end in ((self._lucky, left), (self._pump, most)):
            widget.param.update(end=end, value=min(widget.value or 0, end), visible=end > 0)
        self._lucky.name = self._t("campaign.lucky", n=left)

    def _sync_roll(self) -> None:
        if self._character.value and self._cliche.value:
            self._offer(self._roll, "action_check", **self.check_args())
        else:
            self._withhold(self._roll, "action_check")

    def _on_preset(self, event) -> None:
        if event.new != "custom" and self._tn.value != event.new:
            self._tn.value = event.new

    def _on_tn(self, event) -> None:
        preset = event.new if event.new in TN_PRESETS.values() else "custom"
        if self._preset.value != preset:
            self._preset.value = preset

    # -- derived ----------------------------------------------------------------------------------
    def chance(self):
        """The exact chance of success of the check as set now (a Fraction), or None if undefined."""
        if self._automatic.value:
            return 1
        char = self.actions.character(self._character.value) if self._character.value else None
        if char is None or not char.has_cliche(self._cliche.value or ""):
            return None
        cliche = char.cliche(self._cliche.value)
        pool = cliche.pool
        if pool < 1 or self._tn.value is None:
            return None
        pool += (self._lucky.value or 0) + (self._pump.value or 0) * cliche.dice_per_pump
        try:
            tn = effective_tn(self._tn.value, self._suitability.value, self._adjustment.value or 0,
                              self._profile())
            return odds.check_chance(pool, tn)
        except RuleError:
            return None

    def _chance_html(self, *_):
        t = self._t
        try:
            tn = effective_tn(self._tn.value or 1, self._suitability.value, self._adjustment.value or 0,
                              self._profile())
        except RuleError:
            tn = None
        p = self.chance()
        tn_text = t("check.effective_tn", tn=tn) if tn is not None else ""
        if self._automatic.value:
            text = t("check.automatic_success")
        elif p is None:
            text = t("check.no_chance")
        else:
            text = t("check.chance", p=percent(p))
        return f"<div class='raisus-chance'><b>{esc(text)}</b> <span>{esc(tn_text)}</span></div>"

    def _describe(self, check: dict) -> tuple[str, str, str]:
        """A check as plain (unescaped) text: verdict, "who · cliché", dice."""
        t = self._t
        char = self.actions.character(check.get("character", ""))
        who = char.name if char is not None else ""
        verdict = t("check.success") if check["success"] else t("check.failure")
        if check["automatic"]:
            dice = t("check.automatic_success")
        else:
            dice = t("check.faces", faces=", ".join(map(str, check["faces"])), total=check["total"],
                     tn=check["tn"])
        # how the TN came about, so a table can tell a hard check from a badly suited cliché
        step = self._profile().step_for(check.get("suitability", "suitable"))
        suitability = t(f"suitability.{check.get('suitability', 'suitable').replace(' ', '_')}", step=step)
        base = check.get("base_tn", check["tn"])
        adjustment = check.get("adjustment", 0)
        basis = (t("check.basis_adjusted", base=base, suitability=suitability, adjustment=f"{adjustment:+d}")
                 if adjustment else t("check.basis", base=base, suitability=suitability))
        if not check["automatic"]:
            dice = f"{dice} ({basis})"
        extras = ([t("log.with_lucky", n=check["lucky"])] if check.get("lucky") else []) + (
            [t("log.with_pump", n=check["pumped"])] if check.get("pumped") else [])
        if extras:
            dice = " · ".join([dice, *extras])
        roller = self._roller(check.get("actor"))
        if roller:
            dice = f"{dice} · {t('check.rolled_by', who=roller)}"
        if check.get("private"):
            verdict = f"[{t('check.secret_mark')}] {verdict}"
        return verdict, f"{who} · {check['cliche']}", dice

    def _roller(self, actor) -> str:
        """Who rolled a check: the player's name, or "GM"; "" where the record does not say (a notebook's)."""
        if not actor:
            return ""
        if actor.get("role") == "player":
            room = self.actions.room
            players = getattr(room, "players", None) or {}
            return players.get(actor.get("player_id"), "") or self._t("role.player")
        return self._t(f"role.{actor.get('role')}") if actor.get("role") else ""

    def _result_html(self, result, *_):
        if not result:
            return ""
        verdict, what, dice = self._describe(result)
        cls = "success" if result["success"] else "failure"
        if result.get("private"):
            cls += " secret"
        return (f"<div class='raisus-check-result {cls}'><b>{esc(verdict)}</b> &mdash; "
                f"{esc(what)}<br>{esc(dice)}</div>")

    def log_entries(self) -> list[tuple[str, bool]]:
        """The check log as plain (unescaped) text, newest first: ``(line, secret)`` per check.

        Only what this adapter's role may see: a room never sends the GM's secret checks to players.
        """
        checks = list(self.actions.checks)[::-1][:self.log_length]
        return [(" — ".join(self._describe(c)), bool(c.get("private"))) for c in checks]

    def _log_html(self, *_):
        if not self.log_length:
            return ""
        entries = self.log_entries()
        title = f"<b>{esc(self._t('check.log'))}</b>"
        if not entries:
            return f"<div class='raisus-check-log'>{title}<br><i>{esc(self._t('check.log_empty'))}</i></div>"
        lines = "".join(f"<li class='{'secret' if secret else 'open'}'>{esc(text)}</li>" for text, secret in entries)
        return f"<div class='raisus-check-log'>{title}<ul>{lines}</ul></div>"

    # -- command ----------------------------------------------------------------------------------
    def check_args(self) -> dict:
        """The ``action_check`` command's arguments as set now (``private`` only where it is offered)."""
        args = {"character": self._character.value, "cliche": self._cliche.value, "tn": self._tn.value,
                "suitability": self._suitability.value, "adjustment": self._adjustment.value or 0,
                "automatic": self._automatic.value}
        for key, widget in (("lucky", self._lucky), ("pump", self._pump)):
            if widget.visible and widget.value:
                args[key] = widget.value
        if self.secret_offered:
            args["private"] = bool(self._secret.value)
        return args

    def roll(self):
        """Roll the check as set (an ``action_check`` command); returns the result mapping or None."""
        if not self._character.value or not self._cliche.value:
            self._show_error(RuleError(self._t("check.pick_first")))
            return None
        def rolled(result) -> None:
            self.result = dict(result)
            # one check's circumstances: a leftover adjustment or "automatic" would silently change the next
            self._adjustment.value = 0
            self._automatic.value = False
            self._lucky.value = self._pump.value = 0  # spent on that roll
        return self._run("action_check", **self.check_args(), then=rolled)
