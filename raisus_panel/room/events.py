"""Room events: the envelope every event of a room carries, and who may see which event.

A room event is a JSON-ready ``dict`` (:data:`Event`), made by one constructor, :func:`room_event`
(its fields by type: :data:`ROOM_EVENT_FIELDS`), and numbered by :func:`stamp`::

    {"v": 1, "seq": 12, "type": "character_created", "cmd_id": "3f2a...", "command": "create_character",
     "actor": {"role": "player", "player_id": "a1b2c3"}, "private": false, "ts": 1767225600.0,
     ...the data of its type...}

``seq`` numbers a room's events 1, 2, 3, ... without gaps. ``cmd_id`` names the command that made the
event (one command may make several events); ``command`` is that command's name. ``private`` events
(the GM's secret rolls) are shown to the GM only. ``ts`` is the wall-clock time (seconds since the
epoch) and is never used to rebuild state. A contest's own events travel wrapped::

    {..., "type": "contest", "contest": "<contest uid>", "event": {<the Contest's event>}}

and carry their dice faces, so replaying a room needs no dice.

With committed dice (a room's default) each contest commits, takes client seeds and reveals in its own
events (``rules/events.py``); the action checks roll in *checks sessions* of their own, one public and
one for the GM's secret rolls, each with a ``dice_committed`` event before its first check and a
``dice_revealed`` event when the GM reveals it (``reveal_checks``). Each ``action_checked`` event
carries ``draw``: ``{"scope", "roll"}`` (None for an automatic success, or other dice). The GM's session
is private from its commitment to its reveal, so its seed -- which gives the faces of the secret
rolls -- never reaches a player.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from .roles import Actor, Role

#: A room event, or the payload of one before :func:`stamp` numbers it: JSON-ready data.
Event = dict[str, Any]

#: Version of the room event envelope.
ROOM_EVENT_VERSION = 1

#: The fields every room event has, whatever its type (``stamp`` fills them in).
ENVELOPE_FIELDS = frozenset({"v", "seq", "type", "cmd_id", "command", "actor", "private", "ts"})

#: Each room event type -> the fields of its own. ``contest`` wraps an event of
#: :class:`raisus_panel.rules.Contest` (``rules/events.py`` documents those).
ROOM_EVENT_FIELDS: dict[str, frozenset[str]] = {
    "room_created": frozenset({"title"}),
    "player_joined": frozenset({"player"}),  # {player_id, name}
    "title_set": frozenset({"title"}),
    "character_created": frozenset({"character"}),  # Character.to_dict()
    # the whole new to_dict(), and the old one (``before``; absent when a notebook adopts a contest)
    "character_updated": frozenset({"character", "before"}),
    "character_removed": frozenset({"character"}),  # the removed to_dict()
    "action_checked": frozenset({"character", "check", "draw"}),  # check: CheckResult.to_dict()
    "contest": frozenset({"contest", "event"}),  # the contest's uid, its event
    "contest_closed": frozenset({"contest", "summary"}),
    "round_opened": frozenset({"open"}),  # bool: players may roll until the round is decided
    "recovered": frozenset({"gains"}),  # [{character, cliche, amount}]: recovery outside a contest
    "undone": frozenset({"undone_cmd_id", "undone_command", "undone_seqs"}),
    # a checks session's dice, and its seed revealed
    "dice_committed": frozenset({"scope", "commitment", "scheme", "first_roll", "client_seeds"}),
    "dice_revealed": frozenset({"scope", "commitment", "seed", "next_roll"}),
    # campaign play (RULES.md section 11): the table's rules, sessions and advancement
    "rules_set": frozenset({"profile"}),  # RulesProfile.to_dict()
    "session_started": frozenset({"session"}),  # its number; lucky shots refill
    # advancement: character uid -> the clichés it may roll for (or [] for a creation die to invest)
    "session_ended": frozenset({"session", "advancement"}),
    "advancement_rolled": frozenset({"character", "roll", "draw"}),  # roll: AdvancementRoll.to_dict()
    "advancement_invested": frozenset({"character", "cliche", "new"}),  # new: a new cliché at 1, else +1
}

#: Fields a type may go without (see :data:`ROOM_EVENT_FIELDS`).
OPTIONAL_FIELDS: dict[str, frozenset[str]] = {"character_updated": frozenset({"before"})}

#: The room's event types.
ROOM_EVENT_TYPES = tuple(ROOM_EVENT_FIELDS)


def room_event(kind: str, *, private: bool = False, **fields: Any) -> Event:
    """The payload of a room event of type ``kind``: exactly its documented fields, not yet numbered.

    ``private`` events (the GM's secret rolls) are shown to the GM only.

    Raises
    ------
    ValueError
        For an unknown type or other fields than documented: a programming error, not a user's.
    """
    needed = ROOM_EVENT_FIELDS.get(kind)
    if needed is None:
        raise ValueError(f"unknown room event type {kind!r}")
    if not needed - OPTIONAL_FIELDS.get(kind, frozenset()) <= set(fields) <= needed:
        raise ValueError(f"a {kind} room event has the fields {sorted(needed)}, not {sorted(fields)}")
    return {"type": kind, **fields, "private": private}


def undone_event(target: Sequence[Event]) -> Event:
    """The ``undone`` payload that takes back ``target``: every event of one command, in order.

    It is private when any of them is (taking back a secret roll tells no one else of it).
    """
    return room_event("undone", undone_cmd_id=target[0]["cmd_id"], undone_command=target[0]["command"],
                      undone_seqs=[e["seq"] for e in target], private=any(e["private"] for e in target))


def stamp(payload: Event, *, seq: int, cmd_id: str, command: str, actor: Actor) -> Event:
    """A payload of :func:`room_event` as a numbered room event, in the envelope every event carries.

    The result went through JSON once, so the live room holds exactly what a store gives back.
    """
    data = dict(payload)
    private = bool(data.pop("private", False))
    kind = data.pop("type")
    if kind not in ROOM_EVENT_FIELDS:  # a programming error, not a user's
        raise ValueError(f"unknown room event type {kind!r}")
    event = {"v": ROOM_EVENT_VERSION, "seq": seq, "type": kind, "cmd_id": cmd_id, "command": command,
             "actor": actor.to_dict(), "private": private, "ts": round(time.time(), 3), **data}
    result: Event = json.loads(json.dumps(event, ensure_ascii=False))
    return result


def visible_to(actor: Actor, event: Event) -> bool:
    """Whether ``actor`` may see ``event``: the GM sees everything, others every event not private."""
    return actor.role is Role.GM or not event.get("private", False)
