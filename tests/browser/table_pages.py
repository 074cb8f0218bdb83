"""The pages everyone at a table opens, served in one language, for the lobby, accessibility and
phone tests: the lobby, the join page (the players' invitation) and the GM's, a player's and a
spectator's room page, on a room seeded through the room API before the server opens its file.

Also the checks those tests share: axe-core run in the page, and what a phone shows.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Page

from raisus_panel.i18n import t
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import ROOT, Server
from .helpers import expect

#: axe-core, installed from npm at test time by ``make test`` (Makefile: the AXE target), not committed.
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"

#: An iPhone-sized phone: what the issue measures (390 x 844 CSS pixels, touch, 3x pixels).
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}
DESKTOP = {"viewport": {"width": 1400, "height": 1000}}

#: The pages, in the order a table meets them ("room-tab": the GM's Room tab with new links made;
#: "checks-tab": the GM's action checks).
PAGES = ("lobby", "join", "gm", "player", "spectator", "room-tab", "checks-tab")


@dataclass
class Table:
    """A served dashboard in one language and the URLs of its pages."""

    server: Server
    lang: str
    urls: dict[str, str] = field(default_factory=dict)

    def t(self, key: str, **fmt) -> str:
        return t(key, self.lang, **fmt)


def serve_table(tmp_dir: Path, lang: str, env: dict | None = None) -> Table:
    """Serve the dashboard in ``lang`` on a fresh SQLite file holding one room with a contest started:
    Ann's Sir Ann (Knight 4) against the GM's Ogre (8), each alone on a side (so the GM's page shows each
    unit's cliché picker and "inappropriate" checkbox; Ann's shows hers, and the Ogre's cliché in words).
    ``env`` adds to the server's environment (e.g. its limits)."""
    db = str(tmp_dir / "raisus.sqlite")
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("금요일 밤" if lang == "ko" else "Friday night", gm_name="Gina")
        ann, ann_token = registry.join(links.player, "Ann")
        ann.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4}])
        gm = registry.open_session(links.gm)
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 8}])
        uids = {c.name: c.uid for c in room.characters}
        gm.act("start_contest", name="Ogre fight", side_a=[uids["Sir Ann"]], side_b=[uids["Ogre"]])
        # a room of its own for the GM's Room tab, whose new links would close the first room's pages
        _, tab_links = registry.create_room("Links", gm_name="Gina")
    finally:
        store.close()
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": lang, **(env or {})}).start()
    base = f"{server.url}/dashboard"
    return Table(server, lang, {"lobby": base, "join": links.url("player", base), "gm": links.url("gm", base),
                                "player": f"{base}?token={ann_token}", "spectator": links.url("spectator", base),
                                "room-tab": tab_links.url("gm", base), "checks-tab": links.url("gm", base)})


def open_page(page: Page, table: Table, name: str, theme: str | None = None) -> Page:
    """Go to one of the table's pages (in ``theme``, e.g. "dark", when given) and wait until it is built."""
    url = table.urls[name]
    if name in ("lobby", "join"):  # these follow the browser's language (Chromium says en-US): ask for the table's
        url = f"{url}{'&' if '?' in url else '?'}lang={table.lang}"
    page.goto(f"{url}{'&' if '?' in url else '?'}theme={theme}" if theme else url)
    if name == "lobby":
        expect(page.get_by_role("button", name=table.t("dashboard.lobby.create"), exact=True)).to_be_visible()
    elif name == "join":
        expect(page.get_by_role("button", name=table.t("dashboard.join.button"), exact=True)).to_be_visible()
    else:
        role = table.t(f"role.{'gm' if name.endswith('-tab') else name}")
        expect(page.locator(".raisus-room-title")).to_contain_text(role)
        expect(page.locator(".raisus-presence")).to_be_visible()
    page.wait_for_timeout(300)  # let the last layout pass settle before measuring
    return page


