"""Store work off the event loop, one page's work in the order it was asked for.

Served, every page of a process is handled on one event loop. A command's append to the store (or a
room's load, a link's lookup) waits on the store: on a paused Redis, for seconds. Done on the loop,
that wait stops every page of the process; so :func:`in_order` runs only that blocking work on a
worker thread, and the page's coroutine awaits it. Panel's event handling stays on the loop, in
order; the page's work items form one queue (FIFO) per document, so two quick picks apply in the
order they were clicked. What the page does with the answer runs back on the loop, in a next-tick
callback of the page's own document (under its lock, as that page, inside ``pn.io.hold``), once the
page is ready (``_batch.when_ready``).

Without a served document on a running loop (a notebook, a test driving a component) the work runs
now, on the caller's thread, and the answer with it: the same code path, only the wait differs.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import panel as pn
from panel.io.state import set_curdoc

from . import _batch

__all__ = ["aside", "background", "in_order", "waits"]

log = logging.getLogger(__name__)

#: Worker threads for blocking store work: a paused store holds up to this many pages' work at once
#: (one per page at most: a page's own work is queued), never the loop.
WORKERS = 16

_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="raisus-store")
#: document -> the last work item queued for it (the next one waits for it)
_tails: "weakref.WeakKeyDictionary[object, asyncio.Future]" = weakref.WeakKeyDictionary()

Answer = Callable[[Any, BaseException | None], None]


def _loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def waits(doc) -> bool:
    """Whether work for ``doc`` runs off the loop: a served page's document, asked on its event loop."""
    return _batch.served(doc) and _loop() is not None


def in_order(doc, work: Callable[[], Any], answer: Answer) -> None:
    """Run ``work()``, then ``answer(result, None)`` or ``answer(None, error)``.

    Served (:func:`waits`): ``work`` runs on a worker thread once this page's earlier work has been
    answered, and ``answer`` on the loop as this page, in a next-tick callback of ``doc``. Capture
    what the page showed at the click (``seen_seq``) before calling: ``work`` runs later. Otherwise
    both run now; an error ``answer`` raises again reaches the caller.
    """
    loop = _loop()
    if not (_batch.served(doc) and loop is not None):
        try:
            result = work()
        except Exception as exc:
            answer(None, exc)
            return
        answer(result, None)
        return
    previous = _tails.get(doc)
    _tails[doc] = loop.create_task(_run(loop, doc, previous, work, answer))


def aside(doc, work: Callable[[], Any], answer: Answer) -> None:
    """Run ``work()`` and answer as :func:`in_order` does, but beside the page's queue, not in it.

    For a computation the page shows when it is ready (the odds advisor's, tens of milliseconds): on
    the loop it would hold up every page of the process, and in the page's queue its next click.
    ``answer`` must check that what it was computed for is still what the page shows.
    """
    loop = _loop()
    if not (_batch.served(doc) and loop is not None):
        in_order(None, work, answer)  # now, on the caller's thread
        return
    loop.create_task(_run(loop, doc, None, work, answer))


async def _run(loop, doc, previous, work, answer) -> None:
    if previous is not None:
        await asyncio.wait([previous])  # the page's earlier click first, whatever came of it
    try:
        outcome: tuple[Any, BaseException | None] = (await loop.run_in_executor(_pool, work), None)
    except Exception as exc:
        outcome = (None, exc)
    shown = loop.create_future()

    def deliver() -> None:
        try:
            with set_curdoc(doc), pn.io.hold(doc):
                answer(*outcome)
        except Exception:  # a bug in showing the answer: the page's next click must still run
            log.exception("a page could not show the answer to its command")
        finally:
            if not shown.done():
                shown.set_result(None)
    try:
        _batch.when_ready(doc, deliver)  # a page not ready yet would drop the answer's changes
    except Exception:  # the page closed meanwhile: nobody to tell
        shown.set_result(None)
        return
    # a closed page never runs its callbacks: its queue must not wait for ever
    await asyncio.wait([shown], timeout=30)


def background(work: Callable[[], Any]) -> None:
    """Run ``work()`` on a worker thread when asked on a running loop (nobody waits for it), else now.

    For store work whose answer nobody shows: a closed page leaving the presence list.
    """
    if _loop() is None:
        work()
        return

    def run() -> None:
        try:
            work()
        except Exception:
            log.exception("store work in the background failed")
    _pool.submit(run)
