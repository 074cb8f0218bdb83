"""Issue 12: light or dark. A page's switch reloads it at the same address in the other theme (its
language and link kept); a dark page has dark charts, and its own colours follow the theme."""

from __future__ import annotations

import re

import pytest

from .conftest import shot
from .helpers import PICTURES_JS, expect
from .table_pages import DESKTOP, open_page, serve_table

#: The plot area's fill of every figure on the page, read from BokehJS's own documents.
PLOT_FILLS = """() => [...Bokeh.documents].flatMap(d => [...d.all_models])
  .filter(m => m.type === 'Figure' || (m.constructor && m.constructor.__name__ === 'Figure'))
  .map(m => m.background_fill_color)"""


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    table = serve_table(tmp_path_factory.mktemp("theme"), "ko")
    yield table
    table.server.kill()


@pytest.mark.parametrize("name", ["spectator", "gm", "lobby"])
def test_the_switch_shows_the_same_page_dark_then_light_again(table, browser, name):
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        open_page(page, table, name)
        url = page.url
        light_body = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
        page.get_by_role("button", name=table.t("dashboard.theme.dark"), exact=True).click()
        expect(page).to_have_url(re.compile(r"[?&]theme=dark(&|$)"))
        switch_back = page.get_by_role("button", name=table.t("dashboard.theme.light"), exact=True)
        expect(switch_back).to_be_visible()
        assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") != light_body
        assert "token=" not in url or url.split("token=")[1].split("&")[0] in page.url  # the same link
        if name == "spectator":
            expect(page.locator(".raisus-room-title")).to_contain_text(table.t("role.spectator"))
            # a spectator's charts are pictures: drawn in the page's own (light) text colour
            page.wait_for_function(f"() => ({PICTURES_JS})().length === 2")
            assert page.evaluate(PLOT_FILLS) == []
            color = page.locator("svg.raisus-chart").first.evaluate("el => getComputedStyle(el).color")
            assert min(int(c) for c in re.findall(r"\d+", color)[:3]) > 180, color
        if name == "gm":  # the GM's charts are Bokeh figures: dark plot areas
            expect(page.locator(".raisus-room-title")).to_contain_text(table.t("role.gm"))
            page.wait_for_function(f"() => ({PLOT_FILLS})().length === 2")
            assert set(page.evaluate(PLOT_FILLS)) == {"#2b3035"}
        shot(page, f"theme-{name}-dark")
        switch_back.click()
        expect(page).not_to_have_url(re.compile(r"theme=dark"))
        expect(page.get_by_role("button", name=table.t("dashboard.theme.dark"), exact=True)).to_be_visible()
        assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == light_body
    finally:
        context.close()
