"""The odds advisor for a room's contest, worked out once per change for every page of the room.

Every page of a room that shows a unit's choices asks the same question after each command: what is
each choice worth (:func:`raisus_panel.rules.advise`)? The answer depends only on the contest, not
on the page or its language (labels are catalog keys), so :func:`room_advice` keeps it with the
contest's event list it was made from. The list is replaced, never mutated, by every command, so
an answer is reused exactly while that very list is the contest's -- never stale, nothing to
invalidate by hand -- and the first page to ask after a change pays for all the others. A refusal
(the contest has ended, several units a side) is kept and raised again the same way.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from raisus_panel.rules import Advice, Contest, RuleError, advise

#: contest -> (the event list the answers were made from, {unit uid: Advice or RuleError})
_kept: "weakref.WeakKeyDictionary[Contest, tuple[list[Any], dict[str, Advice | RuleError]]]" = \
    weakref.WeakKeyDictionary()
_lock = threading.Lock()  # pages of one room ask on several sessions' threads


def room_advice(room: Any, unit: str) -> Advice:
    """The advisor's answer for ``unit`` (a uid) in ``room``'s contest, computed once per change.

    Parameters
    ----------
    room
        A :class:`~raisus_panel.room.Room` (anything with a ``contest``).
    unit
        The uid of a unit of the contest: a character, grunt mob or team.

    Returns
    -------
    Advice
        As :func:`raisus_panel.rules.advise` gives it; the same object for every page until the
        contest changes.

    Raises
    ------
    RuleError
        When there is no contest, or the advisor refuses (the same refusal for every page).
    """
    contest = room.contest
    if contest is None:
        raise RuleError("There is no contest in this room to advise on.", key="error.advice.no_contest")
    events = contest.events
    with _lock:
        kept = _kept.get(contest)
        answers = kept[1] if kept is not None and kept[0] is events else None
        found = answers.get(unit) if answers is not None else None
    if found is None:
        try:
            found = advise(contest, unit)
        except RuleError as exc:
            found = exc.with_traceback(None)
        with _lock:  # computed outside the lock: two pages may both compute once, harmlessly
            kept = _kept.get(contest)
            if kept is None or kept[0] is not events:
                kept = (events, {})
                _kept[contest] = kept
            kept[1][unit] = found
    if isinstance(found, RuleError):  # a fresh copy: pages on other threads raise the kept one too
        raise type(found)(str(found), key=found.key, **found.fields)
    return found
