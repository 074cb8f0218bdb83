"""Joining a room with the players' invitation: a name in, a personal link out."""

from __future__ import annotations

import panel as pn
import param

from raisus_panel.room import RoomRegistry
from raisus_panel.ui.kit import ComponentBase, HTML, esc, style

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

    def _build(self) -> None:
        self._heading = HTML(sizing_mode="stretch_width")
        self._name = pn.widgets.TextInput(max_length=80, width=260)
        self._join = pn.widgets.Button(**style("primary"))
        self._join.on_click(lambda e: self._do_join())
        self._lang_switch = language_switch(self)  # an invitation may reach someone who reads only one language
        self._layout = pn.Column(pn.Row(self._heading, self._lang_switch, sizing_mode="stretch_width"), self._error,
                                 pn.FlexBox(self._name, self._join, flex_wrap="wrap", align_items="end"),
                                 sizing_mode="stretch_width", css_classes=["raisus-join"])

    def _relabel(self) -> None:
        try:
            title = self.registry.resolve(self.invite)[0].title
        except Exception:
            title = ""
        self._heading.object = (f"<h2>{esc(self._t('dashboard.join.title', room=title))}</h2>"
                                f"<p>{esc(self._t('dashboard.join.intro'))}</p>")
        self._name.param.update(name=self._t("dashboard.join.name"), placeholder=self._t("dashboard.join.name"))
        self._join.name = self._t("dashboard.join.button")

    def _do_join(self) -> None:
        try:
            session, token = self.registry.join(self.invite, self._name.value)
        except Exception as exc:
            self._show_error(exc)
            return
        self.personal_link = f"{app_base_url()}?token={token}"
        if pn.state.location is not None:
            pn.state.location.search = f"?token={token}"
        if self.on_joined:
            self.on_joined(session, token)

    def __panel__(self):
        return self._layout
