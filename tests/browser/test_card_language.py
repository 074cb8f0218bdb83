"""Issue 22: a contest card's "inappropriate" box follows the language switch, also served.

``panel serve notebooks/00_quickstart.ipynb`` serves the tutorial's language switch and its table
(``ContestTable``, whose cards carry ``ui/_checkbox.LabelledCheckbox``). The box drew its text once:
after switching to English every other word on the card was English and the box still read 부적합.
(The dashboard's table is drawn by its own ES module and was not affected.)
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t

from .conftest import Server
from .helpers import expect, shot_of

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def quickstart():
    server = Server(["notebooks/00_quickstart.ipynb"], env={"RAISUS_LANG": "ko"}).start(timeout=120)
    yield f"{server.url}/00_quickstart"
    server.stop()


def test_the_inappropriate_box_follows_the_language_switch(quickstart, new_page):
    page = new_page(quickstart)
    boxes = page.get_by_role("checkbox", name=t("contest.inappropriate", "ko"), exact=True)
    expect(boxes).to_have_count(2, timeout=60_000)
    page.get_by_role("button", name="en", exact=True).click()
    english = page.get_by_role("checkbox", name=t("contest.inappropriate", "en"), exact=True)
    expect(english).to_have_count(2)
    expect(boxes).to_have_count(0)
    shot_of(page.locator(".raisus-unit-card").first, "card-language-switched-to-en")
    page.get_by_role("button", name="ko", exact=True).click()
    expect(boxes).to_have_count(2)
    shot_of(page.locator(".raisus-unit-card").first, "card-language-back-to-ko")
