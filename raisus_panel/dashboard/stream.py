"""The stream view: a spectator's page of the fight alone, large, for a screen an audience watches.

A spectator's page offers it with a button that opens the same address with ``view=stream`` in a new
tab (the language and the theme stay in the address); :class:`~.room_page.RoomPage` lays it out.
"""

from __future__ import annotations

import panel as pn

from raisus_panel.ui.kit import ScriptButton, style

__all__ = ["OPEN_STREAM", "STREAM_CSS", "stream_button"]

#: Run in the browser when the button is pressed: this page's address with ``view=stream``, in a new tab.
OPEN_STREAM = """
const url = new URL(window.location.href);
// a page drawing the table in the browser (?view=table) opens its stream view the same way
url.searchParams.set("view", url.searchParams.get("view") === "table" ? "table-stream" : "stream");
window.open(url.href, "_blank", "noopener");
"""

#: Larger text for a screen watched from a distance (Bokeh's widgets and our HTML panes read it).
STREAM_CSS = """
:host { --bokeh-font-size: 16px; font-size: 16px; }
"""


def stream_button() -> pn.widgets.Button:
    """A button that opens the stream view of this page; its label is set in the page's language."""
    return ScriptButton(css_classes=["raisus-stream-open"], **style("light", outline=True), script=OPEN_STREAM)
