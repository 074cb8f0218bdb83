"""Issue 24: a spectator's table drawn in the browser from the room's state (``?view=table``).

A spectator watches while the GM and Ann play rounds on their own pages: after every round the view
(the contest, its score chart and its live odds) shows what a page that loads the room afresh shows (the whole document), although it was only sent
deltas; a delta lost on the way (the page is told to drop one) makes it ask for the whole state and
draw it. In English and Korean; axe-clean; one column without sideways scroll on a 390 px phone;
screenshots (desktop and phone, light and dark) in ``test-artifacts/table-view-*.png``.
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t
from raisus_panel.room import RoomRegistry, SQLiteStore
from raisus_panel.rules import ScriptedDice
from tests.siege import siege_room

from .conftest import Server, shot
from .helpers import expect
from .table_pages import DESKTOP, PHONE, Table, axe_violations, describe, open_page, require_axe, serve_table, sideways

pytestmark = pytest.mark.browser

VIEW = ".raisus-table-view"


@pytest.fixture(scope="module", params=["en", "ko"])
def table(request, tmp_path_factory):
    table = serve_table(tmp_path_factory.mktemp(f"table-view-{request.param}"), request.param)
    yield table
    table.server.kill()


def watch(context, table: Table, theme: str | None = None):
    """A spectator's page with the table drawn in the browser."""
    page = context.new_page()
    page.goto(f"{table.urls['spectator']}&view=table" + (f"&theme={theme}" if theme else ""))
    expect(page.locator(VIEW)).to_contain_text("Ogre fight")
    return page


def seq_of(page) -> int:
    return int(page.locator(VIEW).get_attribute("data-seq"))


def fresh_text(browser, table: Table) -> tuple[int, str]:
    """What a spectator's page loaded now shows: the room's whole document, drawn."""
    context = browser.new_context(**DESKTOP)
    try:
        page = watch(context, table)
        page.wait_for_timeout(300)
        return seq_of(page), page.locator(VIEW).inner_text()
    finally:
        context.close()


def verdict_name(view) -> str:
    """Who won the last roll, as the view's roll table marks it (the winner's row)."""
    return view.locator(".roll tr.won th").inner_text()


def roll(page, table: Table, n: int) -> None:
    button = page.get_by_role("button", name=table.t("contest.roll", n=n), exact=True)
    button.click()
    expect(button).to_have_count(0, timeout=20_000)  # taken: the button says the next round now


def play(gm, ann, table: Table, n: int) -> None:
    """Round ``n``: the GM rolls the even ones; the odd ones the GM opens and Ann rolls."""
    if n % 2:
        gm.get_by_role("button", name=table.t("contest.open_round"), exact=True).click()
        roll(ann, table, n)
    else:
        roll(gm, table, n)


def test_a_watcher_follows_many_rounds_by_deltas_and_recovers_from_a_lost_one(table, browser):
    contexts = [browser.new_context(**DESKTOP) for _ in range(3)]
    try:
        spectator = watch(contexts[0], table)
        gm = open_page(contexts[1].new_page(), table, "gm")
        ann = open_page(contexts[2].new_page(), table, "player")
        view = spectator.locator(VIEW)
        expect(view.locator(".unit")).to_have_count(2)
        expect(view.locator(".chart.scores svg circle")).to_have_count(2)  # round 0: a point per line
        for n in (1, 2):
            play(gm, ann, table, n)
            expect(view.locator(".middle .round")).to_have_text(table.t("contest.round", n=n), timeout=20_000)
            expect(view.locator(".roll .verdict")).to_have_text(table.t("roll.winner", round=n, name=verdict_name(view)))
            # the page words the round itself from the catalog's texts (_table_doc.NUMBER_KEYS)
            expect(view.locator(".top .status")).to_have_text(
                f"{table.t('contest.rounds_mode')} · {table.t('contest.next_round', n=n + 1)}")
        expect(view.locator(".chart.scores svg circle")).to_have_count(2 * 3)  # one new point per round, per line
        # the odds come with the document: the words the players' pages say, a bar, side A's chances
        # over the rounds (a dot per point on the contest line; no exchange line in a duel)
        odds = view.locator(".odds")
        lines = odds.locator(".words p")
        first = lines.first.inner_text()
        assert first.startswith(table.t("side.0")) and "%" in first
        expect(gm.get_by_text(first, exact=False).first).to_be_visible()
        expect(odds.locator(".bar .part")).to_have_count(2)
        expect(odds.locator(".chart.chances svg circle")).to_have_count(3)
        expect(odds.locator(".chart.chances svg path")).to_have_count(2)  # the contest and the next round
        spectator.wait_for_timeout(500)
        seq, text = fresh_text(browser, table)
        assert seq_of(spectator) == seq and view.inner_text() == text
        assert spectator.locator(VIEW).get_attribute("data-asked") is None  # deltas only, no gap

        # a delta lost on its way (the GM opening round 3): the next one, Ann's roll, starts from a seq
        # this page never held, so it asks for the whole state and draws it
        spectator.evaluate("globalThis.raisusTableDrop = 1")
        play(gm, ann, table, 3)
        expect(view).to_have_attribute("data-asked", "1", timeout=20_000)
        expect(view.locator(".middle .round")).to_have_text(table.t("contest.round", n=3), timeout=20_000)
        spectator.wait_for_timeout(500)
        seq, text = fresh_text(browser, table)
        assert seq_of(spectator) == seq and view.inner_text() == text
        shot(spectator, f"table-view-{table.lang}")
    finally:
        for context in contexts:
            context.close()


