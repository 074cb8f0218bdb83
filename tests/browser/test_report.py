"""Issue 11: the session report in a real Chromium -- a file opened offline, printed on A4, and
downloaded from the served dashboard by a spectator.

The report file is opened from disk with every request but ``file:`` and ``data:`` refused (and the
browser fixture resolves no host at all): BokehJS and the charts must be inside it.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass

import pytest

from raisus_panel.i18n import t as _t
from raisus_panel.report import report
from raisus_panel.report.document import odds_as_played
from raisus_panel.room import Room, RoomRegistry, SQLiteStore
from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui._contest_text import dice_html

from ..report.conftest import EVIL, played_room
from .conftest import ARTIFACTS, Server, shot
from .helpers import Guard, expect, tab


def t(key: str, lang: str = "en", **fields) -> str:
    """A catalog text, in English unless told (the test server runs in English)."""
    return _t(key, lang, **fields)

pypdf = pytest.importorskip("pypdf")

#: The data of a named source of the report's Bokeh document, column by column (NaN stays NaN).
_SOURCE_JS = """(name) => {
  const m = Bokeh.documents[0].get_model_by_name(name);
  if (m === null) return null;
  const out = {};
  for (const [k, v] of (m.data instanceof Map ? m.data.entries() : Object.entries(m.data)))
    out[k] = Array.from(v, x => (typeof x === 'number' && isNaN(x)) ? 'NaN' : x);
  return out;
}"""


def offline(page) -> list[str]:
    """Refuse every request that is not for a file or data URL; returns the list of those refused."""
    refused: list[str] = []

    def route(r):
        if r.request.url.startswith(("file:", "data:")):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()
    page.route("**/*", route)
    return refused


def open_report(new_page, path):
    page = new_page()
    guard = Guard(page)
    refused = offline(page)
    page.goto(path.as_uri())
    page.wait_for_function("() => window.Bokeh !== undefined && Bokeh.documents.length === 1")
    expect(page.locator("canvas").first).to_be_attached()
    return page, guard, refused


def source(page, name: str) -> dict:
    data = page.evaluate(_SOURCE_JS, name)
    assert data is not None, f"no source {name} in the report's Bokeh document"
    return {k: [math.nan if v == "NaN" else v for v in col] for k, col in data.items()}


def pdf_pages(page, keep: str | None = None) -> list[str]:
    """Print the page on A4 (laid out at the paper's width, 210 mm) and return each page's text;
    ``keep`` names a test artifact to save the PDF as."""
    page.set_viewport_size({"width": 794, "height": 1123})
    pdf = page.pdf(format="A4", print_background=True)
    if keep:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"{keep}.pdf").write_bytes(pdf)
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y))
                                    for x, y in zip(a, b))


def test_a_report_opens_offline_draws_the_game_as_played_and_prints_on_a4(new_page, tmp_path):
    played = played_room()
    made = report(played.room, "en")
    path = made.save(tmp_path / "game.html")
    page, guard, refused = open_report(new_page, path)
    assert page.locator("canvas").count() >= 4  # two charts for each of the two contests
    for number, part in enumerate(made.session.contests, 1):
        contest = part.contest
        lines = source(page, f"raisus-score-{number}")
        assert lines["x"] == [float(p["x"]) for p in contest.history]
        for i, key in enumerate(contest.series):  # one column per cliché, its score at every point
            assert same(lines[f"s{i}"], [p["scores"].get(key, math.nan) for p in contest.history]), key
        chances = source(page, f"raisus-odds-{number}")
        assert same(chances["p_win"], odds_as_played(contest)["p_win"]) and len(chances["x"]) == len(contest.history)
    # the first contest as it was played: Jack's Pirate went 3, 2, 1, 0 over the rounds
    first = made.session.contests[0].contest
    jack = list(first.series).index(f"{played.jack}:Pirate")
    rounds = [i for i, p in enumerate(first.history) if p["kind"] == "round"]
    assert [source(page, "raisus-score-1")[f"s{jack}"][i] for i in rounds] == [2, 1, 0]
    assert source(page, "raisus-score-1")[f"s{jack}"][0] == 3
    # typed HTML is text
    expect(page.get_by_text(f"Olaf {EVIL} chooses Viking")).to_be_visible()
    expect(page.get_by_text("Brawl <script>alert(1)</script>", exact=True).first).to_be_visible()
    assert page.locator("img").count() == 0
    guard.check()
    assert not guard.errors and not refused
    shot(page, "report-room-en")
    pages = pdf_pages(page, keep="report-room-en")
    # each contest starts on a page of its own: printed together they take the pages they take apart
    apart = []
    for number in (1, 2):
        alone = report(played.room, "en", contest=number).save(tmp_path / f"contest-{number}.html")
        one, _, _ = open_report(new_page, alone)
        apart.append(len(pdf_pages(one)))
    assert len(pages) == sum(apart) >= 2
    assert pages[apart[0]].startswith("Kitchen")
    for text in pages:  # no round is cut across two pages: each card's heading and verdict are together
        for n in (1, 2, 3):
            heads = len(re.findall(rf"^Round {n}: .* against ", text, re.M))
            verdicts = len(re.findall(rf"Round {n}: \S.* wins$", text, re.M))
            assert heads == verdicts, (n, text)
    all_text = "\n".join(pages)
    assert all_text.count("Round 1:") >= 4 and "Swims home <with a grin>" in all_text


def test_a_short_contest_prints_on_at_most_two_pages_in_korean(new_page, tmp_path):
    olaf, jack = Character("올라프", {"바이킹": 4}), Character(EVIL, {"해적": 1})
    game = Contest("<b>한 판</b>", olaf, jack, dice=ScriptedDice([[6, 6, 6, 6], [1]]))
    game.roll_round()
    path = report(game, "ko").save(tmp_path / "duel.html")
    page, guard, refused = open_report(new_page, path)
    expect(page.get_by_text("<b>한 판</b> — 대결 기록")).to_be_visible()
    assert same(source(page, "raisus-score-1")["x"], [float(p["x"]) for p in game.history])
    shot(page, "report-contest-ko")
    pages = pdf_pages(page, keep="report-contest-ko")
    # a one-round contest takes at most two sheets, its round whole, the footer last
    assert 1 <= len(pages) <= 2 and "대결 기록" in pages[0] and "raisus_panel" in pages[-1]
    assert sum(p.count("= 24") for p in pages) == 1  # the winning roll, 6+6+6+6
    guard.check()
    assert not refused


def test_the_korean_room_report(new_page, tmp_path):
    path = report(played_room().room, "ko").save(tmp_path / "game-ko.html")
    page, guard, refused = open_report(new_page, path)
    expect(page.get_by_text("<i>Friday</i> table — 세션 기록")).to_be_visible()
    expect(page.get_by_text("진행 기록").first).to_be_visible()
    shot(page, "report-room-ko")
    pdf = pdf_pages(page, keep="report-room-ko")
    assert len(pdf) >= 2 and any(p.startswith("Kitchen") for p in pdf[1:])
    guard.check()
    assert not refused


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_campaigns_report_says_its_sessions_and_advancement_and_links_each_contest(new_page, tmp_path, lang):
    from ..report.test_report_campaign import campaign_room

    room, _, _ = campaign_room()
    path = report(room, lang).save(tmp_path / f"campaign-{lang}.html")
    page, guard, refused = open_report(new_page, path)
    section = page.locator("section.campaign")
    expect(section.get_by_role("heading", name=t("report.campaign", lang))).to_be_visible()
    expect(section.locator("div.session h3")).to_have_text([t("campaign.session", lang, n=n) for n in (1, 2, 3)])
    olaf = f"Olaf {EVIL}"
    expect(section.get_by_text(t("campaign.rose", lang, name=olaf, cliche="Viking", faces="2, 4, 6, 2", n=5))).to_be_visible()
    expect(section.get_by_text(t("report.campaign.nothing", lang))).to_be_visible()
    assert page.locator("img").count() == 0 and page.locator("u").count() == 0  # the names are text
    # the contest's line in its session leads to the contest, whose heading says the session and options
    section.get_by_role("link", name=t("report.campaign.contest", lang, n=1, name="Brawl")).click()
    expect(page).to_have_url(re.compile("#contest-1$"))
    head = page.locator("#contest-1 .contest-head")
    expect(head).to_be_in_viewport()
    options = ", ".join(t(f"report.campaign.{k}", lang) for k in ("lucky_shots", "pumps"))
    expect(head).to_contain_text(t("report.contest_options", lang, options=options))
    section.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    section.screenshot(path=str(ARTIFACTS / f"report-campaign-{lang}.png"))
    shot(page, f"report-campaign-page-{lang}")
    printed = "\n".join(pdf_pages(page, keep=f"report-campaign-{lang}"))
    assert t("report.campaign", lang) in printed and t("report.campaign.not_ended", lang) in printed
    guard.check()
    assert not guard.errors and not refused


# -- the dashboard ------------------------------------------------------------------------------------
@dataclass
class Seeded:
    spectator: str
    room_id: str


@pytest.fixture(scope="module")
def dash(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("report") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    yield server, db
    server.kill()


def seed(server, db) -> Seeded:
    """A room whose first contest was played and closed, and whose second has ended (seeded through
    the room API before the server opens the room); the GM also rolled a secret check."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Report night", gm_name="Gina")
        ann, _ = registry.join(links.player, "Ann")
        ann.act("create_character", name=EVIL, cliches=[{"name": "Knight", "rating": 2}])
        gm = registry.open_session(links.gm)
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 2}])
        gm.act("create_character", name="Troll", cliches=[{"name": "Troll", "rating": 1}])
        uids = {c.name: c.uid for c in room.characters}
        gm.act("action_check", character=uids["Ogre"], cliche="Ogre", tn=5, private=True)
        for name, foe in (("First <u>fight</u>", "Ogre"), ("Second fight", "Troll")):
            gm.act("start_contest", name=name, side_a=[uids[EVIL]], side_b=[uids[foe]])
            while room.contest.status == "active":
                gm.act("roll_round")
            knight = next(c for c in room.characters if c.uid == uids[EVIL]).cliche("Knight")
            if knight.current < knight.rating:  # back to full for the next fight
                gm.act("recover", character=uids[EVIL], cliche="Knight")
        return Seeded(links.url("spectator", f"{server.url}/dashboard"), room.room_id)
    finally:
        store.close()


