"""Room files: importing what :meth:`Room.export_json` wrote, refusing anything else.

The file is JSON: ``{"format": "raisus_panel/room", "version": 1, "room_id": ..., "title": ...,
"exported_at": ..., "events": [...]}``. An import checks the envelope, every event's envelope, and
replays the whole log in memory before it writes anything: a refused file leaves the store as it was.

A file is refused before it is parsed when it is larger than the limit, and every text an import
carries (the room's title, players' names and ids, contest names, outcomes and fates, command ids)
meets the same limits as the same text typed on a page: a file cannot bring what no one could type.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from raisus_panel.rules import RuleError
from raisus_panel.rules.dice import DiceSource
from raisus_panel.rules.errors import Phrase
from raisus_panel.rules.validation import MAX_TEXT_LENGTH, clean_name, clean_text

from .commands import PLAYER_ID, ROOM_TITLE
from .errors import RoomFileError
from .events import ROOM_EVENT_TYPES, ROOM_EVENT_VERSION
from .limits import MAX_ROOM_FILE_BYTES, too_large
from .room import ROOM_FORMAT, ROOM_FORMAT_VERSION, Room, new_room_id
from .store import MemoryStore, Store, check_room_id

_ENVELOPE = {"v", "seq", "type", "cmd_id", "command", "actor", "private", "ts"}
_COMMAND_ID = re.compile(r"[\x21-\x7e]{1,128}")
_COMMAND_NAME = re.compile(r"[a-z_]{1,40}")
_PLAYER_NAME = Phrase("player name", "term.player_name")
_CONTEST_NAME = Phrase("contest name", "term.contest_name")
_OUTCOME = Phrase("outcome", "term.outcome")
_FATE = Phrase("fate", "term.fate")
_UNIT_NAME = Phrase("name", "term.name")
_CLIENT_SEED = Phrase("client seed", "term.client_seed")
_DOES_NOT_FIT = Phrase("an event does not fit the ones before it", "term.file.does_not_fit")


def read_room_file(text: object, *, max_bytes: int = MAX_ROOM_FILE_BYTES) -> dict[str, Any]:
    """The parsed file after checking it is a room export we can read; RoomFileError otherwise.

    A file larger than ``max_bytes`` is refused before it is parsed
    (:class:`~.limits.LimitReached`).
    """
    size = len(text) if isinstance(text, (bytes, bytearray, str)) else 0
    if isinstance(text, str) and size <= max_bytes:
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise too_large(size, max_bytes)
    # every refusal is a catalog message: Python's own error text is English and names internals
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            text = None
    if not isinstance(text, str):
        raise RoomFileError("This is not a raisus_panel room file: it is not text (a room file is JSON, "
                            "UTF-8).", key="error.room_file.not_text")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RoomFileError(f"This is not a raisus_panel room file: it is not valid JSON (line {exc.lineno}, "
                            f"column {exc.colno}).", key="error.room_file.not_json",
                            line=exc.lineno, column=exc.colno) from None
    except (ValueError, RecursionError):  # a number too long to read, or nested deeper than Python can
        raise RoomFileError("This is not a raisus_panel room file: it is not JSON that can be read.",
                            key="error.room_file.unreadable") from None
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
        problem = _envelope_problem(event, i) or _field_problem(event)
        if problem:
            raise RoomFileError(f"This room file is damaged at event {i}: {problem}.",
                                key="error.room_file.damaged_at", n=i, problem=problem)
    if events[0]["type"] != "room_created":
        raise RoomFileError("This room file is damaged: it does not begin with the room's creation.",
                            key="error.room_file.no_creation")
    return data


def _envelope_problem(event: object, seq: int) -> Phrase | None:
    if not isinstance(event, dict):
        return Phrase("not an event", "term.file.not_an_event")
    missing = _ENVELOPE - set(event)
    if missing:
        names = ", ".join(sorted(missing))
        return Phrase(f"missing {names}", "term.file.missing", names=names)
    if event["v"] != ROOM_EVENT_VERSION or not isinstance(event["type"], str) \
            or event["type"] not in ROOM_EVENT_TYPES:
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


def _longest_text(value: object, depth: int = 0) -> float:
    """The length of the longest string anywhere in ``value`` (a bound on what no field checks)."""
    if isinstance(value, str):
        return len(value)
    if depth > 20:  # deeper than any event we write: treat it as too long
        return math.inf
    if isinstance(value, dict):
        return max([_longest_text(v, depth + 1) for v in value.values()]
                   + [len(k) if isinstance(k, str) else 0 for k in value], default=0)
    if isinstance(value, list):
        return max((_longest_text(v, depth + 1) for v in value), default=0)
    return 0


def _field_problem(event: dict[str, Any]) -> Phrase | str | None:
    """What in an event's fields no one could have typed (checked as typed input is), or None."""
    try:
        if not isinstance(event["cmd_id"], str) or not _COMMAND_ID.fullmatch(event["cmd_id"]):
            return Phrase("bad command id or privacy flag", "term.file.bad_envelope")
        if not isinstance(event["command"], str) or not _COMMAND_NAME.fullmatch(event["command"]):
            return Phrase("unknown version or type", "term.file.unknown_type")
        player_id = event["actor"]["player_id"]
        if player_id and not PLAYER_ID.fullmatch(player_id):
            return Phrase("unknown actor", "term.file.unknown_actor")
        kind = event["type"]
        if kind in ("room_created", "title_set"):
            clean_name(event.get("title"), ROOM_TITLE)
        elif kind == "player_joined":
            player = event.get("player")
            if not isinstance(player, dict) or not isinstance(player.get("player_id"), str) \
                    or not PLAYER_ID.fullmatch(player["player_id"]):
                return Phrase("unknown actor", "term.file.unknown_actor")
            clean_name(player.get("name"), _PLAYER_NAME)
        elif kind == "contest" and isinstance(event.get("event"), dict):
            inner = event["event"]
            if inner.get("type") == "contest_started":
                clean_name(inner.get("name"), _CONTEST_NAME)
            elif inner.get("type") == "contest_ended":
                clean_text(inner.get("outcome"), _OUTCOME)
            elif inner.get("type") == "fate_decided":
                clean_text(inner.get("text"), _FATE, required=True)
            elif inner.get("type") == "client_seed_set":
                clean_name(inner.get("seed"), _CLIENT_SEED)
        elif kind == "contest_closed" and isinstance(event.get("summary"), dict):
            summary = event["summary"]
            clean_name(summary.get("name"), _CONTEST_NAME)
            clean_text(summary.get("outcome"), _OUTCOME)
            for fate in (summary.get("fates") or {}).values():
                clean_text(fate, _FATE)
            for side in summary.get("sides") or []:
                for unit in side:
                    clean_name(unit.get("name"), _UNIT_NAME)
        # characters, clichés, teams and tickets are checked as they are rebuilt by the replay
        longest = _longest_text({k: v for k, v in event.items()})
        if longest > MAX_TEXT_LENGTH:
            return Phrase(f"a text of {longest} characters (at most {MAX_TEXT_LENGTH})", "term.file.text_too_long",
                          length=longest, most=MAX_TEXT_LENGTH)
    except RuleError as exc:
        return Phrase.of(exc)
    except (KeyError, TypeError, AttributeError):
        return Phrase("bad command id or privacy flag", "term.file.bad_envelope")
    return None


