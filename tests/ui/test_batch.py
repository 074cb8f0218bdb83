"""ui/_batch: the changes for one served document run once each, together, on its next tick."""

from __future__ import annotations

import gc
import threading

from bokeh.document import Document

from raisus_panel.ui import _batch


class Owner:
    """Something on a page that redraws itself (a component, in the app)."""

    def __init__(self):
        self.calls: list[tuple] = []
        self._disposed = False  # what _batch reads of an owner (a component's, set by its dispose())

    def dispose(self):
        self._disposed = True

    def redraw(self, *args):
        self.calls.append(args)

    def __repr__(self):  # a component's repr is costly (all its parameters): never needed here
        raise AssertionError("repr() asked for")


def run_ticks(doc: Document) -> int:
    """Run the document's pending next-tick callbacks, as the server would; how many ran."""
    ran = 0
    while doc.callbacks.session_callbacks:
        for callback in list(doc.callbacks.session_callbacks):
            doc.callbacks.remove_session_callback(callback)
            callback.callback()
            ran += 1
    return ran


def test_asked_many_times_a_redraw_runs_once_in_one_tick():
    doc, a, b = Document(), Owner(), Owner()
    for _ in range(5):
        _batch.schedule(doc, a, a.redraw)
    _batch.schedule(doc, b, b.redraw, "x")
    assert _batch.pending(doc) == 2
    assert run_ticks(doc) == 1  # one callback for the whole batch
    assert a.calls == [()] and b.calls == [("x",)]
    assert _batch.pending(doc) == 0


def test_asking_from_other_threads_is_safe():
    doc, owners = Document(), [Owner() for _ in range(20)]
    threads = [threading.Thread(target=_batch.schedule, args=(doc, o, o.redraw)) for o in owners]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert run_ticks(doc) == 1 and all(o.calls == [()] for o in owners)


def test_closed_or_collected_owners_are_skipped_and_a_failure_stops_nothing():
    doc, gone, closed, broken, fine = Document(), Owner(), Owner(), Owner(), Owner()
    closed.dispose()

    def fail():
        raise RuntimeError("boom")
    broken.redraw = fail
    for owner in (gone, closed, broken, fine):
        _batch.schedule(doc, owner, owner.redraw)
    del gone
    gc.collect()
    run_ticks(doc)
    assert closed.calls == [] and fine.calls == [()]


def test_a_redraw_asking_for_another_gets_it_in_a_later_tick():
    doc, a, b = Document(), Owner(), Owner()
    a.redraw = lambda: _batch.schedule(doc, b, b.redraw)
    _batch.schedule(doc, a, a.redraw)
    assert run_ticks(doc) == 2 and b.calls == [()]
