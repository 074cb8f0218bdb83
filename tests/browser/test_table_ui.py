"""Issue 21, what a person sees and clicks: the single-roll box takes a click on its words, and the
lobby and the join page follow ``?lang=``, then the browser's language, with a language switch.
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t as catalog_t
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server, shot
from .helpers import Guard, button, commit, expect, roll_button, t, truth


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("table_ui") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "ko"}).start()
    yield server, db
    server.kill()


def seed(db: str, base: str) -> tuple[str, dict[str, str]]:
    """Ann's Sir Ann (Knight 4) and the GM's Ogre (3), no contest yet."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Friday", gm_name="Gina")
        ann, _ = registry.join(links.player, "Ann")
        ann.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4}])
        registry.open_session(links.gm).act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 3}])
        return room.room_id, {"gm": links.url("gm", base), "join": links.url("player", base)}
    finally:
        store.close()


def test_a_click_on_single_roll_words_ticks_the_box(served, new_page):
    """Issue 21 item 4: the GM clicks the words "Single-roll contest" (not the box): the box is named,
    ticks, and the contest starts as a single roll."""
    server, db = served
    room_id, urls = seed(db, f"{server.url}/dashboard")
    gm = new_page(f"{urls['gm']}&lang=en")
    guard = Guard(gm)
    box = gm.get_by_role("checkbox", name=t("contest.single_roll"), exact=True)
    expect(box).not_to_be_checked()
    commit(gm.get_by_placeholder(t("contest.name_placeholder")), "Duel")
    gm.get_by_role("checkbox", name="Sir Ann", exact=True).first.check()
    gm.get_by_role("checkbox", name="Ogre", exact=True).last.check()
    gm.get_by_text(t("contest.single_roll"), exact=True).click()  # the words, as a finger would
    expect(box).to_be_checked()
    shot(gm, "table-ui-single-roll-en")
    start = button(gm, "contest.start")
    expect(start).to_be_enabled(timeout=5_000)
    start.click()
    expect(gm.get_by_text(t("contest.single_roll")).first).to_be_visible()
    gm.wait_for_timeout(500)
    room = truth(db, room_id)
    assert room.contest is not None and room.contest.single_roll
    guard.check()


@pytest.mark.parametrize("how", ["query", "browser"])
def test_lobby_and_join_page_speak_english_when_asked(served, new_page, how):
    """Issue 21 item 7: a Korean server's lobby and join page in English by ``?lang=en`` or by an English
    browser (Accept-Language); the switch turns them Korean, and the address keeps the choice."""
    server, db = served
    _, urls = seed(db, f"{server.url}/dashboard")
    for name, url, heading in (("lobby", f"{server.url}/dashboard", "dashboard.lobby.create"),
                               ("join", urls["join"], "dashboard.join.button")):
        if how == "query":
            page = new_page(locale="ko-KR")
            page.goto(f"{url}{'&' if '?' in url else '?'}lang=en")
        else:
            page = new_page(locale="en-US")
            page.goto(url)
        english = page.get_by_role("button", name=catalog_t(heading, "en"), exact=True)
        expect(english).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        shot(page, f"table-ui-{name}-{how}-en")
        page.locator(".raisus-lang-switch").get_by_role("button", name="ko", exact=True).click()
        expect(page.get_by_role("button", name=catalog_t(heading, "ko"), exact=True)).to_be_visible()
        page.wait_for_timeout(300)
        assert "lang=ko" in page.url
        shot(page, f"table-ui-{name}-{how}-ko")


def test_a_korean_browser_gets_korean(served, new_page):
    """Without ``?lang=``, a Korean browser on an English-asking header order gets Korean (its first choice)."""
    server, _ = served
    page = new_page(locale="ko-KR", extra_http_headers={"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.8"})
    page.goto(f"{server.url}/dashboard")
    expect(page.get_by_role("button", name=catalog_t("dashboard.lobby.create", "ko"), exact=True)).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_on_a_phone_a_greyed_button_says_why_beside_it(served, browser, lang):
    """Issue 21 item 8: at 390 px the GM's greyed Start button has its reason as text right under it,
    inside the screen (no hover needed)."""
    from .table_pages import PHONE

    server, db = served
    _, urls = seed(db, f"{server.url}/dashboard")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{urls['gm']}&lang={lang}")
    start = page.get_by_role("button", name=catalog_t("contest.start", lang), exact=True)
    expect(start).to_be_disabled()
    why = page.locator(".raisus-why").filter(has_text=catalog_t("error.contest.empty_side", lang)).first
    expect(why).to_be_visible()
    box, under = start.bounding_box(), why.bounding_box()
    assert 0 <= under["y"] - (box["y"] + box["height"]) < 40  # right under the button
    assert under["x"] >= 0 and under["x"] + under["width"] <= 390  # on the screen
    why.scroll_into_view_if_needed()
    shot(page, f"table-ui-phone-why-{lang}")
    context.close()


#: Run in the page: on every animation frame, note the greyed controls (hosts with ``data-why``) on
#: screen whose reason line is missing, and count the frames that had any such control at all.
FRAME_PROBE = """
window.whyFrames = {missing: [], with_reasons: 0};
const hosts = (root, out) => {
  for (const el of root.querySelectorAll("*")) {
    if (el.shadowRoot) { if (el.hasAttribute("data-why")) out.push(el); hosts(el.shadowRoot, out); }
  }
  return out;
};
const frame = () => {
  const shown = hosts(document, []).filter((h) => h.offsetParent !== null);
  if (shown.length) window.whyFrames.with_reasons += 1;
  const bare = shown.filter((h) => !h.shadowRoot.getElementById("raisus-why"));
  if (bare.length) window.whyFrames.missing.push(bare.map((h) => h.getAttribute("data-why")));
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
"""


def test_no_frame_shows_a_greyed_control_without_its_reason(served, new_page):
    """Issue 21 item 8: the reason under a greyed control is drawn before the browser paints it, as
    Bokeh redraws controls and the table changes (a contest set up, started, rolled to its end).
    Before, the page looked every 300 ms and after a server change: frames went by without it."""
    server, db = served
    room_id, urls = seed(db, f"{server.url}/dashboard")
    gm = new_page(f"{urls['gm']}&lang=en")
    guard = Guard(gm)
    start = button(gm, "contest.start")
    expect(gm.locator(".raisus-why").first).to_be_visible()
    gm.evaluate(FRAME_PROBE)
    commit(gm.get_by_placeholder(t("contest.name_placeholder")), "Duel")
    gm.get_by_role("checkbox", name="Sir Ann", exact=True).first.check()
    gm.get_by_role("checkbox", name="Ogre", exact=True).last.check()
    expect(start).to_be_enabled(timeout=5_000)
    start.click()
    expect(roll_button(gm, 1)).to_be_visible()
    for n in range(1, 20):
        if truth(db, room_id).contest.status == "ended":
            break
        roll_button(gm, n).click()
        gm.wait_for_timeout(300)
    gm.wait_for_timeout(500)
    assert truth(db, room_id).contest.status == "ended"
    frames = gm.evaluate("window.whyFrames")
    assert frames["with_reasons"] > 30  # greyed controls were on screen all along
    assert frames["missing"] == []
    guard.check()
