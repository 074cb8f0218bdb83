"""Events: what happened in a contest, as JSON-ready mappings -- the one place their shape is written.

A contest's event log is its truth (ARCHITECTURE.md): commands decide and roll, events record what
happened, and applying them (``contest_state.py``) needs no dice and no judgement, so replaying a log
always gives the same state. Saves are the log itself (``save.py``); a room wraps each contest event
in its own envelope (``raisus_panel.room.events``) without changing it.

Every event is a plain ``dict``. The fields common to all events:

``v``
    The event schema version, :data:`EVENT_VERSION`.
``type``
    One of :data:`EVENT_TYPES` (below), in the glossary's words.
``seq``
    Its place in the contest's log: 1, 2, 3, ... with no gap (the start is 1).
``cmd``
    The number of the command that made it. One command may make several events (a round that ends
    the contest makes ``round_decided`` then ``contest_ended``); :meth:`Contest.undo` takes back every
    event of the last command.

``seq`` and ``cmd`` are filled in when a command commits the event; :func:`make_event` makes the rest.
The fields of each type (:data:`EVENT_FIELDS`; every one is always present):

``contest_started``
    ``contest`` (the contest's uid), ``name``, ``single_roll``, ``profile`` (``RulesProfile.to_dict``),
    ``sides`` (two lists of unit uids), ``teams`` (``CharacterTeam.to_dict`` of the teams on the
    sides), ``characters`` (``Character.to_dict`` of every character in play, as they stood).
``cliche_chosen``
    ``unit``, ``cliche``, ``appropriate``, ``approved`` -- the cliché a character or mob rolls from now on.
``approved``
    ``unit`` -- the GM approved its inappropriate cliché (a team's, when every member's is).
``pumped``
    ``unit``, ``amount`` -- its next roll pumps its cliché (a team: its leader's) by ``amount`` (0: no
    pump); the "pumps" option.
``lucky_declared``
    ``character``, ``unit`` (its own, or its team), ``amount`` -- lucky shots it spends on that unit's
    next roll (0: none); the "lucky shots" option.
``costs_paid``
    Right after a ``round_decided`` that had pumps or lucky shots in force: ``units`` (the roll's
    two), ``hits`` (each pump paid from its cliché, after the round's damage) and ``lucky``
    (``[{"character", "amount"}]``: lucky shots spent).
``tickets_given``
    ``cliche`` (the ticket's name), ``rating``, ``temporary`` (uids given the temporary cliché),
    ``brevet`` (``[{"character", "cliche"}]``: who got ``rating`` extra dice on a fitting cliché).
``team_formed``
    ``side`` (0 or 1), ``team`` (``CharacterTeam.to_dict``).
``round_decided``
    One decided roll between two units (a whole round, or one exchange of it):
    ``round`` (the round it belongs to, 1-based), ``units`` (the two unit uids, side A's first),
    ``used`` (per unit: ``{"unit", "character" (who rolls), "cliche", "inappropriate", "revenge",
    "pool", "helpers" (uids)}``, plus ``"pump"`` and ``"lucky"`` (the points pumped and the shots
    spent, already counted in ``pool``) when either was in force), ``attempts`` (every roll until the tie broke: a list of pairs of
    ``{"pool", "faces", "total"}``, plus ``"helper_faces"`` with the "members roll, sixes count"
    option), ``winner`` (0 or 1, an index into ``units``), ``damage`` (1 or 3), ``hits``,
    ``rolloff`` (None, or ``{"rolls", "loser"}`` with the "members roll off" option),
    ``closes_round`` (False for an exchange: ``round_ended`` closes that round) and ``draw`` (the
    number of its first roll under committed dice, None with other dice; its rolls are numbered on
    from there in the order ``commitment.rolls_of`` lists them. Logs written before committed dice
    have no ``draw``: read it with ``event.get("draw")``).
``round_ended``
    ``round`` -- the round played as exchanges is over.
``volunteered``
    ``team``, ``member``, ``damage`` (of the lost round), ``restore`` (the lost round's ``hits``,
    given back), ``hits`` (what the volunteer takes instead).
``loss_assigned``
    ``team``, ``member``, ``restore``, ``hits`` -- as ``volunteered``, with the "leader assigns" option.
``team_disbanded``
    ``team``, ``reason`` (``"disband"`` or ``"lost_leader"``), ``hits`` (the disband penalty),
    ``revenge_carry`` (the next team formed on the side inherits the revenge bonus).
``dropped_out``
    ``team``, ``member``, ``hits`` (its team cliché down to 0).
``contest_ended``
    ``winner`` (0, 1 or None), ``outcome`` (the GM's narration of an early end, else ""),
    ``early`` (the GM ended it), ``owed`` (uids whose fate the winners decide).
``fate_decided``
    ``character``, ``text``.
``fate_vetoed``
    ``character``.
``recovered``
    ``gains``: ``[{"character", "cliche", "amount"}]``.
``dice_committed``
    Written before any die of committed dice is rolled (after the start, and again when the seed
    had to be renewed): ``commitment`` (SHA-256 of the secret seed, hex), ``scheme``
    (``commitment.SCHEME``), ``scope`` (what the roll counter belongs to: the contest's uid),
    ``first_roll`` (the number of the first roll under this seed) and ``client_seeds`` (who -> text,
    as they stood then).
``client_seed_set``
    ``who``, ``seed`` -- a player's client seed, mixed into every face from the first roll on
    (refused once a die of the commitment has been rolled).
``dice_revealed``
    ``commitment``, ``seed`` (the secret seed, hex: anyone can now recompute every face) and
    ``next_roll`` (the first roll number not drawn under it: rolls taken back by undo keep their
    numbers, so a gap in the numbers shows them).

A *hit* (in ``hits`` and ``restore``) is ``{"character", "cliche", "extra", "current"}``: how many
extra (brevet) dice and how many points of ``current`` a cliché lost. Scores never go below 0, so a
hit is never more than the cliché had.
"""

