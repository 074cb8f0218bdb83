"""The documented shape of contest events (``raisus_panel/rules/events.py``), as checks for the tests.

:func:`shape_problems` lists what is wrong with one committed event; :func:`log_problems` with a whole
log. ``conftest.py`` runs them on every event any rules test commits, so the scenario, ruling and
property tests all check that what a played contest writes is what ``events.py`` documents.
"""

from __future__ import annotations

from raisus_panel.rules.events import ADDED_FIELDS, COMMON_FIELDS, EVENT_FIELDS, EVENT_VERSION, HIT_FIELDS

#: The nested records of the module docstring of ``events.py``.
USED_FIELDS = frozenset({"unit", "character", "cliche", "inappropriate", "revenge", "pool", "helpers"})
#: With pumps or lucky shots in force, a ``used`` record also says them.
BONUS_FIELDS = frozenset({"pump", "lucky"})
ROLL_FIELDS = frozenset({"pool", "faces", "total"})
GAIN_FIELDS = frozenset({"character", "cliche", "amount"})
BREVET_FIELDS = frozenset({"character", "cliche"})


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def shape_problems(event: dict) -> list[str]:
    """What in ``event`` differs from its documented shape (empty when it fits)."""
    kind = event.get("type")
    if kind not in EVENT_FIELDS:
        return [f"unknown type {kind!r}"]
    bad = []
    expected = COMMON_FIELDS | EVENT_FIELDS[kind]
    if set(event) != expected and set(event) != expected - ADDED_FIELDS.get(kind, frozenset()):
        bad.append(f"{kind}: fields {sorted(set(event) ^ expected)} differ from the documented ones")
    if event.get("v") != EVENT_VERSION:
        bad.append(f"{kind}: version {event.get('v')!r}")
    if not (_count(event.get("seq")) and event["seq"] >= 1 and _count(event.get("cmd")) and event["cmd"] >= 1):
        bad.append(f"{kind}: seq {event.get('seq')!r} / cmd {event.get('cmd')!r} are not numbers from 1")
    for key in ("hits", "restore"):
        for hit in event.get(key, ()):
            if set(hit) != HIT_FIELDS or not (_count(hit["extra"]) and _count(hit["current"])):
                bad.append(f"{kind}: a {key} entry {hit!r} is not a hit")
    if kind == "round_decided":
        if len(event["units"]) != 2 or event["winner"] not in (0, 1) or event["damage"] not in (1, 3):
            bad.append(f"round_decided: units {event['units']!r}, winner {event['winner']!r}, "
                       f"damage {event['damage']!r}")
        if len(event["used"]) != 2 or any(set(u) not in (USED_FIELDS, USED_FIELDS | BONUS_FIELDS) for u in event["used"]):
            bad.append(f"round_decided: used {event['used']!r}")
        for attempt in event["attempts"]:
            if len(attempt) != 2 or any(not ROLL_FIELDS <= set(r) <= ROLL_FIELDS | {"helper_faces"}
                                        for r in attempt):
                bad.append(f"round_decided: attempt {attempt!r}")
        if event["rolloff"] is not None and set(event["rolloff"]) != {"rolls", "loser"}:
            bad.append(f"round_decided: rolloff {event['rolloff']!r}")
    if kind in ("pumped", "lucky_declared") and not _count(event["amount"]):
        bad.append(f"{kind}: amount {event['amount']!r}")
    if kind == "costs_paid" and (len(event["units"]) != 2 or any(
            set(s) != {"character", "amount"} or not _count(s["amount"]) or not s["amount"] for s in event["lucky"])):
        bad.append(f"costs_paid: units {event['units']!r}, lucky {event['lucky']!r}")
    if kind == "recovered" and any(set(g) != GAIN_FIELDS for g in event["gains"]):
        bad.append(f"recovered: gains {event['gains']!r}")
    if kind == "tickets_given" and any(set(b) != BREVET_FIELDS for b in event["brevet"]):
        bad.append(f"tickets_given: brevet {event['brevet']!r}")
    if kind == "team_disbanded" and event["reason"] not in ("disband", "lost_leader"):
        bad.append(f"team_disbanded: reason {event['reason']!r}")
    if kind == "contest_ended" and event["winner"] not in (None, 0, 1):
        bad.append(f"contest_ended: winner {event['winner']!r}")
    return bad


def log_problems(events: list[dict]) -> list[str]:
    """What in a contest's whole log differs from the documented shape: each event, and their order."""
    bad = [p for e in events for p in shape_problems(e)]
    if not events or events[0].get("type") != "contest_started":
        bad.append("the log does not begin with contest_started")
    if any(e.get("type") == "contest_started" for e in events[1:]):
        bad.append("contest_started after the beginning")
    if [e.get("seq") for e in events] != list(range(1, len(events) + 1)):
        bad.append(f"seq {[e.get('seq') for e in events]} is not 1, 2, 3, ...")
    cmds = [e.get("cmd") or 0 for e in events]
    if cmds != sorted(cmds):
        bad.append(f"cmd {cmds} goes back")
    return bad
