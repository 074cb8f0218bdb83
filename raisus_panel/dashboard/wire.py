"""What the served dashboard sends on its websockets: text as UTF-8, not as ``\\u`` escapes.

Bokeh writes every websocket message with Python's JSON encoder in its ASCII-only mode, so each
Hangul syllable of a Korean page travels as a six-byte ``\\uXXXX`` escape instead of three bytes of
UTF-8 -- twice the size for the texts that change on every roll. :func:`send_utf8` makes Bokeh's
protocol messages (and only those: not HTML files, not notebook output) encode non-ASCII text as
itself. Websocket text frames are UTF-8 by definition and BokehJS reads them with ``JSON.parse``,
which takes any JSON string, so nothing changes for the browser but the size.

:func:`short_errors` makes the server's answer to a message it cannot apply a short refusal,
without the Python traceback Bokeh would send back.

:func:`lean_serialisation` makes Bokeh skip, when it serialises a model, the properties it is going
to leave out anyway, instead of computing their values first: a page's first document costs about a
quarter less CPU to make and send, with the same bytes on the wire.
"""

from __future__ import annotations

import logging
import warnings

from bokeh.core.json_encoder import PayloadEncoder
from bokeh.core.serialization import Serialized
from bokeh.protocol import message

from raisus_panel import upstream

log = logging.getLogger(__name__)


class _UTF8Encoder(PayloadEncoder):
    """Bokeh's payload encoder, writing non-ASCII characters as themselves."""

    def __init__(self, **params):
        super().__init__(**params)
        self.ensure_ascii = False


def _serialize_utf8(obj, *, pretty=None, indent=None) -> str:
    content = obj.content if isinstance(obj, Serialized) else obj
    return _UTF8Encoder(separators=(",", ":")).encode(content)


def send_utf8() -> None:
    """Make Bokeh's websocket messages carry non-ASCII text as UTF-8 (idempotent, process-wide).

    Bokeh 3.9's ``Message`` writes its header, metadata and content with the ``serialize_json`` that
    ``bokeh/protocol/message.py`` imports, and upstream has no option for it not to escape: that
    module's name is replaced. On another Bokeh it stays off (said once, see :mod:`raisus_panel.upstream`);
    ``tests/room_served/test_wire_hooks.py`` fails when Bokeh writes its messages otherwise.
    """
    if not upstream.tested("bokeh"):
        upstream.warn_untested("bokeh", "send_utf8()", log)
        return
    message.serialize_json = _serialize_utf8


# -- refusals without internals ---------------------------------------------------------------------
#: The text of every ERROR reply the server sends: what failed stays in the server's log.
REFUSAL = "The server refused this message."

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

    # applied on any Bokeh (a traceback must never reach a client), said when untested: see raisus_panel.upstream
    if not upstream.tested("bokeh"):
        warnings.warn(f"short_errors() was written for Bokeh {upstream.TESTED['bokeh']}x, not {bokeh.__version__}: check "
                      "ServerConnection.error in bokeh/server/connection.py", RuntimeWarning, stacklevel=2)
    ServerConnection.error = _short_error


# -- serialising only what is sent ----------------------------------------------------------------
_original_query = None


def _lean_query(self, query, *, include_defaults: bool = True, include_undefined: bool = False):
    if include_defaults:
        return _original_query(self, query, include_defaults=True, include_undefined=include_undefined)
    # the keys upstream keeps when defaults are left out; asked first, so no other value is computed
    sent = self._property_values.keys() | self._unstable_default_values.keys()
    themed = self.themed_values()
    if themed:
        sent = sent | themed.keys()
    return _original_query(self, lambda descriptor: descriptor.name in sent and query(descriptor),
                           include_defaults=False, include_undefined=include_undefined)


def lean_serialisation() -> None:
    """Serialise a Bokeh model's set and unstable-default properties without computing the others
    (idempotent, process-wide).

    ``HasProps.query_properties_with_values(include_defaults=False)`` -- what every model goes through
    when a document or a patch is serialised -- works out the value of *every* property, defaults
    included, and only then drops those neither set nor holding an unstable default (its own TODO
    says so). Working out a default is the slowest step of Bokeh's property system: on a room page of
    about 140 models it was a quarter of the time to build and send the page. The shim asks the same
    question (which keys are set, hold unstable defaults or are themed) before any value is computed,
    through the method's own ``query`` predicate, so the result is the same dict in the same order
    (``tests/room_served/test_lean_serialisation.py`` compares whole documents).
    """
    global _original_query
    from bokeh.core.has_props import HasProps

    if not upstream.tested("bokeh"):  # see raisus_panel.upstream
        upstream.warn_untested("bokeh", "lean_serialisation()", log)
        return
    if HasProps.query_properties_with_values is _lean_query:
        return
    _original_query = HasProps.query_properties_with_values
    HasProps.query_properties_with_values = _lean_query
