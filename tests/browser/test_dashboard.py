"""Issue 4: the served dashboard with a GM, two players and a spectator in separate browser contexts.

One ``panel serve apps/dashboard.py`` serves the module, on a SQLite file of its own. The tests
check what each person sees and may do, that every page follows the others' actions without a
reload, that refusals come from the server (a tampered client's click is refused too), that a
character named ``<img src=x onerror=alert(1)>`` stays text, and that a game survives a SIGKILL of
the server.

The live game's room is *seeded* through the room API (in this process, on the same SQLite file,
before the server has opened it) up to the started contest, so that test stays focused on play;
starting a contest from the setup form is clicked in ``test_gm_starts_a_contest_from_the_setup_form``,
and everything before -- lobby, invitations, characters made with the sheet -- in
``test_lobby_invitations_characters_and_refusals``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from raisus_panel.room import Actor, Room, RoomRegistry, RoomSession, SQLiteStore
from raisus_panel.ui import Actions, RoundLog

from .conftest import Server, shot
from .helpers import (
    Guard,
    button,
    commit,
    expect,
    force_click,
    no_img_created,
    roll_button,
    row_of,
    shot_of,
    t,
    tab,
    wait_chart_len,
)

XSS = "<img src=x onerror=alert(1)>"

#: ui/contest_table.py, the setup form of a new contest.

@dataclass
class Dash:
    server: Server
    db: str

    @property
    def url(self) -> str:
        return f"{self.server.url}/dashboard"


@pytest.fixture(scope="module")
def dash(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("dashboard") / "raisus.sqlite")
    # closed tabs leave the room (presence) within about a second
    server = Server(["apps/dashboard.py", "--check-unused-sessions", "500", "--unused-session-lifetime", "1000"],
                    env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    yield Dash(server, db)
    server.kill()


# -- seeding rooms and reading the truth from the store -----------------------------------------------
@dataclass
class Seeded:
    room_id: str
    gm: str
    invite: str
    spectator: str
    ann: str
    bob: str
    uids: dict


def seed_room(dash: Dash, *, contest: bool = True) -> Seeded:
    """A room with Ann's Sir Ann (Knight 4), Bob's XSS-named Viking (2) and the GM's Ogre (8); with
    ``contest``, an "Ogre fight" started: Ann's and Bob's characters on side A, the Ogre on side B."""
    store = SQLiteStore(dash.db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Friday Risus", gm_name="Gina")
        ann, ann_token = registry.join(links.player, "Ann")
        bob, bob_token = registry.join(links.player, "Bob")
        ann.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4}])
        bob.act("create_character", name=XSS, cliches=[{"name": "Viking", "rating": 2}])
        gm = registry.open_session(links.gm)
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 8}])
        uids = {c.name: c.uid for c in room.characters}
        if contest:
            gm.act("start_contest", name="Ogre fight", side_a=[uids["Sir Ann"], uids[XSS]], side_b=[uids["Ogre"]])
        base = dash.url
        return Seeded(room.room_id, links.url("gm", base), links.url("player", base), links.url("spectator", base),
                      f"{base}?token={ann_token}", f"{base}?token={bob_token}", uids)
    finally:
        store.close()


def truth(dash: Dash, room_id: str) -> Room:
    """The room as the store has it (what a restarted server would load)."""
    store = SQLiteStore(dash.db)
    try:
        return Room.load(store, room_id)
    finally:
        store.close()


def roster_of(room: Room) -> list[list[str]]:
    """The rows the Characters tab should show: name, clichés, player."""
    return [[c.name, ", ".join(x.label for x in c.cliches),
             room.players.get(c.owner, "") if c.owner else t("dashboard.npc")] for c in room.characters]


def log_size(room: Room) -> int:
    watcher = Actions(RoomSession(room, Actor.spectator()))
    return len(RoundLog(actions=watcher, lang="en").entries()) if room.contest else 0


# -- pages ------------------------------------------------------------------------------------------
def open_room(new_page, url: str, role_line: str):
    """Open a room link in a fresh browser context and wait until the room page is up."""
    page = new_page(url)
    guard = Guard(page)
    expect(page.locator(".raisus-room-title").get_by_text(role_line)).to_be_visible()
    return page, guard


def reload(page, role_line: str) -> None:
    page.reload()
    expect(page.locator(".raisus-room-title").get_by_text(role_line)).to_be_visible()


def expect_roster(page, rows: list[list[str]], who: str = "") -> None:
    """The Characters tab's roster shows ``rows`` (name, clichés, player) -- waiting for it."""
    trs = page.locator(".raisus-roster tr")
    expect(trs, who).to_have_count(1 + len(rows))
    for i, row in enumerate(rows, 1):
        expect(trs.nth(i).locator("td"), who).to_have_text(row)


