"""dashboard/wire.py's send_utf8 and dashboard/reconnect.py's stop of Bokeh's retries are still needed.

Each leans on a Bokeh inside (raisus_panel/upstream.py's table): these fail when Bokeh changes it,
and check that on another Bokeh the hook stays off and says so. No server here.
"""

from __future__ import annotations

import inspect
import logging
from pathlib import Path
from types import SimpleNamespace

import bokeh
from bokeh.core import json_encoder
from bokeh.document import Document
from bokeh.protocol import Protocol, message

from raisus_panel import upstream
from raisus_panel.dashboard import reconnect, wire

KOREAN = "바이킹이 이겼다"


def test_upstream_messages_carry_hangul_as_escapes(monkeypatch):
    """Bokeh writes a message's content with the serialize_json its message module imported, which
    escapes every non-ASCII character: fails once Bokeh sends UTF-8 itself (send_utf8 can go)."""
    monkeypatch.setattr(message, "serialize_json", json_encoder.serialize_json)
    assert "serialize_json(self.payload)" in inspect.getsource(message.Message)
    reply = Protocol().create("ERROR", "1", KOREAN)
    assert KOREAN not in reply.content_json and "\\ubc14" in reply.content_json


def test_send_utf8_sends_hangul_as_itself(monkeypatch):
    monkeypatch.setattr(message, "serialize_json", json_encoder.serialize_json)
    wire.send_utf8()
    assert KOREAN in Protocol().create("ERROR", "1", KOREAN).content_json


def test_send_utf8_stays_off_on_another_bokeh(monkeypatch, caplog):
    monkeypatch.setattr(message, "serialize_json", json_encoder.serialize_json)
    monkeypatch.setattr(bokeh, "__version__", "3.10.0")
    monkeypatch.setattr(upstream, "_warned", set())
    with caplog.at_level(logging.WARNING, logger=wire.log.name):
        wire.send_utf8()
    assert message.serialize_json is json_encoder.serialize_json
    assert "send_utf8() was written for bokeh 3.9.x, not 3.10.0" in caplog.text


def _bokeh_js() -> str:
    return (Path(bokeh.__file__).parent / "server" / "static" / "js" / "bokeh.js").read_text(encoding="utf-8")


def test_upstream_connection_lost_holds_the_connection_that_retries():
    """BokehJS's ConnectionLost holds its ClientConnection (a WeakRef), which retries unless
    ``closed_permanently``: what ON_CONNECTION_LOST sets. Fails when BokehJS names them otherwise."""
    js = _bokeh_js()
    assert "new bokeh_events_1.ConnectionLost(new WeakRef(this)" in js
    assert "this.connection = connection;" in js[js.index("class ConnectionLost"):]
    assert "if (!this.closed_permanently && !_prevent_reconnect)" in js
    assert "connection.closed_permanently = true" in reconnect.ON_CONNECTION_LOST


class _Served(Document):
    session_context = SimpleNamespace(id="served")  # as a served session's document has


def _stop_retries(doc) -> bool:
    [callback] = doc.callbacks.js_event_callbacks["connection_lost"]
    assert "stop_retries" in callback.code
    return callback.args["stop_retries"]


def test_the_retries_are_stopped_on_the_tested_bokeh_only(monkeypatch, caplog):
    doc = _Served()
    reconnect.watch_connection(doc, "ko")
    assert _stop_retries(doc) is True
    monkeypatch.setattr(bokeh, "__version__", "4.0.0")
    monkeypatch.setattr(upstream, "_warned", set())
    with caplog.at_level(logging.WARNING, logger=reconnect.log.name):
        doc = _Served()
        reconnect.watch_connection(doc, "ko")
    assert _stop_retries(doc) is False  # the banner and the reload stay
    assert "stop of Bokeh's retries was written for bokeh 3.9.x, not 4.0.0" in caplog.text
