"""How many pages the server keeps for whom: sessions bounded per client address and in all.

Anyone can open the dashboard's websocket, link or not: a Bokeh session token is any random id, and
each session built a whole page (the lobby is about 0.65 MB). 300 half-open sockets took a server
from 104 to 300 MB and slowed every other page. So, in this process:

- **per address** at most ``RAISUS_PAGES_PER_CLIENT`` pages (30), and at most
  ``RAISUS_PAGES_PER_SERVER`` (400) in all. Past either, a page is a short refusal that says why
  and what to do (:func:`refusal_page`: one pane, no room, no lobby); past twice either, the
  server does not keep even that: the connection is closed at once.
- **a page that never draws itself** -- a browser says ``document_ready`` within a second or two
  of connecting -- is let go ``RAISUS_PAGE_READY_WITHIN`` seconds (20) after it was made: its
  connection closed, its session expired. A half-open socket holds nothing for long.
- **memory given back**: once sessions are gone, the memory their pages held is returned to the
  system (``malloc_trim``, glibc), instead of staying with the process for good.

The count is a process's (each of ``--num-procs`` processes bounds its own pages); with
``--use-xheaders`` behind the proxy the address is the client's, not the proxy's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import threading
import time

from raisus_panel import upstream

from .settings import env_whole

log = logging.getLogger(__name__)

#: What a new session gets: a page, a refusal, or nothing (the connection closed).
PAGE, REFUSE, DROP = "page", "refuse", "drop"


class PageBounds:
    """The live sessions of this process by client address, and the bounds they are held to.

    Thread-safe. ``per_client`` or ``per_server`` 0 lifts that bound.
    """

    def __init__(self, per_client: int = 30, per_server: int = 400, ready_within: float = 20.0):
        self.per_client = per_client
        self.per_server = per_server
        self.ready_within = ready_within
        self._by_address: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls) -> "PageBounds":
        """The bounds ``RAISUS_PAGES_PER_CLIENT``, ``RAISUS_PAGES_PER_SERVER`` and
        ``RAISUS_PAGE_READY_WITHIN`` (seconds) set, else the defaults."""
        ready = os.environ.get("RAISUS_PAGE_READY_WITHIN", "").strip()
        return cls(per_client=env_whole("RAISUS_PAGES_PER_CLIENT", 30), per_server=env_whole("RAISUS_PAGES_PER_SERVER", 400),
                   ready_within=float(ready) if ready else 20.0)

    @property
    def total(self) -> int:
        """How many sessions are counted now."""
        with self._lock:
            return sum(len(ids) for ids in self._by_address.values())

    def count(self, address: str) -> int:
        """How many sessions of ``address`` are counted now."""
        with self._lock:
            return len(self._by_address.get(address, ()))

    def admit(self, address: str, session_id: str) -> tuple[str, str]:
        """Count a new session of ``address``; return what it gets (:data:`PAGE`, :data:`REFUSE` or
        :data:`DROP`) and, for a refusal, the catalog key of why."""
        with self._lock:  # counted as they were before this one
            mine = self._by_address.setdefault(address, set())
            used = ((self.per_client, len(mine), "dashboard.busy.client"),
                    (self.per_server, sum(len(ids) for ids in self._by_address.values()), "dashboard.busy.server"))
            mine.add(session_id)
        for times, verdict in ((2, DROP), (1, REFUSE)):
            for bound, count, key in used:
                if bound and count >= times * bound:
                    return verdict, key
        return PAGE, ""

    def release(self, address: str, session_id: str) -> None:
        """Stop counting a session (when it is destroyed; twice is harmless)."""
        with self._lock:
            ids = self._by_address.get(address)
            if ids is not None:
                ids.discard(session_id)
                if not ids:
                    del self._by_address[address]


#: This process's bounds (read from the environment when the first page is made).
_bounds: PageBounds | None = None
_bounds_lock = threading.Lock()


def bounds() -> PageBounds:
    """This process's :class:`PageBounds`."""
    global _bounds
    with _bounds_lock:
        if _bounds is None:
            _bounds = PageBounds.from_env()
        return _bounds