def test_the_table_view_is_accessible_dark_and_on_a_phone(table, browser):
    require_axe()
    context = browser.new_context(**DESKTOP)
    try:
        page = watch(context, table, theme="dark")
        page.wait_for_timeout(500)
        assert not (found := axe_violations(page)), describe(found)
        shot(page, f"table-view-{table.lang}-dark")
    finally:
        context.close()
    for theme in (None, "dark"):
        context = browser.new_context(**PHONE)
        try:
            page = watch(context, table, theme=theme)
            page.wait_for_timeout(500)
            width = sideways(page)
            assert width["scroll"] <= width["inner"], width
            sides = page.locator(f"{VIEW} .side")
            a, b = sides.nth(0).bounding_box(), sides.nth(1).bounding_box()
            assert b["y"] >= a["y"] + a["height"] - 1  # one column: side B under side A
            assert not (found := axe_violations(page)), describe(found)
            shot(page, f"table-view-{table.lang}-phone" + ("-dark" if theme else ""))
        finally:
            context.close()


def test_the_stream_view_draws_the_table_too(table, browser):
    context = browser.new_context(**DESKTOP)
    try:
        page = watch(context, table)
        with context.expect_page() as opened:
            page.get_by_role("button", name=table.t("dashboard.stream.open"), exact=True).click()
        stream = opened.value
        expect(stream.locator(VIEW)).to_contain_text("Sir Ann")
        assert "view=table-stream" in stream.url
        assert stream.locator(".bk-tab").count() == 0
        shot(stream, f"table-view-{table.lang}-stream")
    finally:
        context.close()


@pytest.fixture(scope="module")
def siege(tmp_path_factory):
    """The Siege (tests/siege.py): Ann's Knight, Viking and Squire as one team against the GM's Ogre."""
    db = str(tmp_path_factory.mktemp("table-view-siege") / "raisus.sqlite")
    store = SQLiteStore(db)
    try:
        _, links, _ = siege_room(RoomRegistry(store), "Siege night")
    finally:
        store.close()
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    base = f"{server.url}/dashboard"
    yield {"server": server, "gm": f"{base}?token={links['gm']}", "spectator": f"{base}?token={links['spectator']}"}
    server.kill()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_team_is_drawn_as_one_group_with_its_leader(siege, browser, lang):
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(**size)
        try:
            page = context.new_page()
            page.goto(f"{siege['spectator']}&view=table&lang={lang}")
            team = page.locator(f"{VIEW} .unit.team")
            expect(team.locator(".member")).to_have_count(3)
            expect(team.locator(".member.leader")).to_have_count(1)
            expect(team.locator(".member.leader")).to_contain_text(f"({t('team.leader', lang)})")
            expect(team.locator(".member .pip")).to_have_count(6 + 3 + 2)  # each member's dice, as dice
            page.wait_for_timeout(300)
            if name == "phone":
                width = sideways(page)
                assert width["scroll"] <= width["inner"], width
            shot(page, f"table-view-team-{lang}-{name}")
        finally:
            context.close()


@pytest.fixture(scope="module")
def tied(tmp_path_factory):
    """A spectator's link to a duel whose round 1 was a tie (12 against 12), rolled again and won by Ann."""
    db = str(tmp_path_factory.mktemp("table-tie") / "raisus.sqlite")
    store = SQLiteStore(db)
    rolls = [[3, 3, 3, 3], [4, 4, 4], [6, 5, 1, 1], [4, 4, 4]]
    registry = RoomRegistry(store, dice_factory=lambda: ScriptedDice(list(rolls)))
    room, links = registry.create_room("Kitchen", gm_name="Gina")
    ann, _ = registry.join(links.player, "Ann")
    ann.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4}])
    gm = registry.open_session(links.gm)
    gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 3}])
    uids = {c.name: c.uid for c in room.characters}
    gm.act("start_contest", name="Kitchen brawl", side_a=[uids["Sir Ann"]], side_b=[uids["Ogre"]])
    gm.act("roll_round")
    store.close()
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db}).start()
    yield links.url("spectator", f"{server.url}/dashboard")
    server.kill()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_tie_shows_both_attempts_with_the_tie_marked(tied, new_page, lang):
    page = new_page(f"{tied}&view=table&lang={lang}")
    roll = page.locator(f"{VIEW} .roll")
    heads = roll.locator("th[scope=col], tr:first-child th")
    expect(heads).to_have_text([f"{t('roll.attempt_n', lang, n=1)} {t('roll.tie', lang)}", t("roll.attempt_n", lang, n=2)])
    expect(roll.locator(".tie")).to_have_count(1)
    expect(roll.locator("tr.won .total")).to_have_text(["= 12", "= 13"])  # Ann's row: 12 (tie), then 13
    expect(page.locator(f"{VIEW} .top .status")).to_have_text(
        f"{t('contest.rounds_mode', lang)} · {t('contest.next_round', lang, n=2)}")
