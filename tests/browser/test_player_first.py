"""The game-table look puts a player first: on Ann's served page her Sir Ann's card says it is hers and
keeps a cliché picker she can use, and the GM's Ogre's card says its cliché in words, with no picker and
no box -- in English and in Korean. Screenshots (desktop and phone) go to test-artifacts/.

One ``panel serve apps/dashboard.py`` per language, on the room of tests/browser/table_pages.py.
"""

from __future__ import annotations

import pytest

from .conftest import shot
from .helpers import expect
from .table_pages import DESKTOP, PHONE, open_page, serve_table


@pytest.fixture(scope="module", params=["en", "ko"])
def table(request, tmp_path_factory):
    table = serve_table(tmp_path_factory.mktemp(f"player-first-{request.param}"), request.param)
    yield table
    table.server.kill()


def card(page, name: str):
    """The contest table's card of the unit called ``name``."""
    return page.locator(".raisus-unit-card").filter(has_text=name)


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_anns_page_shows_her_card_as_hers_and_the_ogres_cliche_in_words(browser, table, kind):
    context = browser.new_context(**(DESKTOP if kind == "desktop" else PHONE))
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        open_page(page, table, "player")
        ann, ogre = card(page, "Sir Ann"), card(page, "Ogre")
        expect(ann).to_have_count(1)
        expect(ogre).to_have_count(1)
        # hers, in words, with a picker she can use (Knight, her only cliché, already picked)
        expect(ann.locator(".badge.mine")).to_have_text(table.t("contest.yours"))
        picker = ann.get_by_role("combobox")
        expect(picker).to_be_enabled()
        expect(picker.locator("option:checked")).to_have_text("Knight (4)")
        expect(ann.get_by_role("checkbox", name=table.t("contest.inappropriate"), exact=True)).to_be_enabled()
        # the GM's Ogre: its cliché in words, as a spectator reads it; nothing to pick, nothing greyed out
        expect(ogre).to_contain_text(f"{table.t('contest.cliche')}: Ogre (8)")
        expect(ogre.locator(".badge.mine")).to_have_count(0)
        expect(ogre.get_by_role("combobox")).to_have_count(0)
        expect(ogre.get_by_role("checkbox")).to_have_count(0)
        # she is in this contest: no "none of yours" line
        expect(page.locator(".raisus-what-now")).not_to_contain_text(table.t("what_now.you.watching"))
        shot(page, f"player-first-{table.lang}-{kind}")
    finally:
        context.close()
