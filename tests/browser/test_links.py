"""Issue 9: the GM manages links on the Room tab, and a room file over the upload limit is refused
with the real reason (the page keeps its connection).

One ``panel serve apps/dashboard.py`` on a SQLite file of its own; the room is seeded through the
room API before the server opens the file (as in test_dashboard.py).
"""

from __future__ import annotations

import re

import pytest

from raisus_panel import i18n
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server, shot
from .helpers import Guard, button, commit, expect, t, tab


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("links") / "raisus.sqlite")
    store = SQLiteStore(db)
    registry = RoomRegistry(store)
    room, links = registry.create_room("Friday Risus", gm_name="Gina")
    _, ann = registry.join(links.player, "Ann")
    registry.join(links.player, "서연")
    # a second room for the locked-out GM (issue 21): its GM link is replaced, its Sam removed
    room2, links2 = registry.create_room("Long evening", gm_name="Gina")
    registry.join(links2.player, "Sam")
    lost, lost_links = registry.create_room("Lost seat", gm_name="Gina")  # its GM link is replaced by the owner
    back, back_links = registry.create_room("Comeback", gm_name="Gina")  # Sam is removed and comes back
    sam, _ = registry.join(back_links.player, "Sam")
    registry.join(back_links.player, "Ann")
    sam.act("create_character", uid="olaf", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    store.close()
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    base = f"{server.url}/dashboard"
    server.links = {"gm": links.url("gm", base), "player": links.url("player", base),
                    "spectator": links.url("spectator", base), "ann": f"{base}?token={ann}", "base": base,
                    "evening_gm": links2.url("gm", base), "lost_gm": lost_links.url("gm", base)}
    server.lost_room = lost.room_id
    server.links["back_gm"] = back_links.url("gm", base)
    server.db = db
    yield server
    server.kill()


def open_room(new_page, url: str, role_line: str):
    page = new_page(url)
    Guard(page)
    expect(page.locator(".raisus-room-title").get_by_text(role_line)).to_be_visible()
    return page


def closed(page, key: str) -> None:
    """The page shows that it was closed, and why."""
    alert = page.locator(".raisus-closed")
    expect(alert).to_contain_text(t("dashboard.closed.title"))
    expect(alert).to_contain_text(t(key))
    expect(page.locator(".raisus-room-title")).to_have_count(0)


def test_the_gm_revokes_a_player_and_reissues_links_and_their_pages_close(server, new_page):
    links = server.links
    gm = open_room(new_page, links["gm"], "GM · Gina")
    ann = open_room(new_page, links["ann"], "player · Ann")
    spectator = open_room(new_page, links["spectator"], "spectator")
    expect(gm.locator(".raisus-presence")).to_contain_text("Ann (player)")

    tab(gm, "dashboard.tab.room")
    button(gm, "dashboard.links.revoke", name="Ann").click()
    button(gm, "confirm.yes.revoke", name="Ann").click()  # asked first
    closed(ann, "error.link.revoked")
    expect(gm.locator(".raisus-links")).to_contain_text(t("dashboard.links.revoked", name="Ann"))
    expect(button(gm, "dashboard.links.revoke", name="Ann")).to_be_disabled()
    expect(gm.locator(".raisus-presence")).not_to_contain_text("Ann (player)")
    ann.reload()  # the personal link is refused from now on, with the reason
    expect(ann.locator(".raisus-refused")).to_contain_text(t("error.link.revoked"))

    button(gm, "dashboard.links.reissue").click()
    button(gm, "confirm.yes.reissue").click()  # asked first
    fresh = {}
    for role in ("player", "spectator"):
        field = gm.locator(f".raisus-fresh-links .raisus-link-{role} input")
        expect(field).to_have_value(re.compile(rf"^{re.escape(links['base'])}\?token=\S+$"))
        fresh[role] = field.input_value()
    assert fresh["player"] != links["player"] and fresh["spectator"] != links["spectator"]
    closed(spectator, "error.link.replaced")
    old = new_page(links["player"])
    expect(old.locator(".raisus-refused")).to_contain_text(t("error.link.replaced"))
    joining = new_page(fresh["player"])
    expect(joining.get_by_text(t("dashboard.join.title", room="Friday Risus"))).to_be_visible()
    commit(joining.get_by_placeholder(t("dashboard.join.name")), "서연")  # taken: refused, and told why
    button(joining, "dashboard.join.button").click()
    expect(joining.get_by_text(t("error.room.name_taken", name="서연"))).to_be_visible()
    open_room(new_page, fresh["spectator"], "spectator")

    shot(gm, "links-room-tab-en")
    gm.get_by_role("button", name="ko", exact=True).click()
    for key in ("dashboard.links.reissue", "dashboard.links.reissued", "dashboard.links.players"):
        expect(gm.locator(".raisus-links")).to_contain_text(i18n.t(key, "ko"))
    expect(gm.locator(".raisus-links")).to_contain_text(i18n.t("dashboard.links.revoked", "ko", name="Ann"))
    expect(gm.get_by_role("button", name=i18n.t("dashboard.links.revoke", "ko", name="서연"))).to_be_visible()
    expect(gm.locator(".raisus-presence")).to_contain_text(i18n.t("dashboard.presence", "ko"))
    shot(gm, "links-room-tab-ko")


def test_the_gm_replaces_a_leaked_gm_link(server, new_page):
    links = server.links
    gm = open_room(new_page, links["gm"], "GM · Gina")
    thief = open_room(new_page, links["gm"], "GM · Gina")
    tab(gm, "dashboard.tab.room")
    button(gm, "dashboard.links.replace_gm").click()
    button(gm, "confirm.yes.replace_gm").click()  # asked first
    field = gm.locator(".raisus-fresh-links .raisus-link-gm input")
    expect(field).to_have_value(re.compile(rf"^{re.escape(links['base'])}\?token=\S+$"))
    new_link = field.input_value()
    assert new_link != links["gm"]
    closed(thief, "dashboard.closed.gm_replaced")  # a GM page: the new link is on the page that made it
    expect(gm).to_have_url(re.compile(re.escape(new_link.partition("?")[2])))  # a reload keeps working
    gm.reload()
    expect(gm.locator(".raisus-room-title").get_by_text("GM · Gina")).to_be_visible()
    old = new_page(links["gm"])  # the GM's own old link: the way back, not "ask the GM"
    room_id = links["gm"].partition("token=")[2].partition(".")[0]
    expect(old.locator(".raisus-refused")).to_contain_text(t("error.link.gm_replaced", room_id=room_id))
    shot(old, "links-old-gm-link-en")
    old = new_page(links["gm"] + "&lang=ko")
    expect(old.locator(".raisus-refused")).to_contain_text(i18n.t("error.link.gm_replaced", "ko", room_id=room_id))
    shot(old, "links-old-gm-link-ko")


def test_a_room_file_over_the_limit_is_refused_with_its_size_and_the_page_stays_connected(server, new_page):
    lobby = new_page(server.links["base"])
    expect(lobby.get_by_text(t("dashboard.lobby.max_size", most="5.0"))).to_be_visible()
    lobby.locator("input.raisus-room-file").set_input_files(
        files=[{"name": "huge.json", "mimeType": "application/json", "buffer": b" " * 6_500_000}])
    expect(lobby.get_by_text(t("error.limit.file_too_large", size="6.5", most="5.0"))).to_be_visible()
    # still connected: the next click is answered
    commit(lobby.get_by_placeholder(t("dashboard.lobby.room_title_placeholder")), "After the refusal")
    button(lobby, "dashboard.lobby.create").click()
    expect(lobby.locator(".raisus-link-gm input")).to_have_value(re.compile(r"\?token=\S+$"))
    shot(lobby, "links-upload-refused")


def test_the_gm_keeps_the_seat_after_switching_language_reloading_and_replacing_the_gm_link(server, new_page):
    """Issue 21, item 2: the address held the old GM token after "Replace my GM link"; a reload locked the GM out."""
    links = server.links
    gm = open_room(new_page, links["evening_gm"], "GM · Gina")
    gm.get_by_role("button", name="ko", exact=True).click()  # the language goes into the address
    expect(gm).to_have_url(re.compile(r"lang=ko"))
    gm.reload()
    ko_gm = i18n.t("role.gm", "ko") + " · Gina"
    expect(gm.locator(".raisus-room-title").get_by_text(ko_gm)).to_be_visible()
    gm.locator(".bk-tab", has_text=i18n.t("dashboard.tab.room", "ko")).first.click()
    gm.get_by_role("button", name=i18n.t("dashboard.links.reissue", "ko")).click()
    gm.get_by_role("button", name=i18n.t("confirm.yes.reissue", "ko")).click()  # asked first
    expect(gm.locator(".raisus-fresh-links .raisus-link-player input")).to_have_value(re.compile(r"\?token=\S+$"))
    gm.get_by_role("button", name=i18n.t("dashboard.links.revoke", "ko", name="Sam")).click()
    gm.get_by_role("button", name=i18n.t("confirm.yes.revoke", "ko", name="Sam")).click()  # asked first
    expect(gm.locator(".raisus-links")).to_contain_text(i18n.t("dashboard.links.revoked", "ko", name="Sam"))
    second = open_room(new_page, links["evening_gm"], "GM · Gina")
    gm.get_by_role("button", name=i18n.t("dashboard.links.replace_gm", "ko")).click()
    gm.get_by_role("button", name=i18n.t("confirm.yes.replace_gm", "ko")).click()  # asked first
    field = gm.locator(".raisus-fresh-links .raisus-link-gm input")
    expect(field).to_have_value(re.compile(rf"^{re.escape(links['base'])}\?token=\S+$"))
    token = field.input_value().partition("token=")[2]
    closed(second, "dashboard.closed.gm_replaced")
    expect(gm).to_have_url(re.compile(rf"token={re.escape(token)}"))
    expect(gm).to_have_url(re.compile(r"lang=ko"))
    shot(gm, "links-replaced-gm-ko")
    gm.get_by_role("button", name="en", exact=True).click()  # the language rewrites the address again
    expect(gm).to_have_url(re.compile(r"lang=en"))
    expect(gm).to_have_url(re.compile(rf"token={re.escape(token)}"))
    shot(gm, "links-replaced-gm-en")
    gm.reload()
    expect(gm.locator(".raisus-room-title").get_by_text("GM · Gina")).to_be_visible()


def test_the_servers_owner_gives_a_locked_out_gm_a_new_link_from_the_shell(server, new_page):
    """Issue 21, item 2: ``raisus links ROOM --new-gm`` on the served store; the printed link opens the GM's seat."""
    import subprocess
    import sys

    links = server.links
    done = subprocess.run([sys.executable, "-m", "raisus_panel.cli", "links", server.lost_room, "--new-gm",
                           "--db", server.db, "--url", links["base"]], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    new_link = done.stdout.strip().splitlines()[-1]
    assert new_link.startswith(links["base"] + "?token=") and new_link != links["lost_gm"]
    open_room(new_page, new_link, "GM · Gina")
    old = new_page(links["lost_gm"])
    expect(old.locator(".raisus-refused")).to_contain_text(t("error.link.gm_replaced", room_id=server.lost_room))
    token = new_link.partition("token=")[2]
    assert token not in server.log.read_text(errors="replace")  # never logged


def test_a_removed_player_gets_a_new_personal_link_and_the_gm_hands_their_character_on(server, new_page):
    """Issue 21, item 9: the GM reissues a removed player's own link; a character changes hands."""
    gm = open_room(new_page, server.links["back_gm"], "GM · Gina")
    tab(gm, "dashboard.tab.room")
    button(gm, "dashboard.links.revoke", name="Sam").click()
    button(gm, "confirm.yes.revoke", name="Sam").click()  # asked first
    expect(gm.locator(".raisus-links")).to_contain_text(t("dashboard.links.revoked", name="Sam"))
    button(gm, "dashboard.links.personal", name="Sam").click()
    button(gm, "confirm.yes.personal", name="Sam").click()  # asked first
    expect(gm.locator(".raisus-links")).to_contain_text(t("dashboard.links.personal_made", name="Sam"))
    field = gm.locator(".raisus-fresh-links .raisus-link-personal input")
    expect(field).to_have_value(re.compile(rf"^{re.escape(server.links['base'])}\?token=\S+$"))
    expect(button(gm, "dashboard.links.revoke", name="Sam")).to_be_enabled()  # no longer marked removed
    sam = open_room(new_page, field.input_value(), "player · Sam")
    expect(gm.locator(".raisus-presence")).to_contain_text("Sam (player)")
    shot(gm, "links-personal-en")

    gm.locator(".raisus-hand-character select").select_option(label="Olaf (Sam)")
    gm.locator(".raisus-hand-to select").select_option(label="Ann")
    button(gm, "dashboard.links.hand_button").click()
    expect(gm.locator(".raisus-links")).to_contain_text(t("dashboard.links.handed", name="Olaf", to="Ann"))
    expect(gm.locator(".raisus-hand-character select")).to_contain_text("Olaf (Ann)")
    tab(sam, "dashboard.tab.characters")
    expect(sam.locator("table.raisus-roster")).to_contain_text("Ann")
    gm.get_by_role("button", name="ko", exact=True).click()
    expect(gm.locator(".raisus-links")).to_contain_text(i18n.t("dashboard.links.hand", "ko"))
    expect(gm.locator(".raisus-links")).to_contain_text(i18n.t("dashboard.links.handed", "ko", name="Olaf", to="Ann"))
    expect(gm.get_by_role("button", name=i18n.t("dashboard.links.personal", "ko", name="Sam"))).to_be_visible()
    expect(gm.locator(".raisus-links")).to_contain_text(i18n.t("dashboard.links.personal_made", "ko", name="Sam"))
    expect(gm.locator(".raisus-presence")).to_contain_text(i18n.t("dashboard.presence", "ko"))
    shot(gm, "links-personal-ko")
