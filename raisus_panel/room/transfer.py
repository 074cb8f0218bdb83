"""Room files: importing what :meth:`Room.export_json` wrote, refusing anything else.

The file is JSON: ``{"format": "raisus_panel/room", "version": 1, "room_id": ..., "title": ...,
"exported_at": ..., "events": [...]}``. An import checks the envelope, every event's envelope, and
replays the whole log in memory before it writes anything: a refused file leaves the store as it was.
"""

from __future__ import annotations

import json

from raisus_panel.rules.dice import DiceSource
from raisus_panel.rules.errors import Phrase

from .errors import RoomFileError
from .events import ROOM_EVENT_TYPES, ROOM_EVENT_VERSION
from .room import ROOM_FORMAT, ROOM_FORMAT_VERSION, Room, new_room_id
from .store import MemoryStore, Store, check_room_id

_ENVELOPE = {"v", "seq", "type", "cmd_id", "command", "actor", "private", "ts"}


def read_room_file(text: str | bytes) -> dict:
    """The parsed file after checking it is a room export we can read; RoomFileError otherwise."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, UnicodeDecodeError) as exc:
        raise RoomFileError(f"This is not a raisus_panel room file (not valid JSON: {exc}).",
                            key="error.room_file.not_json", detail=str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != ROOM_FORMAT:
        raise RoomFileError("This JSON is not a raisus_panel room export (its 'format' is missing or "
                            "different). A single contest's save is opened with Contest.from_json.",
                            key="error.room_file.not_ours")
    if data.get("version") != ROOM_FORMAT_VERSION:
        raise RoomFileError(f"This room file is version {data.get('version')!r}; this raisus_panel reads "
                            f"version {ROOM_FORMAT_VERSION}. Update raisus_panel to open it.",
                            key="error.room_file.version", version=repr(data.get("version")),
                            supported=ROOM_FORMAT_VERSION)
    events = data.get("events")
    if not isinstance(events, list) or not events:
        raise RoomFileError("This room file has no events to load.", key="error.room_file.no_events")
    for i, event in enumerate(events, 1):
        problem = _envelope_problem(event, i)
        if problem:
            raise RoomFileError(f"This room file is damaged at event {i}: {problem}.",
                                key="error.room_file.damaged_at", n=i, problem=problem)
    if events[0]["type"] != "room_created":
        raise RoomFileError("This room file is damaged: it does not begin with the room's creation.",
                            key="error.room_file.no_creation")
    return data


def _envelope_problem(event, seq: int) -> Phrase | None:
    if not isinstance(event, dict):
        return Phrase("not an event", "term.file.not_an_event")
    missing = _ENVELOPE - set(event)
    if missing:
        names = ", ".join(sorted(missing))
        return Phrase(f"missing {names}", "term.file.missing", names=names)
    if event["v"] != ROOM_EVENT_VERSION or event["type"] not in ROOM_EVENT_TYPES:
        return Phrase("unknown version or type", "term.file.unknown_type")
    if event["seq"] != seq:
        return Phrase(f"sequence number {event['seq']!r} where {seq} belongs", "term.file.sequence",
                      got=repr(event["seq"]), seq=seq)
    actor = event["actor"]
    if (not isinstance(actor, dict) or actor.get("role") not in ("gm", "player", "spectator")
            or not isinstance(actor.get("player_id"), str)):
        return Phrase("unknown actor", "term.file.unknown_actor")
    if not isinstance(event["cmd_id"], str) or not isinstance(event["private"], bool):
        return Phrase("bad command id or privacy flag", "term.file.bad_envelope")
    if event["type"] == "contest" and not (isinstance(event.get("event"), dict)
                                           and isinstance(event.get("contest"), str)):
        return Phrase("a contest event without its contest", "term.file.orphan_event")
    return None


def import_room(store: Store, text: str | bytes, *, room_id: str | None = None,
                dice: DiceSource | None = None, meta: dict | None = None) -> Room:
    """Load a room file into ``store`` as a new room and return it.

    Parameters
    ----------
    store
        Where the imported room goes.
    text
        The file's content, as written by :meth:`Room.export_json`.
    room_id
        The new room's id; a fresh one by default (an import never overwrites a room).
    dice
        The imported room's dice source.
    meta
        Extra metadata for the store (e.g. link hashes).

    Raises
    ------
    RoomFileError
        The file is not JSON, not a room export, of another version, or damaged (an event does
        not replay). Nothing is written.
    """
    data = read_room_file(text)
    events = data["events"]
    scratch = MemoryStore()
    try:
        scratch.create_room("import", {}, events)
        Room.load(scratch, "import")
    except RoomFileError:
        raise
    except Exception as exc:  # any failure to replay means the file is damaged
        raise RoomFileError(f"This room file is damaged: its events do not replay ({exc}).",
                            key="error.room_file.not_replayable", detail=Phrase.of(exc)) from None
    room_id = check_room_id(room_id or new_room_id())
    title = events[0].get("title", "")
    store.create_room(room_id, {"title": title, "imported_from": str(data.get("room_id", "")), **(meta or {})},
                      events)
    return Room.load(store, room_id, dice=dice)
