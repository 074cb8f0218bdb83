"""TableView: the watching table -- the contest drawn in the browser from the room's state document.

One component draws what a spectator (or the stream view) sees: both sides facing each other as token
cards with their dice, the round and what now between them, the last roll with every attempt, the
result and fates, the cliché-score chart, and the live odds (in words, as a bar, and side A's
chances over the rounds). The page gets the whole document
(:func:`~raisus_panel.ui._table_doc.table_document`) once, and after each room change only the delta
(:func:`raisus_panel.room.deltas.make_delta`) stamped with the room's seq and the seq it applies to;
a page that does not hold that seq asks for the whole document again (``table_view.js``).

The JavaScript is a plain ES module shipped beside this file (no CDN, no build step).
"""

from __future__ import annotations

import json
import threading
import weakref
from pathlib import Path
from typing import Any

import param
from panel.custom import JSComponent

from raisus_panel.room.deltas import make_delta

from ._base import ComponentBase
from ._table_doc import labels, table_document

__all__ = ["TableView"]

#: the module's ES module and style sheet, beside it in the package (no CDN, no build step)
_FILES = Path(__file__).with_suffix("")


class TableModel(JSComponent):
    """The browser's side of :class:`TableView`: holds the document, the latest delta and the words."""

    doc = param.Dict(default={}, doc="""
        The whole state document (sent when drawn, and again when the page asks for it).""")

    delta = param.Bytes(default=b"", doc="""
        The latest change as UTF-8 JSON: ``seq``, ``base`` and what changed (see ``raisus_panel.room.deltas``).
        Bytes, not a mapping (Bokeh sends a mapping as a list of typed entries, twice the bytes) nor a
        string (sent inside Bokeh's JSON, every quote of it escaped and every non-ASCII letter as
        ``\\uXXXX``, six bytes a Korean syllable): bytes go as they are, in a binary frame.""")

    labels = param.Dict(default={}, doc="""
        The page's own words in its language (headings, the chart's words).""")

    _esm = _FILES.with_suffix(".js")

    _stylesheets = [_FILES.with_suffix(".css").read_text(encoding="utf-8")]


#: room -> {key: (the state it was made from, the result)}: a document and a delta are made once per
#: room change for every page of one role and language, not once per page
_kept: "weakref.WeakKeyDictionary[object, dict]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _shared(room, key: tuple, state: tuple, make):
    """``make()``, or the result kept for ``room`` and ``key`` while ``state`` holds the same objects
    (compared with ``is``; a seq with ``==``: it is a number)."""
    with _lock:
        hit = _kept.get(room, {}).get(key)
    if hit is not None and len(hit[0]) == len(state) and all(
            a == b if isinstance(a, int) else a is b for a, b in zip(hit[0], state)):
        return hit[1]
    value = make()  # outside the lock: two pages may both make it once, harmlessly
    with _lock:
        _kept.setdefault(room, {})[key] = (state, value)
    return value


class TableView(ComponentBase):
    """The contest as a watching page draws it, in the browser, from the room's state (see the module).

    It has no controls: nothing is ever sent through ``actions``. The whole document is sent when the
    view is drawn, when its language changes, after a missed change, and when the page asks for it
    (it saw a gap); otherwise only deltas.

    Parameters
    ----------
    actions
        The adapter whose contest is shown (a spectator's, in a served room).
    """

    def _build(self) -> None:
        self._model = TableModel(sizing_mode="stretch_width", css_classes=["raisus-table"])
        self._model.on_msg(self._on_msg)
        self._sent: dict[str, Any] | None = None  # the document the page was last led to
        self._sent_lang: str | None = None
        self.wholes = 0  # whole documents sent after the first (a page asked, or a change was missed)

    def __panel__(self):
        return self._model

    @property
    def document(self) -> dict[str, Any]:
        """The state document of the room now, as this view's role sees it in its language."""
        # made from the contest's event log (replaced on every change), the room's seq and round
        contest, lang = self.actions.contest, self.language
        state = (int(self.actions.seq), contest, contest.events if contest is not None else None)
        return _shared(self.actions.room, ("doc", self.actions.role, lang), state,
                       lambda: table_document(self.actions, lang))

    def _relabel(self) -> None:
        self._model.labels = labels(self.language)

    def _forget(self) -> None:
        self._sent = None  # the next refresh sends the whole document

    def _refresh(self) -> None:
        old = self._sent
        if old is not None and self._sent_lang == self.language and old["seq"] == self.actions.seq:
            # a contest's own change arrives before the room's seq moves: wait for the seq, so that
            # every delta leads to a new seq (a page can tell a lost one only by its seq)
            return
        new = self.document
        if old is None or self._sent_lang != self.language:
            self._send_whole(new)
        elif new != old:
            # pages led from the same document to the same one share the delta
            self._model.delta = _shared(self.actions.room, ("delta", self.actions.role, self.language), (old, new),
                                        lambda: json.dumps(make_delta(old, new), ensure_ascii=False,
                                                           separators=(",", ":")).encode("utf-8"))
        self._sent, self._sent_lang = new, self.language

    def _send_whole(self, doc: dict[str, Any]) -> None:
        if self._sent is not None or self._model.doc:
            self.wholes += 1
        self._model.doc = doc
        self._model.param.trigger("doc")  # sent even when equal to what the page got first

    def _on_msg(self, msg) -> None:
        """The page saw a gap (it holds a seq no delta leads on from): send it the whole document."""
        data = getattr(msg, "data", msg)
        if isinstance(data, dict) and "whole" in data:
            self._schedule(self._resend)

    def _resend(self) -> None:
        if self._disposed:
            return
        doc = self.document
        self._send_whole(doc)
        self._sent, self._sent_lang = doc, self.language
