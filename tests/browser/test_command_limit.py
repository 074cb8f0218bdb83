"""A person who sends too many commands sees, on the served page and in its language, how long to wait."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .table_pages import open_page, serve_table


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_too_many_actions_are_refused_on_the_page_with_the_wait(new_page, tmp_path, lang):
    # a tiny limit so that three clicks meet it: two commands at once, then one a minute
    table = serve_table(tmp_path, lang, env={"RAISUS_COMMAND_BURST": "2", "RAISUS_COMMANDS_PER_MINUTE": "1"})
    try:
        page = open_page(new_page(), table, "gm")
        open_round = page.get_by_role("button", name=table.t("contest.open_round"), exact=True)
        undo = page.get_by_role("button", name=table.t("contest.undo"), exact=True)
        # the wait counts down from 60 s: any number of seconds in the catalog's sentence
        wanted = re.escape(table.t("error.limit.too_many_actions", seconds=999)).replace("999", r"\d{1,2}")
        message = page.get_by_text(re.compile(wanted))
        # open the round, undo it, open it again...: the third command meets the limit (a click
        # that lands while the page redraws is simply clicked again)
        for _ in range(8):
            if message.is_visible():
                break
            (open_round if open_round.is_visible() else undo).click()
            page.wait_for_timeout(700)
        try:
            expect(message).to_be_visible()
        finally:
            shot(page, f"command-limit-{lang}")
    finally:
        table.server.stop()
