"""Browser fixtures: a real `panel serve` process and Debian's Chromium driven by Playwright.

Playwright's own browser download does not work on these machines, so we launch the system
Chromium (``RAISUS_CHROMIUM``, default ``/usr/bin/chromium``). Without it the browser tests skip,
unless ``RAISUS_REQUIRE_BROWSER=1`` (CI), where a missing browser is a failure.
Screenshots go to ``test-artifacts/`` (not committed).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from ..wire import free_port  # noqa: F401  (re-exported: the browser tests import it from here)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("RAISUS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage",
                 # hermetic: the served app must work without the internet, so no host but the test
                 # server resolves (a request for a CDN fails at once instead of waiting on DNS)
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


#: (log file, offset) of every server start, for :func:`no_server_tracebacks`
_STARTS: list[tuple[Path, int]] = []

#: Tracebacks a server may log without a bug of ours, each with its reason (a marker in the traceback).
ALLOWED_TRACEBACKS = {
    # tornado writing an update to a page whose browser context the test just closed (or a killed
    # server's peer): the write fails, nothing of the page is left to be wrong
    "WebSocketClosedError": "an update raced the closing of its page",
    "StreamClosedError": "an update raced the closing of its page",
    # a page older than its session token reconnecting (tests/browser/test_reconnect.py): Bokeh
    # refuses the token, and the page then loads a fresh session by itself
    "Token is expired": "an old page's refused token, before it gets a fresh session",
}

_TRACEBACK = re.compile(r"^Traceback \(most recent call last\):$", re.M)
#: a log line of its own (a timestamp, or a logger's level) ends a traceback
_NEXT_RECORD = re.compile(r"^(\d{4}-\d\d-\d\d |[A-Z]+:|Launching|Bokeh app running)", re.M)


def tracebacks(text: str) -> list[str]:
    """The tracebacks in a server's output that no entry of :data:`ALLOWED_TRACEBACKS` explains."""
    found = []
    for match in _TRACEBACK.finditer(text):
        end = _NEXT_RECORD.search(text, match.end())
        block = text[match.start():end.start() if end else len(text)]
        if not any(marker in block for marker in ALLOWED_TRACEBACKS):
            found.append(block)
    return found


@pytest.fixture(scope="module", autouse=True)
def no_server_tracebacks():
    """After each module: fail if a server it started logged a traceback (a view changed outside its
    page's document, a broken callback...): what a page shows after one is not guaranteed."""
    first = len(_STARTS)
    yield
    found = []
    for log, offset in _STARTS[first:]:
        if log.exists():
            with open(log, "rb") as f:
                f.seek(offset)
                text = f.read().decode("utf-8", "replace")
            found += [f"{log.name}:\n{block}" for block in tracebacks(text)]
    if found:
        pytest.fail("the server logged tracebacks:\n" + "\n".join(found), pytrace=False)


class Server:
    """A `panel serve` subprocess on a free loopback port; can be killed and started again."""

    def __init__(self, args: list[str], env: dict | None = None):
        self.port = free_port()
        self.args = args
        # every page of a test comes from this machine, and a closed page counts until Bokeh discards
        # it (up to half a minute): the per-address page bound is lifted unless a test sets it
        self.env = {"RAISUS_PAGES_PER_CLIENT": "0", **os.environ, **(env or {})}
        self.proc: subprocess.Popen | None = None
        self.log = ARTIFACTS / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://localhost:{self.port}"

    def start(self, timeout: float = 60) -> "Server":
        ARTIFACTS.mkdir(exist_ok=True)
        cmd = [sys.executable, "-m", "panel", "serve", *self.args, "--port", str(self.port),
               "--address", "127.0.0.1", "--liveness", "--allow-websocket-origin", f"localhost:{self.port}",
               "--allow-websocket-origin", f"127.0.0.1:{self.port}"]
        # where this start's output begins in the (appended) log: checked for tracebacks after the module
        _STARTS.append((self.log, self.log.stat().st_size if self.log.exists() else 0))
        self._logfile = open(self.log, "ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=self._logfile,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"panel serve exited early; see {self.log}")
            try:
                urllib.request.urlopen(self.url + "/liveness", timeout=2)
                return self
            except Exception:
                time.sleep(0.3)
        self.kill()  # do not leave a half-started server behind
        raise RuntimeError(f"panel serve did not come up in {timeout}s; see {self.log}")

    def kill(self) -> None:
        """SIGKILL the whole server process group: no clean shutdown, as in a crash."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        if getattr(self, "_logfile", None):
            self._logfile.close()

    stop = kill


# module scope: sync Playwright keeps an event loop running in this thread while it is open, which
# would break later tests that run their own loop (tests/room_served)
@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("RAISUS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"Chromium is required (RAISUS_REQUIRE_BROWSER=1) but {CHROMIUM} does not exist")
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    """Open pages in fresh browser contexts (separate people); all closed after the test."""
    contexts = []

    def _new(url: str | None = None, **kw):
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, **kw)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        if url:
            page.goto(url)
        return page

    yield _new
    for context in contexts:
        context.close()


def shot(page, name: str) -> Path:
    """Save a screenshot as a test artifact."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
