"""Issue 9: pages of any age come back after a server crash, and no link token is ever printed.

The server is ``raisus serve`` (the CLI a table runs) with a session-token lifetime of a few seconds,
so the pages are older than their tokens when the server is SIGKILLed -- the case where Bokeh's own
reconnect loops "open, closed" for ever. While the server is away every page shows a banner in its
own language; once it is back each page reloads by itself, shows the room as the store has it (changed
meanwhile) and takes clicks again. Throughout, the server's whole output and every page's console are
collected, and no token issued for the room (GM, invitation, spectator, personal) may appear in them.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request

import pytest

from raisus_panel.i18n import t as catalog_t
from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import ARTIFACTS, ROOT, Server, shot
from .helpers import button, commit, expect, t

#: The session-token lifetime the server gets (seconds): the pages are made older than this. Not
#: shorter: a page's websocket must open within it, and a restarted server on two cores builds the
#: four returning pages one after another, several seconds each.
TOKEN_SECONDS = 30


class RaisusServer(Server):
    """``raisus serve`` (``python -m raisus_panel.cli serve``) on a free port; killed and restarted like Server."""

    def start(self, timeout: float = 60) -> "RaisusServer":
        ARTIFACTS.mkdir(exist_ok=True)
        cmd = [sys.executable, "-m", "raisus_panel.cli", "serve", *self.args, "--port", str(self.port),
               "--address", "127.0.0.1", "--allow-websocket-origin", f"localhost:{self.port}",
               "--allow-websocket-origin", f"127.0.0.1:{self.port}"]
        self._logfile = open(self.log, "ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=self._logfile,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"raisus serve exited early; see {self.log}")
            try:
                urllib.request.urlopen(self.url + "/static/js/bokeh.min.js", timeout=2)
                return self
            except Exception:
                time.sleep(0.3)
        self.kill()
        raise RuntimeError(f"raisus serve did not come up in {timeout}s; see {self.log}")


@pytest.fixture
def server(tmp_path):
    db = str(tmp_path / "raisus.sqlite")
    server = RaisusServer(["--db", db, "--session-token-expiration", str(TOKEN_SECONDS), "--log-level", "info"],
                          env={"RAISUS_LANG": "en"})
    server.db = db
    if server.log.exists():
        server.log.unlink()
    yield server.start()
    server.kill()


def seed(db: str, base: str) -> dict:
    """A room: Bob (joined) with Viking 3 against the GM's Ogre 4 in a started contest. Its links."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Friday Risus", gm_name="Gina")
        bob, bob_token = registry.join(links.player, "Bob")
        bob.act("create_character", name="Vik", cliches=[{"name": "Viking", "rating": 3}])
        gm = registry.open_session(links.gm)
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 4}])
        uids = {c.name: c.uid for c in room.characters}
        gm.act("start_contest", name="Ogre fight", side_a=[uids["Vik"]], side_b=[uids["Ogre"]])
        return {"room_id": room.room_id, "gm": links.gm, "player": links.player, "spectator": links.spectator,
                "bob": bob_token, "base": base}
    finally:
        store.close()


def gm_acts(db: str, gm_token: str, command: str, **args) -> int:
    """Act as the GM straight on the store (as another server process would); the room's new seq."""
    store = SQLiteStore(db)
    try:
        session = RoomRegistry(store).open_session(gm_token)
        session.act(command, **args)
        return session.room.seq
    finally:
        store.close()


def round_of(db: str, room_id: str) -> int:
    from raisus_panel.room import Room

    store = SQLiteStore(db)
    try:
        return Room.load(store, room_id).contest.round
    finally:
        store.close()


def role_line(page, text: str):
    return page.locator(".raisus-room-title").get_by_text(text)


