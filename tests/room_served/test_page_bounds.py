"""Issue 21 (faults and abuse): websockets opened by anyone, with no link, are bounded.

Raw Bokeh sessions (``tests/wire.py``: a websocket, the document pulled, ``document_ready`` said, as
a browser page does) on the in-process dashboard, with small bounds set for the test: past the
bound of one address a page is a short refusal with no lobby in it; past twice the bound the
server closes the connection; a session that never says ``document_ready`` is let go; every
session stops counting once Bokeh destroyed it. ``benchmarks/bench_sockets.py`` measures the same
against ``raisus serve`` (memory, other pages' times).
"""

from __future__ import annotations

import asyncio
import time

import pytest
from bokeh.server.connection import ServerConnection
from bokeh.server.session import ServerSession

from raisus_panel import i18n
from raisus_panel.dashboard import bounds
from raisus_panel.i18n import t

from ..wire import WireSession, wait_for

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def small_bounds():
    """Three pages per address, no server bound, a page let go 2 s after it was made if it never drew."""
    before = bounds._bounds
    bounds._bounds = bounds.PageBounds(per_client=3, per_server=0, ready_within=2.0)
    try:
        yield bounds._bounds
    finally:
        bounds._bounds = before


def ws_url(served) -> str:
    return served.url.replace("http://", "ws://") + "/ws"


async def _closed(session: WireSession, timeout: float) -> bool:
    """Whether the server closed ``session``'s websocket within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if session._task is not None and session._task.done():
            return True
        await asyncio.sleep(0.05)
    return False


def test_past_the_bound_of_one_address_a_page_is_a_refusal_then_nothing(served, small_bounds):
    async def run():
        pages = []
        for i in range(7):
            page = WireSession(i)
            await page.open(ws_url(served), "")  # no link: the lobby
            pages.append(page)
        assert all("raisus-lobby" in p.pull_text and "raisus-busy" not in p.pull_text for p in pages[:3])
        for refused in pages[3:]:
            assert "raisus-busy" in refused.pull_text
            assert t("dashboard.busy.client", i18n.settings.lang) in refused.pull_text  # the server's language
        # a refusal is one pane, not a lobby: a small part of a lobby's document
        assert max(p.pull_models for p in pages[3:]) < min(p.pull_models for p in pages[:3]) / 3
        assert max(p.pull_bytes for p in pages[3:]) < min(p.pull_bytes for p in pages[:3]) / 2
        # pages 1-6 stay (the refusals so a person can read them); the 7th (twice the bound) is closed
        assert await _closed(pages[6], 5)
        assert not any([await _closed(p, 0.5) for p in pages[:6]])
        for page in pages:
            page.close()
    asyncio.run(run())
    # once Bokeh destroyed the closed sessions, nothing of this address is counted any more
    assert wait_for(lambda: small_bounds.count("127.0.0.1") == 0, 30), small_bounds.count("127.0.0.1")


def test_a_page_that_never_draws_itself_is_let_go(served, small_bounds):
    async def run():
        silent, drawn = WireSession(0), WireSession(1)
        await silent.open(ws_url(served), "", ready=False)  # pulls its document, never says it is drawn
        await drawn.open(ws_url(served), "")
        assert small_bounds.count("127.0.0.1") == 2
        assert await _closed(silent, 10), "a half-open page kept its session"
        assert not await _closed(drawn, 0.5)
        drawn.close()
    asyncio.run(run())
    assert wait_for(lambda: small_bounds.count("127.0.0.1") == 0, 30)


def test_bounds_from_the_environment(monkeypatch):
    monkeypatch.setenv("RAISUS_PAGES_PER_CLIENT", "5")
    monkeypatch.setenv("RAISUS_PAGES_PER_SERVER", "0")
    monkeypatch.setenv("RAISUS_PAGE_READY_WITHIN", "7.5")
    made = bounds.PageBounds.from_env()
    assert (made.per_client, made.per_server, made.ready_within) == (5, 0, 7.5)
    monkeypatch.setenv("RAISUS_PAGES_PER_CLIENT", "-1")
    with pytest.raises(ValueError, match="RAISUS_PAGES_PER_CLIENT"):
        bounds.PageBounds.from_env()


def test_the_server_bound_counts_every_address():
    limits = bounds.PageBounds(per_client=0, per_server=4)
    verdicts = [limits.admit(f"10.0.0.{i}", str(i))[0] for i in range(9)]
    assert verdicts == [bounds.PAGE] * 4 + [bounds.REFUSE] * 4 + [bounds.DROP]
    limits.release("10.0.0.0", "0")
    limits.release("10.0.0.0", "0")  # twice is harmless
    assert limits.total == 8


def test_the_bokeh_internals_that_end_a_session_are_still_there():
    """``bounds._let_go`` ends a session through these; they are private, so this fails when they change."""
    assert "_subscribed_connections" in ServerSession.__init__.__code__.co_names
    assert "_socket" in ServerConnection.__init__.__code__.co_names
    assert callable(ServerSession.request_expiration)