def guard(doc, address: str | None) -> tuple[str, str]:
    """Count the session of ``doc`` (from ``address``) and watch it; what it gets (see :meth:`PageBounds.admit`).

    The session is released when it is destroyed, let go if its page has not said
    ``document_ready`` within the bounds' ``ready_within`` seconds, and let go at once for
    :data:`DROP`. Outside a served session (a notebook, a test's document) every page is a page.
    """
    context = getattr(doc, "session_context", None) if doc is not None else None
    if context is None or not getattr(context, "id", None):
        return PAGE, ""
    address = address or "?"
    limits = bounds()
    session_id = str(context.id)
    verdict, key = limits.admit(address, session_id)
    ready = threading.Event()

    def destroyed(_context) -> None:
        limits.release(address, session_id)
        _trim_soon()

    import panel as pn

    pn.state.on_session_destroyed(destroyed)
    doc.on_event("document_ready", lambda event: ready.set())
    if verdict == DROP:
        log.warning("a page was not made: too many pages open (%s)", key.rsplit(".", 1)[-1])
        # once its connection is made (a websocket makes the session before it subscribes to it)
        doc.add_timeout_callback(lambda: _let_go(doc), 1000)
    elif limits.ready_within > 0:
        def unready() -> None:
            if not ready.is_set():
                log.info("a page that never drew itself was let go after %.0f s", limits.ready_within)
                _let_go(doc)
        doc.add_timeout_callback(unready, int(limits.ready_within * 1000))
    return verdict, key


def _let_go(doc) -> None:
    """Close the connections of ``doc``'s session, so that Bokeh discards it as unused.

    Bokeh has no public way for an application to end one of its sessions: ``ServerSession`` keeps
    its connections in ``_subscribed_connections`` (each a ``ServerConnection`` whose ``_socket`` is
    the websocket handler), reached through the session context's ``_session``. A session with no
    connection (a GET whose page never connected) is expired with ``request_expiration()``; one with
    connections must not be (Bokeh would discard it before their close is handled, and fail then). Gated on
    :mod:`raisus_panel.upstream`; ``tests/room_served/test_page_bounds.py`` fails when these names change.
    """
    if not upstream.tested("bokeh"):
        upstream.warn_untested("bokeh", "page bounds' ending of sessions", log)
        return
    session = getattr(doc.session_context, "_session", None)
    if session is None:
        return
    if not session._subscribed_connections:  # never connected (a GET alone): expire it now
        session.request_expiration()
    # a closed connection leaves the session unused: Bokeh discards it at its next check
    for connection in list(session._subscribed_connections):
        try:
            connection._socket.close()
        except Exception:  # already closing: nothing left to end
            pass


# -- memory given back ----------------------------------------------------------------------------
_TRIM_AFTER_S = 2.0
_trim_due = False
_trim_lock = threading.Lock()


def _libc():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


_LIBC = _libc()


def give_back_memory() -> None:
    """Collect garbage and return the C heap's free pages to the system (glibc's ``malloc_trim``).

    CPython keeps freed memory in its heap for reuse: after 300 sessions were gone the process stayed
    at its largest size. Without glibc (another C library) only the collection runs.
    """
    gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _trim_soon() -> None:
    """Give memory back once, a moment after a burst of sessions ended (on the server's loop)."""
    global _trim_due
    with _trim_lock:
        if _trim_due:
            return
        _trim_due = True
    from tornado.ioloop import IOLoop

    def trim() -> None:
        global _trim_due
        with _trim_lock:
            _trim_due = False
        start = time.monotonic()
        give_back_memory()
        log.debug("memory given back in %.0f ms", (time.monotonic() - start) * 1000)
    IOLoop.current().call_later(_TRIM_AFTER_S, trim)


def refusal_page(key: str, lang: str):
    """The page a session past the bounds gets: one pane saying why, in ``lang``."""
    import panel as pn

    from raisus_panel.i18n import t
    from raisus_panel.ui.kit import esc

    return pn.pane.Alert(f"**{esc(t('dashboard.busy', lang))}** {esc(t(key, lang))}", alert_type="warning",
                         css_classes=["raisus-busy"])
