"""Tabs that open with the keyboard: Enter or Space on a focused tab header opens it.

Bokeh (3.9) makes each tab header of a ``Tabs`` focusable (``tabIndex`` 0) but opens a tab only on a
click: no key opens one, so a person without a mouse could reach the Log, Characters and Action
checks tabs with Tab and never open them. Upstream lacks a key handler on its tab headers; until it
has one, the page listens for Enter and Space itself and clicks the focused header (a click on the
tab that is open already changes nothing, so should Bokeh add its own handler, nothing breaks).
``tests/room_served/test_keyboard_tabs.py`` fails once Bokeh's tabs handle keys themselves (or Bokeh
changes version), so that this shim is looked at again.
"""

from __future__ import annotations

from bokeh.models import CustomJS

from raisus_panel import upstream

#: Bokeh 3.9's tab headers ignore the keyboard: the shim runs on the Bokeh of raisus_panel.upstream only.
#: Once per page: a key pressed on a tab header (found through the shadow roots Bokeh renders into,
#: ``composedPath``) clicks it, as the mouse would.
OPEN_TAB_ON_KEY = """
if (!window.raisusKeyTabs) {
  window.raisusKeyTabs = true;
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const el = event.composedPath()[0];
    if (el instanceof HTMLElement && el.classList.contains("bk-tab")) {
      event.preventDefault();  // Space would scroll the page
      el.click();
    }
  });
}
"""


def keyboard_tabs(doc) -> None:
    """Let the page of ``doc`` open a focused tab with Enter or Space (nothing outside a served session).

    Parameters
    ----------
    doc
        The session's Bokeh document.
    """
    if not upstream.tested("bokeh") or doc is None or getattr(doc, "session_context", None) is None:
        return
    doc.js_on_event("document_ready", CustomJS(code=OPEN_TAB_ON_KEY))
