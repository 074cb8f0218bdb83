"""ContestTable: play a contest (대결) -- units, clichés, rounds, exchanges, teams, fates, recovery."""

from __future__ import annotations

import panel as pn
import param

from raisus_panel.room import room_advice
from raisus_panel.rules import CharacterTeam, RuleError

from . import _contest_text as text
from . import _derive as d
from . import _offloop
from ._advice_text import ADVICE_CSS, advice_html, without_teaming
from ._base import HTML, Button, ComponentBase, Select, esc, grey, set_objects, set_options, style, wrap
from ._bonus import BonusFields
from ._charts import unit_colors
from ._checkbox import LabelledCheckbox
from ._confirm import ConfirmStep
from .team_builder import TeamBuilder, has_team_work
from .what_now import WhatNow

_NONE = ""  # the "nothing chosen yet" value of pickers

#: A side's column: two side by side where each gets 300 px, one above the other on a phone.
_SIDE = {"flex": "1 1 300px", "min-width": "0"}
#: A free-text field that takes the room its row leaves (and a whole line on a phone).
_GROW = {"flex": "1 1 260px", "min-width": "0"}


#: Free text (an outcome, a fate) is checked when its button is pressed: an empty field is no reason to
#: grey the button out, so whether the command is available now is asked with a stand-in text.
_TEXT_LATER = "…"


