"""The room page: what a GM, a player or a spectator sees of one shared game."""

from __future__ import annotations

import io

import panel as pn
import param

from raisus_panel.i18n import LANGUAGES
from raisus_panel.report import report
from raisus_panel.room import RoomSession, presence_entry
from raisus_panel.room.commands import name_key
from raisus_panel.ui import (
    ActionCheckPanel,
    Actions,
    CampaignPanel,
    CharacterSheet,
    ContestTable,
    ContestView,
    FairDice,
    LiveOdds,
    PastContests,
    RoundLog,
    ScoreChart,
    TableView,
)
from raisus_panel.ui.kit import (
    HTML,
    TABS_CSS,
    ComponentBase,
    background,
    esc,
    md_esc,
    once_per_change,
    schedule_every,
    served,
    set_objects,
    style,
    wrap,
)

from .links import WARNING_CSS, LinkManager
from .reconnect import CONNECTION_CSS, connection_html
from .stream import STREAM_CSS, stream_button
from .theme import theme_label, theme_switch

_NEW = "__new__"
_ROLE_ORDER = {"gm": 0, "player": 1, "spectator": 2}
#: The open tab's title in the page's own colours (Bokeh's are a light theme's), bold as well.
#: On a phone the tab titles wrap onto more lines (Bokeh scrolls them sideways, hiding the last ones)
#: and each is a finger's size, 40 px or more.
_TABS_CSS = """
:host .bk-tab.bk-active { color: var(--panel-on-background-color, #212529);
  background-color: var(--panel-background-color, #fff); font-weight: 600; }
@media (max-width: 600px) {
  :host { --padding-vertical: 9px; }
  :host(.bk-above) .bk-headers-wrapper { flex-wrap: wrap; overflow-x: visible; }
}
"""
#: The score chart and the odds side by side where both fit at 400 px, else one above the other (a phone).
_HALF = {"flex": "1 1 400px", "min-width": "0"}
#: Panel's download button is a few pixels shorter than a button: 40 px on a phone too.
_TOUCH_CSS = "@media (max-width: 600px) { :host .bk-btn { min-height: 40px; } }"


def _download_style(kind: str, outline: bool = False) -> dict:
    """:func:`style` for a download button, a finger's size on a phone."""
    kw = style(kind, outline=outline)
    return {**kw, "stylesheets": [*kw["stylesheets"], _TOUCH_CSS]}


#: The page's header: the game's name small above the room's title, and who you are here as a badge.
#: Colours come from Panel's theme variables (light and dark pages alike); the role is in words.
HEADER_CSS = """
.raisus-header { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: .7em; }
.raisus-header .brand { flex-basis: 100%; font-size: 12px; font-weight: 700; letter-spacing: .14em;
  text-transform: uppercase; }
.raisus-header h1 { font-size: 26px; line-height: 1.2; margin: 0; }
.raisus-role { display: inline-block; padding: 1px 10px; border-radius: 999px; font-size: 13px; font-weight: 600;
  border: 1.5px solid var(--panel-primary-color, #0072b5); }
"""
#: A band under the header, and the open tab's title readable in either theme.
_BAND = {"border-bottom": "3px solid var(--panel-primary-color, #0072b5)", "padding-bottom": "4px"}
#: The title takes the header's room; on a phone the switches go under it.
_TITLE = {"flex": "1 1 240px", "min-width": "0"}

#: How often at most a page redraws who is present (seconds): arrivals come in bursts.
PRESENCE_EVERY_S = 0.5


