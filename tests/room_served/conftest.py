"""The dashboard served in-process, for the tests of served sessions.

Panel's threaded server runs on a free loopback port on a fresh temporary SQLite file through
``RAISUS_DB``, as ``apps/dashboard.py`` finds its registry (``get_registry`` caches one registry per
path, so each test module gets a file and a server of its own).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import traceback

import panel as pn
import pytest

from raisus_panel.dashboard import create_app
from raisus_panel.room import get_registry

from ..siege import siege_room
from ..wire import free_port
from ..wire import wait_for as _wait_for

#: The server's unused-session lifetime and check interval (ms): closed sessions go at once.
LIFETIME_MS = 100


class Served:
    """The dashboard served in a thread: its URL, its registry, and a way onto its event loop."""

    def __init__(self, db_path: str):
        self.registry = get_registry(db_path)  # the very registry create_app() finds through RAISUS_DB
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/dashboard"
        self.thread = pn.serve({"dashboard": create_app}, port=self.port, address="127.0.0.1", threaded=True,
                               show=False, websocket_origin=[f"127.0.0.1:{self.port}"],
                               check_unused_sessions_milliseconds=LIFETIME_MS,
                               unused_session_lifetime_milliseconds=LIFETIME_MS)
        assert _wait_for(self._listening, 30), "the dashboard did not start"

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def on_loop(self, fn):
        """Run ``fn`` on the server's event loop, between the sessions' callbacks, and return its result.

        No session's document is current there (as for a room thread), so every view must reach its
        own document by a next-tick callback -- the path a change made elsewhere takes.
        """
        done, out = threading.Event(), {}

        def run():
            try:
                out["value"] = fn()
            except BaseException as exc:  # re-raised in the test
                out["error"] = exc
            done.set()
        self.thread.asyncio_loop.call_soon_threadsafe(run)
        assert done.wait(60), "the server's loop did not run the call"
        if "error" in out:
            raise out["error"]
        return out.get("value")

    def stop(self) -> None:
        self.thread.stop()
        self.thread.join(10)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("served") / "rooms.sqlite")
    before = os.environ.get("RAISUS_DB")
    os.environ["RAISUS_DB"] = db
    server = Served(db)
    try:
        yield server
    finally:
        server.stop()
        server.registry.store.close()
        if before is None:
            os.environ.pop("RAISUS_DB", None)
        else:
            os.environ["RAISUS_DB"] = before


def make_room(registry):
    """The Siege room (see ``tests/siege.py``): returns the room, its links by role and the uids."""
    return siege_room(registry, "Cleanup")


class _Tracebacks(logging.Handler):
    """Collects the server's error records that carry a traceback (or a RuntimeError's message)."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or "RuntimeError" in record.getMessage() or "Traceback" in record.getMessage():
            self.records.append(record)


#: (logger name, message part, why it is allowed) for every served test; a test module may add its
#: own in a module-level ``ALLOWED_TRACEBACKS`` (the hostile messages' details go to the log by design)
ALLOWED_TRACEBACKS: list[tuple[str, str, str]] = []

#: never allowed, whatever a module allows: a page's model changed outside its document's lock
NEVER_ALLOWED = "_pending_writes"


@pytest.fixture(autouse=True)
def no_server_tracebacks(request):
    """Fail a served test whose server logged a traceback (a view changed from outside its document,
    a broken callback): whatever a page shows after one is not guaranteed."""
    allowed = ALLOWED_TRACEBACKS + list(getattr(request.module, "ALLOWED_TRACEBACKS", []))
    handler = _Tracebacks()
    loggers = [logging.getLogger(name) for name in ("", "bokeh", "tornado", "raisus_panel", "panel")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    seen, found = set(), []
    for record in handler.records:
        if id(record) in seen:
            continue
        seen.add(id(record))
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        if NEVER_ALLOWED not in text and any(record.name.startswith(n) and part in record.getMessage()
                                             for n, part, _ in allowed):
            continue
        found.append(f"{record.name}: {text}")
    assert not found, "the server logged tracebacks:\n" + "\n".join(found)
