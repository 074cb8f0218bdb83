"""Issue 9: the server's limits come from ``raisus serve`` options or the environment, and the
websocket accepts a message as large as the upload limit lets through (else the page is cut off).

``pn.serve`` is replaced here: nothing is served.
"""

from __future__ import annotations

import panel as pn
import pytest

from raisus_panel import cli
from raisus_panel.dashboard.settings import limits, websocket_max_message_size
from raisus_panel.room.limits import SERVED_COMMAND_BURST, Limits

#: ``raisus serve`` sets RAISUS_STORE in this process: restored after, or later tests serve its store
_VARIABLES = ("RAISUS_MAX_UPLOAD_MB", "RAISUS_ROOMS_PER_CLIENT", "RAISUS_ROOMS_PER_SERVER", "RAISUS_STORE",
              "RAISUS_COMMAND_BURST", "RAISUS_COMMANDS_PER_MINUTE")


@pytest.fixture
def clean_env(monkeypatch):
    for name in _VARIABLES:  # set, then removed: monkeypatch then restores them after raisus serve set them
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    return monkeypatch


def test_limits_default_and_come_from_the_environment(clean_env):
    # a served dashboard limits each link's commands; a script's Limits() does not
    assert limits() == Limits(command_burst=SERVED_COMMAND_BURST)
    clean_env.setenv("RAISUS_COMMAND_BURST", "5")
    clean_env.setenv("RAISUS_COMMANDS_PER_MINUTE", "20")
    assert limits() == Limits(command_burst=5, commands_per_minute=20)
    clean_env.setenv("RAISUS_COMMAND_BURST", "0")
    clean_env.setenv("RAISUS_MAX_UPLOAD_MB", "1.5")
    clean_env.setenv("RAISUS_ROOMS_PER_CLIENT", "0")
    clean_env.setenv("RAISUS_ROOMS_PER_SERVER", "30")
    assert limits() == Limits(max_upload_bytes=1_500_000, rooms_per_client=0, rooms_per_server=30, command_burst=0,
                              commands_per_minute=20)
    clean_env.setenv("RAISUS_ROOMS_PER_SERVER", "-1")
    with pytest.raises(ValueError, match="RAISUS_ROOMS_PER_SERVER"):
        limits()


def test_the_websocket_takes_a_file_as_large_as_the_limit_even_when_escaped():
    assert websocket_max_message_size(5_000_000) == 20 * 1024 * 1024  # Bokeh's default is enough
    assert websocket_max_message_size(50_000_000) > 2 * 50_000_000


def test_raisus_serve_passes_the_limits_and_the_websocket_size(clean_env, tmp_path):
    calls = []
    clean_env.setattr(pn, "serve", lambda *a, **kw: calls.append(kw))
    clean_env.setenv("RAISUS_DB", str(tmp_path / "rooms.sqlite"))
    before = pn.config.reconnect
    try:
        assert cli.main(["serve", "--db", str(tmp_path / "rooms.sqlite"), "--max-upload-mb", "40",
                         "--rooms-per-client", "3", "--rooms-per-server", "50"]) == 0
    finally:
        pn.config.reconnect = before
    assert limits() == Limits(max_upload_bytes=40_000_000, rooms_per_client=3, rooms_per_server=50,
                              command_burst=SERVED_COMMAND_BURST)
    assert calls[-1]["websocket_max_message_size"] >= 2 * 40_000_000
