"""Issue 12: a spectator's clean view of the fight, something a streamer could show.

A spectator's page offers "Stream view", which opens the same link with ``view=stream`` in a new
tab: the room's title and the fight alone (the units with their dice, the score chart, the odds),
large, with no tabs and no buttons; it follows the game live. A GM's or player's link with
``view=stream`` keeps its own page. Screenshots in English and Korean, light and dark, go to
``test-artifacts/`` (stream-{en,ko}.png, stream-ko-dark.png).
"""

from __future__ import annotations

import re

import pytest

from .conftest import shot
from .helpers import PICTURES_JS, expect
from .table_pages import DESKTOP, Table, open_page, serve_table

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=["en", "ko"])
def table(request, tmp_path_factory):
    table = serve_table(tmp_path_factory.mktemp(f"stream-{request.param}"), request.param)
    yield table
    table.server.kill()


def gm_rolls_round_one(table: Table, browser) -> None:
    """The GM opens round 1 and rolls it on the GM's own page."""
    context = browser.new_context(**DESKTOP)
    try:
        gm = open_page(context.new_page(), table, "gm")
        gm.get_by_role("button", name=table.t("contest.open_round"), exact=True).click()
        roll = gm.get_by_role("button", name=table.t("contest.roll", n=1), exact=True)
        roll.click()
        expect(roll).to_have_count(0)  # taken: the button says round 2 now
    finally:
        context.close()


def test_the_stream_view_shows_the_fight_alone_and_follows_it(table, browser):
    context = browser.new_context(**DESKTOP)
    try:
        page = open_page(context.new_page(), table, "spectator")
        with context.expect_page() as opened:
            page.get_by_role("button", name=table.t("dashboard.stream.open"), exact=True).click()
        stream = opened.value
        expect(stream).to_have_url(re.compile(r"[?&]view=stream(&|$)"))
        title = "금요일 밤" if table.lang == "ko" else "Friday night"
        expect(stream.locator(".raisus-room-title h1")).to_have_text(title)
        view = stream.locator(".raisus-contest-view")
        expect(view).to_contain_text("Ogre fight")
        expect(view).to_contain_text("Sir Ann")
        expect(stream.locator(".raisus-connection")).to_have_text(table.t("dashboard.connection.live"))
        # the score chart and the odds, as pictures shared by every watching page
        stream.wait_for_function(f"() => ({PICTURES_JS})().length === 2")
        # the fight alone: no tabs, no switches, no buttons at all
        assert stream.locator(".bk-tab").count() == 0
        assert stream.get_by_role("button").count() == 0
        assert stream.get_by_role("textbox").count() == 0
        expect(view.locator("span[class^=die]")).to_have_count(0)
        gm_rolls_round_one(table, browser)
        expect(view).to_contain_text(table.t("contest.next_round", n=2), timeout=20_000)
        # round 1's dice, drawn as dice (4 + 8, more after a tie)
        expect(view.locator("span[class^=die]").nth(4 + 8 - 1)).to_be_attached()
        shot(stream, f"stream-{table.lang}")
        stream.goto(f"{stream.url}&theme=dark")
        expect(stream.locator(".raisus-contest-view")).to_contain_text("Sir Ann")
        stream.wait_for_timeout(500)
        shot(stream, f"stream-{table.lang}-dark")
    finally:
        context.close()


@pytest.mark.parametrize("name", ["gm", "player"])
def test_a_gm_or_player_link_keeps_its_page_in_the_stream_view(table, browser, name):
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{table.urls[name]}&view=stream")
        expect(page.locator(".raisus-room-title")).to_contain_text(table.t(f"role.{name}"))
        expect(page.locator(".bk-tab").first).to_be_visible()  # the tabs: a page to play on
        expect(page.get_by_role("button", name=table.t("dashboard.stream.open"), exact=True)).to_have_count(0)
    finally:
        context.close()
