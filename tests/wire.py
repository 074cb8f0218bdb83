"""A headless Bokeh session over a raw websocket, as a browser page speaks to the dashboard.

It connects with a session token, pulls the document, says ``document_ready`` as BokehJS does once a
page is drawn, and records every message it receives afterwards: when it arrived, its type, its size
on the wire and its events. Used by the served tests (what reaches each page, in how many messages)
and by ``benchmarks/bench_room.py`` (how fast, how big). Run it on an asyncio loop.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time

#: The ``document_ready`` event as BokehJS sends it once the page is drawn (a PATCH-DOC from the
#: client). Panel treats a session as connected only then; before it, every model change is
#: scheduled as a tick of its own -- not what a browser sees.
DOCUMENT_READY = {"kind": "MessageSent", "msg_type": "bokeh_event",
                  "msg_data": {"type": "event", "name": "document_ready", "values": {"type": "map"}}}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float = 20.0, step: float = 0.05) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` seconds passed; its last answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def _text_size(frame) -> int:
    return len(frame.encode("utf-8")) if isinstance(frame, str) else len(frame)


def _count_models(doc_json) -> int:
    seen = set()
    stack = [doc_json]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == "object" and "id" in node:
                seen.add(node["id"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return len(seen)


def _summarise(msgtype: str, content: str) -> list[tuple[str, str, str, int]]:
    """A PATCH-DOC's events as (kind, model id, attribute, JSON bytes)."""
    if msgtype != "PATCH-DOC":
        return [(msgtype, "", "", _text_size(content))]
    out = []
    for event in json.loads(content).get("events", []):
        model = event.get("model")
        model_id = model.get("id", "") if isinstance(model, dict) else ""
        out.append((event.get("kind", "?"), model_id, event.get("attr", ""),
                    _text_size(json.dumps(event, separators=(",", ":")))))
    return out


class WireSession:
    """One headless session: connects, pulls the document, says it is ready, records every message."""

    def __init__(self, index: int):
        self.index = index
        self.messages: list[tuple] = []  # (arrival of the last frame, msgtype, bytes, events)
        self.pull_bytes = 0
        self.pull_text = ""  # the document as it arrived (JSON)
        self.pull_models = 0
        self.connect_s = 0.0
        self._ws = None
        self._task = None

    async def open(self, ws_url: str, token: str, ready: bool = True, headers: dict | None = None,
                   args: dict | None = None) -> None:
        """Connect, pull the document and (unless ``ready=False``: see :meth:`say_ready`) say it is drawn.

        ``headers`` go with the websocket's request (e.g. ``X-Real-IP`` to a server behind a proxy);
        ``args`` are more of the page address's query arguments (e.g. ``{"view": "table"}``).
        """
        from urllib.parse import urlencode

        from bokeh.util.token import generate_jwt_token, generate_session_id
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        start = time.monotonic()
        session_id = generate_session_id()
        request = HTTPRequest(f"{ws_url}?{urlencode({'token': token, **(args or {})})}", headers=headers)
        self._ws = await websocket_connect(request, subprotocols=["bokeh", generate_jwt_token(session_id)],
                                           max_message_size=64 * 1024 * 1024)
        ack = await self._read()
        if ack is None or ack[1] != "ACK":
            raise RuntimeError(f"session {self.index}: no ACK from the server ({ack!r})")
        await self._send("PULL-DOC-REQ", {})
        while True:
            reply = await self._read(keep_content=True)
            if reply is None:
                raise RuntimeError(f"session {self.index}: closed before its document arrived")
            if reply[1] == "PULL-DOC-REPLY":
                break
        self.pull_bytes = reply[2]
        self.pull_text = reply[3]
        self.pull_models = _count_models(json.loads(reply[3]))
        self._task = asyncio.ensure_future(self._listen())
        if ready:
            await self.say_ready()
        self.connect_s = time.monotonic() - start

    async def say_ready(self) -> None:
        """Say ``document_ready``, as BokehJS does once the pulled document is drawn."""
        await self._send("PATCH-DOC", {"events": [DOCUMENT_READY]})

    async def _send(self, msgtype: str, content: dict) -> None:
        header = json.dumps({"msgid": f"{msgtype.lower()}-{self.index}", "msgtype": msgtype})
        for fragment in (header, "{}", json.dumps(content)):
            await self._ws.write_message(fragment)

    async def _read(self, keep_content: bool = False):
        """One whole Bokeh message: (t, msgtype, bytes, content or its events), None when closed."""
        frames = []
        for _ in range(3):
            frame = await self._ws.read_message()
            if frame is None:
                return None
            frames.append(frame)
        header = json.loads(frames[0])
        nbytes = sum(_text_size(f) for f in frames)
        for _ in range(2 * int(header.get("num_buffers") or 0)):  # a header and a payload each
            frame = await self._ws.read_message()
            if frame is None:
                return None
            nbytes += _text_size(frame)
        t = time.monotonic()
        if keep_content:
            return t, header["msgtype"], nbytes, frames[2]
        return t, header["msgtype"], nbytes, _summarise(header["msgtype"], frames[2])

    async def _listen(self) -> None:
        while True:
            message = await self._read()
            if message is None:
                return
            self.messages.append(message)

    def close(self) -> None:
        if self._ws is not None:
            self._ws.close()
        if self._task is not None:
            self._task.cancel()
