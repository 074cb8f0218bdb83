"""Issue 26 in Chromium: campaign play on a served room. Ann pumps her Viking and spends a lucky shot
on her own card before the GM rolls, and reads what they add; the roll pays for them and the log says
so. The GM then ends the session from the characters tab, and Ann rolls her Viking's advancement on
her own page. In English and Korean, on a desktop and on a 390 px phone; the room's store (a real
SQLite file) is the truth every step is checked against."""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t as tr
from raisus_panel.room import RoomRegistry, SQLiteStore, room_advice
from raisus_panel.ui._base import percent
from raisus_panel.ui.live_odds import contest_chances

from .conftest import Server, shot
from .helpers import commit, expect, truth
from .table_pages import PHONE

RULES = {"pumps": True, "lucky_shots": True, "advancement": "rolls"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("campaign_play") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db}).start()
    yield server, db
    server.kill()


def brawl(db: str, base: str):
    """Ann's Olaf (Viking 4, 3 lucky shots) against the GM's Pirate (1), started on the campaign options:
    the room id, Ann's URL, the GM's URL, Olaf's uid. Pumped by 2 with a lucky shot, Olaf rolls 7 dice
    against 1: the round is Olaf's whatever the dice (the room's own committed dice), and the contest ends."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Saga night", gm_name="Gina")
        ann, token = registry.join(links.player, "Ann")
        gm = registry.open_session(links.gm)
        gm.act("set_rules", profile=RULES)
        ann.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}], lucky_shots=3)
        gm.act("create_character", name="Pirate", cliches=[{"name": "Pirate", "rating": 1}])
        olaf, pirate = (c.uid for c in room.characters)
        gm.act("start_contest", name="Brawl", side_a=[olaf], side_b=[pirate])
        return room.room_id, f"{base}?token={token}", links.url("gm", base), olaf
    finally:
        store.close()


def wait_for(page, check, what: str) -> None:
    for _ in range(100):  # the room has it once its store does
        if check():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the room never showed {what}")


@pytest.mark.parametrize("lang, phone", [("en", False), ("ko", False), ("en", True), ("ko", True)])
def test_ann_pumps_and_spends_a_lucky_shot_on_her_card_and_rolls_her_advancement(served, new_page, lang, phone):
    server, db = served
    room_id, ann_url, gm_url, olaf = brawl(db, f"{server.url}/dashboard")
    size = "phone" if phone else "desktop"
    page = new_page(**({k: v for k, v in PHONE.items() if k != "viewport"} if phone else {}))
    if phone:
        page.set_viewport_size(PHONE["viewport"])
    page.goto(f"{ann_url}&lang={lang}")

    def contest():
        return truth(db, room_id).contest

    card = page.locator(".raisus-unit-card").filter(has_text="Olaf")
    pump = card.get_by_label(tr("campaign.pump", lang), exact=True)
    expect(pump).to_be_visible(timeout=30_000)
    commit(pump, 2)
    wait_for(page, lambda: contest().bonus(olaf)["pump"] == 2, "the pump")
    expect(card).to_contain_text(tr("campaign.pump_line", lang, n=2, dice=2, cliche="Viking"))
    commit(card.get_by_label(tr("campaign.lucky", lang, n=3), exact=True), 1)
    wait_for(page, lambda: contest().bonus(olaf)["lucky"] == {olaf: 1}, "the lucky shot")
    expect(card).to_contain_text(tr("campaign.lucky_line", lang, n=1))
    # the advisor on her card rates every pump she could declare, with her lucky shot kept, as the room does
    advice = room_advice(truth(db, room_id), olaf)
    for n in range(4):
        choice = advice.choice(f"pump:{n}")
        words = tr(choice.label, lang, **choice.field_map)
        expect(card.locator("li").filter(has_text=words)).to_contain_text(
            tr("advice.odds", lang, as_is=percent(choice.as_is), best=percent(choice.best)))
    # and the live odds say each side's chance by pump, the Pirate at 1 having none to make
    options = dict(next(o for side, _, o in contest_chances(contest()).pumps if side == 0))
    line = tr("odds.by_pump", lang, name="Olaf", options=" · ".join(
        tr("odds.pump_option", lang, n=n, p=percent(p)) for n, p in options.items()))
    expect(page.get_by_text(line).first).to_be_visible()
    if phone:  # one column, nothing sideways
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, f"campaign-card-{lang}-{size}")
    # the GM rolls on the GM's page: 7 dice against 1, paid once
    gm_page = new_page(f"{gm_url}&lang={lang}")
    roll = gm_page.get_by_role("button", name=tr("contest.roll", lang, n=1), exact=True)
    expect(roll).to_be_enabled(timeout=30_000)
    roll.click()
    wait_for(page, lambda: contest().status == "ended", "the end of the contest")
    room = truth(db, room_id)
    viking = next(c for c in room.characters if c.uid == olaf)
    assert (viking.cliche("Viking").current, viking.lucky_left) == (2, 2)  # the pump paid, a shot spent
    page.locator(".bk-tab", has_text=tr("dashboard.tab.log", lang)).first.click()
    expect(page.locator(".raisus-log-entry").filter(has_text=tr("log.pumped", lang, name="Olaf", n=2)).first
           ).to_be_visible()
    expect(page.get_by_text(tr("log.pump_paid", lang, name="Olaf", cliche="Viking", n=2)).first).to_be_visible()
    # the GM closes the contest and ends the session; Ann rolls for her Viking on her own page
    gm_page.get_by_role("button", name=tr("contest.close", lang), exact=True).click()
    gm_page.get_by_role("button", name=tr("confirm.yes.close", lang), exact=True).click()
    wait_for(gm_page, lambda: truth(db, room_id).contest is None, "the contest closed")
    gm_page.locator(".bk-tab", has_text=tr("dashboard.tab.characters", lang)).first.click()
    end_session = gm_page.get_by_role("button", name=tr("campaign.end_session", lang), exact=True)
    expect(end_session).to_be_enabled(timeout=20_000)
    end_session.click()
    wait_for(gm_page, lambda: truth(db, room_id).session_ended, "the end of the session")
    page.locator(".bk-tab", has_text=tr("dashboard.tab.characters", lang)).first.click()
    advance = page.get_by_role("button", name=tr("campaign.roll_advancement", lang, name="Olaf", cliche="Viking", n=4),
                               exact=True)
    expect(advance).to_be_enabled(timeout=20_000)
    shot(page, f"campaign-advancement-{lang}-{size}")
    advance.click()
    wait_for(page, lambda: any(e["type"] == "advancement_rolled" for e in truth(db, room_id).log), "the roll")
    rolled = [e for e in truth(db, room_id).log if e["type"] == "advancement_rolled"][-1]["roll"]
    key = "campaign.rose" if rolled["rises"] else "campaign.stayed"
    said = tr(key, lang, name="Olaf", cliche="Viking", faces=", ".join(map(str, rolled["faces"])),
              n=4 + rolled["rises"])
    expect(page.get_by_text(said)).to_be_visible(timeout=10_000)
    expect(advance).to_have_count(0)
    shot(page, f"campaign-advanced-{lang}-{size}")