class ContestTable(ComponentBase):
    """The table of a contest: both sides' units and every command the rules allow right now.

    Under the contest's header, a :class:`~raisus_panel.ui.WhatNow` line tells this person the next
    step ("Your turn: choose a cliché for 기사 아린", "Waiting for the GM to open round 3").

    Each unit shows its cliché picker (switching between rounds), an "inappropriate" toggle and the
    GM's approval button; teams show leader, pool make-up, revenge bonus and per-member buttons
    (volunteer right after a lost round, drop out, hand on the hit with that option) and can be
    disbanded; a team builder per side (opened with **Form a team…**) forms and re-forms teams.
    **Roll round** plays a round (ties are re-rolled; every attempt of the last roll is shown); with
    several units on a side the GM picks attacker and target for each exchange and ends the round.
    Before the first roll the GM may give tickets. At the end, the winners write fates (the GM may
    veto), and the GM recovers spent dice. A player's table leaves out the GM's controls, and puts
    the player first: their own units (and team members) wear a "Yours" badge, in words, and another's
    unit shows its cliché in words (as :class:`~raisus_panel.ui.ContestView` does) instead of controls
    the room's permissions would never let this player use. (A team they play a member of keeps its
    buttons, each enabled when the room lets them.) The GM's table has them on every card. A
    tutorial's first table (``learner_view``) leaves out the GM tools a first game does not need.
    Every click is a command through ``actions``; a refusal is shown (in the table's language) and
    changes nothing. Dropping out, ending and closing the contest ask "Are you sure?" inline first
    (:class:`~raisus_panel.ui._confirm.ConfirmStep`): their player cannot take them back (only the GM's
    undo can, and only while nothing came after). Buttons are enabled only when
    ``actions.why_not_error`` says the command would be accepted (a dry run of the rules' own command);
    a disabled button says why in its title, and the Roll and Start buttons in a line of text under
    them. With no contest (or after one), a setup form starts a new one from the table's characters;
    under a finished contest it is titled for the next contest and says that starting it closes this
    one; under a contest in play it is hidden.

    Parameters
    ----------
    actions
        The adapter commands go through; its ``contest`` is the contest shown.
    """

    show_team_builders = param.Boolean(default=True, doc="""
        Whether to offer a team builder under each side (to form and re-form character teams). The
        builders are made when the "Form a team…" button is first pressed.""")

    learner_view = param.Boolean(default=False, doc="""
        A tutorial's first table: a notebook's local room gives its one user every role, so the
        GM's tools would all show at once. With this set, while the contest runs the table leaves
        out the GM's tools a first game does not need -- opening the round for the players, tickets,
        ending the contest early -- and offers the new-contest form only when there is no contest.
        The cards, the roll, undo, and the end of the contest (fates, recovery, closing) stay. Only
        the layout changes: every command goes through ``actions`` and the room as before.""")

    def _build(self) -> None:
        self._syncing = False
        self._refreshing = False
        self._cards: dict[str, dict] = {}
        self._fate_rows: dict[str, dict] = {}
        self._side_uids: list[list[str]] = [[], []]
        # the advisor's last answer: (the contest's event list it was made from, {uid: Advice or refusal})
        self._advice: tuple[object, dict] = (None, {})
        self._header = HTML(sizing_mode="stretch_width")
        # what happens next for this person, first under the header (also before any contest)
        self._what_now = WhatNow(actions=self.actions, lang=self.lang)
        self._side_titles = [HTML(), HTML()]
        self._side_boxes = [pn.Column(sizing_mode="stretch_width"), pn.Column(sizing_mode="stretch_width")]
        # the team builders are made when first asked for: most pages never form a team
        self._made_builders: list[TeamBuilder] = []
        self._teams = Button(**style(outline=True))
        self._teams.on_click(lambda e: self._builders)
        self._builder_box = pn.Row(self._teams, sizing_mode="stretch_width")
        # rounds
        self._roll = Button(**style("primary"))
        self._roll.on_click(lambda e: self._run("roll_round"))
        self._undo = Button(**style(outline=True))
        self._undo.on_click(lambda e: self._run("undo"))
        # shared rooms only: the GM opens each round for the players, and closes a finished contest
        self._open_round = Button(**style("success", outline=True))
        self._open_round.on_click(lambda e: self._run("open_round", open=True))
        self._close = Button(**style(outline=True))
        # closing leaves the table (no Undo button there any more): asked once more, inline
        self._close_confirm = self._confirm(self._close, lambda seen: self._run("close_contest"))
        self._attacker = pn.widgets.Select(options={})
        self._target = pn.widgets.Select(options={})
        self._attacker.param.watch(lambda e: self._sync_targets(), "value")
        self._target.param.watch(lambda e: self._sync_buttons(), "value")
        self._exchange = Button(**style("primary"))
        self._exchange.on_click(lambda e: self._run("exchange", attacker=self._attacker.value,
                                                    target=self._target.value))
        self._end_round = Button(**style(outline=True))
        self._end_round.on_click(lambda e: self._run("end_round"))
        self._exchange_box = wrap(self._attacker, self._target, self._exchange, self._end_round)
        self._ticket_name = pn.widgets.TextInput(width=220)
        self._tickets = Button(**style(outline=True))
        self._tickets.on_click(lambda e: self._run("give_tickets", name=self._ticket_name.value or None))
        self._ticket_box = wrap(self._ticket_name, self._tickets)
        self._last_roll = HTML(sizing_mode="stretch_width", stylesheets=[text.CONTEST_CSS])
        # the end
        self._result = HTML(sizing_mode="stretch_width")
        self._fates_box = pn.Column(sizing_mode="stretch_width")
        self._recover_char = pn.widgets.Select(options={})
        self._recover_char.param.watch(lambda e: self._sync_recover(), "value")
        self._recover_cliche = pn.widgets.Select(options={})
        self._recover_all = LabelledCheckbox(value=True)  # named, tappable: ui/_checkbox.py
        # how many dice matters only when not "all the way": shown then, not greyed (nothing to explain)
        self._recover_amount = pn.widgets.IntInput(value=1, start=1, end=1000, width=100, visible=False)
        self._recover_all.param.watch(lambda e: setattr(self._recover_amount, "visible", not e.new), "value")
        self._recover_cliche.param.watch(lambda e: self._sync_buttons(), "value")
        self._recover = Button(**style("primary"))
        self._recover.on_click(lambda e: self.recover())
        self._recover_box = wrap(self._recover_char, self._recover_cliche, self._recover_all,
                                 self._recover_amount, self._recover)
        self._outcome = pn.widgets.TextInput(sizing_mode="stretch_width")
        self._end_winner = pn.widgets.Select(options={})
        self._end = Button(**style("danger", outline=True))
        # ending stops the contest for everyone: asked once more (once the outcome is typed)
        self._end_confirm = self._confirm(self._end, self._do_end, ready=self._ready_to_end)
        self._end_box = wrap(pn.Column(self._outcome, styles=_GROW), self._end_winner, self._end)
        for widget in (self._outcome, self._end_winner):  # the question named the old outcome: ask again
            widget.param.watch(lambda e: self._end_confirm.cancel(), "value")
        # a new contest
        self._setup_title = HTML()
        # under a finished contest still on the table the form is for the next one, and says so
        self._setup_note = HTML(visible=False, sizing_mode="stretch_width", css_classes=["raisus-next-note"])
        self._setup_name = pn.widgets.TextInput(sizing_mode="stretch_width")
        self._setup_sides = [pn.widgets.CheckBoxGroup(options={}, value=[], inline=False) for _ in (0, 1)]
        # a CheckBoxGroup does not show its name: each side's list gets a header
        self._setup_side_titles = [HTML(margin=(5, 10, 0, 10)) for _ in (0, 1)]
        self._setup_single = LabelledCheckbox(value=False)  # named, tappable: ui/_checkbox.py
        self._start = Button(**style("primary"))
        self._start.on_click(lambda e: self.start())
        for widget in (*self._setup_sides, self._setup_name, self._setup_single):
            widget.param.watch(lambda e: self._offer_start(), "value")
        self._setup_box = pn.Column(self._setup_title, self._setup_note, self._setup_name,
                                    wrap(*(pn.Column(title, box) for title, box
                                           in zip(self._setup_side_titles, self._setup_sides))),
                                    self._setup_single, self._start,
                                    sizing_mode="stretch_width")
        # the two sides side by side where each gets 300 px, else one above the other (a phone)
        self._sides_row = wrap(*(pn.Column(self._side_titles[s], self._side_boxes[s], styles=_SIDE,
                                           sizing_mode="stretch_width") for s in (0, 1)), align_items="start")
        self._play_box = pn.Column(sizing_mode="stretch_width")
        self._layout = pn.Column(sizing_mode="stretch_width")
        self._compose()
        self.param.watch(self._on_own_lang, "lang")
        self.param.watch(lambda e: (setattr(self._builder_box, "visible", e.new), self._show_advice()),
                         "show_team_builders")
        self.param.watch(lambda e: (self._compose(), self._refresh()), "learner_view")
        self.param.watch(self._on_own_actions, "actions")

    def __panel__(self):
        return self._layout

    @property
    def _gm(self) -> bool:
        return self.actions.role == "gm"

    def _mine(self, u) -> bool:
        """Whether this page's player plays ``u`` (a unit or a team member); never on the GM's page."""
        return d.plays(u, self.actions.session.actor.player_id)

    def _controls(self, u) -> bool:
        """Whether the card of unit ``u`` carries its controls: every card on the GM's page (the GM runs
        the NPCs and may choose for anyone), a player's own units' on theirs (a team's when they play a
        member of it). Another's unit has none the room's permissions would ever let this player use
        (``choose``, ``volunteer``, ``drop_out``, ``assign_loss`` and ``disband`` are for one's own
        characters), so its card leaves them out rather than greying them out."""
        return self._gm or self._mine(u)

    def _compose(self) -> None:
        """Lay out the controls of this table's role: a player's table has no GM-only rows (tickets,
        undo, ending, recovery, the setup form), so each player's page holds fewer models. The room
        checks every command whatever is shown."""
        gm = self._gm
        full = gm and not self.learner_view  # a learner's table: fewer GM tools (see learner_view)
        play = [self._sides_row]
        if full:
            play.append(self._ticket_box)
        play += [wrap(self._roll, self._open_round, self._undo) if full
                 else wrap(self._roll, self._undo) if gm else pn.Row(self._roll),
                 self._exchange_box, self._last_roll, self._result, self._fates_box]
        if gm:
            play += [self._recover_box, self._close, self._close_confirm,
                     *([self._end_box, self._end_confirm] if full else [])]
        play.append(self._builder_box)
        self._play_box.objects = play
        self._layout.objects = [self._error, self._header, self._what_now, self._play_box,
                                *([self._setup_box] if gm else [])]

    @property
    def _builders(self) -> list[TeamBuilder]:
        """The team builder of each side, made (and shown in place of the Teams button) when first used."""
        if not self._made_builders:
            self._made_builders = [TeamBuilder(actions=self.actions, side=s, lang=self.lang) for s in (0, 1)]
            for b in self._made_builders:
                b.set_shown(self._shown)
            self._builder_box.objects = list(self._made_builders)
        return self._made_builders

    def _on_own_lang(self, event) -> None:
        self._what_now.lang = event.new
        for b in self._made_builders:
            b.lang = event.new

    def _on_own_actions(self, event) -> None:
        self._what_now.actions = event.new
        for b in self._made_builders:
            b.actions = event.new
        if getattr(event.old, "role", None) != event.new.role:  # cards and fates are laid out by role
            self._cards, self._fate_rows = {}, {}
            self._compose()

    def set_shown(self, shown: bool) -> None:
        """Whether the table is on screen (its team builders follow it); see ComponentBase."""
        super().set_shown(shown)
        self._what_now.set_shown(shown)
        for b in self._made_builders:
            b.set_shown(shown)

    def dispose(self) -> None:
        """Remove every watcher on shared state, the team builders' too."""
        super().dispose()
        self._what_now.dispose()
        for b in self._made_builders:
            b.dispose()

    # -- labels -----------------------------------------------------------------------------------
    def _relabel(self) -> None:
        t = self._t
        self._undo.name = t("contest.undo")
        self._teams.name = t("contest.teams")
        self._open_round.name = t("contest.open_round")
        self._close.name = t("contest.close")
        self._attacker.name = t("contest.attacker")
        self._target.name = t("contest.target")
        self._exchange.name = t("contest.exchange")
        self._end_round.name = t("contest.end_round")
        self._ticket_name.param.update(name=t("contest.ticket_name"), placeholder=t("contest.ticket_placeholder"))
        self._tickets.name = t("contest.give_tickets")
        self._recover_char.name = t("contest.recover_character")
        self._recover_cliche.name = t("contest.recover_cliche")
        self._recover_all.name = t("contest.recover_all")
        self._recover_amount.name = t("contest.recover_amount")
        self._recover.name = t("contest.recover")
        self._outcome.param.update(name=t("contest.outcome"), placeholder=t("contest.outcome_placeholder"))
        self._end_winner.name = t("contest.end_winner")
        self._end.name = t("contest.end")
        self._close_confirm.relabel(t("confirm.close"), t("confirm.yes.close"), t("confirm.cancel"))
        self._relabel_end_confirm()
        self._show_setup_title()
        self._setup_name.param.update(name=t("contest.name"), placeholder=t("contest.name_placeholder"))
        for s in (0, 1):
            self._setup_sides[s].name = t(f"side.{s}")
            self._setup_side_titles[s].object = f"<b>{esc(t(f'side.{s}'))}</b>"
        self._setup_single.name = t("contest.single_roll")
        self._start.name = t("contest.start")
        for card in self._cards.values():
            self._relabel_card(card)
        self._show_advice()
        for row in self._fate_rows.values():
            row["text"].param.update(name=t("contest.fate"), placeholder=t("contest.fate_placeholder"))
            row["decide"].name = t("contest.decide_fate")
            row["veto"].name = t("contest.veto_fate")

    def _relabel_card(self, card: dict) -> None:
        t = self._t
        if "cliche" in card:
            card["cliche"].name = t("contest.cliche")
            card["inappropriate"].name = t("contest.inappropriate")
        card["approve"].name = t("contest.approve")
        if "bonus" in card:
            card["bonus"].relabel(t)
        if card["team"] and card["controls"]:
            card["disband"].name = t("contest.disband")
            for m in card["members"].values():
                m["volunteer"].name = t("contest.volunteer")
                m["drop"].name = t("contest.drop_out")
                m["assign"].name = t("contest.assign_loss")
                m["bonus"].relabel(t)
                m["drop_confirm"].relabel(t("confirm.drop_out", name=m["name"]),
                                          t("confirm.yes.drop_out", name=m["name"]), t("confirm.cancel"))

    # -- unit cards -------------------------------------------------------------------------------
    def _card(self, u) -> dict:
        team, controls = isinstance(u, CharacterTeam), self._controls(u)
        card = self._cards.get(u.uid)
        if card is not None and (card["team"], card["controls"]) == (team, controls):
            return card
        uid = u.uid
        card = {"team": team, "controls": controls,
                "head": HTML(sizing_mode="stretch_width", stylesheets=[text.CONTEST_CSS]),
                "approve": Button(**style("warning", outline=True))}
        card["approve"].on_click(lambda e: self._run("approve", unit=uid))
        body = [card["head"]]
        if team:
            card["members"] = {}
            card["members_box"] = pn.Column(sizing_mode="stretch_width")
            body.append(card["members_box"])
        # someone else's unit on a player's page gets no controls: its head says its cliché in words
        if controls and team:
            card["disband"] = Button(**style(outline=True))
            card["disband"].on_click(lambda e: self._run("disband", team=uid))
            body.append(wrap(card["approve"], card["disband"]) if self._gm else card["disband"])
        elif controls:
            card["cliche"] = Select(options={}, width=200)
            # its text is its <label>: Bokeh's Checkbox leaves the box unnamed and 13 px to tap (ui/_checkbox.py)
            card["inappropriate"] = LabelledCheckbox(value=False, align="end")
            card["cliche"].param.watch(lambda e: self._on_pick(uid), "value")
            card["inappropriate"].param.watch(lambda e: self._on_pick(uid), "value")
            body.append(wrap(card["cliche"], card["inappropriate"]))
            if self._gm:
                body.append(card["approve"])
        if controls:  # a pump and lucky shots before the roll, when the contest's rules have them
            card["bonus"] = BonusFields(self._run, pump_unit=uid, lucky_of=None if team else uid)
            body.append(card["bonus"].view)
        if controls:  # the odds advisor's lines, shown for the units this page is advised on
            card["advice"] = HTML(visible=False, sizing_mode="stretch_width", stylesheets=[ADVICE_CSS],
                                  css_classes=["raisus-advice-box"])
            body.append(card["advice"])
        card["view"] = pn.Column(*body, margin=(5, 5), sizing_mode="stretch_width", css_classes=["raisus-unit-card"])
        self._cards[uid] = card
        self._relabel_card(card)
        return card

    def _member_row(self, card: dict, member) -> dict:
        row = card["members"].get(member.uid)
        if row is None:
            uid = member.uid
            # the badge's style only where a badge can be: on a player's page, by their own member
            row = {"label": HTML(sizing_mode="stretch_width",
                                 stylesheets=[text.CONTEST_CSS] if self._mine(member) else [])}
            if card["controls"]:
                row |= {"volunteer": Button(**style("warning", outline=True), width=110),
                        "drop": Button(**style(outline=True), width=110),
                        "assign": Button(**style(outline=True), width=110), "name": member.name}
                row["volunteer"].on_click(lambda e: self._run("volunteer", member=uid))
                # leaving the team is for the rest of the contest (only the GM could undo it): asked once more
                row["drop_confirm"] = self._confirm(
                    row["drop"], lambda seen: self._run("drop_out", member=uid, decided_on=seen))
                row["assign"].on_click(lambda e: self._run("assign_loss", member=uid))
                row["bonus"] = BonusFields(self._run, lucky_of=uid)  # a member spends its own lucky shots
                row["view"] = pn.Column(wrap(row["label"], row["volunteer"], row["drop"], row["assign"]),
                                        row["drop_confirm"], row["bonus"].view, sizing_mode="stretch_width")
            else:
                row["view"] = row["label"]
            card["members"][uid] = row
            self._relabel_card(card)
        return row

    def _on_pick(self, uid: str) -> None:
        if self._syncing:
            return
        card = self._cards[uid]
        cliche = card["cliche"].value
        if not cliche:
            return
        # refused, the picker is set from the room's state again (``_run``)
        self._run("choose", unit=uid, cliche=cliche, appropriate=not card["inappropriate"].value)

    def _sync_card(self, contest, u, color: str) -> pn.viewable.Viewable:
        t = self._t
        card = self._card(u)
        uid = u.uid
        if card["team"]:
            rows = []
            for m in u.members:
                row = self._member_row(card, m)
                row["label"].object = esc(text.member_label(u, m, t)) + (text.mine_badge(t) if self._mine(m) else "")
                if card["controls"]:
                    self._offer(row["volunteer"], "volunteer", member=m.uid)
                    self._offer(row["drop"], "drop_out", member=m.uid)
                    row["assign"].visible = contest.profile.team_loss == "leader_assigns"
                    self._offer(row["assign"], "assign_loss", member=m.uid)
                    row["bonus"].sync(contest, u, t, self._why_not)
                rows.append(row["view"])
            set_objects(card["members_box"], rows)
            if card["controls"]:
                self._offer(card["disband"], "disband", team=uid)
        elif "cliche" in card:
            chosen = contest.chosen(uid)
            # the cliché in use stays listed at 0 dice: dropped, the Select would fall back to its first
            # option and show another cliché as the one used (issue 21)
            usable = {c.label: c.name for c in u.cliches
                      if c.pool > 0 or (chosen is not None and c.name == chosen.name)}
            spare = [c.name for c in u.cliches if c.pool > 0]
            if chosen is None:
                usable = {t("contest.pick_cliche"): _NONE} | usable
            self._syncing = True
            try:
                # the model's choice, or "choose…": a card kept from the last contest must not show
                # that contest's cliché as chosen (picking it again would change nothing)
                want = chosen.name if chosen is not None else _NONE
                set_options(card["cliche"], usable, prefer=want)
                if card["cliche"].value != want and want in usable.values():
                    card["cliche"].value = want
                card["inappropriate"].value = contest.is_inappropriate(uid)
            finally:
                self._syncing = False
            # whether the picker is live: asked of a cliché with dice (the spent one in use can't be re-chosen)
            pick = card["cliche"].value if card["cliche"].value in spare else next(iter(spare), None)
            reason = self._why_not("choose", unit=uid, cliche=pick) if pick is not None else (
                self._why_not("choose", unit=uid, cliche=card["cliche"].value) or t("contest.no_spare_cliche"))
            # greyed, the picker says why under it; the box goes (the head says "inappropriate" in words)
            grey(card["cliche"], reason)
            card["inappropriate"].param.update(disabled=reason is not None, visible=reason is None)
        card["approve"].visible = contest.needs_approval(uid)
        self._offer(card["approve"], "approve", unit=uid)
        if "bonus" in card:
            card["bonus"].sync(contest, u, t, self._why_not)
        # edged in the unit's chart colour; a unit that is out is dashed and greyed (and says so in words)
        card["head"].object = text.unit_head_html(contest, u, t, color, mine=self._mine(u),
                                                  cliche="cliche" not in card)
        out = text.unit_out(contest, u)
        styles = {"border": "1px solid var(--panel-border-color, #d0d7de)", "border-radius": "6px",
                  "padding-left": "4px", "border-left": f"6px {'dashed' if out else 'solid'} {color}",
                  "background": "var(--panel-surface-color, #f6f8fa)" if out else "transparent"}
        if card["view"].styles != styles:
            card["view"].styles = styles
        return card["view"]

    # -- the odds advisor ---------------------------------------------------------------------------
    def _advised(self, contest) -> list[str]:
        """The units whose choices this page is advised on: a player's own; on the GM's page the NPCs
        (units no player plays). A side of several units gets one answer (they may team up): it is
        shown on the first of them only."""
        if contest.status != "active":
            return []
        out = []
        for s in (0, 1):
            units = [u for u in contest.active_units(s)
                     if (not any(getattr(m, "owner", "") for m in d.members(u)) if self._gm else self._mine(u))]
            out += [u.uid for u in units[:1 if len(contest.active_units(s)) > 1 else None]]
        return out

    def _ask_advice(self, contest) -> None:
        """Ask the room's advisor about this page's units, off the event loop (it takes tens of ms,
        shared by every page of the room); the answer is drawn only if the contest has not moved on."""
        wanted, events, room = self._advised(contest), contest.events, self.actions.room
        if not wanted or self._advice[0] is events:  # nothing to advise on, or answered for this state
            self._advice = (events, self._advice[1] if wanted else {})
            self._show_advice()
            return
        # until the answer comes, the cards keep the last one: no flicker on every roll

        def work() -> dict:
            found: dict = {}
            for uid in wanted:
                try:
                    found[uid] = room_advice(room, uid)
                except RuleError as exc:
                    found[uid] = exc
            return found

        def answer(found, error) -> None:
            if error is not None or self.contest is not contest or contest.events is not events:
                return  # a later refresh asked about what the table shows now
            self._advice = (events, found)
            self._show_advice()
        _offloop.aside(self._doc, work, answer)

    def _show_advice(self) -> None:
        found = self._advice[1]
        for uid, card in self._cards.items():
            if "advice" not in card:
                continue
            answer = found.get(uid)
            if answer is not None and not self.show_team_builders:
                answer = without_teaming(answer)
            lines = advice_html(answer, self._t, self.lang) if answer is not None else ""
            card["advice"].param.update(object=lines, visible=bool(lines))

    # -- refresh ----------------------------------------------------------------------------------
    def _forget(self) -> None:
        # new cards and fate rows: their pickers and boxes show the room's state, whatever the old ones showed
        self._cards, self._fate_rows = {}, {}

    def _refresh(self) -> None:
        self._refreshing = True  # the pickers' syncs below offer the buttons once, at the end
        try:
            self._show_contest()
        finally:
            self._refreshing = False
        self._sync_buttons()

    def _show_contest(self) -> None:
        contest = self.contest
        # no "Form a team…" where neither side has a team to form or disband (a duel)
        self._builder_box.visible = self.show_team_builders and any(has_team_work(contest, s) for s in (0, 1))
        self._play_box.visible = self._header.visible = contest is not None
        # never under a contest in play: only with none, or for the next one under a finished one
        self._setup_box.visible = contest is None or (contest.status == "ended" and not self.learner_view)
        self._show_setup_title()
        self._sync_setup()
        if contest is None:
            return
        t = self._t
        self._header.object = text.header_html(contest, t)
        # units, each in its chart line's colour (worked out once per refresh, from the contest's start)
        colors = unit_colors(contest)
        for s in (0, 1):
            self._side_titles[s].object = f"<h4>{esc(t(f'side.{s}'))}</h4>"
            set_objects(self._side_boxes[s], [self._sync_card(contest, u, colors.get(u.uid, "#8c959f"))
                                              for u in contest.sides[s]])
        live = {u.uid for u in d.units(contest)}
        self._cards = {k: v for k, v in self._cards.items() if k in live}
        self._ask_advice(contest)
        # round controls
        active = contest.status == "active"
        # while a lost team's members may volunteer, rolling on is what closes that window
        self._roll.name = t("contest.roll_no_volunteer" if contest.volunteer_window else "contest.roll",
                            n=contest.round + 1)
        exchanges = active and contest.needs_exchanges and not contest.single_roll
        self._exchange_box.visible = exchanges or (active and contest.exchanges_this_round > 0)
        self._roll.visible = active and not exchanges
        self._open_round.visible = active and self._can("open_round", open=True)
        self._close.visible = contest.status == "ended"
        self._ticket_box.visible = self._can("give_tickets")
        self._sync_exchange_pickers(contest)
        self._last_roll.object = text.last_roll_html(contest, t)
        # the end
        self._result.object = text.result_html(contest, t)
        self._sync_fates(contest)
        ended = contest.status == "ended"
        self._recover_box.visible = ended
        self._end_box.visible = active
        set_options(self._end_winner, {t("contest.no_winner"): -1, t("side.0"): 0, t("side.1"): 1})
        if ended:
            chars = contest.characters()
            set_options(self._recover_char, {c.name: c.uid for c in chars})
            self._sync_recover()

    def _sync_buttons(self) -> None:
        if self.contest is None or self._refreshing:
            return
        self._offer(self._roll, "roll_round")
        self._offer(self._undo, "undo")
        if self._attacker.value and self._target.value:
            self._offer(self._exchange, "exchange", attacker=self._attacker.value, target=self._target.value)
        else:
            self._withhold(self._exchange, "exchange")
        self._offer(self._end_round, "end_round")
        self._offer(self._tickets, "give_tickets")
        self._offer(self._end, "end", outcome=_TEXT_LATER)
        self._offer(self._close, "close_contest")
        if self._recover_char.value:
            self._offer(self._recover, "recover", character=self._recover_char.value,
                        cliche=self._recover_cliche.value or None)
        else:
            self._withhold(self._recover, "recover")

    def _sync_exchange_pickers(self, contest) -> None:
        active = [u for s in (0, 1) for u in contest.active_units(s)]
        set_options(self._attacker, {u.name: u.uid for u in active})
        self._sync_targets()

    def _sync_targets(self) -> None:
        contest = self.contest
        if contest is None:
            return
        side = d.side_of(contest, self._attacker.value) if self._attacker.value else None
        targets = [] if side is None else contest.active_units(1 - side)
        set_options(self._target, {u.name: u.uid for u in targets})
        self._sync_buttons()

    def _sync_recover(self) -> None:
        contest = self.contest
        char = d.character(contest, self._recover_char.value) if contest and self._recover_char.value else None
        options = {self._t("contest.all_cliches"): _NONE}
        if char is not None:
            options |= {c.label: c.name for c in char.cliches}
        set_options(self._recover_cliche, options)
        self._sync_buttons()

    def _sync_fates(self, contest) -> None:
        t = self._t
        names = d.names(contest)
        owed = list(contest.owed_fates)
        rows = []
        for uid in owed:
            row = self._fate_rows.get(uid)
            if row is None:
                row = {"label": HTML(width=160), "text": pn.widgets.TextInput(sizing_mode="stretch_width"),
                       "decide": Button(**style("primary")),
                       "veto": Button(**style("danger", outline=True)),
                       "fate": HTML(sizing_mode="stretch_width")}
                row["decide"].on_click(lambda e, u=uid: self.decide_fate(u))
                row["veto"].on_click(lambda e, u=uid: self._run("veto_fate", character=u))
                row["text"].param.update(name=t("contest.fate"), placeholder=t("contest.fate_placeholder"))
                row["decide"].name = t("contest.decide_fate")
                row["veto"].name = t("contest.veto_fate")
                buttons = [row["decide"], row["veto"]] if self._gm else [row["decide"]]
                # wraps: on a phone the buttons and the reasons under them go below the text
                row["view"] = pn.Column(wrap(row["label"], row["text"], *buttons),
                                        row["fate"], sizing_mode="stretch_width")
                self._fate_rows[uid] = row
            row["label"].object = f"<b>{esc(names.get(uid, uid))}</b>"
            row["fate"].object = text.fate_html(contest, uid, t)
            self._offer(row["decide"], "decide_fate", character=uid, text=_TEXT_LATER)
            self._offer(row["veto"], "veto_fate", character=uid)
            rows.append(row["view"])
        self._fate_rows = {k: v for k, v in self._fate_rows.items() if k in owed}
        set_objects(self._fates_box, rows)

    def _show_setup_title(self) -> None:
        t, contest = self._t, self.contest
        after = contest is not None and contest.status == "ended"
        title = f"<h3>{esc(t('contest.next' if after else 'contest.new'))}</h3>"
        note = f"<p><small>{esc(t('contest.next_closes', name=contest.name))}</small></p>" if after else ""
        if self._setup_title.object != title:
            self._setup_title.object = title
        if self._setup_note.object != note or self._setup_note.visible != after:
            self._setup_note.param.update(object=note, visible=after)

    def _sync_setup(self) -> None:
        chars = self.actions.all_characters()
        options = {c.name: c.uid for c in chars}
        if len(options) != len(chars):
            options = {f"{c.name} ({c.uid[:4]})": c.uid for c in chars}
        for box in self._setup_sides:
            value = [v for v in box.value if v in options.values()]
            if box.options != options or box.value != value:
                box.param.update(options=options, value=value)
        self._offer_start()

    def _setup_args(self) -> dict:
        """The ``start_contest`` arguments the setup form holds now."""
        a, b = (list(box.value) for box in self._setup_sides)
        return {"name": self._setup_name.value or self._t("contest.default_name"), "side_a": a, "side_b": b,
                "single_roll": self._setup_single.value}

    def _offer_start(self) -> None:
        """Enable Start only when the rules and the room would accept the form as it is."""
        self._offer(self._start, "start_contest", **self._setup_args())

    # -- confirmations -----------------------------------------------------------------------------
    def _confirm(self, button, on_yes, ready=None) -> ConfirmStep:
        """An inline "Are you sure?" between ``button`` and ``on_yes`` (``ui/_confirm.py``)."""
        return ConfirmStep(button, on_yes, seen=lambda: self.actions.seen_seq, ready=ready)

    def _end_args(self) -> dict:
        winner = self._end_winner.value
        return {"outcome": self._outcome.value, "winner": None if winner in (None, -1) else winner}

    def _ready_to_end(self) -> bool:
        """Ask "end the contest?" only of an outcome the room would take; else say now what is missing."""
        refusal = self._why_not_error("end", **self._end_args())
        if refusal is not None:
            self._show_error(refusal)
            return False
        self._clear_error()
        self._relabel_end_confirm()
        return True

    def _why_not_error(self, command: str, **args):
        try:
            return self.actions.why_not_error(command, **args)
        except RuleError as exc:
            return exc

    def _relabel_end_confirm(self) -> None:
        t = self._t
        outcome = self._outcome.value.strip()
        question = t("confirm.end", outcome=outcome) if outcome else t("confirm.end_plain")
        self._end_confirm.relabel(question, t("confirm.yes.end"), t("confirm.cancel"))

    def _do_end(self, seen):
        return self._run("end", **self._end_args(), decided_on=seen)

    # -- commands ---------------------------------------------------------------------------------
    def decide_fate(self, character: str):
        """Send the fate typed for ``character`` (a uid) as ``decide_fate``."""
        row = self._fate_rows.get(character)
        typed = row["text"].value if row else ""
        def sent(_) -> None:
            if row:
                row["text"].value = ""
        return self._run("decide_fate", character=character, text=typed, then=sent)

    def recover(self):
        """Send ``recover`` for the picked character and cliché (all, or the amount given)."""
        if not self._recover_char.value:
            return None
        amount = None if self._recover_all.value else self._recover_amount.value
        return self._run("recover", character=self._recover_char.value,
                         cliche=self._recover_cliche.value or None, amount=amount)

    def start(self):
        """Start a new contest from the setup form (``start_contest``)."""
        args = self._setup_args()
        if set(args["side_a"]) & set(args["side_b"]):
            self._show_error(RuleError(self._t("contest.both_sides")))
            return None
        def started(_) -> None:  # the next contest starts from an empty form
            for box in self._setup_sides:
                box.value = []
            self._setup_name.value = ""
            self._setup_single.value = False
        return self._run("start_contest", **args, then=started)
