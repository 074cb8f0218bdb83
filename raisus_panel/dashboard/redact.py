"""Keep link tokens out of the server's log.

A room link's token is the whole secret of a GM, a player or a spectator, and it travels in URLs
(``/dashboard?token=…`` and the websocket's ``/dashboard/ws?token=…``). Tornado writes request URLs
into its access log and into every "Uncaught exception GET …" record, Bokeh writes whole messages
when one fails, so without care a GM's link ends up in the output of the server and in whatever
collects it.

:func:`install` makes every log record of the process redacted where it is made (a record factory),
so no logger or handler configured before or after can see a token; :class:`RedactTokens` is the same
as a :class:`logging.Filter`, for handlers a deployment adds itself. Records are also cut to
:data:`MAX_MESSAGE` characters: a hostile client's 20 MB message must not become 20 MB of log.
"""

from __future__ import annotations

import logging
import re
import threading
import traceback

__all__ = ["MAX_MESSAGE", "REDACTED", "RedactTokens", "install", "redact"]

#: What a token is replaced with.
REDACTED = "<redacted>"

#: The longest message (and traceback) a record keeps, in characters.
MAX_MESSAGE = 4000

# ``token=…`` in a query string, URL-encoded or not, and ``'token': [b'…']`` in a repr of arguments
_QUERY = re.compile(r"(?i)(token(?:=|%3D))[^&\s'\"<>]+")
_ARGS = re.compile(r"""(?i)(['"]token['"]\s*:\s*\[?\s*b?['"])[^'"]+""")
# a link token itself, wherever it appears: "<room id>.<43 characters of base64url>" (room/tokens.py)
# (a match starts only where a run of token characters starts: linear time on long runs)
_LINK = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{40,}")


def redact(text: str) -> str:
    """``text`` with every link token (and every ``token=`` value) replaced by :data:`REDACTED`."""
    if not text:
        return text
    text = _QUERY.sub(lambda m: m.group(1) + REDACTED, text)
    text = _ARGS.sub(lambda m: m.group(1) + REDACTED, text)
    return _LINK.sub(REDACTED, text)


def _redact_cut(text: str) -> str:
    """``text`` redacted and cut to :data:`MAX_MESSAGE` characters (a token cut in two is not left half)."""
    if len(text) <= MAX_MESSAGE:
        return redact(text)
    head = redact(text[:MAX_MESSAGE + 200])[:MAX_MESSAGE]
    return f"{head} … [{len(text) - MAX_MESSAGE} more characters not logged]"


#: (logger, how its message begins) of the records Bokeh makes when a client's message is malformed
#: or tampered with (bad JSON, an unknown type, a PATCH-DOC for a model that does not exist): the
#: client's fault, not the server's, so one short line without the traceback or the message
CLIENT_FAULTS = (
    ("bokeh.server.protocol_handler", "error handling message"),
    ("bokeh.server.views.ws", "Unhandled exception receiving a message"),
    ("bokeh.server.views.ws", "Handler or its work threw an exception"),
)


def _client_fault(record: logging.LogRecord) -> bool:
    """Shorten a record of a refused client message in place to one line; True if it was one."""
    if not record.name.startswith("bokeh.server") or not isinstance(record.msg, str):
        return False
    head = next((start for name, start in CLIENT_FAULTS
                 if record.name == name and record.msg.startswith(start)), None)
    if head is None:
        return False
    kind = type(record.exc_info[1]).__name__ if record.exc_info and record.exc_info[1] else "error"
    record.msg, record.args = f"refused a client's message: {head} ({kind})", None
    record.exc_info = record.exc_text = record.stack_info = None
    return True


def _clean(record: logging.LogRecord) -> logging.LogRecord:
    """Redact ``record`` in place: its message (with its args merged in) and its traceback text."""
    if _client_fault(record):
        return record
    try:
        message = record.getMessage()
    except Exception:  # a bad format string: keep what can be kept
        message = f"{record.msg!s} {record.args!r}"
    record.msg, record.args = _redact_cut(message), None
    if record.exc_info and not record.exc_text:
        record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
    if record.exc_text:
        record.exc_text = _redact_cut(record.exc_text)
    return record


class RedactTokens(logging.Filter):
    """A logging filter that redacts link tokens from each record's message, args and traceback.

    Examples
    --------
    >>> handler = logging.StreamHandler()
    >>> handler.addFilter(RedactTokens())
    """

    def filter(self, record: logging.LogRecord) -> bool:
        _clean(record)
        return True


_installed = False
_lock = threading.Lock()


def install() -> None:
    """Redact every log record this process makes, from any logger, from now on (idempotent).

    Also puts :class:`RedactTokens` on the root logger's handlers and on Python's last-resort
    handler, which covers records made before this call but written after it.
    """
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
        make = logging.getLogRecordFactory()

        def factory(*args, **kwargs):
            return _clean(make(*args, **kwargs))

        logging.setLogRecordFactory(factory)
        for handler in [*logging.getLogger().handlers, logging.lastResort]:
            if handler is not None and not any(isinstance(f, RedactTokens) for f in handler.filters):
                handler.addFilter(RedactTokens())
