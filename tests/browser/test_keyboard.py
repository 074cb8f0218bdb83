"""Issue 12: a round can be played with the keyboard alone, and every button shows where the focus is.

At a served room, both pages are driven with the keyboard only. The player: Tab until the cliché
picker has the focus, choose the second cliché with the arrow keys. The GM: Tab to "open the round",
press Space. The player: Tab until "Roll round 1" has the focus, press Enter. The store and the page
then show round 1 rolled by the player, with its dice drawn.

Then each tab of the player's page (opened with Enter: Bokeh's tab headers ignore keys, see
raisus_panel/dashboard/keyboard.py) is walked with Tab, once round and back: every button and tab
header reached shows a visible focus indicator (a solid outline at least 2px wide, or a box shadow
that is not transparent), and every enabled button is reached. Panel and Bokeh alone give a button a
1px light-grey dotted outline, and a card's header none at all.
"""

from __future__ import annotations

import re
import time

import pytest

from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server, shot
from .helpers import Guard, button, expect, t, truth

pytestmark = pytest.mark.browser

#: What has the focus, through the shadow roots Bokeh's widgets live in: the element, its label and how
#: it is drawn focused (the computed outline and box shadow, read while it has the focus).
FOCUSED = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body) return null;
  const cs = getComputedStyle(el);
  const label = el.tagName === 'SELECT' ? Array.from(el.options).map(o => o.text).join('|')
              : (el.getAttribute('aria-label') || el.innerText || el.value || '');
  return {tag: el.tagName, role: el.getAttribute('role') || '', label: label.trim().slice(0, 80),
          cls: String(el.className), value: el.value ?? null, disabled: !!el.disabled,
          outline: [cs.outlineStyle, parseFloat(cs.outlineWidth), cs.outlineColor],
          shadow: cs.boxShadow, focusVisible: el.matches(':focus-visible')};
}"""

#: Every visible, enabled button of the page (shadow roots included), by its label.
BUTTONS = """() => {
  const out = [];
  const walk = root => { for (const el of root.querySelectorAll('*')) {
    if ((el.tagName === 'BUTTON' || el.getAttribute('role') === 'button') && !el.disabled) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden')
        out.push((el.getAttribute('aria-label') || el.innerText || '').trim().slice(0, 80));
    }
    if (el.shadowRoot) walk(el.shadowRoot);
  } };
  walk(document);
  return out;
}"""


def _transparent(color: str) -> bool:
    return color == "transparent" or bool(re.match(r"rgba\([^)]*,\s*0\)$", color.strip()))


def visible_focus(stop: dict) -> bool:
    """Whether a focused element is drawn so that one sees it has the focus."""
    style, width, color = stop["outline"]
    if style not in ("none", "hidden") and (style == "auto" or width >= 2) and not _transparent(color):
        return True
    shadow = stop["shadow"]
    # a shadow is seen if one of its layers has a colour that is not fully transparent
    return shadow != "none" and any(not _transparent(c) for c in re.findall(r"rgba?\([^)]*\)", shadow))


def tab_until(page, wanted, who: str, limit: int = 80) -> dict:
    """Press Tab until the focused element satisfies ``wanted``; fail, saying what was reached, if not."""
    seen = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUSED)
        if stop and wanted(stop):
            return stop
        seen.append(stop and f"{stop['tag']} {stop['label']!r}")
    pytest.fail(f"{who}: not reached with Tab in {limit} presses; reached {seen}")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("keyboard") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    yield server, db
    server.kill()


def seed(db: str, base: str, choose: str | None = None) -> tuple[str, dict, dict]:
    """Ann's Sir Ann (Knight 4, Cook 2) against the GM's Ogre (Ogre 3), the contest started (and Sir
    Ann's cliché ``choose`` chosen)."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Keys", gm_name="Gina")
        ann, ann_token = registry.join(links.player, "Ann")
        ann.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4},
                                                             {"name": "Cook", "rating": 2}])
        gm = registry.open_session(links.gm)
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 3}])
        uids = {c.name: c.uid for c in room.characters}
        gm.act("start_contest", name="Kitchen brawl", side_a=[uids["Sir Ann"]], side_b=[uids["Ogre"]])
        if choose:
            ann.act("choose", unit=uids["Sir Ann"], cliche=choose)
        return room.room_id, {"gm": links.url("gm", base), "ann": f"{base}?token={ann_token}"}, uids
    finally:
        store.close()


