"""The shim that opens a focused tab with Enter or Space (raisus_panel/dashboard/keyboard.py) is still needed.

Fails when Bokeh changes version or its tab headers get a key handler of their own: then check
whether the shim can go. What it does in a page is tested in tests/browser/test_keyboard.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import bokeh

from raisus_panel import upstream
from raisus_panel.dashboard import keyboard


def _tabs_view_source() -> str:
    js = (Path(bokeh.__file__).parent / "server" / "static" / "js" / "bokeh.js").read_text(encoding="utf-8")
    start = js.index("class TabsView")
    end = js.index("\n    class ", start + 1)
    return js[start:end]


def test_this_bokeh_opens_a_tab_on_a_click_only():
    assert upstream.tested("bokeh"), bokeh.__version__
    source = _tabs_view_source()
    # a focusable header with the class the shim looks for, opened by a click listener ...
    assert "tabIndex: 0" in source and "tabs.tab," in source
    assert 'tab_el.addEventListener("click"' in source
    # ... and no key opens it
    assert not re.search(r"keydown|keyup|keypress", source)


def test_the_shim_is_added_to_a_served_page_only():
    from bokeh.document import Document

    doc = Document()
    keyboard.keyboard_tabs(doc)  # no session: a notebook or a test document
    assert not doc.callbacks.js_event_callbacks.get("document_ready")
    assert "bk-tab" in keyboard.OPEN_TAB_ON_KEY and "composedPath" in keyboard.OPEN_TAB_ON_KEY
