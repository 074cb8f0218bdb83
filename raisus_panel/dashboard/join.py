"""Joining a room with the players' invitation: a name in, a personal link out."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import panel as pn
import param

from raisus_panel.room import JoinNotKnownYet, RoomRegistry
from raisus_panel.ui.kit import HTML, ComponentBase, esc, style

from .language import language_switch
from .settings import app_base_url


class JoinPage(ComponentBase):
    """A player opens the invitation, types a name, and gets a personal link that brings them back.

    After joining, ``on_joined(session, token)`` is called so the page can show the room at once;
    the browser's address changes to the personal link (bookmark it to come back as yourself).
    """

    registry = param.ClassSelector(class_=RoomRegistry, doc="""The server's shared room registry.""")

    invite = param.String(default="", doc="""The players' invitation token from the link.""")

    on_joined = param.Callable(default=None, doc="""
        Called with (session, personal token) once the player has joined.""")

    personal_link = param.String(default="", doc="""The joined player's personal link.""")

    title = param.String(default="", doc="""
        The room's title, read with the invitation when the page was opened (never on the event loop).""")

    def _build(self) -> None:
        # this page's own address, taken now (as the link manager does): the server's idea of it, which
        # ?lang= is written into; the browser's address itself is set by the personal link's card
        self._location = pn.state.location if self._doc is not None else None
        self._heading = HTML(sizing_mode="stretch_width")
        self._name = pn.widgets.TextInput(max_length=80, width=260)
        self._join = pn.widgets.Button(**style("primary"))
        self._join.on_click(lambda e: self._do_join())
        self._lang_switch = language_switch(self)  # an invitation may reach someone who reads only one language
        self._layout = pn.Column(pn.Row(self._heading, self._lang_switch, sizing_mode="stretch_width"), self._error,
                                 pn.FlexBox(self._name, self._join, flex_wrap="wrap", align_items="end"),
                                 sizing_mode="stretch_width", css_classes=["raisus-join"])

    def _relabel(self) -> None:
        self._heading.object = (f"<h2>{esc(self._t('dashboard.join.title', room=self.title))}</h2>"
                                f"<p>{esc(self._t('dashboard.join.intro'))}</p>")
        self._name.param.update(name=self._t("dashboard.join.name"), placeholder=self._t("dashboard.join.name"))
        self._join.name = self._t("dashboard.join.button")

    def _do_join(self) -> None:
        name = self._name.value  # what was typed at the click: the join itself waits on the store
        # any failure is shown in place (a store problem too), never a traceback on the page
        self._call(lambda: self.registry.join(self.invite, name), self._joined, settle=self._settle,
                   refuse=Exception)

    def _settle(self, unknown, callback) -> None:
        """Whether the join whose store answer was lost is in the room's log (``Room.settle``); one
        that landed after all brings the player in, with the personal link saved before it."""
        token = unknown.token if isinstance(unknown, JoinNotKnownYet) else ""

        def settled(saved) -> None:
            if saved is True and token:
                self._schedule(self._enter, token)
            else:
                callback(saved)
        self.registry.get(unknown.room_id).settle(unknown, settled)

    def _enter(self, token: str) -> None:
        self._call(lambda: self.registry.open_session(token), lambda session: self._joined((session, token)))

    def _joined(self, joined) -> None:
        session, token = joined
        self._clear_error()
        self.personal_link = f"{app_base_url()}?token={token}"
        if self._location is not None:  # ?lang= and the rest of the address stay
            query = dict(parse_qsl((self._location.search or "").lstrip("?")))
            self._location.search = "?" + urlencode({**query, "token": token})
        if self.on_joined:
            self.on_joined(session, token)

    def __panel__(self):
        return self._layout