def reissue_links(page: Page, table: Table) -> dict[str, str]:
    """On a GM's room page: open the Room tab, make new invitation and spectator links; those links."""
    page.locator(".bk-tab", has_text=table.t("dashboard.tab.room")).first.click()
    page.get_by_role("button", name=table.t("dashboard.links.reissue"), exact=True).click()
    page.get_by_role("button", name=table.t("confirm.yes.reissue"), exact=True).click()  # "Are you sure?"
    links = {}
    for role in ("player", "spectator"):
        url = page.locator(f".raisus-fresh-links .raisus-link-{role} input")
        expect(url).to_have_value(re.compile(rf"^{re.escape(table.urls['lobby'])}\?token=\S+$"))
        links[role] = url.input_value()
    return links


def create_room(page: Page, table: Table, title: str = "Table") -> dict[str, str]:
    """On the lobby: create a room; the three links it shows, by role."""
    field_ = page.get_by_placeholder(table.t("dashboard.lobby.room_title_placeholder"))
    field_.fill(title)
    field_.press("Enter")
    page.get_by_role("button", name=table.t("dashboard.lobby.create"), exact=True).click()
    links = {}
    for role in ("gm", "player", "spectator"):
        url = page.locator(f".raisus-link-{role} input")
        expect(url).to_have_value(re.compile(rf"^{re.escape(table.urls['lobby'])}\?token=\S+$"))
        links[role] = url.input_value()
    return links


# -- axe-core ----------------------------------------------------------------------------------------
def require_axe() -> None:
    if not AXE.exists():
        if os.environ.get("RAISUS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"axe-core is required but {AXE} does not exist: run make test (or the Makefile's AXE target)")
        pytest.skip("no axe-core: `make test` installs it from npm")


_AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.map(t => Array.isArray(t) ? t.join(' >>> ') : t).join(' >>> '),
                              impact: n.impact, summary: n.failureSummary, html: n.html.slice(0, 200)}))}));
}"""


def axe_violations(page: Page, allowed: dict[tuple[str, str], str] | None = None) -> list[dict]:
    """The critical and serious axe-core violations on ``page``, without those ``allowed`` lists.

    ``allowed`` maps (rule id, the selector axe gives the node itself, innermost in its shadow roots)
    to why it cannot be fixed here; only that rule on such a node is left out.
    """
    page.add_script_tag(path=str(AXE))
    found = []
    for violation in page.evaluate(_AXE_RUN):
        nodes = [n for n in violation["nodes"] if (n["impact"] or violation["impact"]) in ("critical", "serious")
                 and (violation["id"], n["target"].split(" >>> ")[-1]) not in (allowed or {})]
        if nodes:
            found.append({**violation, "nodes": nodes})
    return found


def describe(violations: list[dict]) -> str:
    """A failure message: each rule, its impact, and the nodes that break it."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for n in v["nodes"]:
            lines.append(f"    {n['target']}\n        {n['html']}\n        {n['summary']}".replace("\n  Fix", " Fix"))
    return "\n".join(lines)


# -- phones ------------------------------------------------------------------------------------------
_TARGETS = """() => {
  // every visible control, shadow roots included; a checkbox or radio is measured by its label (what a
  // finger presses), a control inside a button (Bokeh's file picker) by the button
  const out = [];
  const walk = root => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const tag = el.tagName;
      const tab = el.getAttribute('role') === 'tab' || el.classList.contains('bk-tab');  // Bokeh's tabs have no role
      if (!['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA'].includes(tag) && !tab) continue;
      if (tag === 'INPUT' && el.type === 'hidden') continue;
      let box = el;
      if (tag === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) box = el.closest('label') || el;
      const r = box.getBoundingClientRect();
      const style = getComputedStyle(box);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
      const name = (el.getAttribute('aria-label') || el.textContent || el.value || el.placeholder || '').trim().slice(0, 40);
      out.push({tag: tag.toLowerCase(), type: el.type || '', name, cls: String(el.className).slice(0, 60),
                width: r.width, height: r.height});
    }
  };
  walk(document);
  return out;
}"""


def touch_targets(page: Page) -> list[dict]:
    """Every visible button, input, select and tab on the page, with its size in CSS pixels."""
    return page.evaluate(_TARGETS)


def sideways(page: Page) -> dict:
    """How wide the page is laid out against how wide the screen is."""
    return page.evaluate("() => ({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})")
