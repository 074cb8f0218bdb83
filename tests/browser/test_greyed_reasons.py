"""Issue 21 item 8 and issue 24: every greyed control says why on the page, in words, beside it.

An evening is seeded through the room API at each stage (no contest, a contest waiting for choices,
a contest under way, a finished one, and after it is closed); the GM's, a player's and a spectator's pages are opened on it in
English and Korean, on a desktop and at 390 px, and every tab of each is walked. On each, every
disabled button, field or box that is shown must point (``aria-describedby``, resolved in its own
shadow root, as the browser does) to a visible, non-empty line of text in the page's language, and
nothing may reach past the screen's edge.
"""

from __future__ import annotations

import re

import pytest

from raisus_panel.i18n import t as catalog_t
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server, shot
from .helpers import expect
from .table_pages import DESKTOP, PHONE

#: Every shown, disabled control of the page, through Bokeh's shadow roots, with what it points to.
GREYED = """
() => {
  const out = [];
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.matches("button, input, select, textarea") && el.disabled && el.type !== "hidden" && shown(el)) {
        const id = el.getAttribute("aria-describedby");
        const target = id ? el.getRootNode().getElementById(id) : null;
        const r = target ? target.getBoundingClientRect() : null;
        out.push({
          control: (el.innerText || el.value || el.getAttribute("aria-label") || el.outerHTML).trim().slice(0, 80),
          reason: target && shown(target) ? target.textContent.trim() : "",
          right: r ? r.right : 0,
        });
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
}
"""

#: What reaches past the screen's right edge (the deepest elements only), for a failure's message.
PAST_EDGE = """
(width) => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 && r.width > 0 && !el.children.length) out.push(el.outerHTML.slice(0, 120));
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out.slice(0, 5);
}
"""

HANGUL = re.compile("[\uac00-\ud7a3]")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("greyed") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    yield server, db
    server.kill()


def seed(db: str, base: str, stage: str) -> dict[str, str]:
    """A room at ``stage`` of an evening: Ann's Sir Ann (Knight 4) and the GM's Ogre (3)."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Friday", gm_name="Gina")
        ann, ann_token = registry.join(links.player, "Ann")
        ann.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4}])
        gm = registry.open_session(links.gm)
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 3}])
        uids = {c.name: c.uid for c in room.characters}
        if stage != "no-contest":
            gm.act("start_contest", name="Ogre fight", side_a=[uids["Sir Ann"]], side_b=[uids["Ogre"]])
        if stage in ("rolled", "finished"):
            ann.act("choose", unit=uids["Sir Ann"], cliche="Knight")
            gm.act("choose", unit=uids["Ogre"], cliche="Ogre")
            gm.act("roll_round")
        if stage in ("finished", "closed"):
            for _ in range(80):  # Knight 4 against Ogre 3: over in some rounds
                try:
                    gm.act("roll_round")
                except Exception:
                    try:
                        gm.act("open_round")
                    except Exception:
                        break
        if stage == "closed":  # Sir Ann has been in a contest: only the GM changes her dice now
            gm.act("close_contest")
        return {"gm": links.url("gm", base), "player": f"{base}?token={ann_token}",
                "spectator": links.url("spectator", base)}
    finally:
        store.close()


def tabs(page) -> list:
    return page.locator(".bk-tab").all()


def check_page(page, lang: str, width: int, where: str) -> int:
    """Every greyed control of every tab has its reason shown; returns how many were seen."""
    seen = 0
    for i in range(len(tabs(page)) or 1):
        if tabs(page):
            tabs(page)[i].click()
        for _ in range(20):  # a tab opened for the first time is drawn, then its reasons within 300 ms
            page.wait_for_timeout(400)
            greyed = page.evaluate(GREYED)
            missing = [g["control"] for g in greyed if not g["reason"]]
            if not missing:
                break
        assert not missing, f"{where} tab {i}: greyed without a reason on the page: {missing}"
        for g in greyed:
            assert bool(HANGUL.search(g["reason"])) == (lang == "ko"), f"{where}: {g}"
            assert g["right"] <= width + 1, f"{where}: a reason runs off the screen: {g}"
        seen += len(greyed)
    for _ in range(10):  # settled: a tab being drawn may be wider for a moment
        if page.evaluate("document.documentElement.scrollWidth") <= width + 1:
            break
        page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, (
        f"{where}: sideways scroll: {page.evaluate(PAST_EDGE, width)}")
    past = page.evaluate(PAST_EDGE, width)  # nor cut off at the edge, out of reach
    assert not past, f"{where}: past the screen's edge: {past}"
    return seen


STAGES = ("no-contest", "choosing", "rolled", "finished", "closed")


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_every_greyed_control_says_why_in_words_beside_it(served, browser, lang, device):
    server, db = served
    size = PHONE if device == "phone" else DESKTOP
    context = browser.new_context(**size)
    try:
        total = 0
        for stage in STAGES:
            urls = seed(db, f"{server.url}/dashboard", stage)
            for role in ("gm", "player", "spectator"):
                page = context.new_page()
                page.set_default_timeout(20_000)
                page.goto(f"{urls[role]}&lang={lang}")
                expect(page.locator(".bk-tab").first).to_be_visible()
                total += check_page(page, lang, size["viewport"]["width"], f"{stage}/{role}/{lang}/{device}")
                if stage == "closed" and role == "player":  # her own sheet, its dice now the GM's
                    page.locator(".bk-tab").nth(2).click()
                    page.get_by_label(catalog_t("dashboard.edit_character", lang)).select_option(index=1)  # Sir Ann, her only one
                    expect(page.locator(".raisus-sheet-locked").first).to_be_visible()
                    total += check_page(page, lang, size["viewport"]["width"], f"locked sheet/{lang}/{device}")
                    page.locator(".bk-tab").nth(2).click()
                    page.wait_for_timeout(600)
                    shot(page, f"greyed-locked-sheet-{lang}-{device}")
                if role != "spectator" and stage in ("choosing", "finished", "closed"):
                    page.locator(".bk-tab").nth(2 if stage == "closed" else 0).click()
                    page.wait_for_timeout(600)
                    shot(page, f"greyed-{stage}-{role}-{lang}-{device}")
                page.close()
        assert total > 0  # the walk met greyed controls (a walk that sees none tests nothing)
    finally:
        context.close()
