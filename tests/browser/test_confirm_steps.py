"""Issue 21's low items on the served dashboard, in Chromium: "Are you sure?" before one-click actions
nobody can take back from their page, the New-contest form never under a contest in play, a first
evening's "what now", and lines at one score drawn apart on the chart.

One ``panel serve apps/dashboard.py`` on a SQLite file seeded through the room API before the server
opens it (rooms "Links", "Team", "Form" and "Empty"), and the twins app for the chart. English and
Korean, desktop and a 390 px phone; screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest

from raisus_panel import i18n
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server, shot
from .helpers import Guard, button, expect, shot_of, t, tab
from .table_pages import PHONE, axe_violations, describe, require_axe


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("confirm") / "raisus.sqlite")
    store = SQLiteStore(db)
    urls = {}
    try:
        registry = RoomRegistry(store)
        made = {}
        _, links = registry.create_room("Links", gm_name="Gina")
        _, ann = registry.join(links.player, "Ann")
        _, sam = registry.join(links.player, "Sam")
        made["links"] = (links, {"ann": ann, "sam": sam})
        # a team of two players' characters against the GM's Ogre, formed before round 1
        room, team_links = registry.create_room("Team", gm_name="Gina")
        ann_s, ann = registry.join(team_links.player, "Ann")
        sam_s, sam = registry.join(team_links.player, "Sam")
        ann_s.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 3}])
        sam_s.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 3}])
        gm = registry.open_session(team_links.gm)
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 6}])
        uids = {c.name: c.uid for c in room.characters}
        gm.act("start_contest", name="Ogre fight", side_a=[uids["Sir Ann"], uids["Olaf"]], side_b=[uids["Ogre"]])
        gm.act("form_team", members=[uids["Sir Ann"], uids["Olaf"]], leader=uids["Sir Ann"])
        made["team"] = (team_links, {"ann": ann, "sam": sam})
        # characters, no contest: the GM starts one through the form
        _, form_links = registry.create_room("Form", gm_name="Gina")
        ann_s, ann = registry.join(form_links.player, "Ann")
        ann_s.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4}])
        registry.open_session(form_links.gm).act("create_character", name="Ogre",
                                                   cliches=[{"name": "Ogre", "rating": 8}])
        made["form"] = (form_links, {"ann": ann})
        # a first evening: a player joined, nobody has a character
        _, empty_links = registry.create_room("Empty", gm_name="Gina")
        _, newbie = registry.join(empty_links.player, "Newbie")
        made["empty"] = (empty_links, {"newbie": newbie})
    finally:
        store.close()
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    base = f"{server.url}/dashboard"
    for name, (room_links, players) in made.items():
        urls[f"{name}-gm"] = room_links.url("gm", base)
        for who, token in players.items():
            urls[f"{name}-{who}"] = f"{base}?token={token}"
    server.urls = urls
    yield server
    server.kill()


@pytest.fixture
def new_phone(browser):
    """Open pages on a 390 px phone (touch), each in a fresh browser context; closed after the test."""
    contexts = []

    def _new(url: str):
        context = browser.new_context(**PHONE)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(url)
        return page

    yield _new
    for context in contexts:
        context.close()


def open_room(new_page, url: str, role_line: str, lang: str = "en"):
    page = new_page(f"{url}&lang={lang}" if lang != "en" else url)
    page.guard = Guard(page)
    expect(page.locator(".raisus-room-title").get_by_text(role_line)).to_be_visible()
    expect(page.locator(".raisus-presence")).to_be_visible()
    return page


def kb(page, key: str, lang: str, **fmt):
    """The button labelled with catalog text ``key`` in ``lang``."""
    return page.get_by_role("button", name=i18n.t(key, lang, **fmt), exact=True)


def switch_language(page, lang: str) -> None:
    """Press the page's language switch and wait until the page is drawn anew in ``lang`` (its tabs are
    new: a click on the old ones, on a busy machine, would land on a view being replaced)."""
    page.get_by_role("button", name=lang, exact=True).click()
    expect(page.locator(".bk-tab", has_text=i18n.t("dashboard.tab.room", lang))).to_be_visible()
    expect(page.get_by_text(i18n.t("contest.single_roll", lang), exact=True).first).to_be_attached()
    page.wait_for_timeout(500)


def finger_sized(locator) -> None:
    box = locator.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, f"{locator}: {box} is smaller than 44 x 44 px"


def test_removing_a_player_asks_first_and_cancel_keeps_them(served, new_page):
    urls = served.urls
    gm = open_room(new_page, urls["links-gm"], "GM · Gina")
    sam = open_room(new_page, urls["links-sam"], "player · Sam")
    tab(gm, "dashboard.tab.room")
    button(gm, "dashboard.links.revoke", name="Sam").click()
    question = gm.locator(".raisus-confirm").filter(has_text=t("confirm.revoke", name="Sam"))
    expect(question).to_be_visible()
    expect(button(gm, "confirm.yes.revoke", name="Sam")).to_be_visible()
    shot(gm, "confirm-remove-desktop-en")
    require_axe()  # the open question is as readable as the rest of the page
    found = axe_violations(gm)
    assert not found, describe(found)
    button(gm, "confirm.cancel").click()
    expect(question).to_be_hidden()
    gm.wait_for_timeout(500)
    expect(sam.locator(".raisus-room-title")).to_be_visible()  # nothing happened: Sam is still at the table
    expect(button(gm, "dashboard.links.revoke", name="Sam")).to_be_enabled()

    # the keyboard alone: Enter on the button asks, Tab reaches Yes, Enter answers
    button(gm, "dashboard.links.revoke", name="Sam").focus()
    gm.keyboard.press("Enter")
    expect(question).to_be_visible()
    yes = button(gm, "confirm.yes.revoke", name="Sam")
    for _ in range(6):
        gm.keyboard.press("Tab")
        if yes.evaluate("el => el.getRootNode().activeElement === el"):
            break
    assert yes.evaluate("el => el.getRootNode().activeElement === el"), "Tab never reached Yes"
    gm.keyboard.press("Enter")
    expect(sam.locator(".raisus-closed")).to_contain_text(t("error.link.revoked"))
    expect(gm.locator(".raisus-links")).to_contain_text(t("dashboard.links.revoked", name="Sam"))
    expect(question).to_be_hidden()
    expect(button(gm, "dashboard.links.revoke", name="Sam")).to_be_disabled()
    expect(gm.locator(".raisus-links .alert-danger")).to_be_hidden()
    gm.guard.check()  # no browser dialog was opened


def test_new_links_ask_first_on_a_phone_in_korean(served, new_phone):
    gm = open_room(new_phone, served.urls["links-gm"], f"{i18n.t('role.gm', 'ko')} · Gina", lang="ko")
    gm.locator(".bk-tab", has_text=i18n.t("dashboard.tab.room", "ko")).first.click()
    kb(gm, "dashboard.links.reissue", "ko").click()
    question = gm.locator(".raisus-confirm").filter(has_text=i18n.t("confirm.reissue", "ko"))
    expect(question).to_be_visible()
    yes, cancel = kb(gm, "confirm.yes.reissue", "ko"), kb(gm, "confirm.cancel", "ko")
    finger_sized(yes)
    finger_sized(cancel)
    question.scroll_into_view_if_needed()
    shot(gm, "confirm-new-links-phone-ko")
    cancel.click()
    expect(question).to_be_hidden()
    expect(gm.locator(".raisus-fresh-links .raisus-link-player")).to_have_count(0)  # no new links made
    kb(gm, "dashboard.links.reissue", "ko").click()
    yes.dblclick()  # a double tap answers once
    expect(gm.locator(".raisus-fresh-links .raisus-link-player input")).to_have_value(re.compile(r"\?token=\S+$"))
    expect(question).to_be_hidden()
    expect(gm.locator(".raisus-links .alert-danger")).to_be_hidden()
    kb(gm, "dashboard.links.replace_gm", "ko").click()  # the GM link asks too
    expect(gm.locator(".raisus-confirm").filter(has_text=i18n.t("confirm.replace_gm", "ko"))).to_be_visible()
    expect(kb(gm, "confirm.yes.replace_gm", "ko")).to_be_visible()
    kb(gm, "dashboard.links.replace_gm", "ko").scroll_into_view_if_needed()
    shot(gm, "confirm-replace-gm-phone-ko")
    gm.guard.check()


def drop_row(page, lang: str):
    return page.locator(".raisus-row").filter(has=kb(page, "contest.drop_out", lang)).filter(has_text="Olaf").last


@pytest.mark.parametrize("lang", ["ko", "en"])  # Korean first: it only cancels
def test_dropping_out_asks_first_and_a_yes_on_a_changed_table_is_refused(served, new_page, new_phone, lang):
    urls = served.urls
    gm_line = f"{i18n.t('role.gm', lang)} · Gina"
    sam = open_room(new_phone, urls["team-sam"], f"{i18n.t('role.player', lang)} · Sam", lang=lang)
    drop = drop_row(sam, lang).get_by_role("button", name=i18n.t("contest.drop_out", lang), exact=True)
    expect(drop).to_be_enabled()
    drop.click()
    question = sam.locator(".raisus-confirm").filter(has_text=i18n.t("confirm.drop_out", lang, name="Olaf"))
    expect(question).to_be_visible()
    yes = kb(sam, "confirm.yes.drop_out", lang, name="Olaf")
    finger_sized(yes)
    finger_sized(kb(sam, "confirm.cancel", lang))
    question.scroll_into_view_if_needed()
    shot_of(sam.locator(".raisus-unit-card").first, f"confirm-drop-out-phone-{lang}")
    if lang == "ko":
        kb(sam, "confirm.cancel", lang).click()
        expect(question).to_be_hidden()
        return
    # while Sam reads the question, the GM moves the table on: Sam's Yes was decided on the old table
    gm = open_room(new_page, urls["team-gm"], gm_line, lang=lang)
    button(gm, "contest.open_round").click()
    expect(button(gm, "contest.open_round")).to_be_hidden()
    sam.wait_for_timeout(1000)  # Sam's page shows the open round
    yes.click()
    expect(sam.locator(".alert-danger").filter(has_text=re.compile("The table changed"))).to_be_visible()
    expect(sam.locator(".raisus-unit-card").filter(has_text="Olaf").first).not_to_contain_text(
        t("status.dropped"))
    drop.click()  # asked again, on the table as it is now: it goes through
    yes.click()
    expect(gm.locator(".raisus-unit-card").first).to_contain_text(t("status.dropped"))
    sam.guard.check()


def test_the_new_contest_form_is_never_under_a_contest_in_play(served, new_page, new_phone):
    """Issue 21: the GM starts a contest through the form; the form is gone while it is played (after a
    reload, in Korean, on a phone), and under the finished contest it is for the next one."""
    url = served.urls["form-gm"]
    gm = open_room(new_page, url, "GM · Gina")
    new = gm.get_by_role("heading", name=t("contest.new"), exact=True)
    expect(new).to_be_visible()
    gm.get_by_role("checkbox", name="Sir Ann").first.check()
    gm.get_by_role("checkbox", name="Ogre").last.check()
    button(gm, "contest.start").click()
    expect(button(gm, "contest.roll", n=1)).to_be_visible()
    expect(new).to_be_hidden()
    expect(button(gm, "contest.start")).to_be_hidden()
    shot(gm, "form-hidden-desktop-en")
    gm.reload()
    expect(button(gm, "contest.roll", n=1)).to_be_visible()
    expect(new).to_be_hidden()
    switch_language(gm, "ko")
    expect(kb(gm, "contest.roll", "ko", n=1)).to_be_visible()
    expect(gm.get_by_role("heading", name=i18n.t("contest.new", "ko"), exact=True)).to_be_hidden()
    expect(kb(gm, "contest.start", "ko")).to_be_hidden()
    switch_language(gm, "en")
    phone = open_room(new_phone, url, "GM · Gina")
    expect(button(phone, "contest.roll", n=1)).to_be_visible()
    expect(phone.get_by_role("heading", name=t("contest.new"), exact=True)).to_be_hidden()
    shot(phone, "form-hidden-phone-en")

    # ended: "Are you sure?" first, then the form is for the next contest and says what starting it does
    outcome = gm.get_by_placeholder(t("contest.outcome_placeholder"))
    outcome.fill("The ogre leaves")
    outcome.press("Enter")
    button(gm, "contest.end").click()
    expect(gm.get_by_text(t("confirm.end", outcome="The ogre leaves"))).to_be_visible()
    expect(button(gm, "contest.roll", n=1)).to_be_visible()  # nothing ended yet
    button(gm, "confirm.yes.end").click()
    nxt = gm.get_by_role("heading", name=t("contest.next"), exact=True)
    expect(nxt).to_be_visible()
    expect(gm.locator(".raisus-next-note")).to_contain_text(t("contest.next_closes", name=t("contest.default_name")))
    expect(new).to_be_hidden()
    nxt.scroll_into_view_if_needed()
    shot(gm, "form-next-contest-desktop-en")
    switch_language(gm, "ko")
    expect(gm.get_by_role("heading", name=i18n.t("contest.next", "ko"), exact=True)).to_be_visible()
    shot(gm, "form-next-contest-desktop-ko")
    kb(gm, "contest.close", "ko").click()
    expect(kb(gm, "confirm.yes.close", "ko")).to_be_visible()
    shot(gm, "confirm-close-desktop-ko")
    kb(gm, "confirm.yes.close", "ko").click()
    expect(gm.get_by_role("heading", name=i18n.t("contest.new", "ko"), exact=True)).to_be_visible()
    gm.guard.check()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_first_evening_tells_the_players_to_make_a_character(served, new_page, new_phone, lang):
    urls = served.urls
    gm = open_room(new_page, urls["empty-gm"], f"{i18n.t('role.gm', lang)} · Gina", lang=lang)
    expect(gm.locator(".raisus-what-now")).to_contain_text(i18n.t("what_now.gm.no_characters", lang))
    newbie = open_room(new_phone, urls["empty-newbie"], f"{i18n.t('role.player', lang)} · Newbie", lang=lang)
    line = newbie.locator(".raisus-what-now")
    expect(line).to_contain_text(i18n.t("what_now.you.make_character", lang))
    expect(newbie.locator(".raisus-what-now.mine")).to_be_visible()  # their move: marked as such
    expect(newbie.locator(".bk-tab", has_text=i18n.t("dashboard.tab.characters", lang)).first).to_be_visible()
    shot(gm, f"what-now-first-evening-gm-{lang}")
    shot(newbie, f"what-now-first-evening-player-phone-{lang}")


# -- lines at one score ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def twins_server():
    server = Server(["tests/browser/apps/twins_app.py"]).start()
    yield server
    server.kill()


#: The screen y of every point of every step line BokehJS drew (its glyph views' ``sy``).
_DRAWN_JS = """() => {
  const out = [];
  const walk = v => {
    if (v.glyph && v.glyph.model && v.glyph.model.type === 'Step') out.push(Array.from(v.glyph.sy));
    for (const c of (v.child_views ?? [])) walk(c);
    if (v.renderer_views) for (const r of v.renderer_views.values()) walk(r);
  };
  for (const root of Object.values(Bokeh.index)) walk(root);
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_lines_at_one_score_are_drawn_apart(browser, twins_server, lang, size):
    """Knight and Viking stand at the same score after every round: both lines stay in sight."""
    context = browser.new_context(**({"viewport": {"width": 390, "height": 900}, "device_scale_factor": 2}
                                     if size == "phone" else {"viewport": {"width": 1000, "height": 900}}))
    try:
        page = context.new_page()
        page.goto(f"{twins_server.url}/twins_app?lang={lang}")
        page.locator(".raisus-test-chart canvas").first.wait_for(state="attached")
        page.locator(".raisus-test-picture svg.raisus-chart").wait_for()
        page.wait_for_timeout(800)  # Bokeh lays the figure out after the canvas exists
        knight, viking, ogre = page.evaluate(_DRAWN_JS)
        for i in (0, 2, 4):  # the points where the two stand at the same score
            assert abs(knight[i] - viking[i]) >= 3, f"point {i}: the lines lie {abs(knight[i] - viking[i])} px apart"
        paths = page.locator(".raisus-test-picture svg.raisus-chart path[stroke-width='2']").evaluate_all(
            "els => els.map(e => e.getAttribute('d'))")
        heights = [set(re.findall(r"(?:,|V)(\d+)", d)) for d in paths]
        assert len(heights) == 3 and not heights[0] & heights[1], paths  # the picture draws them apart too
        shot(page, f"chart-equal-scores-{size}-{lang}")
    finally:
        context.close()
