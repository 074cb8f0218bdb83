"""Issue 11: a served room shows each contest's commitment in the log, and after the reveal a mark
computed in the page's own session -- in English and in Korean, with screenshots of both."""

from __future__ import annotations

import re
import time

import pytest

from raisus_panel.i18n import t
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server
from .helpers import expect, shot_of


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("fair_dice") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    yield server, db
    server.kill()


def played_room(db: str, base: str) -> tuple[str, str]:
    """A room whose contest was played out with the room's default (committed) dice; a spectator link."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Docks", gm_name="Gina")
        gm = registry.open_session(links.gm)
        for name, rating in (("Olaf", 4), ("Jack", 3)):
            gm.act("create_character", name=name, cliches=[{"name": name, "rating": rating}])
        uids = {c.name: c.uid for c in room.characters}
        gm.act("start_contest", name="Dock duel", side_a=[uids["Olaf"]], side_b=[uids["Jack"]])
        while room.contest.status == "active":
            gm.act("roll_round")
        events = [e["event"] for e in room.log if e["type"] == "contest"]
        commitment = next(e["commitment"] for e in events if e["type"] == "dice_committed")
        return links.url("spectator", base), commitment
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_log_shows_the_commitment_and_a_verified_mark(served, new_page, lang):
    server, db = served
    url, commitment = played_room(db, f"{server.url}/dashboard")
    page = new_page(f"{url}&lang={lang}")
    page.locator(".bk-tab", has_text=t("dashboard.tab.log", lang)).first.click()
    log = page.locator(".raisus-log").first
    expect(log).to_contain_text(t("log.dice_commitment", lang, commitment=commitment))
    verified = t("log.dice_verified", lang, rolls=999, dice=999).split("999")[0]
    expect(log).to_contain_text(re.compile(re.escape(verified) + r"\d+"))
    expect(log).not_to_contain_text(t("log.dice_failed", lang, problem="").rstrip())
    shot_of(page.locator(".raisus-log").first, f"fair-dice-log-{lang}")


def room_with_a_player(db: str, base: str) -> tuple[str, str, str, str]:
    """A room whose contest has started (committed, nothing rolled): the GM's and Ann's links, its id, Ann's id."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Harbour", gm_name="Gina")
        ann, ann_token = registry.join(links.player, "Ann")
        gm = registry.open_session(links.gm)
        gm.act("create_character", name="Olaf", owner=ann.actor.player_id, cliches=[{"name": "Viking", "rating": 4}])
        gm.act("create_character", name="Jack", cliches=[{"name": "Pirate", "rating": 3}])
        uids = {c.name: c.uid for c in room.characters}
        gm.act("start_contest", name="Pier fight", side_a=[uids["Olaf"]], side_b=[uids["Jack"]])
        return links.url("gm", base), f"{base}?token={ann_token}", room.room_id, ann.actor.player_id
    finally:
        store.close()


def client_seeds(db: str, room_id: str) -> list[tuple[str, str]]:
    """The client seeds the room's log holds (read from the store itself)."""
    store = SQLiteStore(db)
    try:
        return [(e["event"]["who"], e["event"]["seed"]) for e in store.read(room_id)
                if e["type"] == "contest" and e["event"]["type"] == "client_seed_set"]
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_player_mixes_in_the_seed_their_browser_made_and_the_gm_reveals(served, new_page, lang):
    server, db = served
    gm_url, ann_url, room_id, ann_id = room_with_a_player(db, f"{server.url}/dashboard")
    ann = new_page(f"{ann_url}&lang={lang}")
    seed = ann.locator(".raisus-client-seed input").first
    # made by the browser's crypto.getRandomValues, not by the server
    expect(seed).to_have_value(re.compile(r"^[0-9a-f]{32}$"), timeout=20_000)
    made = seed.input_value()
    # mixed in by itself, before anyone pressed anything: Ann's seed in force is her browser's
    deadline = time.monotonic() + 20
    while client_seeds(db, room_id) != [(ann_id, made)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client_seeds(db, room_id) == [(ann_id, made)]
    expect(ann.locator(".raisus-seed-help")).to_contain_text(t("fair.seed_mixed", lang)[:30])
    # words of her own replace it, by keyboard
    seed.fill("rainy tuesday")
    seed.press("Enter")
    set_seed = ann.get_by_role("button", name=t("fair.set_seed", lang))
    # greyed while the field held the seed in force: a person presses it once it is offered (on a
    # busy machine the offer took longer than the keystrokes, and Enter met a greyed button)
    expect(set_seed).to_be_enabled()
    set_seed.focus()
    ann.keyboard.press("Enter")
    expect(ann.locator(".raisus-fair-dice")).to_contain_text(t("fair.seed_done", lang, seed="rainy tuesday"))
    assert client_seeds(db, room_id)[-1] == (ann_id, "rainy tuesday")
    shot_of(ann.locator(".raisus-fair-dice").first, f"fair-dice-player-{lang}")
    # the GM rolls, then reveals early: Ann's field is fixed, and every page's log verifies
    gm = new_page(f"{gm_url}&lang={lang}")
    gm.get_by_role("button", name=t("contest.roll", lang, n=1), exact=True).click()
    reveal = gm.get_by_role("button", name=t("fair.reveal_dice", lang))
    expect(reveal).to_be_enabled()
    reveal.click()
    expect(gm.locator(".raisus-fair-dice")).to_contain_text(t("fair.revealed", lang)[:20])
    expect(seed).to_be_disabled()
    expect(seed).to_have_value("rainy tuesday")
    shot_of(gm.locator(".raisus-fair-dice").first, f"fair-dice-gm-{lang}")
    ann.locator(".bk-tab", has_text=t("dashboard.tab.log", lang)).first.click()
    verified = t("log.dice_verified", lang, rolls=999, dice=999).split("999")[0]
    expect(ann.locator(".raisus-log").first).to_contain_text(re.compile(re.escape(verified) + r"\d+"))