def test_a_player_plays_a_round_with_the_keyboard_alone(served, new_page):
    server, db = served
    room_id, urls, uids = seed(db, f"{server.url}/dashboard")
    gm, ann = new_page(urls["gm"]), new_page(urls["ann"])
    guard = Guard(ann)
    expect(gm.locator(".raisus-room-title").get_by_text("GM · Gina")).to_be_visible()
    expect(ann.locator(".raisus-room-title").get_by_text("player · Ann")).to_be_visible()
    ann.wait_for_load_state("networkidle")

    # the cliché picker, reached with Tab; the arrow keys choose the second cliché
    picker = tab_until(ann, lambda s: s["tag"] == "SELECT" and "Cook (2)" in s["label"], "the cliché picker")
    assert picker["focusVisible"] and visible_focus(picker), picker
    ann.keyboard.press("ArrowDown")  # "— choose a cliché —" -> Knight (4)
    ann.keyboard.press("ArrowDown")  # -> Cook (2)

    def chosen():
        room = truth(db, room_id)
        cliche = room.contest.chosen(uids["Sir Ann"])
        return cliche.name if cliche else None

    expect(ann.get_by_text(t("contest.pool", n=2)).first).to_be_visible()  # "rolls 2 dice": Cook
    assert chosen() == "Cook"
    still = ann.evaluate(FOCUSED)  # the page's answer to the choice did not take the focus away
    assert still and still["tag"] == "SELECT" and still["value"] == "Cook (2)", still

    # the GM opens the round with the keyboard as well: Tab to the button, Space
    gm.wait_for_load_state("networkidle")
    opener = tab_until(gm, lambda s: s["label"] == t("contest.open_round"), "the GM's open-round button")
    assert opener["tag"] == "BUTTON" and visible_focus(opener), opener
    gm.keyboard.press(" ")
    roll = button(ann, "contest.roll", n=1)
    expect(roll).to_be_enabled()

    # "Roll round 1", reached with Tab from wherever the focus is now, pressed with Enter
    reached = tab_until(ann, lambda s: s["label"] == t("contest.roll", n=1), "the roll button")
    assert reached["tag"] == "BUTTON" and visible_focus(reached), reached
    ann.keyboard.press("Enter")

    expect(button(ann, "contest.roll", n=2)).to_be_attached()  # round 1 is rolled
    room = truth(db, room_id)
    decided = [e for e in room.contest.events if e["type"] == "round_decided"]
    assert room.contest.round == 1 and len(decided) == 1
    rolled = [m for m in room.log if m["type"] == "contest" and m["event"]["type"] == "round_decided"]
    assert rolled[0]["actor"]["role"] == "player"  # Ann rolled it, not the GM
    assert decided[0]["used"][0]["cliche"] == "Cook" and len(decided[0]["attempts"][-1][0]["faces"]) == 2
    # the page shows round 1's dice, drawn, face by face as the store has them
    last = ann.locator(".raisus-last-roll")
    expect(last).to_contain_text(t("roll.winner", round=1, name=["Sir Ann", "Ogre"][decided[0]["winner"]]))
    for side in (0, 1):
        faces = [str(f) for f in decided[0]["attempts"][-1][side]["faces"]]
        row = last.locator("table.dice tr").filter(has=ann.locator(".total")).nth(side)
        expect(row.locator(".die, .die6").last).to_be_visible()
        got = row.locator("td").last.locator(".die, .die6").all_inner_texts()
        assert got == faces, (side, got, faces)
    shot(ann, "keyboard-round-rolled")
    guard.check()
    assert not guard.errors, guard.errors


def walk_round(page) -> list[dict]:
    """Press Tab until the focus comes back to where it first landed: every stop, once."""
    stops, first = [], None
    for _ in range(200):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUSED)
        if stop is None:
            continue
        key = (stop["tag"], stop["label"], stop["cls"])
        if key == first:
            return stops
        first = first or key
        stops.append(stop)
    pytest.fail("Tab never came back round to the first stop")


