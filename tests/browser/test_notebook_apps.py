"""Notebooks as apps: ``panel serve notebooks/00_quickstart.ipynb`` serves the quickstart's table.

Panel runs every cell of the notebook for each page and shows what the notebook marks
``.servable()`` (the language switch and the "your turn" table). Served from this repository in a
real Chromium that cannot reach the internet: the table renders, a roll click plays a round, the
language switch relabels the table, and the page logs no error.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from raisus_panel.i18n import t

from .conftest import Server, shot

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/00_quickstart.ipynb"

# the page shows once the whole notebook has run for it, on a 2-core machine that also runs the browser
expect.set_options(timeout=30_000)


@pytest.fixture(scope="module")
def quickstart():
    # a page runs the whole notebook (odds and a practice contest included) before it shows
    server = Server([NOTEBOOK]).start(timeout=90)
    yield server
    server.stop()


def test_the_quickstart_notebook_serves_as_an_app(quickstart, new_page):
    page = new_page()
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"{quickstart.url}/00_quickstart")

    # the notebook sets Korean; its table shows both characters and offers the first round
    roll = page.get_by_role("button", name=t("contest.roll", "ko", n=1), exact=True)
    expect(roll).to_be_enabled()
    for name in ("올라프", "잭"):
        expect(page.get_by_text(name, exact=True).first).to_be_visible()
    # only what is servable: the practice contest's chart of the code demonstration is not shown
    expect(page.get_by_text("연습 대결")).to_have_count(0)

    roll.click()
    expect(page.get_by_role("button", name=t("contest.roll", "ko", n=2), exact=True)).to_be_visible()

    page.get_by_role("button", name="en", exact=True).click()
    expect(page.get_by_role("button", name=t("contest.roll", "en", n=2), exact=True)).to_be_visible()
    shot(page, "notebook-app-quickstart")
    assert not problems, f"the served notebook logged errors: {problems}"
