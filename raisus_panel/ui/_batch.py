"""One update per served page: changes from anywhere are applied on the page's document in one batch.

A command in a shared room changes several things at once (the contest's events, the room's sequence
number, the characters' scores), and each component of every open page watches some of them. Run one
by one, every change would refresh every component again and go out as a websocket message of its
own. Instead, :func:`schedule` queues ``(owner, method)`` per document -- a second request for the same
pair before the batch runs is dropped -- and one next-tick callback per document runs the whole queue
inside :func:`panel.io.hold` (``combine``): each page gets a single PATCH-DOC with only the properties
that really changed.

``add_next_tick_callback`` is the one Document method Bokeh allows from other threads, so a command
given on any thread (another session's click, a room thread) is safe. Owners and methods are held
weakly: a page that closes while a batch is queued is not kept alive by it.

A page's batches wait until the page is ready (:func:`track`). Between the moment a browser has
pulled a page's document and the moment it says the page is rendered (Bokeh's ``document_ready``),
Panel drops every change to the document, on the assumption that the document is still to be sent
whole -- but it has already been sent. A pane's next text carries everything, so a dropped text only
shows late; a dropped chart stream is lost for good (issue 10: a page whose websocket reached
another process than its GET, so that its session was made at connect time, missed round 1 in its
charts). Held until the page is ready and then run, the batch reads the state as it is by then.
"""

from __future__ import annotations

import logging
import threading
import weakref
from contextlib import nullcontext
from typing import Callable

import panel as pn
from bokeh.document import Document
from panel.io.state import set_curdoc

log = logging.getLogger(__name__)

_lock = threading.Lock()
#: document -> {(id(owner), method name): (owner ref, method ref, args)}, in the order first asked
_queues: "weakref.WeakKeyDictionary[object, dict]" = weakref.WeakKeyDictionary()
#: documents known to :func:`track` -> whether their page is ready (its batches run)
_ready: "weakref.WeakKeyDictionary[object, bool]" = weakref.WeakKeyDictionary()
#: documents whose next batch rebuilds views (see ``schedule(rebuild=True)``)
_rebuilding: "weakref.WeakSet[object]" = weakref.WeakSet()
#: document -> callbacks waiting for its page to be ready (see :func:`when_ready`)
_until_ready: "weakref.WeakKeyDictionary[object, list[Callable]]" = weakref.WeakKeyDictionary()


#: documents seen served: one of them without a session context any more has been closed
_served: "weakref.WeakSet[object]" = weakref.WeakSet()


def served(doc) -> bool:
    """Whether ``doc`` is a served session's document (not None, not a notebook's, not closed)."""
    if doc is None or getattr(doc, "session_context", None) is None:
        return False
    _served.add(doc)
    return True


def closed(doc) -> bool:
    """Whether ``doc`` was a served page's document and its session has ended.

    Bokeh destroys a session's document first and runs the session-destroyed hooks (where views
    dispose of themselves) only after an ``await``: in between, a change of the room still reaches
    the page's views. A destroyed document has no session context, so it would look like a
    notebook's -- changed at once, where any change of a model raises inside Bokeh. It gets none.
    """
    return doc is not None and doc in _served and getattr(doc, "session_context", None) is None


def _next_tick(doc, callback: Callable) -> None:
    """``doc.add_next_tick_callback``, quietly doing nothing if ``doc`` is closed meanwhile.

    Another thread (a room's) may ask just as the loop destroys the document; Bokeh then raises an
    ``AttributeError`` from its emptied callback registry.
    """
    try:
        doc.add_next_tick_callback(callback)
    except AttributeError:
        if not closed(doc):
            raise


def track(doc) -> None:
    """Hold ``doc``'s batches until its page is ready; call it on the document's own thread while
    the page is built (components and adapters do). Untracked documents run their batches at once.

    Readiness comes from ``pn.state.onload``, which Panel runs once the page's ``document_ready``
    arrived and the document counts as connected (at once if it already does).
    """
    if not served(doc) or not isinstance(doc, Document):
        return
    with _lock:
        if doc in _ready:
            return
        _ready[doc] = False
    ref = weakref.ref(doc)  # Panel keeps onload callbacks by document: never hold it strongly there
    with set_curdoc(doc):
        pn.state.onload(lambda: _now_ready(ref))


def _now_ready(ref) -> None:
    doc = ref()
    if doc is None:
        return
    with _lock:
        _ready[doc] = True
        waiting = bool(_queues.get(doc))
        callbacks = _until_ready.pop(doc, [])
    for callback in callbacks:
        _next_tick(doc, callback)
    if waiting:
        _next_tick(doc, lambda: _flush(doc))


