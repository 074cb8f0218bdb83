"""TeamBuilder: form a character team (캐릭터 팀) from the characters of one side."""

from __future__ import annotations

import panel as pn
import param

from raisus_panel.rules import CharacterTeam, RuleError

from . import _derive as d
from ._base import HTML, Button, ComponentBase, esc, set_objects, set_options, style, team_pool_text
from ._checkbox import LabelledCheckbox


def teamable(contest, side: int) -> list:
    """The characters of ``side`` that may form a team now: active individuals, not teams or mobs."""
    if contest is None or contest.status != "active":
        return []
    return [u for u in contest.sides[side]
            if not isinstance(u, CharacterTeam) and not d.is_mob(u) and contest.is_active(u.uid)]


def has_team_work(contest, side: int) -> bool:
    """Whether ``side`` has a team to form (two characters or more) or to disband: a side with one
    character and no team has nothing to build, and shows no builder (issue 21)."""
    return contest is not None and (len(teamable(contest, side)) >= 2
                                    or any(isinstance(u, CharacterTeam) for u in contest.sides[side]))


class TeamBuilder(ComponentBase):
    """Pick characters of one side and the clichés they bring; see the leader and the pool; form the team.

    The preview follows the rules as the players choose: who leads (the highest current score in the
    team cliché), how the pool is made up ("Knight 4 + Viking + Squire = 6 dice"), whether a revenge
    bonus is armed for the new team, and, on a leader tie, a prompt to name the leader. **Form team**
    sends a ``form_team`` command through ``actions``. The side's teams already formed are listed
    with the same make-up.

    Parameters
    ----------
    actions
        The adapter ``form_team`` goes through; its ``contest`` supplies the side's characters.
    side
        Which side (0 or 1) the team forms on.
    """

    side = param.Selector(default=0, objects=[0, 1], doc="""
        The side of the contest whose characters can form a team here (0 = A, 1 = B).""")

    def _build(self) -> None:
        self._syncing = False
        self._title = HTML(margin=(0, 10))
        self._members = pn.widgets.CheckBoxGroup(options={}, value=[], inline=False)
        # a CheckBoxGroup does not show its name: the list gets a header (while it lists anyone)
        self._members_title = HTML(margin=(5, 10, 0, 10), visible=False)
        self._members.param.watch(lambda e: self._update(), "value")
        self._rows: dict[str, dict] = {}
        self._rows_box = pn.Column(sizing_mode="stretch_width")
        self._leader = pn.widgets.Select(options={}, visible=False)
        self._leader.param.watch(lambda e: self._update(), "value")
        self._team_name = pn.widgets.TextInput(sizing_mode="stretch_width")
        self._preview = HTML(sizing_mode="stretch_width")
        self._teams = HTML(sizing_mode="stretch_width")
        self._note = HTML(sizing_mode="stretch_width", visible=False, css_classes=["raisus-team-note"])
        self._none_left = HTML(sizing_mode="stretch_width", visible=False, css_classes=["raisus-team-note"])
        self._form = Button(**style("primary"), disabled=True)
        self._form.on_click(lambda e: self.form())
        self.param.watch(lambda e: self._refresh_now(), "side")
        self._layout = pn.Column(self._title, self._teams, self._note, self._none_left,
                                 self._members_title, self._members, self._rows_box,
                                 self._leader, self._team_name, self._preview, self._form,
                                 self._error,
                                 sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def _relabel(self) -> None:
        t = self._t
        self._title.object = f"<h4>{esc(t('team.title', side=t(f'side.{self.side}')))}</h4>"
        self._members.name = t("team.members")
        self._members_title.object = f"<b>{esc(t('team.members'))}</b>"
        self._leader.name = t("team.leader")
        self._team_name.param.update(name=t("team.name"), placeholder=t("team.name_placeholder"))
        self._form.name = t("team.form")
        self._note.object = f"<p>{esc(t('team.player_note'))}</p>"
        self._none_left.object = f"<p>{esc(t('team.none_left'))}</p>"
        for row in self._rows.values():
            row["appropriate"].name = t("team.appropriate")
            row["cliche"].name = t("team.cliche")

    # -- state ------------------------------------------------------------------------------------
    def _eligible(self) -> list:
        return teamable(self.contest, self.side)

    def _offered(self, eligible: list) -> list:
        """The characters this page may team: a player only their own (the room refuses others')."""
        if self.actions.role != "player":
            return eligible
        player = self.actions.session.actor.player_id
        return [u for u in eligible if d.plays(u, player)]

    def _refresh(self) -> None:
        self._relabel_title()
        side = self._eligible()
        eligible = self._offered(side)
        self._layout.visible = has_team_work(self.contest, self.side)
        # said before building, not in a hover: whom a player may team, and that the GM teams anyone;
        # with fewer than two to pick, no member list or Form button asks for a pick that cannot be made
        self._note.visible = len(eligible) < len(side)
        self._none_left.visible = len(side) < 2
        for part in (self._members, self._rows_box, self._leader, self._team_name, self._preview, self._form):
            part.visible = len(eligible) >= 2
        options = {u.name: u.uid for u in eligible}
        if len(options) != len(eligible):
            options = {f"{u.name} ({u.uid[:4]})": u.uid for u in eligible}
        value = [v for v in self._members.value if v in options.values()]
        self._syncing = True
        try:
            if self._members.options != options or self._members.value != value:
                self._members.param.update(options=options, value=value)
        finally:
            self._syncing = False
        self._members_title.visible = len(options) >= 2
        self._teams.object = self._teams_html()
        self._update()

    def _relabel_title(self) -> None:
        t = self._t
        self._title.object = f"<h4>{esc(t('team.title', side=t(f'side.{self.side}')))}</h4>"

    def _row(self, char) -> dict:
        row = self._rows.get(char.uid)
        if row is None:
            row = {"label": HTML(esc(char.name), width=120, margin=(10, 10, 0, 10)),
                   "cliche": pn.widgets.Select(options={}, width=180),
                   "appropriate": LabelledCheckbox(value=True, align="end")}  # named: ui/_checkbox.py
            row["view"] = pn.Row(row["label"], row["cliche"], row["appropriate"])
            row["cliche"].param.watch(lambda e: self._update(), "value")
            row["appropriate"].param.watch(lambda e: self._update(), "value")
            row["appropriate"].name = self._t("team.appropriate")
            row["cliche"].name = self._t("team.cliche")
            self._rows[char.uid] = row
        row["label"].object = esc(char.name)
        usable = {c.label: c.name for c in char.cliches if c.pool > 0}
        chosen = self.contest.chosen(char.uid) if self.contest is not None else None
        set_options(row["cliche"], usable, prefer=chosen.name if chosen is not None else None)
        return row

    def _selected(self) -> list:
        contest = self.contest
        if contest is None:
            return []
        return [c for c in (d.unit(contest, uid) for uid in self._members.value) if c is not None]

    def specs(self) -> list[dict]:
        """The members as the ``form_team`` command wants them: character uid, cliché, appropriate."""
        out = []
        for char in self._selected():
            row = self._rows.get(char.uid)
            if row is not None and row["cliche"].value:
                out.append({"character": char.uid, "cliche": row["cliche"].value,
                            "appropriate": bool(row["appropriate"].value)})
        return out

    def tied(self) -> list:
        """The members tied for the highest score in their team cliché (a leader must be named if 2+)."""
        chars = {c.uid: c for c in self._selected()}
        scores = {s["character"]: chars[s["character"]].cliche(s["cliche"]).current for s in self.specs()}
        if not scores:
            return []
        best = max(scores.values())
        return [chars[uid] for uid, v in scores.items() if v == best]

    def _update(self) -> None:
        if self._syncing:
            return
        t = self._t
        selected = self._selected()
        rows = [self._row(c) for c in selected]
        set_objects(self._rows_box, [r["view"] for r in rows])
        tied = self.tied()
        need_leader = len(tied) > 1
        options = {t("team.pick_leader"): ""} | {c.name: c.uid for c in tied} if need_leader else {}
        set_options(self._leader, options)
        self._leader.visible = need_leader
        preview, ok = self._preview_html(selected, need_leader)
        self._preview.object = preview
        if ok:  # the name is checked when the team forms
            self._offer(self._form, "form_team", members=self.specs(), leader=self._leader.value or None)
        else:
            self._withhold(self._form, "form_team")

    def _draft(self) -> CharacterTeam:
        contest = self.contest
        specs = [(d.unit(contest, s["character"]), s["cliche"], s["appropriate"]) for s in self.specs()]
        leader = d.unit(contest, self._leader.value) if self._leader.value else None
        return CharacterTeam(specs, leader=leader, name=self._team_name.value or None)

    def _preview_html(self, selected, need_leader) -> tuple[str, bool]:
        t = self._t
        if self.contest is None:
            return f"<i>{esc(t('team.no_contest'))}</i>", False
        if len(selected) < 2:
            return f"<i>{esc(t('team.pick_two'))}</i>", False
        if need_leader and not self._leader.value:
            names = ", ".join(c.name for c in self.tied())
            return f"<b>{esc(t('team.leader_tie', names=names))}</b>", False
        try:
            team = self._draft()
        except RuleError as exc:
            return f"<span class='raisus-problem'>{esc(exc)}</span>", False
        revenge = self.contest.pending_revenge(self.side)
        sixes = self.contest.profile.team_dice == "member_sixes"
        parts = [t("team.leader_is", name=team.leader.name),
                 team_pool_text(team, self._t, revenge=revenge, sixes=sixes)]
        if revenge:
            parts.append(t("team.revenge_armed"))
        if team.inappropriate:
            parts.append(t("team.all_inappropriate"))
        return "<br>".join(esc(p) for p in parts), True

    def _teams_html(self) -> str:
        contest = self.contest
        if contest is None:
            return ""
        sixes = contest.profile.team_dice == "member_sixes"
        lines = []
        for u in contest.sides[self.side]:
            if isinstance(u, CharacterTeam):
                text = f"{u.name}: " + self._t("team.leader_is", name=u.leader.name) + " · " + \
                    team_pool_text(u, self._t, sixes=sixes)
                if u.revenge:
                    text += " · " + self._t("team.revenge_armed")
                lines.append(f"<li>{esc(text)}</li>")
        return f"<ul>{''.join(lines)}</ul>" if lines else ""

    # -- command ----------------------------------------------------------------------------------
    def form(self):
        """Send ``form_team`` with the chosen members, clichés, leader and name."""
        def formed(_) -> None:
            self._syncing = True
            try:
                self._members.value = []
                self._team_name.value = ""
            finally:
                self._syncing = False
            self._update()
        return self._run("form_team", members=self.specs(), leader=self._leader.value or None,
                         name=self._team_name.value or None, then=formed)