@pytest.mark.parametrize("who, tab_key", [("ann", "table"), ("ann", "log"), ("ann", "characters"),
                                          ("ann", "checks"), ("gm", "table"), ("gm", "room")])
def test_every_button_shows_where_the_focus_is(served, new_page, who, tab_key):
    """On each of the player's tabs, and the GM's contest and room tabs (opened with the keyboard),
    every button is reached with Tab and shows that it has the focus."""
    server, db = served
    room_id, urls, uids = seed(db, f"{server.url}/dashboard", choose="Knight")
    gm, ann = new_page(urls["gm"]), new_page(urls["ann"])
    expect(gm.locator(".raisus-room-title").get_by_text("GM · Gina")).to_be_visible()
    button(gm, "contest.open_round").click()  # the roll button is enabled: it is on the way too
    expect(ann.locator(".raisus-room-title").get_by_text("player · Ann")).to_be_visible()
    expect(button(ann, "contest.roll", n=1)).to_be_enabled()
    if who == "gm":
        ann = gm  # the page walked below
    if tab_key != "table":
        tab_until(ann, lambda s: "bk-tab" in s["cls"] and s["label"] == t(f"dashboard.tab.{tab_key}"), tab_key)
        ann.keyboard.press("Enter")
        expect(button(ann, "contest.roll", n=1)).to_have_count(0)  # the contest's tab is closed
    ann.wait_for_load_state("networkidle")
    # the tab's widgets are drawn: on a busy machine a tab can still be drawing after the network is idle
    drawn, deadline = None, time.monotonic() + 15
    while time.monotonic() < deadline:
        ann.wait_for_timeout(500)
        now = ann.evaluate(BUTTONS)
        if now and now == drawn:
            break
        drawn = now

    stops = walk_round(ann)
    pressable = [s for s in stops if s["tag"] == "BUTTON" or s["role"] == "button" or "bk-tab" in s["cls"]]
    bad = [(s["label"], s["outline"], s["shadow"]) for s in pressable if not visible_focus(s)]
    assert not bad, f"{tab_key}: buttons with no visible focus indicator: {bad}"
    reached = {s["label"] for s in pressable}
    missing = [label for label in ann.evaluate(BUTTONS) if label and label not in reached]
    assert not missing, f"{tab_key}: buttons Tab does not reach: {missing}"
    assert {t(f"dashboard.tab.{key}") for key in ("table", "log", "characters", "checks")} <= reached
    if tab_key == "table":
        assert t("contest.roll", n=1) in reached  # (a duel has no team to form: no "Form a team…")
    shot(ann, f"keyboard-focus-walk-{who}-{tab_key}")


def test_the_tabs_open_with_the_keyboard(served, new_page):
    """Bokeh opens a tab on a click only: the page opens a focused tab header with Enter or Space too
    (raisus_panel/dashboard/keyboard.py), and shows which header has the focus."""
    server, db = served
    room_id, urls, uids = seed(db, f"{server.url}/dashboard", choose="Knight")
    ann = new_page(urls["ann"])
    guard = Guard(ann)
    expect(ann.locator(".raisus-room-title").get_by_text("player · Ann")).to_be_visible()
    ann.wait_for_load_state("networkidle")

    log_tab = tab_until(ann, lambda s: "bk-tab" in s["cls"] and s["label"] == t("dashboard.tab.log"), "the Log tab")
    assert visible_focus(log_tab), log_tab
    ann.keyboard.press("Enter")
    expect(ann.locator(".raisus-log")).to_contain_text(t("log.chose", unit="Sir Ann", cliche="Knight"))
    expect(button(ann, "contest.roll", n=1)).to_have_count(0)  # the contest's tab is closed (tabs are dynamic)

    back = tab_until(ann, lambda s: "bk-tab" in s["cls"] and s["label"] == t("dashboard.tab.table"), "the Contest tab")
    assert visible_focus(back), back
    before = ann.evaluate("() => window.scrollY")
    ann.keyboard.press(" ")
    expect(button(ann, "contest.roll", n=1)).to_be_visible()
    assert ann.evaluate("() => window.scrollY") == before  # Space opened the tab, it did not scroll the page
    guard.check()
    assert not guard.errors, guard.errors