def rounds_of(room, uid) -> list:
    """Every decided round of a contest, as the log keeps it: each attempt's faces."""
    return [e["event"]["attempts"] for e in room.log
            if e["type"] == "contest" and e["contest"] == uid and e["event"]["type"] == "round_decided"]


def test_a_spectator_downloads_the_reports_after_a_contest_ended(dash, new_page, tmp_path):
    server, db = dash
    seeded = seed(server, db)
    store = SQLiteStore(db)
    try:
        truth = Room.load(store, seeded.room_id)
    finally:
        store.close()
    page = new_page(seeded.spectator)
    guard = Guard(page)
    expect(page.locator(".raisus-room-title").get_by_text(t("role.spectator"))).to_be_visible()
    tab(page, "dashboard.tab.log")
    current = page.get_by_role("button", name=t("report.download_contest"), exact=True)
    expect(current).to_be_visible()
    shot(page, "report-dashboard-log-en")
    with page.expect_download() as download:
        current.click()
    html = open(download.value.path(), encoding="utf-8").read()
    assert download.value.suggested_filename.endswith(".html")
    assert "Second fight" in html and "First &lt;u&gt;fight&lt;/u&gt;" not in html
    assert EVIL not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    second = truth.contest.uid
    for attempts in rounds_of(truth, second):
        for a, b in attempts:
            for faces in (a["faces"], b["faces"]):
                assert dice_html(faces) in html
    # the contest closed before stays, with its own report
    first = truth.past_contests[0]["contest"]
    pick = page.get_by_role("combobox").last
    pick.select_option(label=t("past.label", name="First <u>fight</u>", rounds=truth.past_contests[0]["rounds"]))
    past = page.get_by_role("button", name=t("report.download"), exact=True)
    expect(past).to_be_visible()
    with page.expect_download() as download:
        past.click()
    old = open(download.value.path(), encoding="utf-8").read()
    assert "First &lt;u&gt;fight&lt;/u&gt;" in old and "Second fight" not in old
    assert old.count("<span class=die") == sum(len(a["faces"]) + len(b["faces"])
                                                 for attempts in rounds_of(truth, first) for a, b in attempts)
    # the whole session, opened offline from the file the spectator got
    with page.expect_download() as download:
        page.get_by_role("button", name=t("report.download_session"), exact=True).click()
    whole = tmp_path / "session.html"
    download.value.save_as(whole)
    text = whole.read_text(encoding="utf-8")
    assert "First &lt;u&gt;fight&lt;/u&gt;" in text and "Second fight" in text
    # the GM's secret roll is not in the spectator's report: its room copy never got the event
    spectators = report(truth, "en").session
    assert all(not e["private"] for part in spectators.contests for e in part.actions.room.log)
    shown, _, refused = open_report(new_page, whole)
    expect(shown.get_by_text("Second fight", exact=True).first).to_be_visible()
    assert not refused
    page.get_by_role("button", name="ko", exact=True).click()
    expect(page.get_by_role("button", name=t("report.download_session", "ko"), exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=t("report.download_contest", "ko"), exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=t("report.download", "ko"), exact=True)).to_be_visible()
    shot(page, "report-dashboard-log-ko")
    guard.check()
