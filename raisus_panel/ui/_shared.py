"""What every page of a room shows alike, worked out once per change instead of once per page.

A room's pages in one process share its Param models: the contest, the roster, who is present. Many
views turn them into the same thing on every page -- a spectator's contest in words, the odds, the
presence line -- which only the language sets apart. :func:`once_per_change` keeps such a result
with the state it was made from, so the first page to refresh after a change computes it and the
others of that language reuse it. A hundred spectators then cost one rendering per change, not a
hundred.

The state is recognised by identity: a contest's event list and a room's ``presence`` and ``players``
are replaced, never mutated, on every change (their documented contract), so holding them and
comparing with ``is`` is exact -- never a stale answer, and nothing to invalidate by hand. Results
live as long as their owner (a weak key).
"""

from __future__ import annotations

import threading
import weakref
from typing import Callable, TypeVar

T = TypeVar("T")

#: owner -> {key: (the state it was made from, the result)}
_kept: "weakref.WeakKeyDictionary[object, dict]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()  # pages of one room refresh on several sessions' threads


def once_per_change(owner: object, key: tuple, state: tuple, compute: Callable[[], T]) -> T:
    """``compute()``, or the result kept for ``owner`` and ``key`` while ``state`` is unchanged.

    ``state`` is a tuple of the objects the result is made from; it is unchanged when each of its
    items is the very object it was (``is``), so only replaced-not-mutated values belong in it.
    ``key`` tells apart the results kept for one owner (which view, which language).
    """
    with _lock:
        kept = _kept.get(owner)
        hit = kept.get(key) if kept is not None else None
    if hit is not None and len(hit[0]) == len(state) and all(a is b for a, b in zip(hit[0], state)):
        return hit[1]
    result = compute()  # outside the lock: two pages may both compute the first time, harmlessly
    with _lock:
        _kept.setdefault(owner, {})[key] = (state, result)
    return result


def contest_state(contest) -> tuple:
    """What a contest's views are made from: its event log (replaced after every command)."""
    return (contest.events,)
