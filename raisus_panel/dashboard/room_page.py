"""The room page: what a GM, a player or a spectator sees of one shared game."""

from __future__ import annotations

import io

import panel as pn
import param

from raisus_panel.i18n import LANGUAGES
from raisus_panel.room import RoomSession
from raisus_panel.ui import (ActionCheckPanel, CharacterSheet, ContestTable, LiveOdds, RoundLog, ScoreChart,
                             SessionActions)
from raisus_panel.ui._base import HTML, ComponentBase, esc, style

_NEW = "__new__"


class RoomPage(ComponentBase):
    """One person's page of a shared room: the table, the characters, action checks and the log.

    Every component acts through the session's :class:`~raisus_panel.ui.SessionActions`, so the room
    checks the role on every command; buttons a role may not use are disabled, never trusted. The
    page shows who is connected and follows the room live: a change in any session shows here without
    a reload. When the browser tab closes, every watcher the page put on the shared room is removed.

    Parameters
    ----------
    session
        The person's :class:`~raisus_panel.room.RoomSession` (a room and an actor).
    """

    session = param.ClassSelector(class_=RoomSession, doc="""
        The room and the actor (GM, player or spectator) this page acts for.""")

    session_id = param.String(default="", doc="""
        The browser session's id, used for presence (who is connected).""")

    def __init__(self, session: RoomSession, **params):
        params.setdefault("actions", SessionActions(session))
        super().__init__(session=session, **params)

    # -- layout -----------------------------------------------------------------------------------
    def _build(self) -> None:
        self._roster_shown = False
        self._roster_behind = True
        session = self.session
        actions = self.actions
        self._children = [
            ContestTable(actions=actions), ScoreChart(actions=actions), LiveOdds(actions=actions),
            RoundLog(actions=actions), ActionCheckPanel(actions=actions), CharacterSheet(actions=actions),
        ]
        self._table, self._chart, self._odds, self._log, self._check, self._sheet = self._children
        self._title = HTML(sizing_mode="stretch_width", css_classes=["raisus-room-title"])
        self._presence = HTML(sizing_mode="stretch_width", css_classes=["raisus-presence"])
        self._lang = pn.widgets.RadioButtonGroup(options=list(LANGUAGES), value=self.language, width=110,
                                                 **style("light", outline=True))
        self._lang.param.watch(lambda e: self._set_lang(e.new), "value")
        self._roster = HTML(sizing_mode="stretch_width", css_classes=["raisus-roster"])
        # a Viewer has no ``visible`` of its own: hide the sheet through a layout around it
        self._sheet_box = pn.Column(self._sheet, sizing_mode="stretch_width")
        self._pick = pn.widgets.Select(width=260)
        self._pick.param.watch(lambda e: self._edit(e.new), "value")
        self._export = pn.widgets.FileDownload(callback=self._export_room, filename="raisus-room.json",
                                               **style("light", outline=True))
        self._export.visible = session.actor.is_gm
        # dynamic: only the open tab has Bokeh models in the browser (and only its components refresh)
        self._tabs = pn.Tabs(dynamic=True, sizing_mode="stretch_width")
        self._tabs.param.watch(lambda e: self._show_tab(), "active")
        self._layout = pn.Column(
            pn.Row(self._title, self._lang, sizing_mode="stretch_width"), self._presence, self._error,
            self._tabs, sizing_mode="stretch_width", css_classes=["raisus-room"])
        self._watch(session.room, self._on_header, "title", "presence")
        # ``seq`` too: a contest changes the characters' scores in place, and the roster shows them
        self._watch(session.room, self._on_roster, "players", "characters", "seq")
        if self._doc is not None and getattr(self._doc, "session_context", None) is not None:
            self.session_id = self.session_id or self._doc.session_context.id
        if self.session_id:
            session.connect(self.session_id)

    def _tab_children(self) -> list[list[ComponentBase]]:
        """The components on each tab, in the order of :meth:`_tab_contents`."""
        return [[self._table, self._chart, self._odds], [self._log], [self._sheet], [self._check], []]

    def _show_tab(self) -> None:
        """Let the components of the open tab refresh; the others wait until their tab opens."""
        active = self._tabs.active
        self._roster_shown = active == 2
        for i, children in enumerate(self._tab_children()):
            for child in children:
                child.set_shown(i == active)
        if self._roster_shown and self._roster_behind:
            self._show_roster()

    def _tab_contents(self):
        charts = pn.Row(self._chart, self._odds, sizing_mode="stretch_width")
        table = pn.Column(self._table, charts, sizing_mode="stretch_width")
        characters = pn.Column(self._roster, self._pick, self._sheet_box, sizing_mode="stretch_width")
        room = pn.Column(self._export, sizing_mode="stretch_width")
        tabs = [(self._t("dashboard.tab.table"), table), (self._t("dashboard.tab.log"), self._log),
                (self._t("dashboard.tab.characters"), characters),
                (self._t("dashboard.tab.checks"), self._check)]
        if self.session.actor.is_gm:
            tabs.append((self._t("dashboard.tab.room"), room))
        return tabs

    def _relabel(self) -> None:
        active = self._tabs.active if self._tabs.objects else 0
        self._tabs[:] = self._tab_contents()
        self._tabs.active = min(active, len(self._tabs) - 1)
        self._export.label = self._t("dashboard.export")
        self._show_tab()
        self._show_header()
        self._roster_behind = True
        self._show_roster()

    def _set_lang(self, lang: str) -> None:
        """Switch this tab's language only (other people keep theirs)."""
        for child in self._children:
            child.lang = lang
        self.lang = lang

    # -- state --------------------------------------------------------------------------------------
    def _on_header(self, *_) -> None:
        self._schedule(self._show_header)

    def _on_roster(self, *_) -> None:
        self._schedule(self._show_roster)

    def _show_header(self) -> None:
        room, actor = self.session.room, self.session.actor
        role = self._t(f"role.{actor.role.value}")
        who = f" · {esc(actor.name)}" if actor.name else ""
        self._title.object = f"<h2>{esc(room.title)}</h2><p class='raisus-role'>{esc(role)}{who}</p>"
        here = sorted({(e.get("role", ""), e.get("name", "")) for e in room.presence.values()})
        people = ", ".join(f"{esc(name or self._t('role.' + r))} ({esc(self._t('role.' + r))})"
                           for r, name in here) or "-"
        self._presence.object = f"<p>{esc(self._t('dashboard.presence'))}: {people}</p>"

    def _show_roster(self) -> None:
        """The characters tab: the roster and the picker of characters this person may edit."""
        if not self._roster_shown:
            self._roster_behind = True
            return
        self._roster_behind = False
        room, actor = self.session.room, self.session.actor
        rows = []
        for char in room.characters:
            owner = room.players.get(char.owner, "") if char.owner else self._t("dashboard.npc")
            cliches = ", ".join(c.label for c in char.cliches)
            rows.append(f"<tr><td>{esc(char.name)}</td><td>{esc(cliches)}</td><td>{esc(owner)}</td></tr>")
        head = "".join(f"<th>{esc(self._t(k))}</th>" for k in
                       ("dashboard.col.name", "dashboard.col.cliches", "dashboard.col.owner"))
        self._roster.object = f"<table class='raisus-roster'><tr>{head}</tr>{''.join(rows)}</table>"
        mine = [c for c in room.characters if actor.is_gm or (c.owner and c.owner == actor.player_id)]
        options = {self._t("dashboard.new_character"): _NEW, **{c.name + f" ({c.uid[:4]})": c.uid for c in mine}}
        can_edit = actor.role.value != "spectator"
        self._pick.param.update(options=options, name=self._t("dashboard.edit_character"), visible=can_edit)
        self._sheet_box.visible = can_edit
        if self._pick.value not in options.values():
            self._pick.value = _NEW

    def _refresh(self) -> None:
        pass

    def _edit(self, uid: str) -> None:
        char = next((c for c in self.session.room.characters if c.uid == uid), None)
        self._sheet.character = char

    def _export_room(self):
        return io.BytesIO(self.session.room.export_json(self.session.actor).encode("utf-8"))

    def dispose(self) -> None:
        """Leave the room: remove presence and every watcher on shared state."""
        leaving = not self._disposed and self.session_id
        for child in self._children:  # stop watching first, so leaving triggers no refresh here
            child.dispose()
        if hasattr(self.actions, "dispose"):
            self.actions.dispose()
        super().dispose()
        if leaving:
            self.session.disconnect(self.session_id)

    def __panel__(self):
        return self._layout