class RoomPage(ComponentBase):
    """One person's page of a shared room: the table, the characters, action checks and the log.

    Every component acts through the session's :class:`~raisus_panel.ui.Actions`, so the room
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

    stream = param.Boolean(default=False, constant=True, doc="""
        The stream view (``?view=stream``): the fight alone, large, for a screen an audience watches
        (a streamed game): the contest with its dice, the score chart and the odds, no tabs and no
        buttons. Its language and theme come from the address (``?lang=``, ``?theme=``).""")

    table_view = param.Boolean(default=False, constant=True, doc="""
        A spectator's table drawn in the browser (``?view=table``, ``?view=table-stream`` for the stream
        view): one :class:`~raisus_panel.ui.TableView` instead of the contest in words and the score
        chart, sent only what changed after each command. The odds stay as they are.""")

    def __init__(self, session: RoomSession, **params):
        params.setdefault("actions", Actions(session))
        super().__init__(session=session, **params)

    # -- layout -----------------------------------------------------------------------------------
    def _build(self) -> None:
        session = self.session
        self._children: list[ComponentBase] = []  # the components built so far (tabs fill on first opening)
        self._tab_children: dict[str, list[ComponentBase]] = {}
        self._roster_behind = True  # the roster skipped a change while its tab was closed
        self._title = HTML(sizing_mode="stretch_width", css_classes=["raisus-room-title"], stylesheets=[HEADER_CSS])
        self._theme = theme_switch()
        self._presence = HTML(sizing_mode="stretch_width", css_classes=["raisus-presence"])
        # live, or the table unavailable (the store unreachable); the browser says "offline" by itself
        self._connection = HTML(stylesheets=[CONNECTION_CSS], align="center")
        self._lang = pn.widgets.RadioButtonGroup(options=list(LANGUAGES), value=self.language, width=110,
                                                 **style("light", outline=True))
        self._lang.param.watch(lambda e: self._set_lang(e.new), "value")
        if pn.state.location is not None and served(self._doc):
            # the language is part of the page's address (?lang=en): a reload or a reconnect keeps it
            pn.state.location.sync(self._lang, {"value": "lang"})
        self._tab_boxes = {key: pn.Column(sizing_mode="stretch_width") for key in self._tab_keys()}
        self._fill_tab("table")
        # dynamic: only the open tab has Bokeh models in the browser (and only its components refresh)
        # made anew by _relabel
        self._tabs = pn.Tabs(dynamic=True, sizing_mode="stretch_width", stylesheets=[TABS_CSS, _TABS_CSS])
        self._tab_titles: list[str] = []
        # a spectator may open the stream view (the fight alone, large) for an audience's screen
        self._stream_button = stream_button() if session.actor.role.value == "spectator" and not self.stream else None
        if self.stream:  # the fight alone: no switches, no tabs
            self._layout = pn.Column(wrap(pn.Column(self._title, styles=_TITLE), self._connection,
                                          align_items="center", styles=_BAND),
                                     self._tab_boxes["table"], sizing_mode="stretch_width",
                                     css_classes=["raisus-room", "raisus-stream"], stylesheets=[STREAM_CSS])
        else:
            switches = [self._connection, self._lang, self._theme]
            if self._stream_button is not None:
                switches.insert(1, self._stream_button)
            self._layout = pn.Column(
                wrap(pn.Column(self._title, styles=_TITLE), *switches, align_items="center", styles=_BAND),
                self._presence,
                self._tabs, sizing_mode="stretch_width", css_classes=["raisus-room"])
        self._watch(session.room, self._on_header, "title")
        # arrivals come in bursts: each page redraws who is here at most every PRESENCE_EVERY_S
        self._watch(session.room, self._on_presence, "presence", "players")
        # ``seq`` too: a contest changes the characters' scores in place, and the roster shows them
        self._watch(session.room, self._on_roster, "players", "characters", "seq")
        self._watch(session.room, self._on_reports, "seq")
        self._stop_status = session.room.store.on_status(lambda available: self._schedule(self._show_connection))
        if self._doc is not None and getattr(self._doc, "session_context", None) is not None:
            self.session_id = self.session_id or self._doc.session_context.id
        if self.session_id:  # written to the store: on a worker, never on the event loop
            self._call(lambda: session.connect(self.session_id), refuse=())
        # a page opened with a link the GM revoked or replaced closes, saying why (room/registry.py)
        on_close = getattr(session, "on_close", None)
        self._stop_closing = on_close(lambda reason: self._schedule(self._close, reason)) if on_close else None

    def _tab_keys(self) -> list[str]:
        """The tabs this person gets, in order (the room tab is the GM's; the stream view is the table)."""
        if self.stream:
            return ["table"]
        keys = ["table", "log", "characters", "checks"]
        return keys + ["room"] if self.session.actor.is_gm else keys

    def _component(self, tab: str, cls, **params) -> ComponentBase:
        component = cls(actions=self.actions, lang=self.lang, **params)
        self._children.append(component)
        self._tab_children.setdefault(tab, []).append(component)
        return component

    def _fill_tab(self, tab: str) -> None:
        """Make a tab's components the first time it opens: a page holds only what its person looked at.

        A spectator's table is a :class:`~raisus_panel.ui.ContestView` (no controls at all).
        """
        if tab in self._tab_children:
            return
        self._tab_children[tab] = []
        box = self._tab_boxes[tab]
        watcher = self.session.actor.role.value == "spectator"
        if tab == "table" and watcher and self.table_view:
            # the contest, its score chart and its odds drawn in the browser from deltas
            self._table = self._component(tab, TableView)
            box.objects = [self._table]
        elif tab == "table":
            self._table = self._component(tab, ContestView if watcher else ContestTable)
            # a watcher's charts are pictures shared by every watching page (no chart models per page)
            self._chart = self._component(tab, ScoreChart, picture=watcher)
            self._odds = self._component(tab, LiveOdds, picture=watcher)
            charts = pn.FlexBox(*(pn.Column(view, styles=_HALF, sizing_mode="stretch_width")
                                  for view in (self._chart, self._odds)), flex_wrap="wrap", sizing_mode="stretch_width")
            box.objects = [self._table, charts]
            if not watcher:  # the seed to mix in and the GM's reveal; spectators see commitments in the log
                box.objects = [*box.objects, self._component(tab, FairDice)]
        elif tab == "log":
            # the reports: made when a button is clicked, from what this person may see
            self._report = pn.widgets.FileDownload(callback=self._contest_report_file, filename="raisus-report.html",
                                                   label=self._t("report.download_contest"), visible=False,
                                                   **_download_style("primary", outline=True))
            self._session_report = pn.widgets.FileDownload(
                callback=self._session_report_file, filename="raisus-session-report.html",
                label=self._t("report.download_session"), visible=False, **_download_style("light", outline=True))
            self._log = self._component(tab, RoundLog)
            self._past = self._component(tab, PastContests, report=self._report_html)  # closed contests stay readable
            box.objects = [pn.Row(self._report, self._session_report), self._log, self._past]
            self._show_reports()
        elif tab == "characters":
            self._roster = HTML(sizing_mode="stretch_width", css_classes=["raisus-roster"])
            box.objects = [self._roster]
            if not watcher:
                # the session and advancement (the GM also sets the campaign options there)
                self._campaign = self._component(tab, CampaignPanel)
                self._sheet = self._component(tab, CharacterSheet)
                self._pick = pn.widgets.Select(width=260)
                self._pick.param.watch(lambda e: self._edit(e.new), "value")
                box.objects = [self._campaign, self._roster, self._pick, self._sheet]
        elif tab == "checks":
            self._check = self._component(tab, ActionCheckPanel)
            box.objects = [self._check]
        elif tab == "room":
            self._export = pn.widgets.FileDownload(callback=self._export_room, filename="raisus-room.json",
                                                   label=self._t("dashboard.export"),
                                                   **_download_style("light", outline=True))
            box.objects = [self._export]
            if getattr(self.session, "registry", None) is not None:  # a served room: its links are managed here
                self._links = self._component(tab, LinkManager, session=self.session)
                box.objects = [self._links, self._export]

    def _active_tab(self) -> str:
        keys = self._tab_keys()
        return keys[min(self._tabs.active, len(keys) - 1)] if not self.stream else "table"

    def _show_tab(self) -> None:
        """Fill the open tab if new; let its components refresh, while the others wait until theirs opens."""
        active = self._active_tab()
        self._fill_tab(active)
        for tab, children in self._tab_children.items():
            for child in children:
                child.set_shown(tab == active)
        if self._roster_behind:
            self._show_roster()

    def _relabel(self) -> None:
        self._theme.name = theme_label(self._t)
        if self._stream_button is not None:
            self._stream_button.name = self._t("dashboard.stream.open")
        titles = [self._t(f"dashboard.tab.{key}") for key in self._tab_keys()]
        if titles != self._tab_titles and not self.stream:
            # New tabs, same boxes: Panel 1.9 keeps a tab's old title when only its title changes (and
            # BokehJS redraws headers only for a new list of tabs), so renaming in place left a page
            # switched to English with Korean tab titles.
            active = min(self._tabs.active, len(titles) - 1) if self._tab_titles else 0
            self._tabs = pn.Tabs(*zip(titles, (self._tab_boxes[k] for k in self._tab_keys())), active=active,
                                 dynamic=True, sizing_mode="stretch_width", stylesheets=[TABS_CSS, _TABS_CSS])
            self._tabs.param.watch(lambda e: self._show_tab(), "active")
            self._tab_titles = titles
            set_objects(self._layout, [*self._layout.objects[:-1], self._tabs])
        if "room" in self._tab_children:
            self._export.label = self._t("dashboard.export")
        if "log" in self._tab_children:
            self._report.label = self._t("report.download_contest")
            self._session_report.label = self._t("report.download_session")
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

    def _on_presence(self, *_) -> None:
        if not self._disposed:
            schedule_every(self._doc, self, self._show_presence, PRESENCE_EVERY_S)

    def _on_roster(self, *_) -> None:
        self._schedule(self._show_roster)

    def _on_reports(self, *_) -> None:
        if "log" in self._tab_children:
            self._schedule(self._show_reports)

    def _show_reports(self) -> None:
        """Offer the contest's report once it has ended, and the session's once any contest has."""
        room = self.session.room
        ended = room.contest is not None and room.contest.status == "ended"
        if self._report.visible != ended:
            self._report.visible = ended
        if self._session_report.visible != (ended or bool(room.past_contests)):
            self._session_report.visible = ended or bool(room.past_contests)

    def _report_html(self, contest: str | None, lang: str) -> bytes:
        """The report of one contest (its uid) or of the whole session, as this page's person may see it."""
        return report(self.actions, lang, contest=contest).html().encode("utf-8")

    def _contest_report_file(self):
        contest = self.session.room.contest
        return io.BytesIO(self._report_html(contest.uid if contest is not None else None, self.language))

    def _session_report_file(self):
        return io.BytesIO(self._report_html(None, self.language))

    def _show_header(self) -> None:
        room, actor = self.session.room, self.session.actor
        role = self._t(f"role.{actor.role.value}")
        who = f" · {esc(actor.name)}" if actor.name else ""
        badge = "" if self.stream else f"<span class=raisus-role>{esc(role)}{who}</span>"  # an audience's screen
        self._title.object = (f"<div class=raisus-header><span class=brand>{esc(self._t('dashboard.brand'))}</span>"
                              f"<h1>{esc(room.title)}</h1>{badge}</div>")
        self._show_connection()
        self._show_presence()

    def _show_connection(self) -> None:
        state = "live" if self.session.room.store.available else "unavailable"
        self._connection.object = connection_html(state, self._t)

    def _show_presence(self) -> None:
        """Who is here: the same line for every page of the room in a language, made once per change."""
        room = self.session.room
        if self.session_id and str(self.session_id) not in room.presence:
            # this page's own arrival is still on its way to the store (a worker writes it): count
            # it already, so the line never tells the one person looking at it that nobody is here
            here = {**room.presence, str(self.session_id): presence_entry(self.session.actor)}
            self._presence.object = self._presence_line(room, here)
            return
        self._presence.object = once_per_change(
            room, ("presence", self.language), (room.presence, room.players),
            lambda: self._presence_line(room, room.presence))

    def _presence_line(self, room, here: dict) -> str:
        return f"<p>{esc(self._t('dashboard.presence'))}: {self._people(room, here)}</p>"

    def _people(self, room, present: dict) -> str:
        """Who is connected, one entry per person (several tabs of one player count once), as HTML.

        People are told apart by their player id, not their name: a room from before names had to be
        unique may have two "서연", shown with the start of their ids. Spectators are counted.
        """
        here: dict[tuple[str, str], str] = {}
        spectators = 0
        for entry in present.values():
            role, player_id = entry.get("role", ""), entry.get("player_id", "") or ""
            if role == "spectator":
                spectators += 1
                continue
            here[(role, player_id)] = room.players.get(player_id) or entry.get("name", "") or self._t(f"role.{role}")
        keys = [name_key(name) for (role, _), name in here.items() if role == "player"]
        people = []
        for (role, player_id), name in sorted(here.items(), key=lambda kv: (_ROLE_ORDER.get(kv[0][0], 3), kv[1])):
            if role == "player" and keys.count(name_key(name)) > 1:
                name = f"{name} #{player_id[:4]}"
            people.append(f"{esc(name)} ({esc(self._t('role.' + role))})")
        if spectators:  # spectators have no names: counted
            people.append(esc(self._t("dashboard.presence.spectators", n=spectators)))
        return ", ".join(people) or "-"

    def _show_roster(self) -> None:
        """The characters tab: the roster and the picker of characters this person may edit."""
        if self._active_tab() != "characters":
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
        if actor.role.value == "spectator":
            return
        mine = [c for c in room.characters if actor.is_gm or (c.owner and c.owner == actor.player_id)]
        options = {self._t("dashboard.new_character"): _NEW, **{c.name + f" ({c.uid[:4]})": c.uid for c in mine}}
        self._pick.param.update(options=options, name=self._t("dashboard.edit_character"))
        if self._pick.value not in options.values():
            self._pick.value = _NEW

    def _refresh(self) -> None:
        pass

    def _edit(self, uid: str) -> None:
        char = next((c for c in self.session.room.characters if c.uid == uid), None)
        self._sheet.character = char

    def _export_room(self):
        return io.BytesIO(self.session.room.export_json(self.session.actor).encode("utf-8"))

    def _close(self, reason) -> None:
        """The link of this page stopped working: show why instead of the room, and leave it."""
        title = self._t("dashboard.closed.title")
        why = self._explain(reason)
        if self.session.actor.is_gm and getattr(reason, "key", None) == "error.link.replaced":
            why = self._t("dashboard.closed.gm_replaced")  # the GM is who replaced it: not "ask the GM"
        self._layout.objects = [pn.pane.Alert(f"**{md_esc(title)}** {md_esc(why)}",
                                              alert_type="warning", sizing_mode="stretch_width",
                                              stylesheets=[WARNING_CSS], css_classes=["raisus-closed"])]
        self.dispose()

    def dispose(self) -> None:
        """Leave the room: remove presence and every watcher on shared state."""
        if getattr(self, "_stop_closing", None) is not None:
            self._stop_closing()
            self._stop_closing = None
        if getattr(self, "_stop_status", None) is not None:
            self._stop_status()
            self._stop_status = None
        leaving = not self._disposed and self.session_id
        for child in self._children:  # stop watching first, so leaving triggers no refresh here
            child.dispose()
        if hasattr(self.actions, "dispose"):
            self.actions.dispose()
        super().dispose()
        if leaving:  # the store's write waits on a worker: the loop serves the other pages meanwhile
            session, session_id = self.session, self.session_id
            background(lambda: session.disconnect(session_id))

    def __panel__(self):
        return self._layout