def when_ready(doc, callback: Callable) -> None:
    """Run ``callback()`` in a next-tick callback of ``doc`` once its page is ready (next tick if it is).

    For what answers a page's own work on a worker (``_offloop``): a loading shell's read of the store
    may be answered between the browser's pull of the page and its ``document_ready``, and Panel
    drops a change made then (see above) -- the page stayed "loading the room…" for good. A closed
    page's callback never runs.
    """
    if closed(doc):
        return
    with _lock:
        if not _ready.get(doc, True):
            _until_ready.setdefault(doc, []).append(callback)
            return
    _next_tick(doc, callback)


def ready(doc) -> bool:
    """Whether ``doc``'s batches run now (its page is ready, or it is not tracked)."""
    with _lock:
        return _ready.get(doc, True)


def schedule(doc, owner, fn: Callable, *args, rebuild: bool = False) -> None:
    """Run ``fn(*args)`` in the next batch of ``doc`` (once, however often asked before it runs).

    ``fn`` is a method of ``owner`` (held weakly) or a plain function. Skipped if ``owner`` is
    collected or disposed (``owner._disposed``) by the time the batch runs.

    ``rebuild=True`` says the batch will make or drop many models (a new contest's cards and charts):
    Bokeh then walks the document's whole model graph once, when the batch ends, instead of once
    per change of a layout's children (a contest's start walked a GM's page some 50 times).
    """
    if closed(doc):
        return
    bound = getattr(fn, "__self__", None) is not None
    # a bound method is new on every access: it is the same call if it has the same name
    key = (id(owner), fn.__name__ if bound else id(fn))
    entry = (weakref.ref(owner), weakref.WeakMethod(fn) if bound else (lambda f=fn: f), args)
    with _lock:
        queue = _queues.get(doc)
        first = not queue and _ready.get(doc, True)  # a page not ready yet gets its flush when it is
        if queue is None:
            queue = _queues[doc] = {}
        queue[key] = entry
        if rebuild:
            _rebuilding.add(doc)
    if first:
        _next_tick(doc, lambda: _flush(doc))


#: document -> the keys of :func:`schedule_every` calls waiting for their moment
_waiting: "weakref.WeakKeyDictionary[object, set]" = weakref.WeakKeyDictionary()


def schedule_every(doc, owner, fn: Callable, seconds: float) -> None:
    """Run ``fn()`` in a batch of ``doc`` ``seconds`` from now, once however often asked meanwhile.

    For what changes in bursts and need not show at once -- who is present, while a hundred pages
    connect: each page redraws it a few times a second at most, not once per arrival. Without a
    served document ``fn`` runs now; a closed page's never.
    """
    if closed(doc):
        return
    if not served(doc):
        fn()
        return
    key = (id(owner), fn.__name__)
    with _lock:
        waiting = _waiting.setdefault(doc, set())
        if key in waiting:
            return
        waiting.add(key)
    method_ref = weakref.WeakMethod(fn)  # held weakly, as in schedule: a closed page is not kept

    def due():
        with _lock:
            _waiting.get(doc, set()).discard(key)
        method = method_ref()
        if method is not None:
            schedule(doc, method.__self__, method)
    # only next-tick callbacks may be added from any thread; the timeout is set on the document's loop
    _next_tick(doc, lambda: doc.add_timeout_callback(due, int(seconds * 1000)))


def _flush(doc) -> None:
    if closed(doc):
        return
    with _lock:
        if not _ready.get(doc, True):
            return  # queued before the page was ready: run by _now_ready
        queue = _queues.pop(doc, None) or {}
        rebuild = doc in _rebuilding
        _rebuilding.discard(doc)
    if not queue:
        return
    # As this page's own document: a next-tick callback runs in the context it was added from, so
    # Panel's current document would be the page that gave the command (another session's), and
    # every change here would go out as a message of its own, or not at all (a chart's stream).
    # Frozen only to rebuild: Bokeh walks the whole document when a freeze ends, changed or not, and
    # a round's batch changes no layout's children (one walk more than it needs).
    held = isinstance(doc, Document)
    with set_curdoc(doc), (pn.io.hold(doc) if held else nullcontext()), \
            (doc.models.freeze() if held and rebuild else nullcontext()):
        for owner_ref, method_ref, args in queue.values():
            owner, target = owner_ref(), method_ref()
            if owner is None or target is None or getattr(owner, "_disposed", False):
                continue
            try:
                target(*args)
            except Exception:  # one broken view must not keep the rest of the page stale
                log.exception("a scheduled view update failed")


def pending(doc) -> int:
    """How many calls are queued for ``doc`` (for tests)."""
    with _lock:
        return len(_queues.get(doc) or {})
