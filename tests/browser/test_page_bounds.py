"""Issue 21 (faults and abuse): past the pages one address may open, a browser gets a refusal it can read.

A real ``panel serve`` with a bound of two pages per address: the first two tabs get the lobby,
the third one short refusal that says why and what to do, in the page's language, and nothing of
the lobby. ``tests/room_served/test_page_bounds.py`` checks the bounds themselves.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from raisus_panel.i18n import t

from .conftest import Server, shot

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("bounds") / "rooms.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_PAGES_PER_CLIENT": "2"}).start()
    yield server
    server.stop()


def test_a_tab_past_the_bound_says_why_in_its_language_and_closed_tabs_free_their_place(server, new_page):
    for lang in ("en", "ko"):
        url = f"{server.url}/dashboard?lang={lang}"
        tabs = []
        for _ in range(2):
            tabs.append(new_page(url))
            expect(tabs[-1].locator(".raisus-lobby").first).to_be_visible(timeout=30_000)
        third = new_page(url)
        refusal = third.locator(".raisus-busy")
        expect(refusal).to_contain_text(t("dashboard.busy.client", lang), timeout=30_000)
        expect(refusal).to_contain_text(t("dashboard.busy", lang))
        assert third.locator(".raisus-lobby").count() == 0
        shot(third, f"page-bounds-refusal-{lang}")
        for tab in (*tabs, third):
            tab.context.close()
        # Bokeh discards a closed page's session after its unused lifetime (15 s, checked every 17 s):
        # then this address may open pages again
        time.sleep(40)
    again = new_page(f"{server.url}/dashboard?lang=en")
    expect(again.locator(".raisus-lobby").first).to_be_visible(timeout=30_000)
