"""What the served dashboard sends on its websockets: text as UTF-8, not as ``\\u`` escapes.

Bokeh writes every websocket message with Python's JSON encoder in its ASCII-only mode, so each
Hangul syllable of a Korean page travels as a six-byte ``\\uXXXX`` escape instead of three bytes of
UTF-8 -- twice the size for the texts that change on every roll. :func:`send_utf8` makes Bokeh's
protocol messages (and only those: not HTML files, not notebook output) encode non-ASCII text as
itself. Websocket text frames are UTF-8 by definition and BokehJS reads them with ``JSON.parse``,
which takes any JSON string, so nothing changes for the browser but the size.
"""

from __future__ import annotations

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