from __future__ import annotations

from typing import Any

EVENT_VERSION = 1

#: The fields every event has, whatever its type.
COMMON_FIELDS = frozenset({"v", "type", "seq", "cmd"})

#: Each event type -> the fields of its own (see the module docstring for what they hold).
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "contest_started": frozenset({"contest", "name", "single_roll", "profile", "sides", "teams", "characters"}),
    "cliche_chosen": frozenset({"unit", "cliche", "appropriate", "approved"}),
    "approved": frozenset({"unit"}),
    "pumped": frozenset({"unit", "amount"}),
    "lucky_declared": frozenset({"character", "unit", "amount"}),
    "costs_paid": frozenset({"units", "hits", "lucky"}),
    "tickets_given": frozenset({"cliche", "rating", "temporary", "brevet"}),
    "team_formed": frozenset({"side", "team"}),
    "round_decided": frozenset({"round", "units", "used", "attempts", "winner", "damage", "hits", "rolloff",
                                "closes_round", "draw"}),
    "round_ended": frozenset({"round"}),
    "volunteered": frozenset({"team", "member", "damage", "restore", "hits"}),
    "loss_assigned": frozenset({"team", "member", "restore", "hits"}),
    "team_disbanded": frozenset({"team", "reason", "hits", "revenge_carry"}),
    "dropped_out": frozenset({"team", "member", "hits"}),
    "contest_ended": frozenset({"winner", "outcome", "early", "owed"}),
    "fate_decided": frozenset({"character", "text"}),
    "fate_vetoed": frozenset({"character"}),
    "recovered": frozenset({"gains"}),
    "dice_committed": frozenset({"commitment", "scheme", "scope", "first_roll", "client_seeds"}),
    "client_seed_set": frozenset({"who", "seed"}),
    "dice_revealed": frozenset({"commitment", "seed", "next_roll"}),
}

#: Fields added to a type after logs were first written: absent from those logs (read with ``.get``).
ADDED_FIELDS: dict[str, frozenset[str]] = {"round_decided": frozenset({"draw"})}

#: The event types of committed dice (added after the first saves were written).
DICE_EVENT_TYPES = ("dice_committed", "client_seed_set", "dice_revealed")

#: The event types of the campaign options (RULES.md section 11; added after committed dice).
CAMPAIGN_EVENT_TYPES = ("pumped", "lucky_declared", "costs_paid")

#: Event types, in the glossary's words.
EVENT_TYPES = tuple(EVENT_FIELDS)

#: The fields of a hit (an entry of an event's ``hits`` or ``restore``).
HIT_FIELDS = frozenset({"character", "cliche", "extra", "current"})


def make_event(kind: str, **data: Any) -> dict[str, Any]:
    """A new event of type ``kind`` with exactly its documented fields (``seq`` and ``cmd`` come later).

    Parameters
    ----------
    kind
        One of :data:`EVENT_TYPES`.
    **data
        The fields of that type, :data:`EVENT_FIELDS` ``[kind]``.

    Raises
    ------
    ValueError
        For an unknown type or other fields than documented: a programming error, not a user's.
    """
    fields = EVENT_FIELDS.get(kind)
    if fields is None:
        raise ValueError(f"unknown event type {kind!r}")
    if set(data) != fields:
        raise ValueError(f"a {kind} event has the fields {sorted(fields)}, not {sorted(data)}")
    return {"v": EVENT_VERSION, "type": kind, **data}
