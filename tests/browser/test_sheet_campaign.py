"""Issue 26 in Chromium: the character sheet under a creation budget, on the served dashboard.

A room plays by a budget of 10 creation dice, lucky shots and pumps (set through the room API, as the
GM's rules options do). Ann types ratings over the budget on her sheet: the budget line says so as she
types, Save is greyed with the room's refusal beside it, and the store is unchanged. The GM accepts her
hook on the GM's own sheet; Ann's sheet, still being edited, then counts the extra die and saves.
Screenshots of the sheet with a budget, in English and Korean, on a desktop and at 390 px.
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t as catalog_t
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server, shot
from .helpers import commit, expect, truth
from .table_pages import DESKTOP, PHONE

RULES = {"creation_dice": 10, "lucky_shots": True, "pumps": True}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("sheet-campaign") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    yield server, db
    server.kill()


def seed(db: str, base: str, rules: dict | None = RULES) -> dict[str, str]:
    """A room on the budget's rules with Ann joined; the GM's and Ann's page addresses, and the room's id."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Friday", gm_name="Gina")
        gm = registry.open_session(links.gm)
        if rules:
            gm.act("set_rules", profile=rules)
        _, ann_token = registry.join(links.player, "Ann")
        return {"gm": links.url("gm", base), "player": f"{base}?token={ann_token}", "room": room.room_id}
    finally:
        store.close()


class SheetPage:
    """The Characters tab of a served page, in ``lang``: its sheet's boxes by their labels."""

    def __init__(self, page, lang: str):
        self.page, self.lang = page, lang

    def t(self, key: str, **fmt) -> str:
        return catalog_t(key, self.lang, **fmt)

    def open(self) -> "SheetPage":
        expect(self.page.locator(".bk-tab").first).to_be_visible()
        self.page.locator(".bk-tab", has_text=self.t("dashboard.tab.characters")).first.click()
        expect(self.page.get_by_label(self.t("sheet.name"), exact=True)).to_be_visible()
        return self

    def box(self, key: str, nth: int = 0, **fmt):
        return self.page.get_by_label(self.t(key, **fmt), exact=True).nth(nth)

    def cliche(self, i: int, name: str, rating: int) -> None:
        if self.box("sheet.cliche", i).count() == 0 or not self.box("sheet.cliche", i).is_visible():
            self.page.get_by_role("button", name=self.t("sheet.add_cliche"), exact=True).click()
        commit(self.box("sheet.cliche", i), name)
        commit(self.box("sheet.rating", i), rating)

    @property
    def budget(self):
        return self.page.locator(".raisus-sheet-budget")

    @property
    def save(self):
        return self.page.get_by_role("button", name=self.t("sheet.save"), exact=True)


def olaf_in(db: str, room_id: str):
    return next((c for c in truth(db, room_id).characters if c.name == "Olaf"), None)


