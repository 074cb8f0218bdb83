"""Events: what happened, as JSON-ready mappings, and the save-file envelope around them.

An event is a plain ``dict`` with ``"v"`` (schema version), ``"seq"`` (1, 2, ...), ``"type"`` and
``"cmd"`` (the number of the command that produced it; one command may produce several events), plus
the data of its type. Events carry every die face and every point lost, so applying them needs no
dice and no judgement: replaying a log always gives the same state.
"""

from __future__ import annotations

import json

from .errors import SaveFileError

EVENT_VERSION = 1
SAVE_FORMAT = "raisus_panel/contest"
SAVE_VERSION = 1

#: Event types, in the glossary's words. Each is documented where :class:`Contest` applies it.
EVENT_TYPES = (
    "contest_started", "cliche_chosen", "approved", "tickets_given", "team_formed", "round_decided",
    "round_ended", "volunteered", "loss_assigned", "team_disbanded", "dropped_out", "contest_ended",
    "fate_decided", "fate_vetoed", "recovered",
)


def make_event(kind: str, **data) -> dict:
    """A new event of type ``kind`` (``seq`` and ``cmd`` are filled in when it is committed)."""
    if kind not in EVENT_TYPES:  # a programming error, not a user's
        raise ValueError(f"unknown event type {kind!r}")
    return {"v": EVENT_VERSION, "type": kind, **data}


def dumps_save(events: list[dict]) -> str:
    """The save-file text for a contest's events."""
    return json.dumps({"format": SAVE_FORMAT, "version": SAVE_VERSION, "events": events},
                      ensure_ascii=False, indent=1)


def loads_save(text: str | bytes) -> list[dict]:
    """The events of a save file, after checking it is one of ours; SaveFileError otherwise."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"This is not a raisus_panel save file (not valid JSON: {exc}).",
                            key="error.save.not_json", detail=str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError("This JSON is not a raisus_panel contest save (its 'format' is missing or different).",
                            key="error.save.not_ours")
    if data.get("version") != SAVE_VERSION:
        raise SaveFileError(f"This save is version {data.get('version')!r}; this raisus_panel reads "
                            f"version {SAVE_VERSION}. Update raisus_panel to open it.",
                            key="error.save.version", version=repr(data.get("version")), supported=SAVE_VERSION)
    events = data.get("events")
    if not isinstance(events, list) or not events or not all(isinstance(e, dict) for e in events):
        raise SaveFileError("This save has no events to load.", key="error.save.no_events")
    if events[0].get("type") != "contest_started":
        raise SaveFileError("This save is damaged: it does not begin with the contest's start.",
                            key="error.save.no_start")
    for i, event in enumerate(events, 1):
        if event.get("v") != EVENT_VERSION or event.get("type") not in EVENT_TYPES or event.get("seq") != i:
            raise SaveFileError(f"This save is damaged at event {i}: unknown type, version or order.",
                                key="error.save.damaged_at", n=i)
    return events