def test_old_pages_come_back_after_a_crash_and_no_token_is_printed(server, new_page):
    links = seed(server.db, f"{server.url}/dashboard")
    url = lambda token: f"{links['base']}?token={token}"  # noqa: E731
    console: list[str] = []

    def opened(link: str):
        page = new_page()
        page.on("console", lambda m: console.append(m.text))
        page.on("pageerror", lambda exc: console.append(str(exc)))
        page.goto(link)
        return page

    gm = opened(url(links["gm"]))
    expect(role_line(gm, "GM · Gina")).to_be_visible()
    bob = opened(url(links["bob"]))
    expect(role_line(bob, "player · Bob")).to_be_visible()
    spectator = opened(url(links["spectator"]))
    expect(role_line(spectator, "spectator")).to_be_visible()
    ann = opened(url(links["player"]))  # the invitation: Ann joins and gets a personal link
    commit(ann.get_by_placeholder(t("dashboard.join.name")), "Ann")
    button(ann, "dashboard.join.button").click()
    expect(role_line(ann, "player · Ann")).to_be_visible()
    ann_token = re.search(r"token=([^&]+)", ann.url).group(1)
    tokens = {"gm": links["gm"], "invitation": links["player"], "spectator": links["spectator"],
              "bob": links["bob"], "ann": ann_token}
    opened_at = time.monotonic()

    # the GM reads Korean; the others English -- each banner speaks its page's language
    gm.get_by_role("button", name="ko", exact=True).click()
    expect(gm.locator(".raisus-presence")).to_contain_text(catalog_t("dashboard.presence", "ko"))
    expect(gm.locator(".raisus-connection")).to_have_text(catalog_t("dashboard.connection.live", "ko"))
    expect(bob.locator(".raisus-connection")).to_have_text(catalog_t("dashboard.connection.live", "en"))
    expect(button(bob, "contest.roll", n=1)).to_be_disabled()

    # every page is older than its session token when the server dies
    time.sleep(max(0.0, TOKEN_SECONDS + 2 - (time.monotonic() - opened_at)))
    server.kill()
    pages = {"gm": gm, "bob": bob, "spectator": spectator, "ann": ann}
    for who, page in pages.items():
        banner = page.locator("#raisus-offline")
        expect(banner, who).to_be_visible()
        lang = "ko" if who == "gm" else "en"
        expect(banner, who).to_have_text(catalog_t("dashboard.connection.away", lang))
        # and the header says it in a word
        expect(page.locator(".raisus-connection"), who).to_have_text(catalog_t("dashboard.connection.offline", lang))
    shot(gm, "reconnect-banner-ko")
    shot(bob, "reconnect-banner-en")

    # the table changes while the server is away: the GM opens round 1 from another process
    gm_acts(server.db, links["gm"], "open_round", open=True)
    server.start()

    # each page comes back by itself, fresh, showing the room as it is now
    for who, page in pages.items():
        expect(page.locator("#raisus-offline"), who).to_have_count(0, timeout=60_000)
        expect(page.locator(".raisus-connection"), who).to_have_attribute("data-state", "live", timeout=60_000)
    # four pages are built again at once on a cold server (two cores): allow for it
    expect(gm.locator(".raisus-room-title")).to_contain_text("Gina", timeout=60_000)
    expect(button(bob, "contest.roll", n=1)).to_be_enabled(timeout=60_000)  # the round opened meanwhile
    expect(button(ann, "contest.roll", n=1)).to_be_attached(timeout=60_000)  # Ann has no one in this fight
    expect(spectator.locator(".raisus-contest-view")).to_contain_text(t("contest.next_round", n=1))
    # and clicks work again: Bob rolls round 1, every page sees it
    button(bob, "contest.roll", n=1).click()
    for who, page in (("bob", bob), ("ann", ann)):
        expect(button(page, "contest.roll", n=2), who).to_be_attached()
    assert round_of(server.db, links["room_id"]) == 1
    shot(gm, "reconnect-after-restart-gm")

    server.kill()
    out = server.log.read_text(encoding="utf-8", errors="replace")
    assert "token=<redacted>" in out  # the requests were logged, their tokens redacted
    assert "Token is expired" not in out  # the old pages never tried their expired tokens
    assert "Traceback" not in out, out[-3000:]
    for name, token in tokens.items():
        secret = token.split(".", 1)[1]
        assert secret not in out, f"the {name} token is in the server's output"
        leaks = [line for line in console if secret in line]
        assert not leaks, f"the {name} token is on a browser console: {leaks[:3]}"
