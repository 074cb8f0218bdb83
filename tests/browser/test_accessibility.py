"""Issue 12: every page of a table works for everyone -- no critical or serious axe-core violation, and
on a phone (390 x 844) nothing scrolls sideways and every control is at least 40 px tall -- in Korean
and in English. Screenshots of each page at desktop and phone size go to test-artifacts/.

One ``panel serve apps/dashboard.py`` per language (``RAISUS_LANG``), on a room seeded through the
room API (tests/browser/table_pages.py).
"""

from __future__ import annotations

import re

import pytest

from .conftest import shot
from .helpers import expect
from .table_pages import (
    DESKTOP,
    PAGES,
    PHONE,
    axe_violations,
    create_room,
    describe,
    open_page,
    reissue_links,
    require_axe,
    serve_table,
    sideways,
    touch_targets,
)

#: Violations that come from Panel or Bokeh internals no public API reaches, each with its reason:
#: (rule id, the node's own selector as axe reports it) -> why. Only that rule on such a node is left out.
_SPIN = ("Bokeh 3.9's Spinner (pn.widgets.IntInput: the action check's target number and modifier) draws "
         "its up and down buttons as empty <button>s with no aria-label, and Panel passes no attributes to "
         "them; the number field itself is labelled and takes typing and the arrow keys")
ALLOWED: dict[tuple[str, str], str] = {
    ("button-name", ".bk-spin-btn-up.bk-spin-btn"): _SPIN,
    ("button-name", ".bk-spin-btn-down.bk-spin-btn"): _SPIN,
}

#: Controls left out of the 40 px rule, by class, with the reason (same Bokeh internals as above).
SMALL_ALLOWED = {"bk-spin-btn bk-spin-btn-up": _SPIN, "bk-spin-btn bk-spin-btn-down": _SPIN}

#: The smallest height of a touch target on a phone, in CSS pixels (the issue's bar).
MIN_TARGET = 40


@pytest.fixture(scope="module", params=["ko", "en"])
def table(request, tmp_path_factory):
    table = serve_table(tmp_path_factory.mktemp(f"a11y-{request.param}"), request.param)
    yield table
    table.server.kill()


def pages_to_check():
    """Each page, and the lobby once more after it made a room (its links and QR codes shown); the
    GM's Room tab after making new links (the same link cards), and the GM's action checks."""
    return [*PAGES[:1], "lobby+links", *PAGES[1:]]


@pytest.fixture
def open_as(browser):
    """Open one of the table's pages in a fresh context of the given kind (DESKTOP or PHONE)."""
    contexts = []

    def _open(table, name: str, kind: dict, theme: str | None = None):
        context = browser.new_context(**kind)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        open_page(page, table, name.split("+")[0], theme)
        if name == "lobby+links":
            create_room(page, table)
        if name == "room-tab":
            reissue_links(page, table)
        if name == "checks-tab":
            page.locator(".bk-tab", has_text=table.t("dashboard.tab.checks")).first.click()
            expect(page.get_by_role("checkbox", name=table.t("check.automatic"), exact=True)).to_be_visible()
        return page

    yield _open
    for context in contexts:
        context.close()


@pytest.mark.parametrize("name", pages_to_check())
def test_no_critical_or_serious_accessibility_violations(table, open_as, name):
    require_axe()
    page = open_as(table, name, DESKTOP)
    shot(page, f"a11y-{name}-{table.lang}-desktop")
    # the page says its language, so a screen reader reads Korean in Korean
    assert page.evaluate("() => document.documentElement.lang") == table.lang
    violations = axe_violations(page, ALLOWED)
    assert not violations, f"{name} ({table.lang}):\n{describe(violations)}"


@pytest.mark.parametrize("name", ["lobby", "gm", "player", "spectator"])
def test_dark_pages_have_no_critical_or_serious_violations_either(table, open_as, name):
    require_axe()
    page = open_as(table, name, DESKTOP, theme="dark")
    shot(page, f"a11y-{name}-{table.lang}-dark")
    # dark indeed: Panel's dark theme paints the page's root (a light page leaves it transparent)
    assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == "rgb(18, 18, 18)"
    violations = axe_violations(page, ALLOWED)
    assert not violations, f"{name} ({table.lang}, dark):\n{describe(violations)}"


@pytest.mark.parametrize("name", pages_to_check())
def test_on_a_phone_nothing_scrolls_sideways(table, open_as, name):
    page = open_as(table, name, PHONE)
    shot(page, f"a11y-{name}-{table.lang}-phone")
    # a mobile browser widens its layout to what overflows (innerWidth grows too): compare with the screen
    width, screen = sideways(page), PHONE["viewport"]["width"]
    assert width["scroll"] <= screen and width["inner"] == screen, \
        f"{name} ({table.lang}) is laid out {width['scroll']} px wide on a {screen} px screen"


@pytest.mark.parametrize("name", pages_to_check())
def test_on_a_phone_every_control_is_big_enough_for_a_finger(table, open_as, name):
    page = open_as(table, name, PHONE)
    targets = touch_targets(page)
    assert len(targets) >= 2, f"only {targets} found: the page did not load"
    small = [tgt for tgt in targets if tgt["height"] < MIN_TARGET and tgt["cls"] not in SMALL_ALLOWED]
    assert not small, f"{name} ({table.lang}): controls under {MIN_TARGET} px tall:\n" + "\n".join(
        f"    {tgt['tag']}[{tgt['type']}] {tgt['name']!r} .{tgt['cls']}: {tgt['width']:.0f}x{tgt['height']:.0f}"
        for tgt in small)


def test_a_room_page_switched_to_the_other_language_says_so(table, open_as):
    page = open_as(table, "spectator", DESKTOP)
    other = "en" if table.lang == "ko" else "ko"
    page.get_by_role("button", name=other, exact=True).click()
    page.wait_for_function(f"() => document.documentElement.lang === '{other}'")
    # the address keeps the choice (?lang=): the server's answer, a moment after the page's own change
    expect(page).to_have_url(re.compile(rf"[?&]lang={other}(&|$)"))


def test_the_inappropriate_box_is_named_ticked_by_its_label_and_only_on_the_players_own_unit(table, open_as):
    page = open_as(table, "player", DESKTOP)
    boxes = page.get_by_role("checkbox", name=table.t("contest.inappropriate"), exact=True)
    expect(boxes).to_have_count(1)  # Sir Ann's: the GM's Ogre is not this player's to choose for
    mine = boxes.first
    expect(mine).to_be_enabled()
    expect(mine).not_to_be_checked()
    page.get_by_text(table.t("contest.inappropriate"), exact=True).first.click()  # the text, not the box
    expect(mine).to_be_checked()
    page.wait_for_timeout(500)  # the choice reaches the room
    page.reload()
    expect(page.get_by_role("checkbox", name=table.t("contest.inappropriate"), exact=True).first).to_be_checked()
