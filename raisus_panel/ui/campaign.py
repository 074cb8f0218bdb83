"""CampaignPanel: campaign play (RULES.md section 11) -- the table's rules, sessions and advancement."""

from __future__ import annotations

import panel as pn

from raisus_panel.room.projection import effective
from raisus_panel.rules import RulesProfile

from ._base import HTML, Button, ComponentBase, IntInput, Select, esc, grey, set_objects, set_options, style, wrap
from ._checkbox import LabelledCheckbox

#: The switches of the table's rules this panel sets, in the order they are shown.
_SWITCHES = ("lucky_shots", "pumps", "pump_checks")
#: A creation budget's dice when the GM first turns it on (the book's).
_BOOK_BUDGET = 10


class CampaignPanel(ComponentBase):
    """The session in play, and each character's advancement once the GM ends a session.

    The GM sets the table's campaign options here -- lucky shots, pumps (and in checks), a creation
    budget with its maximum per cliché, advancement by rolls or by points -- and starts and ends
    sessions. Ending a session offers each character its advancement: a roll for every cliché it used
    that session (all dice even: +1, to 6), or one creation die to invest. A player sees the session
    and rolls or invests for their own characters; the GM for anyone. Every change is a command
    through ``actions`` (``set_rules``, ``new_session``, ``end_session``, ``roll_advancement``,
    ``invest_advancement``); a refusal is shown in the page's language and changes nothing, and a
    button that cannot be pressed says why under it.

    Parameters
    ----------
    actions
        The adapter commands go through; its room's rules, session and owed advancement are shown.
    """

    def _build(self) -> None:
        self._status = HTML(sizing_mode="stretch_width", css_classes=["raisus-session"])
        self._switches = {key: LabelledCheckbox(value=False) for key in _SWITCHES}
        self._budget = IntInput(value=0, start=0, end=100, width=170)
        self._budget_max = IntInput(value=4, start=1, end=6, width=170)
        self._advancement = Select(options={}, width=220)
        self._apply = Button(**style("primary", outline=True))
        self._apply.on_click(lambda e: self._run("set_rules", profile=self.rules_args()))
        for widget in (*self._switches.values(), self._budget, self._budget_max, self._advancement):
            widget.param.watch(lambda e: self._sync_apply(), "value")
        self._new = Button(**style("success", outline=True))
        self._new.on_click(lambda e: self._run("new_session"))
        self._end = Button(**style(outline=True))
        self._end.on_click(lambda e: self._run("end_session"))
        self._rules_box = pn.Column(
            HTML(), wrap(*self._switches.values()), wrap(self._budget, self._budget_max, self._advancement),
            self._apply, sizing_mode="stretch_width")
        self._sessions_box = wrap(self._new, self._end)
        self._owed_box = pn.Column(sizing_mode="stretch_width")
        self._rows: dict[tuple, pn.viewable.Viewable] = {}
        self._results = HTML(sizing_mode="stretch_width")
        self._layout = pn.Column(self._status, self._sessions_box, self._owed_box, self._results, self._error,
                                 self._rules_box, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    @property
    def _gm(self) -> bool:
        return self.actions.role == "gm"

    @property
    def _profile(self) -> RulesProfile:
        profile = getattr(self.actions.room, "profile", None)
        return profile if isinstance(profile, RulesProfile) else RulesProfile()

    def _relabel(self) -> None:
        t = self._t
        self._rules_box.objects[0].object = f"<b>{esc(t('campaign.rules_title'))}</b>"
        for key, box in self._switches.items():
            box.name = t(f"campaign.option.{key}")
        self._budget.name = t("campaign.option.creation_dice")
        self._budget_max.name = t("campaign.option.creation_max")
        self._advancement.name = t("campaign.option.advancement")
        set_options(self._advancement, {t(f"campaign.advancement.{w}"): w for w in ("off", "rolls", "points")},
                    prefer=self._advancement.value)
        self._apply.name = t("campaign.apply_rules")
        self._new.name = t("campaign.new_session")
        self._end.name = t("campaign.end_session")
        self._rows.clear()  # remade in this language

    # -- showing ----------------------------------------------------------------------------------
    def _refresh(self) -> None:
        room, t = self.actions.room, self._t
        number, ended = getattr(room, "session_number", 1), getattr(room, "session_ended", False)
        status = t("campaign.session_ended" if ended else "campaign.session", n=number)
        self._status.object = f"<b>{esc(status)}</b>"
        for box in (self._rules_box, self._sessions_box):
            box.visible = self._gm
        if self._gm:
            self._show_rules()
            self._offer(self._new, "new_session")
            self._offer(self._end, "end_session")
        self._show_owed()
        self._show_results()

    def _show_rules(self) -> None:
        """The form shows the table's rules as they are (until the GM changes a field)."""
        if getattr(self, "_shown_rules", None) is self._profile:
            return self._sync_apply()
        rules = self._shown_rules = self._profile
        for key, box in self._switches.items():
            box.value = bool(getattr(rules, key))
        self._budget.value = rules.creation_dice or 0
        self._budget_max.value = rules.creation_max
        self._advancement.value = rules.advancement
        self._sync_apply()

    def rules_args(self) -> dict:
        """The ``set_rules`` profile the form sets: the table's rules with the form's campaign options."""
        data = {**self._profile.to_dict(), **{key: bool(box.value) for key, box in self._switches.items()}}
        data.update(creation_dice=self._budget.value or None, creation_max=self._budget_max.value or 4,
                    advancement=self._advancement.value or "off")
        return data

    def _sync_apply(self) -> None:
        # a pump in a check is a pump: the box means something only with pumps on
        grey(self._switches["pump_checks"], None if self._switches["pumps"].value else self._t("campaign.why_pumps_off"))
        if self._switches["pumps"].value is False and self._switches["pump_checks"].value:
            self._switches["pump_checks"].value = False
        self._budget_max.visible = bool(self._budget.value)
        self._offer(self._apply, "set_rules", profile=self.rules_args())

    def _show_owed(self) -> None:
        """A row for each character whose advancement this page may give, with what it may do."""
        owed = getattr(self.actions.room, "advancement", {}) or {}
        rows = []
        for uid, cliches in owed.items():
            char = self.actions.character(uid)
            if char is None or not (self._gm or char.owner == self.actions.session.actor.player_id):
                continue
            if cliches:  # rolls: one button per cliché used this session
                for name in cliches:
                    rows.append(self._roll_row(char, name))
            else:
                rows.append(self._invest_row(char))
        set_objects(self._owed_box, rows)  # the same rows: nothing redrawn (a click on one must land)

    def _roll_row(self, char, cliche_name: str) -> pn.viewable.Viewable:
        key = ("roll", char.uid, cliche_name)
        if key not in self._rows:
            cliche = char.cliche(cliche_name)
            button = Button(**style("primary", outline=True))
            button.name = self._t("campaign.roll_advancement", name=char.name, cliche=cliche_name, n=cliche.rating)
            button.on_click(lambda e: self._run("roll_advancement", character=char.uid, cliche=cliche_name))
            self._rows[key] = button
        self._offer(self._rows[key], "roll_advancement", character=char.uid, cliche=cliche_name)
        return self._rows[key]

    def _invest_row(self, char) -> pn.viewable.Viewable:
        key = ("invest", char.uid)
        if key not in self._rows:
            t = self._t
            name = pn.widgets.TextInput(placeholder=t("campaign.invest_placeholder"), width=260)
            name.name = t("campaign.invest_in", name=char.name)
            button = Button(**style("primary", outline=True))
            button.name = t("campaign.invest")
            button.on_click(lambda e: self._run("invest_advancement", character=char.uid, cliche=name.value))
            # typed, not yet left: the button wakes as the name is typed (a phone has no "leave")
            name.param.watch(lambda e: grey(button, None if (e.new or "").strip() else t("campaign.invest_pick")),
                             ["value", "value_input"])
            grey(button, t("campaign.invest_pick"))
            self._rows[key] = wrap(name, button)
        return self._rows[key]

    def _show_results(self) -> None:
        """The advancement rolls of the last ended session, in words (newest first)."""
        t, lines = self._t, []
        for event in reversed(effective(self.actions.room.log)):
            if event["type"] == "session_ended":
                break
            if event["type"] == "advancement_rolled":
                roll, char = event["roll"], self.actions.character(event["character"])
                who = char.name if char is not None else ""
                faces = ", ".join(map(str, roll["faces"]))
                key = "campaign.rose" if roll["rises"] else "campaign.stayed"
                lines.append(t(key, name=who, cliche=roll["cliche"], faces=faces, n=roll["rating"] + roll["rises"]))
            elif event["type"] == "advancement_invested":
                char = self.actions.character(event["character"])
                lines.append(t("campaign.invested_new" if event["new"] else "campaign.invested",
                               name=char.name if char is not None else "", cliche=event["cliche"]))
        self._results.object = "".join(f"<div>{esc(line)}</div>" for line in lines)
