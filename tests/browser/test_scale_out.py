"""Issue 10: one table served by several processes on one Redis store, directly and behind nginx.

Two ``raisus serve --store redis://...`` processes on two ports share a real ``redis-server``. The GM's
page is on one process, the player's and the spectator's on the other: every click shows on every
page. One process is SIGKILLed mid-game: the pages on the other go on, the killed one's page says the
table is away and comes back, caught up, when its process is restarted. Then the same through Debian's
``nginx`` with the repository's ``deploy/nginx.conf`` (no sticky sessions): a process is killed and
every page, wherever it was, goes on through the other.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from raisus_panel.room import RoomRegistry
from raisus_panel.room.redis_store import RedisStore

from .conftest import ARTIFACTS, ROOT, free_port, shot
from .helpers import PICTURES_JS, button, expect, t
from .test_reconnect import RaisusServer, role_line

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def served(redis_url: str, *extra: str, env: dict | None = None) -> RaisusServer:
    server = RaisusServer(["--store", redis_url, "--log-level", "info", *extra], env={"RAISUS_LANG": "en", **(env or {})})
    if server.log.exists():
        server.log.unlink()
    return server


def seed(redis_url: str) -> dict:
    """A room on Redis: Bob (joined) with Viking 3 against the GM's Ogre 4, contest started."""
    store = RedisStore(redis_url)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Two servers", gm_name="Gina")
        _, bob_token = registry.join(links.player, "Bob")
        gm = registry.open_session(links.gm)
        bob = registry.open_session(bob_token)
        bob.act("create_character", name="Vik", cliches=[{"name": "Viking", "rating": 3}])
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 4}])
        uids = {c.name: c.uid for c in room.characters}
        gm.act("start_contest", name="Ogre fight", side_a=[uids["Vik"]], side_b=[uids["Ogre"]])
        return {"room_id": room.room_id, "gm": links.gm, "spectator": links.spectator, "bob": bob_token,
                "player": links.player}
    finally:
        store.close()


def gm_acts(redis_url: str, gm_token: str, command: str, **args) -> None:
    """The GM acts from a third process (a script, another server) on the same store."""
    store = RedisStore(redis_url)
    try:
        RoomRegistry(store).open_session(gm_token).act(command, **args)
    finally:
        store.close()


def contest_round(redis_url: str, room_id: str) -> int:
    from raisus_panel.room import Room
    store = RedisStore(redis_url)
    try:
        return Room.load(store, room_id).contest.round
    finally:
        store.close()


@pytest.fixture
def two_servers(redis_url):
    servers = [served(redis_url), served(redis_url)]
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.kill()


def opened(new_page, url: str, errors: list[str]):
    """A page on ``url`` whose script errors, and requests to anywhere but its own server (Panel's CDN
    for a page whose session another process made), go into ``errors``."""
    page = new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    origin = urlsplit(url).netloc

    def elsewhere(request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != origin:
            errors.append(f"a request to {parts.scheme}://{parts.netloc}{parts.path}")
    page.on("request", elsewhere)
    page.goto(url)
    return page


def first_round(gm, bob, spectator) -> None:
    """The GM opens round 1, Bob rolls it, and every page shows round 2 next."""
    expect(role_line(gm, "GM · Gina")).to_be_visible()
    expect(role_line(bob, "player · Bob")).to_be_visible()
    expect(button(bob, "contest.roll", n=1)).to_be_disabled()
    button(gm, "contest.open_round").click()
    expect(button(bob, "contest.roll", n=1)).to_be_enabled()
    button(bob, "contest.roll", n=1).click()
    expect(button(gm, "contest.roll", n=2)).to_be_attached()
    expect(spectator.locator(".raisus-contest-view")).to_contain_text(t("contest.next_round", n=2))
    charted(1, gm, bob, spectator)


#: Whether a page's charts hold round ``n``: the score chart's row (it has the dice faces) and the
#: odds chart's (it has P(win)), in the browser's own Bokeh document.
CHARTED = f"""n => {{
  const sources = [...Bokeh.documents].flatMap(d => [...d.all_models]).filter(m => m.type === 'ColumnDataSource');
  const has = column => sources.some(m => m.data[column] !== undefined && [...m.data.x].includes(n));
  if (has('faces') && has('p_win')) return true;
  // a watching page's charts are pictures: both reach round n
  const pictures = ({PICTURES_JS})();
  return ['score', 'odds'].every(kind => pictures.some(p => p.chart === kind && p.last >= n));
}}"""


def charted(n: int, *pages) -> None:
    """Every page's score and odds charts show round ``n`` (issue 10: a page whose session another
    process made lost the rounds decided while it was being drawn, while its text caught up)."""
    for page in pages:
        page.wait_for_function(CHARTED, arg=n, timeout=20_000)


def test_a_table_on_two_processes_plays_live_and_survives_a_killed_process(two_servers, redis_url, new_page):
    a, b = two_servers
    links = seed(redis_url)
    errors: list[str] = []
    gm = opened(new_page, f"{a.url}/dashboard?token={links['gm']}", errors)
    bob = opened(new_page, f"{b.url}/dashboard?token={links['bob']}", errors)
    spectator = opened(new_page, f"{b.url}/dashboard?token={links['spectator']}", errors)
    # the GM (process A) opens the round; Bob (process B) may roll at once; the roll reaches the
    # GM's page (A) and the spectator (B)
    first_round(gm, bob, spectator)
    shot(gm, "scale-out-gm-process-a")
    shot(spectator, "scale-out-spectator-process-b")

    # process A dies mid-game: its page says so; B's pages go on with the GM acting from elsewhere
    a.kill()
    expect(gm.locator("#raisus-offline")).to_be_visible()
    gm_acts(redis_url, links["gm"], "open_round", open=True)
    expect(button(bob, "contest.roll", n=2)).to_be_enabled()
    button(bob, "contest.roll", n=2).click()
    expect(spectator.locator(".raisus-contest-view")).to_contain_text(t("contest.next_round", n=3))
    charted(2, bob, spectator)
    assert contest_round(redis_url, links["room_id"]) == 2

    # A comes back: the GM's page reloads by itself and shows what happened meanwhile
    a.start()
    expect(gm.locator("#raisus-offline")).to_have_count(0, timeout=60_000)
    expect(button(gm, "contest.roll", n=3)).to_be_attached(timeout=60_000)
    charted(2, gm)
    assert not errors, errors


# -- behind nginx --------------------------------------------------------------------------------
class Nginx:
    """Debian's nginx running ``deploy/nginx.conf`` with this test's ports, in a scratch folder."""

    def __init__(self, folder: Path, upstreams: list[int]):
        self.folder = folder
        self.port = free_port()
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        servers = "".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n" for p in upstreams)
        conf, n = re.subn(r"(upstream raisus \{\n(?:\s*#.*\n)*)(?:\s*server .*\n)+", lambda m: m.group(1) + servers, conf)
        assert n == 1, "deploy/nginx.conf has no upstream block to point at the test's servers"
        conf = conf.replace("listen 8080;", f"listen 127.0.0.1:{self.port};")
        conf = conf.replace("/var/log/nginx/raisus.log", str(folder / "access.log"))
        conf = conf.replace("worker_processes auto;", "worker_processes 1;")
        self.conf = folder / "nginx.conf"
        self.conf.write_text(conf)
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://localhost:{self.port}"

    def start(self) -> "Nginx":
        cmd = [NGINX, "-p", str(self.folder), "-c", str(self.conf),
               "-g", f"daemon off; pid {self.folder / 'nginx.pid'}; error_log {self.folder / 'error.log'};"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.folder / 'error.log').read_text(errors='replace')[-2000:]}")
            try:
                urllib.request.urlopen(self.url + "/static/js/bokeh.min.js", timeout=2)
                return self
            except Exception:
                time.sleep(0.2)
        raise RuntimeError("nginx did not come up")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)


