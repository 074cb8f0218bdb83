"""A room page's language: the whole page (tab titles included) switches, and a reload keeps it.

Tried as a player would: the GM switches to English, and the tab titles stayed Korean (Panel keeps a
reused tab's title) and a reload came back in Korean. The language now lives in the page's address.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from raisus_panel.i18n import t
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server, shot

pytestmark = pytest.mark.browser

TABS = ("table", "log", "characters", "checks", "room")


@pytest.fixture(scope="module")
def gm_link(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("language") / "room.sqlite")
    registry = RoomRegistry(SQLiteStore(db))
    _, links = registry.create_room("금요일 모험")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "ko"}).start()
    yield links.url("gm", f"{server.url}/dashboard")
    server.stop()


def tab_titles(page) -> list[str]:
    return page.locator(".bk-tab").all_inner_texts()


def test_the_tabs_follow_the_language_and_a_reload_keeps_it(gm_link, new_page):
    page = new_page()
    page.goto(gm_link)
    korean = [t(f"dashboard.tab.{key}", "ko") for key in TABS]
    english = [t(f"dashboard.tab.{key}", "en") for key in TABS]
    expect(page.locator(".bk-tab").first).to_have_text(korean[0], timeout=30_000)
    assert tab_titles(page) == korean
    page.get_by_role("button", name="en", exact=True).click()
    expect(page.locator(".bk-tab").first).to_have_text(english[0])
    assert tab_titles(page) == english
    assert "lang=en" in page.url and "token=" in page.url
    page.reload()
    expect(page.locator(".bk-tab").first).to_have_text(english[0], timeout=30_000)
    assert tab_titles(page) == english
    shot(page, "room-page-english-after-reload")
