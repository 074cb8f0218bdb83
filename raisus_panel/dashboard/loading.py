"""A link's page opened without reading the store on the event loop: "loading the room…", then the page.

Opening a link reads the store (the link's record, the room's log). On a paused store that read
waits for seconds; on the event loop, every page of the process would wait with it. The served
page is first a shell saying "loading the room…" in its language; the store is read on a worker
(``ComponentBase._call``), and the page is built on the loop once it is read.
"""

from __future__ import annotations

import panel as pn
import param

from raisus_panel.ui.kit import HTML, ComponentBase, esc


class RoomLoader(ComponentBase):
    """The shell of a link's page: "loading the room…" until ``open()`` has read it, then the page.

    ``open`` (store work, run on a worker when served) returns what ``build`` (run on the loop, as
    the page) turns into the page. Once shown, this shell speaks the page's language, so that the
    page's root and ``<html lang>`` (which follow this shell) follow the page.
    """

    open = param.Callable(default=None, doc="""
        Reads what the page needs from the store (may wait; never called on the event loop when served).""")

    build = param.Callable(default=None, doc="""
        Makes the page from what ``open`` returned (called on the page's own document).""")

    page = param.Parameter(default=None, doc="""The page once built (None while loading).""")

    def _build(self) -> None:
        self._loading = HTML(sizing_mode="stretch_width", css_classes=["raisus-loading"])
        self._layout = pn.Column(self._loading, sizing_mode="stretch_width")

    def load(self) -> None:
        """Read the room (off the loop when served) and show its page."""
        self._call(self.open, self._show, refuse=())

    def _relabel(self) -> None:
        self._loading.object = f'<p role="status">{esc(self._t("dashboard.loading"))}</p>'

    def _show(self, opened) -> None:
        page = self.build(opened)
        self.page = page
        if isinstance(page, ComponentBase):
            self.lang = page.language
            page.param.watch(lambda e: setattr(self, "lang", page.language), "lang")
        self._layout[:] = [page]

    def __panel__(self):
        return self._layout
