"""The GM's link management, on the Room tab: new invitation and spectator links, a new GM link,
and removing a player.

Every action goes through the :class:`~raisus_panel.room.RoomRegistry`, which refuses anyone but the
GM; this view only shows the GM's buttons. A new link is shown once, as at the room's creation: only
its hash is kept. None of these can be undone (an old link stops working at once), so each button asks
"Are you sure?" inline first (:class:`~raisus_panel.ui._confirm.ConfirmStep`).
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import panel as pn
import param

from raisus_panel.room.registry import LinkSession, RoomLinks
from raisus_panel.ui.kit import HTML, Button, ComponentBase, ConfirmStep, esc, grey, md_esc, style

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
        # every link action here is final (old links stop working at once): each is asked once more
        self._reissue_confirm = ConfirmStep(self._reissue, lambda _: self._do_reissue())
        self._reissue_help = HTML(sizing_mode="stretch_width", css_classes=["raisus-help"])
        self._replace = pn.widgets.Button(**style("danger", outline=True), css_classes=["raisus-replace-gm"])
        self._replace_confirm = ConfirmStep(self._replace, lambda _: self._do_replace())
        self._replace_help = HTML(sizing_mode="stretch_width", css_classes=["raisus-help"])
        self._fresh = pn.Column(sizing_mode="stretch_width", css_classes=["raisus-fresh-links"])
        self._players_heading = HTML(sizing_mode="stretch_width")
        self._players = pn.Column(sizing_mode="stretch_width", css_classes=["raisus-players"])
        # player id -> (label, remove, new link, their confirmations, row): kept, changed in place
        self._rows: dict[str, tuple] = {}
        # hand a character to another player (or to the GM, as an NPC): the room's update_character
        self._hand_heading = HTML(sizing_mode="stretch_width")
        self._hand_char = pn.widgets.Select(width=240, css_classes=["raisus-hand-character"])
        self._hand_to = pn.widgets.Select(width=240, css_classes=["raisus-hand-to"])
        self._hand = Button(**style("primary", outline=True), css_classes=["raisus-hand"])
        self._hand.on_click(lambda e: self._do_hand())
        self._shown_links: tuple[str, dict[str, str]] | None = None  # what, {role: url}: shown once
        self._cards: dict[tuple[str, str], LinkCard] = {}  # (role, url) -> the card showing it
        self._revoked: set[str] = set()
        self._notice: tuple[str, dict] | None = None  # the last success (key, fields), in any language
        self._layout = pn.Column(
            self._heading, self._error, self._info,
            # rows that wrap: on a phone the help goes under its button
            pn.FlexBox(self._reissue, self._reissue_help, flex_wrap="wrap", align_items="center"),
            self._reissue_confirm,
            pn.FlexBox(self._replace, self._replace_help, flex_wrap="wrap", align_items="center"),
            self._replace_confirm,
            self._fresh, self._players_heading, self._players, self._hand_heading,
            pn.FlexBox(self._hand_char, self._hand_to, self._hand, flex_wrap="wrap", align_items="end"),
            sizing_mode="stretch_width", css_classes=["raisus-links"])
        self._watch(self.session.room, self._on_players, "players")
        # a character changes hands in place (``seq``): only the picker is redrawn for it
        self._watch(self.session.room, self._on_characters, "characters", "seq")
        # this page's own address, taken now: a click's callback must not rewrite another page's
        self._location = pn.state.location if self._doc is not None else None
        self._load_revoked()

    @property
    def _registry(self):
        return self.session.registry

    def _load_revoked(self) -> None:
        self._revoked = set()  # until read: the list only marks who was removed

        def read():
            try:
                return self._registry.revoked_players(self.session.room.room_id)
            except Exception:  # never break the tab for it
                return set()

        def got(revoked) -> None:
            self._revoked = set(revoked)
            self._show_players()
        self._call(read, got, refuse=())  # a store read: off the event loop when served

    def _on_characters(self, *_) -> None:
        self._schedule(self._show_hand)

    def _on_players(self, *_) -> None:
        self._schedule(self._show_players)
        self._schedule(self._show_hand)

    def _relabel(self) -> None:
        self._heading.object = (f"<h3>{esc(self._t('dashboard.links.title'))}</h3>"
                                f"<p>{esc(self._t('dashboard.links.intro'))}</p>")
        self._reissue.name = self._t("dashboard.links.reissue")
        self._reissue_help.object = f"<small>{esc(self._t('dashboard.links.reissue_help'))}</small>"
        self._replace.name = self._t("dashboard.links.replace_gm")
        self._replace_help.object = f"<small>{esc(self._t('dashboard.links.replace_gm_help'))}</small>"
        cancel = self._t("confirm.cancel")
        self._reissue_confirm.relabel(self._t("confirm.reissue"), self._t("confirm.yes.reissue"), cancel)
        self._replace_confirm.relabel(self._t("confirm.replace_gm"), self._t("confirm.yes.replace_gm"), cancel)
        self._players_heading.object = f"<h4>{esc(self._t('dashboard.links.players'))}</h4>"
        self._hand_heading.object = (f"<h4>{esc(self._t('dashboard.links.hand'))}</h4>"
                                     f"<p><small>{esc(self._t('dashboard.links.hand_help'))}</small></p>")
        self._hand.name = self._t("dashboard.links.hand_button")
        if self._notice is not None:
            key, fields = self._notice
            self._info.param.update(object=md_esc(self._t(key, **fields)), visible=True)
        self._show_fresh()
        self._show_players()
        self._show_hand()

    # -- actions ----------------------------------------------------------------------------------
    def _base(self) -> str:
        return self.base_url or app_base_url()

    # Each action's store work runs off the event loop, in this page's order (``_call``); a refusal
    # or a store problem is shown in place, and what follows a success runs back on the page.
    def _do_reissue(self) -> None:
        self._call(lambda: self._registry.reissue_links(self.session), self._reissued, refuse=Exception)

    def _reissued(self, tokens) -> None:
        links = RoomLinks(self.session.room.room_id, "", tokens["player"], tokens["spectator"])
        self._clear_error()
        self._shown_links = ("reissued", {role: links.url(role, self._base()) for role in ("player", "spectator")})
        self._show_fresh()

    def _do_replace(self) -> None:
        self._call(lambda: self._registry.replace_gm_link(self.session), self._replaced, refuse=Exception)

    def _replaced(self, token) -> None:
        links = RoomLinks(self.session.room.room_id, token, "", "")
        self._clear_error()
        self._shown_links = ("replaced_gm", {"gm": links.url("gm", self._base())})
        self._show_fresh()
        location = self._location
        if location is not None:  # the server's idea of the address too, which ?lang= is written into
            query = dict(parse_qsl((location.search or "").lstrip("?")))
            location.search = "?" + urlencode({**query, "token": token})

    def _do_personal(self, player_id: str) -> None:
        name = self.session.room.players.get(player_id, player_id)
        self._call(lambda: self._registry.reissue_player_link(self.session, player_id),
                   lambda token: self._personal_made(player_id, name, token), refuse=Exception)

    def _personal_made(self, player_id: str, name: str, token: str) -> None:
        self._clear_error()
        self._revoked.discard(player_id)
        self._notice = None
        self._info.visible = False
        base = self._base()
        self._shown_links = ("personal_made", {"personal": f"{base}{'&' if '?' in base else '?'}token={token}"},
                             {"name": name})
        self._show_fresh()
        self._show_players()

    def _do_hand(self) -> None:
        uid, owner = self._hand_char.value, self._hand_to.value

        def handed(_) -> None:
            char = self.actions.character(uid)
            to = self.session.room.players.get(owner, "") if owner else self._t("dashboard.npc")
            self._notice = ("dashboard.links.handed", {"name": char.name if char else uid, "to": to})
            self._info.param.update(object=md_esc(self._t(self._notice[0], **self._notice[1])), visible=True)
        # a room command: refused (a contest holds it, the same owner) shows the reason; not known yet, then settled
        self._run("update_character", uid=uid, owner=owner or "", then=handed)

    def _do_revoke(self, player_id: str) -> None:
        name = self.session.room.players.get(player_id, player_id)
        self._call(lambda: self._registry.revoke_player(self.session, player_id),
                   lambda _: self._revoked_one(player_id, name), refuse=Exception)

    def _revoked_one(self, player_id: str, name: str) -> None:
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
        what, urls, *fields = self._shown_links
        rows = [pn.pane.Alert(md_esc(self._t(f"dashboard.links.{what}", **(fields[0] if fields else {}))),
                              alert_type="warning",
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
        """One row per joined player, made once and then changed in place.

        Rows made anew on every change left a click on a button the page had just replaced
        unanswered (and a patch carrying a model twice): the buttons stay, their labels change.
        """
        players = self.session.room.players
        if not players:
            self._players.objects = [HTML(f"<p>{esc(self._t('dashboard.links.no_players'))}</p>")]
            return
        rows = []
        for player_id, name in players.items():
            row = self._rows.get(player_id)
            if row is None:
                label = HTML(width=220)
                revoke = Button(**style("danger", outline=True), css_classes=["raisus-revoke"])
                personal = Button(**style("light", outline=True), css_classes=["raisus-personal"])
                confirms = (ConfirmStep(revoke, lambda _, pid=player_id: self._do_revoke(pid)),
                            ConfirmStep(personal, lambda _, pid=player_id: self._do_personal(pid)))
                row = self._rows[player_id] = (label, revoke, personal, confirms, pn.Column(
                    pn.FlexBox(label, revoke, personal, flex_wrap="wrap", align_items="center"), *confirms,
                    sizing_mode="stretch_width"))
            label, revoke, personal, confirms, box = row
            removed = player_id in self._revoked
            label.object = f"<b>{esc(name)}</b>" + (
                f" <i>({esc(self._t('dashboard.links.removed'))})</i>" if removed else "")
            revoke.name = self._t("dashboard.links.revoke", name=name)
            grey(revoke, self._t("dashboard.links.removed_why", name=name) if removed else None)
            self._tip(revoke, self._t("dashboard.links.revoke_help"))
            personal.name = self._t("dashboard.links.personal", name=name)
            cancel = self._t("confirm.cancel")
            confirms[0].relabel(self._t("confirm.revoke", name=name), self._t("confirm.yes.revoke", name=name), cancel)
            confirms[1].relabel(self._t("confirm.personal", name=name), self._t("confirm.yes.personal", name=name),
                                cancel)
            self._tip(personal, self._t("dashboard.links.personal_help"))
            rows.append(box)
        if [id(r) for r in rows] != [id(o) for o in self._players.objects]:
            self._players.objects = rows

    def _show_hand(self) -> None:
        room = self.session.room
        chars = {f"{c.name} ({room.players.get(c.owner, '') if c.owner else self._t('dashboard.npc')})": c.uid
                 for c in room.characters}
        people = {**{name: pid for pid, name in room.players.items()}, self._t("dashboard.npc"): ""}
        self._hand_char.param.update(options=chars, name=self._t("dashboard.links.hand_character"))
        self._hand_to.param.update(options=people, name=self._t("dashboard.links.hand_to"))
        grey(self._hand, None if chars else self._t("dashboard.links.hand_none"))

    def __panel__(self):
        return self._layout
