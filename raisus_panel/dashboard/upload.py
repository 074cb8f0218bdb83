"""Choosing a room file to import, with its size checked in the browser before it is read or sent.

A file reaches the server inside one websocket message. Bokeh's server closes the websocket on any
message larger than its ``websocket_max_message_size`` (20 MB by default; Panel's ``FileInput`` sends
the file base64-encoded, a third larger), so a large file never arrives: the page loses its connection
and the server cannot say why. The limit must therefore be checked where the file is: here, in the
browser, before reading it. :class:`RoomFileInput` sends only the size of a file over the limit, and
the page says the real reason; a file within the limit goes as text (a room file is JSON), and the
server checks its size again before parsing. ``raisus serve`` keeps ``websocket_max_message_size``
above what the limit lets through (see :func:`~.settings.websocket_max_message_size`).
"""

from __future__ import annotations

import param
from panel.custom import JSComponent


class RoomFileInput(JSComponent):
    """A file picker for room files that refuses a file over ``max_bytes`` before reading it.

    ``value`` is the chosen file's text (a room file is JSON, UTF-8) and ``filename`` its name; a
    file over the limit leaves them empty and sets ``too_large`` to ``{"name", "size"}`` instead.
    """

    accept = param.String(default=".json,application/json", doc="""
        The file types offered by the browser's file dialog.""")

    max_bytes = param.Integer(default=5_000_000, bounds=(1, None), doc="""
        The largest file read and sent, in bytes; a larger one is refused in the browser.""")

    value = param.String(default="", doc="""
        The chosen file's content as text, or "" (nothing chosen, or the file was too large).""")

    filename = param.String(default="", doc="""
        The chosen file's name.""")

    label = param.String(default="", doc="""
        The picker's accessible name (what to choose), read out by screen readers.""")

    too_large = param.Dict(default=None, allow_None=True, doc="""
        ``{"name", "size", "at"}`` of the last file refused for its size (``at`` makes every refusal
        a change), or None.""")

    _esm = """
    export function render({ model }) {
      const input = document.createElement("input");
      input.type = "file";
      input.className = "raisus-room-file";
      input.accept = model.accept;
      input.setAttribute("aria-label", model.label);
      input.addEventListener("change", async () => {
        const file = input.files && input.files[0];
        if (!file) return;
        if (file.size > model.max_bytes) {
          // not read, not sent: a message this large would close the page's connection
          model.value = "";
          model.filename = "";
          model.too_large = {name: file.name, size: file.size, at: Date.now()};
          input.value = "";
          return;
        }
        const text = await file.text();
        model.filename = file.name;
        model.value = text;
      });
      model.on("accept", () => { input.accept = model.accept; });
      model.on("label", () => { input.setAttribute("aria-label", model.label); });
      model.on("value", () => { if (!model.value) input.value = ""; });
      return input;
    }
    """

    # a finger needs 40 px: the browser's own file picker is about 21 px tall
    _stylesheets = ["""
    .raisus-room-file { font: inherit; margin: 5px 10px; min-height: 40px; max-width: calc(100% - 20px); }
    .raisus-room-file::file-selector-button { min-height: 40px; padding: 6px 14px; font: inherit; cursor: pointer; }
    """]
