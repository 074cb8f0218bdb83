"""Which store a server uses, named by one string: a SQLite file, or a Redis database shared by processes.

``raisus serve --store`` and ``RAISUS_STORE`` take these forms:

* ``sqlite:///relative/path.sqlite``, ``sqlite:////absolute/path.sqlite`` or a plain file path:
  the embedded SQLite store (the default, ``raisus.sqlite``); one server process.
* ``redis://HOST:PORT/DB`` (``rediss://`` for TLS, ``unix:///path/redis.sock?db=N``): the Redis
  store; any number of server processes, on any machines, share its rooms.
* ``memory:``: rooms in this process only, gone when it stops (demos and tests).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from .errors import StoreError
from .store import MemoryStore, Store

#: The URL schemes of the Redis store.
REDIS_SCHEMES = ("redis", "rediss", "unix")


def _scheme(where: str) -> str:
    head, sep, _ = where.partition(":")
    # "C:\\rooms.sqlite" or "rooms.sqlite" are paths; a scheme is letters before "://" (or "memory:")
    return head.lower() if sep and (where[len(head):].startswith("://") or where == "memory:") else ""


def is_shared(where: str | os.PathLike[str]) -> bool:
    """Whether the store ``where`` names can be shared by several server processes (Redis)."""
    return _scheme(str(where)) in REDIS_SCHEMES


def sqlite_path(where: str | os.PathLike[str]) -> Path:
    """The file of a ``sqlite:///...`` URL or plain path."""
    text = str(where)
    if _scheme(text) == "sqlite":  # sqlite:///relative.sqlite, sqlite:////absolute.sqlite
        text = text.split("://", 1)[1]
        text = text[1:] if text.startswith("/") else text
    return Path(text)


def store_key(where: str | os.PathLike[str] | None) -> str:
    """One name per store, so a process opens each store once (file paths resolved)."""
    if where is None or str(where) == "memory:":
        return "memory:"
    text = str(where)
    if is_shared(text):
        return text
    return f"sqlite:///{sqlite_path(text).resolve()}"


def open_store(where: str | os.PathLike[str] | None) -> Store:
    """Open the store ``where`` names (see the module docstring); None or ``memory:`` is in memory.

    Raises
    ------
    StoreError
        ``error.store.bad_url`` for a scheme it does not know; ``error.store.unavailable`` if Redis
        cannot be reached; the SQLite store's errors for a file it cannot use.
    """
    if where is None or str(where) == "memory:":
        return MemoryStore()
    text = str(where)
    scheme = _scheme(text)
    if scheme in REDIS_SCHEMES:
        from .redis_store import RedisStore
        return RedisStore(text)
    if scheme not in ("", "sqlite"):
        shown = f"{scheme}://{urlsplit(text).hostname or ''}"
        raise StoreError(f"Not a store address: {shown} (use sqlite:///FILE or redis://HOST:PORT/DB).",
                         key="error.store.bad_scheme", url=shown)
    from .sqlite_store import SQLiteStore
    return SQLiteStore(sqlite_path(text))
