"""Issue 25, served: the odds advisor's numbers on a player's own card and on the GM's NPC, in
Chromium, in English and Korean, following the rolls; none on another's unit or a spectator's page."""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t as tr
from raisus_panel.room import RoomRegistry, SQLiteStore, room_advice
from raisus_panel.ui._base import percent

from .conftest import Server, shot
from .helpers import expect, truth
from .table_pages import PHONE


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("advice_cards") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db}).start()
    yield server, db
    server.kill()


def duel(db: str, base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """Ann's Sir Ann (Knight 4) against the GM's Ogre (Ogre 3, Brute 2), started, the Ogre on Ogre."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Friday", gm_name="Gina")
        ann, token = registry.join(links.player, "Ann")
        ann.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4}])
        gm = registry.open_session(links.gm)
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 3}, {"name": "Brute", "rating": 2}])
        knight, ogre = (c.uid for c in room.characters)
        gm.act("start_contest", name="Duel", side_a=[knight], side_b=[ogre])
        gm.act("choose", unit=ogre, cliche="Ogre")
        urls = {"gm": links.url("gm", base), "ann": f"{base}?token={token}", "watch": links.url("spectator", base)}
        return room.room_id, urls, {"knight": knight, "ogre": ogre}
    finally:
        store.close()


def odds_of(db: str, room_id: str, uid: str, lang: str) -> list[str]:
    """Each choice's line of odds, as the room's advisor gives them now."""
    advice = room_advice(truth(db, room_id), uid)
    return [tr("advice.odds", lang, as_is=percent(c.as_is), best=percent(c.best)) for c in advice.choices]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_player_and_the_gm_see_what_each_choice_is_worth(served, new_page, lang):
    server, db = served
    room_id, urls, uids = duel(db, f"{server.url}/dashboard")
    ann = new_page(f"{urls['ann']}&lang={lang}")
    title = tr("advice.title", lang)
    mine = ann.locator(".raisus-advice").filter(has_text=title)
    expect(mine).to_have_count(1, timeout=30_000)  # on Sir Ann's card only, not on the Ogre's
    for line in odds_of(db, room_id, uids["knight"], lang):
        expect(mine).to_contain_text(line)
    expect(mine).to_contain_text(tr("advice.best_mark", lang))
    expect(mine).to_contain_text(tr("advice.note", lang))
    shot(ann, f"advice-player-{lang}")
    gm = new_page(f"{urls['gm']}&lang={lang}")
    npc = gm.locator(".raisus-advice").filter(has_text=title)
    expect(npc).to_have_count(1, timeout=30_000)  # the Ogre's (an NPC); Sir Ann is Ann's to choose
    for line in odds_of(db, room_id, uids["ogre"], lang):
        expect(npc).to_contain_text(line)
    watcher = new_page(f"{urls['watch']}&lang={lang}")
    expect(watcher.locator(".raisus-room-title")).to_be_visible(timeout=30_000)
    expect(watcher.get_by_text(title)).to_have_count(0)
    # a roll: both pages show the numbers of the new state
    gm.get_by_role("button", name=tr("contest.roll", lang, n=1), exact=True).click()
    expect(gm.locator(".raisus-room-title")).to_be_visible()
    for page, uid, box in ((ann, uids["knight"], mine), (gm, uids["ogre"], npc)):
        page.wait_for_timeout(300)
        room = truth(db, room_id)
        assert room.contest.round == 1
        for line in odds_of(db, room_id, uid, lang):
            expect(box).to_contain_text(line, timeout=10_000)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_on_a_phone_the_advice_fits_the_screen(served, browser, lang):
    server, db = served
    room_id, urls, uids = duel(db, f"{server.url}/dashboard")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{urls['ann']}&lang={lang}")
    box = page.locator(".raisus-advice").filter(has_text=tr("advice.title", lang))
    expect(box).to_be_visible()
    page.wait_for_timeout(1000)  # the page's first drawings are over
    box.scroll_into_view_if_needed()
    where = box.bounding_box()
    assert where["x"] >= 0 and where["x"] + where["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"advice-phone-{lang}")
    context.close()
