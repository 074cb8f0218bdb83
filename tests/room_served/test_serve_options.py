"""``raisus serve`` hands the session-token lifetime to Panel/Bokeh, and turns Bokeh's reconnect off.

A page older than its session token can only come back by reloading (``dashboard/reconnect.py``),
so the lifetime is an option (``--session-token-expiration`` or ``RAISUS_SESSION_TOKEN_EXPIRATION``)
and Bokeh's default of 300 s stays the default. ``pn.serve`` is replaced here: nothing is served.
"""

from __future__ import annotations

import logging

import panel as pn
import pytest

from raisus_panel import cli
from raisus_panel.dashboard import redact
from raisus_panel.dashboard.settings import session_token_expiration


@pytest.fixture
def served_with(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr(pn, "serve", lambda *a, **kw: calls.append(kw))
    monkeypatch.delenv("RAISUS_SESSION_TOKEN_EXPIRATION", raising=False)
    monkeypatch.setenv("RAISUS_DB", str(tmp_path / "rooms.sqlite"))
    monkeypatch.setenv("RAISUS_STORE", "")  # raisus serve sets it: restored after the test
    before = pn.config.reconnect

    def serve(*options):
        assert cli.main(["serve", "--db", str(tmp_path / "rooms.sqlite"), *options]) == 0
        return calls[-1]

    yield serve
    pn.config.reconnect = before


def test_the_default_lifetime_is_bokehs(served_with):
    assert served_with()["session_token_expiration"] == 300
    assert pn.config.reconnect is False  # a page reloads instead (dashboard/reconnect.py)
    assert redact._installed  # before the first request is logged


def test_the_option_and_the_environment_set_the_lifetime(served_with, monkeypatch):
    assert served_with("--session-token-expiration", "20")["session_token_expiration"] == 20
    monkeypatch.setenv("RAISUS_SESSION_TOKEN_EXPIRATION", "45")
    assert served_with()["session_token_expiration"] == 45
    assert served_with("--session-token-expiration", "7")["session_token_expiration"] == 7


@pytest.mark.parametrize("raw", ["0", "-3", "soon"])
def test_a_lifetime_that_is_not_whole_seconds_is_refused(monkeypatch, raw):
    monkeypatch.setenv("RAISUS_SESSION_TOKEN_EXPIRATION", raw)
    with pytest.raises(ValueError):
        session_token_expiration()


def test_log_level_shows_requests_with_tokens_redacted(served_with, caplog):
    served_with("--log-level", "warning")
    token = "RoomIdAbCdEf.0123456789abcdefghijklmnopqrstuvwxyzABCDEFG_-"
    logging.getLogger("tornado.access").warning("404 GET /dashboard/ws?token=%s (127.0.0.1)", token)
    assert token not in caplog.text and "token=<redacted>" in caplog.text
