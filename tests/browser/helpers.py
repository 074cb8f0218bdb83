"""Small Playwright helpers for the served Panel pages (Panel renders every widget in a shadow root;
Playwright's CSS and role locators pierce open shadow roots, ``document.querySelector`` does not)."""

from __future__ import annotations

import math
import re

from playwright.sync_api import Locator, Page, expect

from raisus_panel.i18n import t as _t
from raisus_panel.room import Room
from raisus_panel.room.store_url import open_store

from .conftest import ARTIFACTS

LANG = "en"  # the servers of the browser tests run with RAISUS_LANG=en

# A served page builds all its components on a 2-core machine that also runs the browsers: allow
# a few seconds more than Playwright's default before an expectation fails.
expect.set_options(timeout=15_000)


def t(key: str, **fmt) -> str:
    """A UI text as the served app shows it (the same catalog, in English)."""
    return _t(key, LANG, **fmt)


def button(page, key: str, **fmt) -> Locator:
    """The button labelled with catalog text ``key`` (exact)."""
    return page.get_by_role("button", name=t(key, **fmt), exact=True)


def roll_button(page, n: int) -> Locator:
    """The button that rolls round ``n``: "Roll round n", or while a lost team's members may still
    volunteer, "No volunteer: roll round n"."""
    names = "|".join(re.escape(t(key, n=n)) for key in ("contest.roll", "contest.roll_no_volunteer"))
    return page.get_by_role("button", name=re.compile(f"^({names})$"))


def tab(page: Page, key: str) -> None:
    """Open the room page's tab labelled ``key``."""
    page.locator(".bk-tab", has_text=t(key)).first.click()


def commit(locator: Locator, value) -> None:
    """Type ``value`` into a Bokeh input and commit it (Bokeh sends a text input's value on change)."""
    locator.fill(str(value))
    locator.press("Enter")


def shot_of(locator: Locator, name: str):
    """Save a screenshot of one component as a test artifact."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    locator.screenshot(path=str(path))
    return path


def row_of(page: Page, label: str | re.Pattern, *, has_button: str) -> Locator:
    """The innermost Panel row (a ``Row``, or a row that wraps: ``ui._base.wrap``) that shows ``label``
    and a button named ``has_button``.

    Outer rows (a whole side, say) contain the same text, so the last match in document order is
    the innermost one.
    """
    text = page.get_by_text(label)
    rows = ".bk-Row, .bk-panel-models-layout-Row, .raisus-row"
    return (page.locator(rows).filter(has=text)
            .filter(has=page.get_by_role("button", name=has_button, exact=True)).last)


# -- the score chart's data, read from BokehJS --------------------------------------------------
_CHART_JS = """() => {
  const out = [];
  for (const doc of Bokeh.documents)
    for (const m of doc.all_models)
      if (m.data && ('faces' in m.data) && ('round' in m.data)) {
        const cols = Object.keys(m.data).filter(k => /^s\\d+$/.test(k)).sort((a, b) => +a.slice(1) - +b.slice(1));
        const rows = [];
        for (let i = 0; i < m.data.x.length; i++)
          rows.push([Number(m.data.x[i])].concat(cols.map(c => Number(m.data[c][i]))));
        out.push(rows);
      }
  return out;
}"""

_MARKERS_JS = """() => {
  let n = -1;
  for (const doc of Bokeh.documents)
    for (const m of doc.all_models)
      if (m.data && ('marker' in m.data)) n = Math.max(n, m.data.x.length);
  return n;
}"""


def chart_rows(page: Page) -> list[list[float]]:
    """The score chart's rows as the browser holds them: ``[x, s0, s1, ...]`` per point.

    Fails if the page holds more (or fewer) than one score chart source: a rebuilt chart must not
    leave its old data behind in the document.
    """
    sources = page.evaluate(_CHART_JS)
    assert len(sources) == 1, f"expected one score chart source in the page, found {len(sources)}"
    return sources[0]


def chart_len(page: Page) -> int:
    sources = page.evaluate(_CHART_JS)
    return len(sources[0]) if len(sources) == 1 else -1


#: The charts drawn as pictures (a watching page's, ui/_svg_chart.py), found in every shadow root.
PICTURES_JS = """() => {
  const out = [];
  const walk = root => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.tagName === 'svg' && el.classList.contains('raisus-chart'))
        out.push({chart: el.dataset.chart, points: Number(el.dataset.points), last: Number(el.dataset.last)});
    }
  };
  walk(document);
  return out;
}"""


def wait_chart_len(page: Page, n: int, timeout: float = 20_000) -> None:
    """Wait until the browser's score chart holds ``n`` points (a Bokeh figure's source, or the
    picture a watching page shows)."""
    page.wait_for_function(f"() => {{ const s = ({_CHART_JS})(); if (s.length === 1) return s[0].length === {n}; "
                           f"const p = ({PICTURES_JS})().filter(c => c.chart === 'score'); "
                           f"return p.length === 1 && p[0].points === {n}; }}", timeout=timeout)


def marker_count(page: Page) -> int:
    """How many between-round markers the browser's score chart holds (-1 if none)."""
    return page.evaluate(_MARKERS_JS)