def import_room(store: Store, text: str | bytes, *, room_id: str | None = None,
                dice: DiceSource | None = None, meta: dict[str, Any] | None = None,
                max_bytes: int = MAX_ROOM_FILE_BYTES) -> Room:
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
    max_bytes
        The largest file accepted, checked before the file is parsed.

    Raises
    ------
    LimitReached
        The file is larger than ``max_bytes``. Nothing is read or written.
    RoomFileError
        The file is not JSON, not a room export, of another version, or damaged (an event does
        not replay). Nothing is written.
    """
    data = read_room_file(text, max_bytes=max_bytes)
    events = data["events"]
    scratch = MemoryStore()
    try:
        scratch.create_room("import", {}, events)
        Room.load(scratch, "import")
    except RoomFileError:
        raise
    except Exception as exc:  # any failure to replay means the file is damaged
        # a refusal says why in the catalog; anything else is an internal text, not shown
        detail = Phrase.of(exc) if isinstance(exc, RuleError) else _DOES_NOT_FIT
        raise RoomFileError(f"This room file is damaged: its events do not replay ({detail}).",
                            key="error.room_file.not_replayable", detail=detail) from None
    room_id = check_room_id(room_id or new_room_id())
    title = events[0].get("title", "")
    store.create_room(room_id, {"title": title, "imported_from": str(data.get("room_id", "")), **(meta or {})},
                      events)
    return Room.load(store, room_id, dice=dice)