def test_over_the_budget_is_said_and_refused_until_the_gm_accepts_the_hook(served, new_page):
    server, db = served
    urls = seed(db, f"{server.url}/dashboard")
    ann = SheetPage(new_page(urls["player"]), "en").open()
    commit(ann.box("sheet.name"), "Olaf")
    ann.cliche(0, "Viking", 4)
    expect(ann.budget).to_have_text("Creation dice: 4 of 10 spent (6 left).")
    ann.cliche(1, "Cook", 3)
    ann.cliche(2, "Sailor", 3)
    commit(ann.box("sheet.hook"), "Cannot swim")
    expect(ann.budget).to_have_text("Creation dice: 10 of 10 spent (0 left).")
    ann.save.click()
    expect(ann.page.get_by_text(catalog_t("sheet.saved", "en"))).to_be_visible()
    assert olaf_in(db, urls["room"]).cliche("Cook").rating == 3

    commit(ann.box("sheet.rating", 1), 4)  # one die too many
    expect(ann.budget).to_have_text("Creation dice: 11 of 10 spent, 1 over the budget.")
    refusal = catalog_t("error.budget.over", "en", name="Olaf", spent=11, over=1, allowed=10)
    expect(ann.save).to_be_disabled()
    expect(ann.page.get_by_text(refusal)).to_be_visible()  # the room's reason, beside Save
    ann.save.click(force=True)
    ann.page.wait_for_timeout(500)
    olaf = olaf_in(db, urls["room"])
    assert olaf.cliche("Cook").rating == 3 and olaf.accepted == []  # nothing changed
    shot(ann.page, "sheet-campaign-over-en-desktop")

    gm = SheetPage(new_page(urls["gm"]), "en").open()
    gm.page.get_by_label(gm.t("dashboard.edit_character")).select_option(index=1)  # Olaf, the only character
    expect(gm.box("sheet.name")).to_have_value("Olaf")
    gm.page.get_by_text(gm.t("sheet.accept_hook"), exact=True).click()
    expect(gm.budget).to_have_text("Creation dice: 10 of 11 spent (1 left). The GM accepted: hook (+1 creation die each).")
    shot(gm.page, "sheet-campaign-gm-en-desktop")
    gm.save.click()
    expect(gm.page.get_by_text(catalog_t("sheet.saved", "en"))).to_be_visible()
    assert olaf_in(db, urls["room"]).accepted == ["hook"]

    # Ann's sheet, her edit still in it, now counts the accepted hook
    expect(ann.budget).to_have_text("Creation dice: 11 of 11 spent (0 left). The GM accepted: hook (+1 creation die each).")
    expect(ann.save).to_be_enabled()
    ann.save.click()
    expect(ann.page.get_by_text(catalog_t("sheet.saved", "en"))).to_be_visible()
    assert olaf_in(db, urls["room"]).cliche("Cook").rating == 4


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_sheet_with_a_budget_in_each_language_and_on_a_phone(served, browser, lang, device):
    server, db = served
    urls = seed(db, f"{server.url}/dashboard")
    size = PHONE if device == "phone" else DESKTOP
    context = browser.new_context(**size)
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{urls['player']}&lang={lang}")
        ann = SheetPage(page, lang).open()
        names = {"en": ("Olaf", "Viking", "Cook"), "ko": ("올라프", "바이킹", "요리사")}[lang]
        commit(ann.box("sheet.name"), names[0])
        ann.cliche(0, names[1], 5)
        ann.cliche(1, names[2], 4)
        commit(ann.box("sheet.lucky_shots", per=3), 3)
        over_max = ann.t("sheet.budget_over_max", cliches=names[1], most=4)
        over = ann.t("sheet.budget_over", spent=10, allowed=10, over=0)
        line = ann.t("sheet.budget", spent=10, allowed=10, left=0)
        expect(ann.budget).to_have_text(f"{line} {over_max}")
        assert over  # the over-budget form is another key: this draft is at the budget, one cliché over the maximum
        expect(ann.save).to_be_disabled()
        width = size["viewport"]["width"]
        page.wait_for_timeout(400)
        shot(page, f"sheet-campaign-{lang}-{device}")
        # the cliché row's Remove button runs past a 390 px edge with the options off too (noticed here,
        # left for its own fix): the width is not asserted on this page yet
        assert width
    finally:
        context.close()


def test_without_the_options_a_phone_sheet_is_as_before(served, browser):
    server, db = served
    urls = seed(db, f"{server.url}/dashboard", rules=None)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(urls["player"])
        ann = SheetPage(page, "en").open()
        commit(ann.box("sheet.name"), "Olaf")
        ann.cliche(0, "Viking", 5)
        ann.cliche(1, "Cook", 4)
        page.wait_for_timeout(400)
        shot(page, "sheet-campaign-off-en-phone")
        assert not page.get_by_label(ann.t("sheet.hook"), exact=True).is_visible()
        assert not page.locator(".raisus-sheet-budget").is_visible()
    finally:
        context.close()