def same_rows(got: list[list[float]], want: list[list[float]]) -> bool:
    """Rows equal, NaN equal to NaN (a series not yet in play)."""
    def eq(a, b):
        return (math.isnan(a) and math.isnan(b)) if (isinstance(a, float) and math.isnan(a)) or \
            (isinstance(b, float) and math.isnan(b)) else a == b
    return len(got) == len(want) and all(len(r) == len(s) and all(eq(a, b) for a, b in zip(r, s))
                                         for r, s in zip(got, want))


def no_img_created(page: Page) -> int:
    """How many <img> elements the page holds, shadow roots included."""
    return page.evaluate("""() => {
      let n = 0;
      const walk = root => { for (const el of root.querySelectorAll('*')) {
        if (el.tagName === 'IMG') n++;
        if (el.shadowRoot) walk(el.shadowRoot);
      } };
      walk(document);
      return n;
    }""")


_FORCE_JS = """(el) => {
  const host = el.getRootNode().host;
  const find = (view) => {
    if (view.el === host) return view;
    for (const child of (view.child_views ?? [])) { const found = find(child); if (found) return found; }
    return null;
  };
  for (const root of Object.values(Bokeh.index)) {
    const view = find(root);
    if (view) { view.model.disabled = false; return view.model.type; }
  }
  return null;
}"""


def force_click(locator: Locator) -> None:
    """Click a button the page shows disabled, as a tampered client would.

    The button's Bokeh model is enabled in the browser and clicked, so the click reaches the server
    as a normal event: whatever refuses it must be the server (the room's role checks), not the UI.
    """
    expect(locator).to_be_disabled()
    assert locator.evaluate(_FORCE_JS), "no Bokeh view for this button"
    expect(locator).to_be_enabled()
    locator.click()


class Guard:
    """Records what an injected ``<img src=x onerror=...>`` would cause on a page: dialogs, requests
    for ``x`` and page errors."""

    def __init__(self, page: Page):
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("dialog", self._dialog)
        page.on("request", lambda r: self.requests.append(r.url) if re.search(r"/x(\?|$)", r.url) else None)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def check(self) -> None:
        assert not self.dialogs, f"a dialog fired: {self.dialogs}"
        assert not self.requests, f"an injected image was requested: {self.requests}"


__all__ = ["Guard", "force_click", "LANG", "button", "chart_len", "chart_rows", "commit", "expect", "marker_count", "no_img_created",
           "row_of", "same_rows", "shot_of", "t", "tab", "wait_chart_len"]


def truth(db: str, room_id: str) -> Room:
    """The room as its store holds it now (what every page must agree with): ``db`` is a SQLite
    file's path or a store's address (``redis://…``), read by a store of the test's own."""
    store = open_store(db)
    try:
        return Room.load(store, room_id)
    finally:
        store.close()
