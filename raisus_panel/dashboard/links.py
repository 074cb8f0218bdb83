"""The GM's link management, on the Room tab: new invitation and spectator links, a new GM link,
and removing a player.

Every action goes through the :class:`~raisus_panel.room.RoomRegistry`, which refuses anyone but the
GM; this view only shows the GM's buttons. A new link is shown once, as at the room's creation: only
its hash is kept.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import panel as pn
import param

from raisus_panel.room.registry import LinkSession, RoomLinks
from raisus_panel.ui._base import HTML, ComponentBase, esc, md_esc, style

from .link_card import LinkCard
from .settings import app_base_url


#: Panel's warning alert writes #997404 on #fff3cd, 3.9:1: too faint to read (WCAG asks 4.5:1). The
#: darker text of the same hue reads at 7:1.
WARNING_CSS = ":host(.alert-warning) { --warning-text-color: #664d03; }"


class LinkManager(ComponentBase):
    """The links of one room, managed by its GM (see the module docstring).

    Parameters
    ----------
    session
        The GM's :class:`~raisus_panel.room.registry.LinkSession` (it knows its registry).
    """

    session = param.ClassSelector(class_=LinkSession, doc="""
        The GM's session: the room whose links are managed, and who asks.""")

    base_url = param.String(default="", doc="""
        The app's URL the links are built on; the browser's request's when empty.""")

    def _build(self) -> None:
        self._heading = HTML(sizing_mode="stretch_width")
        self._reissue = pn.widgets.Button(**style("light", outline=True), css_classes=["raisus-reissue"])
        self._reissue.on_click(lambda e: self._do_reissue())
        self._reissue_help = HTML(sizing_mode="stretch_width", css_classes=["raisus-help"])
        self._replace = pn.widgets.Button(**style("danger", outline=True), css_classes=["raisus-replace-gm"])
        self._replace.on_click(lambda e: self._do_replace())
        self._replace_help = HTML(sizing_mode="stretch_width", css_classes=["raisus-help"])
        self._fresh = pn.Column(sizing_mode="stretch_width", css_classes=["raisus-fresh-links"])
        self._players_heading = HTML(sizing_mode="stretch_width")
        self._players = pn.Column(sizing_mode="stretch_width", css_classes=["raisus-players"])
        self._shown_links: tuple[str, dict[str, str]] | None = None  # what, {role: url}: shown once
        self._cards: dict[tuple[str, str], LinkCard] = {}  # (role, url) -> the card showing it
        self._revoked: set[str] = set()
        self._notice: tuple[str, dict] | None = None  # the last success (key, fields), in any language
        self._layout = pn.Column(
            self._heading, self._error, self._info,
            # rows that wrap: on a phone the help goes under its button
            pn.FlexBox(self._reissue, self._reissue_help, flex_wrap="wrap", align_items="center"),
            pn.FlexBox(self._replace, self._replace_help, flex_wrap="wrap", align_items="center"),
            self._fresh, self._players_heading, self._players,
            sizing_mode="stretch_width", css_classes=["raisus-links"])
        self._watch(self.session.room, self._on_players, "players")
        # this page's own address, taken now: a click's callback must not rewrite another page's
        self._location = pn.state.location if self._doc is not None else None
        self._load_revoked()

    @property
    def _registry(self):
        return self.session.registry

    def _load_revoked(self) -> None:
        try:
            self._revoked = self._registry.revoked_players(self.session.room.room_id)
        except Exception:  # the list only marks who was removed: never break the tab for it
            self._revoked = set()

    def _on_players(self, *_) -> None:
        self._schedule(self._show_players)

    def _relabel(self) -> None:
        self._heading.object = (f"<h3>{esc(self._t('dashboard.links.title'))}</h3>"
                                f"<p>{esc(self._t('dashboard.links.intro'))}</p>")
        self._reissue.name = self._t("dashboard.links.reissue")
        self._reissue_help.object = f"<small>{esc(self._t('dashboard.links.reissue_help'))}</small>"
        self._replace.name = self._t("dashboard.links.replace_gm")
        self._replace_help.object = f"<small>{esc(self._t('dashboard.links.replace_gm_help'))}</small>"
        self._players_heading.object = f"<h4>{esc(self._t('dashboard.links.players'))}</h4>"
        if self._notice is not None:
            key, fields = self._notice
            self._info.param.update(object=md_esc(self._t(key, **fields)), visible=True)
        self._show_fresh()
        self._show_players()

    # -- actions ----------------------------------------------------------------------------------
    def _base(self) -> str:
        return self.base_url or app_base_url()

    def _do_reissue(self) -> None:
        try:
            tokens = self._registry.reissue_links(self.session)
        except Exception as exc:  # a refusal (not the GM any more) or a store problem
            self._show_error(exc)
            return
        links = RoomLinks(self.session.room.room_id, "", tokens["player"], tokens["spectator"])
        self._clear_error()
        self._shown_links = ("reissued", {role: links.url(role, self._base()) for role in ("player", "spectator")})
        self._show_fresh()

    def _do_replace(self) -> None:
        try:
            token = self._registry.replace_gm_link(self.session)
        except Exception as exc:
            self._show_error(exc)
            return
        links = RoomLinks(self.session.room.room_id, token, "", "")
        self._clear_error()
        self._shown_links = ("replaced_gm", {"gm": links.url("gm", self._base())})
        self._show_fresh()
        location = self._location
        if location is not None:  # the server's idea of the address too, which ?lang= is written into
            query = dict(parse_qsl((location.search or "").lstrip("?")))
            location.search = "?" + urlencode({**query, "token": token})

    def _do_revoke(self, player_id: str) -> None:
        name = self.session.room.players.get(player_id, player_id)
        try:
            self._registry.revoke_player(self.session, player_id)
        except Exception as exc:
            self._show_error(exc)
            return
        self._clear_error()
        self._revoked.add(player_id)
        self._notice = ("dashboard.links.revoked", {"name": name})
        self._info.param.update(object=md_esc(self._t(*self._notice[:1], **self._notice[1])), visible=True)
        self._show_players()

    # -- views ------------------------------------------------------------------------------------
    def _show_fresh(self) -> None:
        if self._shown_links is None:
            self._fresh.objects = []
            return
        what, urls = self._shown_links
        rows = [pn.pane.Alert(md_esc(self._t(f"dashboard.links.{what}")), alert_type="warning",
                              sizing_mode="stretch_width", stylesheets=[WARNING_CSS])]
        cards = {}
        for role, url in urls.items():  # the same links in another language: the same cards, relabelled
            card = self._cards.get((role, url))
            if card is None:
                # the new GM link goes into this page's address at once: a reload must open the new link
                card = LinkCard(role=role, url=url, heading_level=4, actions=self.actions, lang=self.lang,
                                sets_address=what == "replaced_gm")
            card.lang = self.lang
            cards[(role, url)] = card
            rows.append(card)
        self._cards = cards
        self._fresh.objects = rows

    def _show_players(self) -> None:
        players = self.session.room.players
        if not players:
            self._players.objects = [HTML(f"<p>{esc(self._t('dashboard.links.no_players'))}</p>")]
            return
        rows = []
        for player_id, name in players.items():
            removed = player_id in self._revoked
            label = f"<b>{esc(name)}</b>" + (f" <i>({esc(self._t('dashboard.links.removed'))})</i>" if removed else "")
            button = pn.widgets.Button(name=self._t("dashboard.links.revoke", name=name), disabled=removed,
                                       **style("danger", outline=True), css_classes=["raisus-revoke"])
            button.on_click(lambda e, pid=player_id: self._do_revoke(pid))
            self._tip(button, self._t("dashboard.links.revoke_help"))
            rows.append(pn.FlexBox(HTML(label, width=220), button, flex_wrap="wrap", align_items="center"))
        self._players.objects = rows

    def __panel__(self):
        return self._layout