def log_entries(page):
    return page.locator(".raisus-log-entry")


def expect_log(page, count: int, who: str = "") -> None:
    """The Log tab lists ``count`` entries (waiting for them); the page goes back to the Table tab.

    Tabs are dynamic: only the open one is in the page, so the log is read on its own tab.
    """
    tab(page, "dashboard.tab.log")
    expect(log_entries(page), who).to_have_count(count)
    tab(page, "dashboard.tab.table")


def presence(page):
    return page.locator(".raisus-presence")


def member_button(page, member: str, key: str):
    label = t(key)
    return row_of(page, re.compile(rf"^{re.escape(member)} — "), has_button=label) \
        .get_by_role("button", name=label, exact=True)


def refusal(page):
    """The refusal shown in place on a page (the contest table's, the sheet's ...)."""
    return page.get_by_text(t("error.refused"))


def wait_rolled(page, n: int) -> None:
    """Wait until round ``n`` is decided on this page (the roll button then names round n + 1)."""
    expect(roll_button(page, n + 1)).to_be_attached()


def form_team_as_gm(page) -> None:
    """The GM teams up Sir Ann and Bob's character on side A with the team builder."""
    button(page, "contest.teams").click()  # the team builders open on demand
    for name in ("Sir Ann", XSS):
        page.get_by_role("checkbox", name=name, exact=True).first.check()
    expect(page.get_by_text(t("team.pool", parts=f"Sir Ann 4 + {XSS}", n=5)).first).to_be_visible()
    button(page, "team.form").first.click()
    expect(button(page, "contest.disband")).to_be_visible()


def create_character(page, name: str, cliche: str, rating: int) -> None:
    """Fill the character sheet (a new character) and save it."""
    tab(page, "dashboard.tab.characters")
    commit(page.get_by_placeholder(t("sheet.name_placeholder")), name)
    commit(page.get_by_placeholder(t("sheet.cliche_placeholder")), cliche)
    commit(page.get_by_label(t("sheet.rating"), exact=True), rating)
    expect(page.get_by_label(t("sheet.current"), exact=True)).to_have_value(str(rating))
    save = button(page, "sheet.save")
    expect(save).to_be_enabled()
    save.click()
    expect(page.get_by_text(t("sheet.saved"))).to_be_visible()


