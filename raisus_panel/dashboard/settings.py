"""Where the served dashboard keeps its rooms, and how links to it are made."""

from __future__ import annotations

import os
from urllib.parse import urlencode

import panel as pn

#: The SQLite file of the embedded store when ``RAISUS_DB`` is not set.
DEFAULT_DB = "raisus.sqlite"


def db_path() -> str:
    """The SQLite file that keeps every room: ``RAISUS_DB``, or ``raisus.sqlite`` in the working directory."""
    return os.environ.get("RAISUS_DB") or DEFAULT_DB


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
