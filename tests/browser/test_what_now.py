"""Issue 12: the "what now" line at the top of the contest, on a served table, for GM, player, spectator.

One round is played at a served room -- the GM opens it, the player rolls it -- and each page's line
follows, live, in English; then each page switches to Korean and the line follows the next step in
Korean. Screenshots of the top of the contest for each role and language go to ``test-artifacts/``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from raisus_panel.i18n import t as tr
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import ARTIFACTS, Server
from .helpers import Guard, button

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def links(tmp_path_factory):
    """A room with Ann's 기사 아린 (기사 4) against the GM's 해적 마리 (해적 3), the contest started."""
    db = str(tmp_path_factory.mktemp("what_now") / "room.sqlite")
    store = SQLiteStore(db)
    registry = RoomRegistry(store)
    room, room_links = registry.create_room("금요일 모험", gm_name="Gina")
    ann, ann_token = registry.join(room_links.player, "Ann")
    ann.act("create_character", name="기사 아린", cliches=[{"name": "기사", "rating": 4}])
    gm = registry.open_session(room_links.gm)
    gm.act("create_character", name="해적 마리", cliches=[{"name": "해적", "rating": 3}])
    arin, mari = room.characters
    gm.act("start_contest", name="결투", side_a=[arin.uid], side_b=[mari.uid])
    store.close()
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    base = f"{server.url}/dashboard"
    yield {"gm": room_links.url("gm", base), "ann": f"{base}?token={ann_token}",
           "spectator": room_links.url("spectator", base)}
    server.stop()


def line(page):
    return page.locator(".raisus-what-now")


def expect_line(pages, lang: str, keys: dict) -> None:
    """Each role's page shows the line of ``keys[role]`` = (key, fields) in ``lang`` -- waiting for it."""
    for role, (key, fields) in keys.items():
        expect(line(pages[role]), f"{role} ({lang})").to_contain_text(tr(key, lang, **fields))


def shot_top(page, name: str) -> None:
    """A screenshot of the top of the contest: the header, the line, and the first row of units."""
    # a language switch draws the line anew: its text may be there a moment before its box is (CI:
    # bounding_box() was None right after the Korean text showed), so wait until it has one
    box = None
    for _ in range(50):
        expect(line(page)).to_be_visible()
        box = line(page).bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None, f"{name}: the what-now line has no box on the page"
    ARTIFACTS.mkdir(exist_ok=True)
    top = max(0, box["y"] - 90)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"),
                    clip={"x": 0, "y": top, "width": 1100, "height": box["y"] - top + box["height"] + 140})


def test_one_round_at_a_served_table_moves_every_line_on(links, new_page):
    pages, guards = {}, []
    for role, url in links.items():
        pages[role] = new_page(url)
        guards.append(Guard(pages[role]))
    expect_line(pages, "en", {
        "gm": ("what_now.gm.open_round", {"n": 1}),
        "ann": ("what_now.wait.open_round", {"n": 1}),
        "spectator": ("what_now.watch.round_closed", {"n": 1})})
    # whose move it is reads in words and signs, not only in colour
    expect(line(pages["gm"])).to_contain_text("▶")
    expect(line(pages["ann"])).to_contain_text("▷")
    for role, page in pages.items():
        shot_top(page, f"what-now-en-{role}-round-1")

    button(pages["gm"], "contest.open_round").click()
    expect_line(pages, "en", {
        "gm": ("what_now.gm.round_open", {"n": 1}),
        "ann": ("what_now.you.roll", {"n": 1}),
        "spectator": ("what_now.watch.round_open", {"n": 1})})
    expect(line(pages["ann"])).to_contain_text("▶")
    shot_top(pages["ann"], "what-now-en-ann-round-1-open")

    roll = button(pages["ann"], "contest.roll", n=1)
    expect(roll).to_be_enabled()
    roll.click()
    expect_line(pages, "en", {
        "gm": ("what_now.gm.open_round", {"n": 2}),
        "ann": ("what_now.wait.open_round", {"n": 2}),
        "spectator": ("what_now.watch.round_closed", {"n": 2})})
    expect(button(pages["ann"], "contest.roll", n=2)).to_be_disabled()  # the line says wait: so does the button

    # the same pages in Korean: the line follows the language, then the next step
    for page in pages.values():
        page.get_by_role("button", name="ko", exact=True).click()
    expect_line(pages, "ko", {
        "gm": ("what_now.gm.open_round", {"n": 2}),
        "ann": ("what_now.wait.open_round", {"n": 2}),
        "spectator": ("what_now.watch.round_closed", {"n": 2})})
    for role, page in pages.items():
        shot_top(page, f"what-now-ko-{role}-round-2")
    pages["gm"].get_by_role("button", name=tr("contest.open_round", "ko"), exact=True).click()
    expect_line(pages, "ko", {
        "gm": ("what_now.gm.round_open", {"n": 2}),
        "ann": ("what_now.you.roll", {"n": 2}),
        "spectator": ("what_now.watch.round_open", {"n": 2})})
    for role, page in pages.items():
        shot_top(page, f"what-now-ko-{role}-round-2-open")
    for guard in guards:
        guard.check()