# -- the tests --------------------------------------------------------------------------------------
def test_lobby_invitations_characters_and_refusals(dash, new_page):
    """Lobby -> three links; two players join with the invitation and get personal links; a
    spectator watches; players make their own characters with the sheet, the GM an NPC; a name
    full of HTML stays text; wrong links are refused clearly."""
    lobby = new_page(dash.url)
    lobby_guard = Guard(lobby)
    commit(lobby.get_by_placeholder(t("dashboard.lobby.room_title_placeholder")), "Friday Risus")
    commit(lobby.get_by_placeholder("GM"), "Gina")
    button(lobby, "dashboard.lobby.create").click()
    links = {}
    for role in ("gm", "player", "spectator"):
        field = lobby.locator(f".raisus-link-{role} input")
        expect(field).to_have_value(re.compile(rf"^{re.escape(dash.url)}\?token=\S+$"))
        links[role] = field.input_value()
    assert len(set(links.values())) == 3
    shot(lobby, "dashboard-01-lobby-links")

    gm, gm_guard = open_room(new_page, links["gm"], "GM · Gina")
    expect(gm.locator(".bk-tab", has_text=t("dashboard.tab.room"))).to_be_visible()

    joined = {}
    for name in ("Ann", "Bob"):
        page = new_page(links["player"])
        guard = Guard(page)
        expect(page.get_by_text(t("dashboard.join.title", room="Friday Risus"))).to_be_visible()
        if name == "Ann":
            shot(page, "dashboard-02-join-form")
        commit(page.get_by_placeholder(t("dashboard.join.name")), name)
        button(page, "dashboard.join.button").click()
        expect(page.locator(".raisus-room-title").get_by_text(f"player · {name}")).to_be_visible()
        expect(page).not_to_have_url(links["player"])  # the address bar holds the personal link now
        assert re.search(r"\?token=\S+$", page.url)
        joined[name] = (page, guard)
    ann, ann_guard = joined["Ann"]
    bob, bob_guard = joined["Bob"]
    assert len({ann.url, bob.url, links["player"]}) == 3

    spectator, spec_guard = open_room(new_page, links["spectator"], "spectator")
    expect(spectator.locator(".bk-tab", has_text=t("dashboard.tab.room"))).to_have_count(0)

    # players make their own characters, the GM an NPC
    create_character(ann, "Sir Ann", "Knight", 4)
    create_character(bob, XSS, "Viking", 2)
    create_character(gm, "Ogre", "Ogre", 8)
    expected = [["Sir Ann", "Knight (4)", "Ann"], [XSS, "Viking (2)", "Bob"], ["Ogre", "Ogre (8)", t("dashboard.npc")]]
    pages = {"gm": (gm, "GM · Gina"), "ann": (ann, "player · Ann"), "bob": (bob, "player · Bob"),
             "spectator": (spectator, "spectator")}
    for who, (page, _line) in pages.items():  # every page shows every character, live
        tab(page, "dashboard.tab.characters")
        expect_roster(page, expected, who)
        # everyone is connected
        expect(presence(page)).to_contain_text("Gina (GM)")
        for person in ("Ann (player)", "Bob (player)", "1 spectator"):
            expect(presence(page)).to_contain_text(person)
        # the HTML in a name is text: shown literally, no element made of it
        expect(page.locator(".raisus-roster").get_by_text(XSS, exact=True)).to_be_visible()
        assert no_img_created(page) == 0, who
    shot(bob, "dashboard-03-characters-bob")
    shot(spectator, "dashboard-04-characters-spectator")

    # each player may edit only their own characters; the spectator none; the GM all
    picker = t("dashboard.edit_character")
    for page, mine in ((ann, ["Sir Ann"]), (bob, [XSS]), (gm, ["Sir Ann", XSS, "Ogre"])):
        options = page.get_by_label(picker).locator("option").all_text_contents()
        assert options[0] == t("dashboard.new_character")
        assert [re.sub(r" \(\S{4}\)$", "", o) for o in options[1:]] == mine, options
    expect(spectator.get_by_label(picker)).to_be_hidden()
    expect(spectator.get_by_role("button", name=t("sheet.save"), exact=True)).to_be_hidden()

    # a reload, and a personal link in another browser, bring the same player back (no second Ann)
    reload(ann, "player · Ann")
    tab(ann, "dashboard.tab.characters")
    expect_roster(ann, expected)
    again = new_page(ann.url)
    expect(again.locator(".raisus-room-title").get_by_text("player · Ann")).to_be_visible()
    tab(again, "dashboard.tab.characters")
    expect_roster(again, expected)

    # wrong links: a clear refusal, no room
    room_id = re.search(r"token=([^.]+)\.", links["gm"]).group(1)
    for token in ("nonsense", f"{room_id}.{'A' * 43}"):
        page = new_page(f"{dash.url}?token={token}")
        refused = page.locator(".raisus-refused")
        expect(refused).to_be_visible()
        expect(refused).to_contain_text(t("dashboard.refused"))
        expect(page.locator(".raisus-room")).to_have_count(0)
        expect(page.locator(".bk-tab")).to_have_count(0)
        shot(page, "dashboard-05-wrong-token" if token == "nonsense" else "dashboard-05-forged-token")
    for guard in (lobby_guard, gm_guard, ann_guard, bob_guard, spec_guard):
        guard.check()


def test_gm_starts_a_contest_from_the_setup_form(dash, new_page):
    """The GM names the contest, ticks Ann's and Bob's characters for side A and the Ogre for side B,
    and starts it from the dashboard."""
    seeded = seed_room(dash, contest=False)
    gm, guard = open_room(new_page, seeded.gm, "GM · Gina")
    shot(gm, "dashboard-06-contest-setup")
    start = button(gm, "contest.start")
    # the GM must see which picker is which side
    expect(gm.get_by_text(t("side.0"), exact=True)).to_be_visible()
    expect(gm.get_by_text(t("side.1"), exact=True)).to_be_visible()
    commit(gm.get_by_placeholder(t("contest.name_placeholder")), "Ogre fight")
    # the first picker is side A's, the second side B's; each lists every character
    gm.get_by_role("checkbox", name="Sir Ann", exact=True).first.check()
    gm.get_by_role("checkbox", name=XSS, exact=True).first.check()
    gm.get_by_role("checkbox", name="Ogre", exact=True).last.check()
    expect(start).to_be_enabled(timeout=5_000)
    start.click()
    expect(gm.get_by_text(t("contest.next_round", n=1))).to_be_visible()
    room = truth(dash, seeded.room_id)
    assert room.contest is not None and [u.name for u in room.contest.sides[1]] == ["Ogre"]
    guard.check()


