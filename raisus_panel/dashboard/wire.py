"""What the served dashboard sends on its websockets: text as UTF-8, not as ``\\u`` escapes.

Bokeh writes every websocket message with Python's JSON encoder in its ASCII-only mode, so each
Hangul syllable of a Korean page travels as a six-byte ``\\uXXXX`` escape instead of three bytes of
UTF-8 -- twice the size for the texts that change on every roll. :func:`send_utf8` makes Bokeh's
protocol messages (and only those: not HTML files, not notebook output) encode non-ASCII text as
itself. Websocket text frames are UTF-8 by definition and BokehJS reads them with ``JSON.parse``,
which takes any JSON string, so nothing changes for the browser but the size.

:func:`short_errors` makes the server's answer to a message it cannot apply a short refusal,
without the Python traceback Bokeh would send back.
"""

from __future__ import annotations

import warnings

from bokeh.core.json_encoder import PayloadEncoder
from bokeh.core.serialization import Serialized
from bokeh.protocol import message


class _UTF8Encoder(PayloadEncoder):
    """Bokeh's payload encoder, writing non-ASCII characters as themselves."""

    def __init__(self, **params):
        super().__init__(**params)
        self.ensure_ascii = False


def _serialize_utf8(obj, *, pretty=None, indent=None) -> str:
    content = obj.content if isinstance(obj, Serialized) else obj
    return _UTF8Encoder(separators=(",", ":")).encode(content)


def send_utf8() -> None:
    """Make Bokeh's websocket messages carry non-ASCII text as UTF-8 (idempotent, process-wide)."""
    message.serialize_json = _serialize_utf8


# -- refusals without internals ---------------------------------------------------------------------
#: The text of every ERROR reply the server sends: what failed stays in the server's log.
REFUSAL = "The server refused this message."

#: The Bokeh versions whose ``ServerConnection.error`` this shim replaces (checked by tests/room_served).
SHORT_ERRORS_FOR = ("3.9",)


def _short_error(self, message, text: str):
    reply = self.protocol.create("ERROR", message.header["msgid"], REFUSAL)
    reply.content["traceback"] = None
    return reply


def short_errors() -> None:
    """Make the server's ERROR replies say only :data:`REFUSAL` (idempotent, process-wide).

    When a client message fails (bad JSON is refused earlier; this is a PATCH-DOC for a model that
    does not exist, a value of the wrong type, an exception in a callback), Bokeh's
    ``ProtocolHandler`` logs it -- with its traceback -- and answers the client with
    ``ServerConnection.error(message, repr(exc))``, whose ERROR message carries ``repr(exc)`` and the
    whole Python traceback (server paths, code, values). Upstream has no option to keep those on
    the server, so the reply is rebuilt here without them; the log keeps the details.
    """
    import bokeh
    from bokeh.server.connection import ServerConnection

    if not bokeh.__version__.startswith(SHORT_ERRORS_FOR):
        warnings.warn(f"short_errors() was written for Bokeh {SHORT_ERRORS_FOR}, not {bokeh.__version__}: check "
                      "ServerConnection.error in bokeh/server/connection.py", RuntimeWarning, stacklevel=2)
    ServerConnection.error = _short_error
