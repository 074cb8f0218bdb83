"""Issue 11: a served room shows each contest's commitment in the log, and after the reveal a mark
computed in the page's own session -- in English and in Korean, with screenshots of both."""

from __future__ import annotations

import re

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