def test_a_live_game_with_refusals_and_a_crash(dash, new_page):
    """GM, Ann, Bob and a spectator at one table: the GM forms the team and opens rounds, the players
    roll and volunteer, and every page follows each action without a reload; the spectator and a
    player acting for another's character are refused by the server even when the client is tampered
    with; then the server is SIGKILLed mid-game and started again on the same file and port: an open
    page reloads itself when its connection comes back, every page shows the same game, and it goes on.
    """
    seeded = seed_room(dash)
    gm, gm_guard = open_room(new_page, seeded.gm, "GM · Gina")
    ann, ann_guard = open_room(new_page, seeded.ann, "player · Ann")
    bob, bob_guard = open_room(new_page, seeded.bob, "player · Bob")
    spectator, spec_guard = open_room(new_page, seeded.spectator, "spectator")
    pages = {"gm": gm, "ann": ann, "bob": bob, "spectator": spectator}
    for who, page in pages.items():  # presence: the pages opened earlier see the later ones come
        for person in ("Gina (GM)", "Ann (player)", "Bob (player)", "1 spectator"):
            expect(presence(page), who).to_contain_text(person)

    def everyone_sees(room: Room, what: str) -> None:
        for who, page in pages.items():
            wait_chart_len(page, len(room.contest.history))
            expect_log(page, log_size(room), f"{who} after {what}")

    form_team_as_gm(gm)
    room = truth(dash, seeded.room_id)
    assert [u.name for u in room.contest.sides[0]] == [f"Sir Ann+{XSS}"]
    for who in ("gm", "ann", "bob"):  # the spectator's table has no buttons (below)
        expect(button(pages[who], "contest.disband"), who).to_be_visible()
        expect(button(pages[who], "contest.exchange"), who).to_be_hidden()
    everyone_sees(room, "the team")

    # the spectator watches: the table is words only -- nothing to press, nothing to forge (the room
    # refuses a spectator's command anyway: tests/room/test_permissions.py)
    view = spectator.locator(".raisus-contest-view")
    expect(view).to_contain_text(f"Sir Ann+{XSS}")
    expect(view).to_contain_text(t("team.leader_is", name="Sir Ann"))
    for key in ("contest.open_round", "contest.undo", "contest.volunteer", "contest.disband", "team.form"):
        expect(button(spectator, key), key).to_have_count(0)
    expect(button(spectator, "contest.roll", n=1)).to_have_count(0)
    assert no_img_created(spectator) == 0
    shot(spectator, "dashboard-07-spectator-table")

    # players roll only when the GM opens the round; the GM opens, a player rolls, all see it
    expect(button(ann, "contest.roll", n=1)).to_be_disabled()
    expect(button(ann, "contest.open_round")).to_be_hidden()
    lost = False
    for n in range(1, 7):
        button(gm, "contest.open_round").click()
        for who in ("ann", "bob"):
            expect(button(pages[who], "contest.roll", n=n), who).to_be_enabled()
        roller = ann if n % 2 else bob
        button(roller, "contest.roll", n=n).click()
        wait_rolled(roller, n)
        room = truth(dash, seeded.room_id)
        assert room.contest.round == n
        everyone_sees(room, f"round {n}")
        for who, page in pages.items():
            expect(page.get_by_text(t("contest.next_round", n=n + 1)).first, who).to_be_attached()
        if room.contest.last_roll["winner"] == 1 and room.contest.status == "active":
            lost = True
            break
        expect(button(gm, "contest.open_round")).to_be_visible()
    assert lost, "the team never lost a round in six: cannot test volunteering"
    shot(gm, "dashboard-08-gm-after-a-lost-round")

    # after the lost round: Ann may volunteer for her own character, never for Bob's
    contest = room.contest
    sir_ann = next(c for c in contest.characters() if c.name == "Sir Ann")
    theirs = member_button(ann, XSS, "contest.volunteer")
    expect(theirs).to_be_disabled()
    mine = member_button(ann, "Sir Ann", "contest.volunteer")
    (expect(mine).to_be_enabled if contest.can("volunteer", sir_ann) else expect(mine).to_be_disabled)()
    expect(member_button(bob, XSS, "contest.volunteer")).to_be_enabled()
    # on hover the disabled button says why (its title) -- naming Bob's character, as text (no element
    # made of it, and no tooltip model)
    theirs.hover(force=True)
    assert XSS in theirs.evaluate("b => b.getRootNode().host.getAttribute('title')")
    expect(ann.locator(".bk-Tooltip")).to_have_count(0)
    assert no_img_created(ann) == 0
    shot(ann, "dashboard-09-tooltip-names-another-players-character")
    ann.mouse.move(0, 0)
    force_click(theirs)
    expect(refusal(ann)).to_be_visible()
    # the server's reason names Bob's character -- as text
    not_yours = t("error.permission.not_yours", name=XSS, whose="\0").split("\0")[0]
    # in the refusal (the same words are the greyed buttons' reason, under each of them)
    expect(ann.locator("p").filter(has_text=t("error.refused")).filter(has_text=not_yours)).to_be_visible()
    expect(ann.locator(".raisus-why").filter(has_text=not_yours).first).to_be_visible()
    shot(ann, "dashboard-09-player-refused-for-another-character")
    assert truth(dash, seeded.room_id).seq == room.seq

    # Bob volunteers for his own character: every page shows the revenge bonus
    member_button(bob, XSS, "contest.volunteer").click()
    expect(bob.get_by_text(t("team.revenge_armed")).first).to_be_visible()
    room = truth(dash, seeded.room_id)
    assert any(e.get("type") == "volunteered" for e in room.contest.events)
    for who, page in pages.items():
        expect(page.get_by_text(t("team.revenge_armed")).first, who).to_be_visible()
    everyone_sees(room, "the volunteer")
    for page in pages.values():
        check_game(page, roster_of(room), log_size(room), len(room.contest.history))
    shot(spectator, "dashboard-10-spectator-mid-game")
    shot_of(spectator.locator(".raisus-room"), "dashboard-room-spectator")

    # Bob closes his tab: the others see him go; he comes back with his personal link
    bob_guard.check()
    bob.context.close()
    for who in ("gm", "ann", "spectator"):
        expect(presence(pages[who]), who).not_to_contain_text("Bob (player)")
    bob, bob_guard = open_room(new_page, seeded.bob, "player · Bob")
    for who in ("gm", "ann", "spectator"):
        expect(presence(pages[who]), who).to_contain_text("Bob (player)")

    # -- SIGKILL mid-game, restart on the same file and port ---------------------------------------------
    want = (roster_of(room), log_size(room), len(room.contest.history))
    for guard in (gm_guard, ann_guard, bob_guard):
        guard.check()
    for page in (gm, ann, bob):  # only the spectator stays open across the crash
        page.context.close()
    dash.server.kill()
    assert truth(dash, seeded.room_id).seq == room.seq  # every command that returned is in the file
    dash.server.start()
    # the open spectator page reloads itself when its websocket comes back (no manual reload)
    spectator.wait_for_event("load", timeout=60_000)
    expect(spectator.locator(".raisus-room-title").get_by_text("spectator")).to_be_visible(timeout=30_000)
    check_game(spectator, *want)
    shot(spectator, "dashboard-11-after-restart")
    gm, gm_guard = open_room(new_page, seeded.gm, "GM · Gina")
    check_game(gm, *want)

    # and the game goes on; the page that reloaded itself follows it live again
    ann, ann_guard = open_room(new_page, seeded.ann, "player · Ann")
    button(gm, "contest.open_round").click()
    n = room.contest.round + 1
    button(ann, "contest.roll", n=n).click()
    wait_rolled(ann, n)
    after = truth(dash, seeded.room_id)
    assert after.contest.round == n
    wait_chart_len(spectator, len(after.contest.history))
    expect_log(spectator, log_size(after))
    for guard in (gm_guard, ann_guard, spec_guard):
        guard.check()
    for page in (gm, ann, spectator):
        assert no_img_created(page) == 0


def check_game(page, roster, log, chart) -> None:
    """A page shows the game as the store has it: scores (roster), round log and chart points."""
    wait_chart_len(page, chart)
    expect_log(page, log)
    tab(page, "dashboard.tab.characters")
    expect_roster(page, roster)
    tab(page, "dashboard.tab.table")
    wait_chart_len(page, chart)  # drawn again: only the open tab is in the page
