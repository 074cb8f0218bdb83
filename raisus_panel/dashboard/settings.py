"""Where the served dashboard keeps its rooms, its limits, and how links to it are made."""

from __future__ import annotations

import os
from urllib.parse import urlencode

import panel as pn

#: The SQLite file of the embedded store when ``RAISUS_DB`` is not set.
DEFAULT_DB = "raisus.sqlite"


def db_path() -> str:
    """The SQLite file that keeps every room: ``RAISUS_DB``, or ``raisus.sqlite`` in the working directory."""
    return os.environ.get("RAISUS_DB") or DEFAULT_DB


def store_url() -> str:
    """The store that keeps every room: ``RAISUS_STORE`` (``redis://HOST:PORT/DB`` to share rooms between
    server processes, or ``sqlite:///FILE``), else the SQLite file :func:`db_path`."""
    return os.environ.get("RAISUS_STORE", "").strip() or db_path()


def query_param(name: str) -> str:
    """A query parameter of this session's URL (``?token=...``), or ""."""
    args = pn.state.session_args or {}
    values = args.get(name) or []
    value = values[0] if values else b""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def app_base_url() -> str:
    """This app's URL as the browser reached it, e.g. ``http://table.local:5006/dashboard``."""
    headers = pn.state.headers or {}
    host = headers.get("X-Forwarded-Host") or headers.get("Host") or "localhost:5006"
    proto = headers.get("X-Forwarded-Proto") or "http"
    path = pn.state.app_url or "/dashboard"
    return f"{proto}://{host}{path}"


def link(token: str, base: str | None = None) -> str:
    """The URL that opens a room with ``token`` (the token is the whole secret: share it only on purpose)."""
    return f"{base or app_base_url()}?{urlencode({'token': token})}"


#: How long a page's Bokeh session token is accepted, in seconds, when ``RAISUS_SESSION_TOKEN_EXPIRATION``
#: is not set (Bokeh's own default). A page older than that never reconnects: it reloads instead.
DEFAULT_SESSION_TOKEN_EXPIRATION = 300


def session_token_expiration() -> int:
    """Seconds a page's session token is accepted: ``RAISUS_SESSION_TOKEN_EXPIRATION``, or 300.

    Raises ``ValueError`` for a value that is not a whole number of seconds of at least 1.
    """
    raw = os.environ.get("RAISUS_SESSION_TOKEN_EXPIRATION", "").strip()
    if not raw:
        return DEFAULT_SESSION_TOKEN_EXPIRATION
    seconds = int(raw)
    if seconds < 1:
        raise ValueError(f"RAISUS_SESSION_TOKEN_EXPIRATION must be at least 1 second, not {raw}")
    return seconds


# -- limits ---------------------------------------------------------------------------------------
def env_whole(name: str, default: int) -> int:
    """The whole number 0 or more in the environment variable ``name`` (``default`` when unset or blank)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    value = int(raw)
    if value < 0:
        raise ValueError(f"{name} must be 0 or more, not {raw}")
    return value


def limits():
    """The server's limits (:class:`~raisus_panel.room.limits.Limits`) from the environment.

    ``RAISUS_MAX_UPLOAD_MB`` (the largest room file, 5 by default), ``RAISUS_ROOMS_PER_CLIENT`` (10)
    and ``RAISUS_ROOMS_PER_SERVER`` (200): rooms created or imported per hour by one address and by
    the whole server; 0 lifts a room limit. ``raisus serve`` sets them from its options.
    ``RAISUS_COMMAND_BURST`` (30) and ``RAISUS_COMMANDS_PER_MINUTE`` (60): the commands one link may
    send at once and each minute after that; a burst of 0 lifts the limit.
    """
    from raisus_panel.room.limits import SERVED_COMMAND_BURST, Limits

    default = Limits()
    mb = os.environ.get("RAISUS_MAX_UPLOAD_MB", "").strip()
    upload = round(float(mb) * 1_000_000) if mb else default.max_upload_bytes
    if upload < 1:
        raise ValueError(f"RAISUS_MAX_UPLOAD_MB must be above 0, not {mb}")
    return Limits(max_upload_bytes=upload,
                  rooms_per_client=env_whole("RAISUS_ROOMS_PER_CLIENT", default.rooms_per_client),
                  rooms_per_server=env_whole("RAISUS_ROOMS_PER_SERVER", default.rooms_per_server),
                  command_burst=env_whole("RAISUS_COMMAND_BURST", SERVED_COMMAND_BURST),
                  commands_per_minute=env_whole("RAISUS_COMMANDS_PER_MINUTE", default.commands_per_minute))


def websocket_max_message_size(max_upload_bytes: int) -> int:
    """The websocket message size the server must accept so a room file of ``max_upload_bytes`` arrives.

    The file travels as a JSON string, whose escapes can double its size; Bokeh's own default
    (20 MB) is kept when it is enough. Over this size Tornado closes the page's connection without
    a word, so the page checks the file's size before sending it (``dashboard/upload.py``).
    """
    return max(20 * 1024 * 1024, 2 * max_upload_bytes + 1024 * 1024)


def client_address() -> str | None:
    """The address this session's browser connected from (what room limits count per client), or None."""
    doc = pn.state.curdoc
    context = getattr(doc, "session_context", None) if doc is not None else None
    request = getattr(context, "request", None) if context is not None else None
    return getattr(request, "remote_ip", None) if request is not None else None
