"""Room events: the envelope every event of a room carries, and who may see which event.

A room event is a JSON-ready ``dict``::

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

from .roles import Actor, Role

#: Version of the room event envelope.
ROOM_EVENT_VERSION = 1

#: The room's event types. ``contest`` wraps an event of :class:`raisus_panel.rules.Contest`.
ROOM_EVENT_TYPES = (
    "room_created",       # title
    "player_joined",      # player: {player_id, name}
    "title_set",          # title
    "character_created",  # character: Character.to_dict()
    "character_updated",  # character: the whole new to_dict(); before: the old one
    "character_removed",  # character: the removed to_dict()
    "action_checked",     # character, check: CheckResult.to_dict()
    "contest",            # contest: uid, event: the contest's event
    "contest_closed",     # contest: uid, summary: {...}
    "round_opened",       # open: bool -- players may roll until the round is decided
    "recovered",          # gains: [{character, cliche, amount}] -- recovery outside a contest
    "undone",             # undone_cmd_id, undone_command, undone_seqs
    "dice_committed",     # scope, commitment, scheme, first_roll, client_seeds -- a checks session's dice
    "dice_revealed",      # scope, commitment, seed, next_roll -- its seed, revealed
)


def stamp(payload: dict, *, seq: int, cmd_id: str, command: str, actor: Actor) -> dict:
    """A payload (``{"type": ..., ...}``, optional ``"private"``) as a numbered room event.

    The result went through JSON once, so the live room holds exactly what a store gives back.
    """
    data = dict(payload)
    private = bool(data.pop("private", False))
    kind = data.pop("type")
    if kind not in ROOM_EVENT_TYPES:  # a programming error, not a user's
        raise ValueError(f"unknown room event type {kind!r}")
    event = {"v": ROOM_EVENT_VERSION, "seq": seq, "type": kind, "cmd_id": cmd_id, "command": command,
             "actor": actor.to_dict(), "private": private, "ts": round(time.time(), 3), **data}
    return json.loads(json.dumps(event, ensure_ascii=False))


def visible_to(actor: Actor, event: dict) -> bool:
    """Whether ``actor`` may see ``event``: the GM sees everything, others every event not private."""
    return actor.role is Role.GM or not event.get("private", False)
