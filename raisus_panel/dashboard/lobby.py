"""The lobby: a GM creates a room (or imports one) and gets its three links.

Creating and importing count against the server's room limits (per address and per server); a room
file is checked for size in the browser before it is read (:mod:`.upload`) and again here.
"""

from __future__ import annotations

import panel as pn
import param

from raisus_panel.room import RoomRegistry
from raisus_panel.room.limits import too_large
from raisus_panel.ui.kit import HTML, ComponentBase, esc, style

from .language import language_switch
from .link_card import ROLES, LinkCard
from .settings import app_base_url, client_address
from .theme import theme_label, theme_switch
from .upload import RoomFileInput


class Lobby(ComponentBase):
    """Create a room and hand out its links: GM, player invitation, spectator.

    Each link carries an unguessable token; they are shown once, here, to the GM who made the room.
    A room file exported from another table can be imported the same way (it gets new links).
    """

    registry = param.ClassSelector(class_=RoomRegistry, doc="""
        Where rooms are made and kept (the server's shared registry).""")

    base_url = param.String(default="", doc="""
        The app's URL the links are built on; taken from the browser's request when empty.""")

    links = param.Dict(default=None, allow_None=True, doc="""
        The links of the room just made, by role ("gm", "player", "spectator"), or None.""")

    def _build(self) -> None:
        self._heading = HTML(sizing_mode="stretch_width")
        self._title = pn.widgets.TextInput(max_length=80, width=320)
        self._gm_name = pn.widgets.TextInput(max_length=80, width=200)
        self._create = pn.widgets.Button(**style("primary"))
        self._create.on_click(lambda e: self._make_room())
        self._file = RoomFileInput(max_bytes=self.registry.limits.max_upload_bytes, width=320, height=50)
        self._file.param.watch(self._on_too_large, "too_large")
        self._file.param.watch(lambda e: self._clear_error() if e.new else None, "value")
        self._import = pn.widgets.Button(**style("primary", outline=True))
        self._import.on_click(lambda e: self._import_room())
        self._file_help = HTML(css_classes=["raisus-file-help"])
        self._links_box = pn.Column(sizing_mode="stretch_width")
        self._cards: dict[str, LinkCard] = {}
        self._theme = theme_switch()
        self._lang_switch = language_switch(self)  # a first page: its reader may read only one language
        self._layout = pn.Column(
            pn.Row(self._heading, self._lang_switch, self._theme, sizing_mode="stretch_width"), self._error, self._info,
            # rows that wrap: a phone stacks what does not fit beside
            pn.FlexBox(self._title, self._gm_name, self._create, flex_wrap="wrap", align_items="end"),
            pn.FlexBox(self._file, self._import, self._file_help, flex_wrap="wrap", align_items="center"),
            self._links_box, sizing_mode="stretch_width", css_classes=["raisus-lobby"])

    def _relabel(self) -> None:
        self._theme.name = theme_label(self._t)
        self._heading.object = f"<h2>{esc(self._t('dashboard.lobby.title'))}</h2>" \
                               f"<p>{esc(self._t('dashboard.lobby.intro'))}</p>"
        self._title.param.update(name=self._t("dashboard.lobby.room_title"),
                                 placeholder=self._t("dashboard.lobby.room_title_placeholder"))
        self._gm_name.param.update(name=self._t("dashboard.lobby.gm_name"), placeholder="GM")
        self._create.name = self._t("dashboard.lobby.create")
        self._import.name = self._t("dashboard.lobby.import")
        self._file.label = self._t("dashboard.lobby.file_label")
        most = f"{self.registry.limits.max_upload_bytes / 1e6:.1f}"
        self._file_help.object = f"<small>{esc(self._t('dashboard.lobby.max_size', most=most))}</small>"
        self._show_links()

    def _on_too_large(self, event) -> None:
        """The browser refused a file for its size (it was not read): say so, with the sizes."""
        if event.new:
            self._show_error(too_large(int(event.new.get("size", 0)), self.registry.limits.max_upload_bytes))

    # Creating and importing write to the store: off the event loop when served (``_call``), in
    # this page's order; a refusal from bad input or a store problem is shown in place.
    def _make_room(self) -> None:
        title = self._title.value or self._t("dashboard.lobby.default_title")
        gm_name, client = self._gm_name.value or "GM", client_address()  # what the page held at the click
        self._call(lambda: self.registry.create_room(title, gm_name=gm_name, client=client), self._made,
                   refuse=Exception)

    def _import_room(self) -> None:
        if not self._file.value:
            self._show_error(ValueError(self._t("dashboard.lobby.no_file")))
            return
        text, gm_name, client = self._file.value, self._gm_name.value or "GM", client_address()
        self._call(lambda: self.registry.import_room(text, gm_name=gm_name, client=client), self._made,
                   refuse=Exception)

    def _made(self, made) -> None:
        _, links = made
        self._clear_error()
        self._publish_links(links)

    def _publish_links(self, links) -> None:
        base = self.base_url or app_base_url()
        self.links = {role: links.url(role, base) for role in ("gm", "player", "spectator")}
        self._show_links()

    def _show_links(self) -> None:
        if not self.links:
            self._links_box.objects = []
            return
        intro = HTML(f"<p>{esc(self._t('dashboard.lobby.links_intro'))}</p>", sizing_mode="stretch_width")
        for role in ROLES:
            card = self._cards.get(role)
            if card is None:
                card = self._cards[role] = LinkCard(role=role, url=self.links[role], actions=self.actions,
                                                    lang=self.lang)
            card.param.update(url=self.links[role], lang=self.lang)
        self._links_box.objects = [intro, *(self._cards[role] for role in ROLES)]

    def __panel__(self):
        return self._layout