def open_websockets(server) -> int:
    """How many page websockets a server holds now, by its own log (Bokeh logs each open and close)."""
    text = Path(server.log).read_text(encoding="utf-8", errors="replace")
    return text.count("WebSocket connection opened") - text.count("WebSocket connection closed")


def test_behind_nginx_any_process_serves_any_page_and_one_may_die(redis_url, new_page, tmp_path):
    if not Path(NGINX).exists():
        message = f"nginx is required but {NGINX} does not exist (apt-get install nginx)"
        if os.environ.get("RAISUS_REQUIRE_REDIS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    ports = [free_port(), free_port()]
    folder = tmp_path / "nginx"
    folder.mkdir()
    nginx = Nginx(folder, ports)
    servers = [served(redis_url, "--use-xheaders", "--allow-websocket-origin", f"localhost:{nginx.port}")
               for _ in ports]
    for server, port in zip(servers, ports):
        server.port = port
        server.log = ARTIFACTS / f"server-{port}.log"
        server.start()
    nginx.start()
    try:
        links = seed(redis_url)
        errors: list[str] = []
        base = f"{nginx.url}/dashboard?token="
        gm = opened(new_page, base + links["gm"], errors)
        bob = opened(new_page, base + links["bob"], errors)
        spectator = opened(new_page, base + links["spectator"], errors)
        first_round(gm, bob, spectator)
        shot(spectator, "scale-out-nginx-spectator")

        # one process dies -- one that holds a page's websocket (nginx spreads them as it likes): the
        # pages that were on it reload through nginx onto the other
        loads = {"n": 0}
        for page in (gm, bob, spectator):
            page.on("load", lambda _: loads.__setitem__("n", loads["n"] + 1))
        victim = max(servers, key=open_websockets)
        assert open_websockets(victim) >= 1
        victim.kill()
        deadline = time.monotonic() + 60
        while loads["n"] < 1 and time.monotonic() < deadline:  # its pages see the socket close, then reload
            gm.wait_for_timeout(200)
        assert loads["n"] >= 1
        for who, page in (("gm", gm), ("bob", bob), ("spectator", spectator)):
            expect(page.locator("#raisus-offline"), who).to_have_count(0, timeout=60_000)
        expect(button(gm, "contest.roll", n=2)).to_be_attached(timeout=60_000)
        expect(spectator.locator(".raisus-contest-view")).to_contain_text(t("contest.next_round", n=2), timeout=60_000)
        button(gm, "contest.open_round").click()
        expect(button(bob, "contest.roll", n=2)).to_be_enabled(timeout=30_000)
        button(bob, "contest.roll", n=2).click()
        expect(button(gm, "contest.roll", n=3)).to_be_attached()
        expect(spectator.locator(".raisus-contest-view")).to_contain_text(t("contest.next_round", n=3))
        charted(2, gm, bob, spectator)
        assert contest_round(redis_url, links["room_id"]) == 2
        access = (folder / "access.log").read_text()
        assert "/dashboard" in access and "token" not in access  # the links' tokens never reach its log
        assert not errors, errors
    finally:
        nginx.stop()
        for server in servers:
            server.kill()
