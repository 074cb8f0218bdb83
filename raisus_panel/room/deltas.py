"""What changed between two state documents of a room, as a small delta a page applies in order.

A state document is a flat JSON-ready mapping whose ``seq`` is the room's sequence number. A delta
says which keys were set anew, which went away, which lists only grew (``append``: the new items
only, e.g. the score chart's new points), which kept their length with some items changed
(``items``: those items' changes only, by place, e.g. the one odds line of five that changed) and
which texts changed in part (``text``: the part, e.g. a percentage), stamped with the ``seq`` it
leads to and the ``base`` seq it applies to. A page applies a delta only while it holds ``base``;
otherwise it asks for the whole document again, so it can never drift from the room.

Pure Python, no Panel: the browser's ``table_view.js`` applies deltas by the same rules as
:func:`apply_delta`.
"""

from __future__ import annotations

import copy
import json
from typing import Any

__all__ = ["APPEND", "DROP", "ITEMS", "PATCH", "SET", "TEXT", "StaleDelta", "apply_delta", "make_delta"]

#: The parts of a delta by the one letter each goes by on the wire: a round's delta names them a dozen
#: times, nested (a team member's dice is a patch in a patch in a patch).
SET, PATCH, APPEND, ITEMS, TEXT, DROP = "s", "p", "a", "i", "t", "d"


class StaleDelta(ValueError):
    """A delta given to a document that does not hold its ``base`` seq: ask for the whole document."""


def make_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The delta that turns ``old`` into ``new`` (both documents with a ``seq``).

    See :func:`_changes` for what it holds besides ``seq`` and ``base``.
    """
    return {"seq": new["seq"], "base": old["seq"],
            **_changes({k: v for k, v in old.items() if k != "seq"}, {k: v for k, v in new.items() if k != "seq"})}


def _changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What changed from mapping ``old`` to ``new`` (each part by its letter, see :data:`SET`): ``set``
    (values sent whole), ``patch`` (a mapping in
    both, as its own changes: a unit whose dice changed sends its dice only), ``append`` (a list that
    starts with all its old items, as its new items only: the chart's new points), ``items`` (a list
    of the same length, as the changes of its items keyed by place, e.g. ``{"t": {"0": ...}}``: the
    odds lines that changed, each as an edit), ``text`` (a text as an edit of the old one, see
    :func:`_edit`: a line whose number changed sends the number) and ``drop`` (keys ``new`` lacks).
    A list or a text is sent whole where that is shorter."""
    out: dict[str, Any] = {}
    sets, patches, appends, items, texts = {}, {}, {}, {}, {}
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before == value:
            continue
        if isinstance(value, str) and isinstance(before, str) and (edit := _edit(before, value)) is not None:
            texts[key] = edit
        elif isinstance(value, dict) and isinstance(before, dict) and value and before:
            patches[key] = _changes(before, value)
        elif (isinstance(value, list) and isinstance(before, list) and 0 < len(before) < len(value)
                and value[:len(before)] == before):
            appends[key] = value[len(before):]
        elif (isinstance(value, list) and isinstance(before, list) and len(before) == len(value)
                and len(_json(places := _changes(_by_place(before), _by_place(value)))) < len(_json(value))):
            items[key] = places
        else:
            sets[key] = value
    drop = sorted(k for k in old if k not in new)
    for name, part in ((SET, sets), (PATCH, patches), (APPEND, appends), (ITEMS, items), (TEXT, texts), (DROP, drop)):
        if part:
            out[name] = part
    return out


def _by_place(items: list[Any]) -> dict[str, Any]:
    return {str(i): item for i, item in enumerate(items)}


def _edit(old: str, new: str) -> list[Any] | None:
    """``new`` as an edit of ``old``: ``[kept, cut, middle]``, the first ``kept`` characters of ``old``,
    then ``middle``, then ``old``'s last ones from ``kept + cut`` on -- or None when sending ``new``
    whole is no longer ("Side A (Knight+Viking+Squire) wins the contest: 76.1%" to 92.4% sends
    ``[48, 4, "92.4"]``). Characters are code points, as the page's ``Array.from`` counts them."""
    n = min(len(old), len(new))
    front = next((i for i in range(n) if old[i] != new[i]), n)
    back = next((i for i in range(n - front) if old[-1 - i] != new[-1 - i]), n - front)
    cut = len(old) - front - back
    middle = new[front:len(new) - back]
    edit = [front, cut, middle]
    return edit if len(_json(edit)) < len(_json(new)) else None


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def apply_delta(doc: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The document ``delta`` leads ``doc`` to (a new mapping; ``doc`` is not changed).

    Raises :class:`StaleDelta` when ``doc`` does not hold the delta's ``base`` seq.
    """
    if doc.get("seq") != delta["base"]:
        raise StaleDelta(f"This page holds seq {doc.get('seq')} but the change applies to seq {delta['base']}: "
                         "ask for the whole document.")
    out = _applied(doc, delta)
    out["seq"] = delta["seq"]
    return out


def _applied(doc: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in doc.items() if k not in changes.get(DROP, ())}
    for key, value in changes.get(SET, {}).items():
        out[key] = copy.deepcopy(value)
    for key, part in changes.get(PATCH, {}).items():
        out[key] = _applied(out[key], part)
    for key, items in changes.get(APPEND, {}).items():
        out[key] = [*out[key], *copy.deepcopy(items)]
    for key, places in changes.get(ITEMS, {}).items():
        done = _applied(_by_place(out[key]), places)
        out[key] = [done[str(i)] for i in range(len(out[key]))]
    for key, (kept, cut, middle) in changes.get(TEXT, {}).items():
        out[key] = out[key][:kept] + middle + out[key][kept + cut:]
    return out


_MISSING = object()
