"""Read-only lookups the views need over a contest's public state: units by uid, sides, names.

Nothing here changes a model, and nothing here is a rule: what the rules decide (whether a command
is allowed, a unit's choice, a pending revenge bonus, ...) comes from ``Contest`` itself
(:meth:`~raisus_panel.rules.Contest.why_not`, :meth:`~raisus_panel.rules.Contest.is_inappropriate`,
:meth:`~raisus_panel.rules.Contest.pending_revenge`, ...), never from a second copy here.
"""

from __future__ import annotations

from raisus_panel.rules import Character, CharacterTeam, Contest, GruntMob


def units(contest: Contest) -> list:
    """Every unit on both sides, side 0 first."""
    return [u for side in contest.sides for u in side]


def side_of(contest: Contest, uid: str) -> int | None:
    """The side (0 or 1) holding the unit ``uid``, or None."""
    for i, side in enumerate(contest.sides):
        if any(u.uid == uid for u in side):
            return i
    return None


def unit(contest: Contest, uid: str):
    """The unit with ``uid`` on a side, or None."""
    return next((u for u in units(contest) if u.uid == uid), None)


def fought_with(contest: Contest, u):
    """The cliché an individual's card shows: the one it rolls; once a contest fought on tickets has
    ended, the ticket it fought on, as it stood then (the end removed it:
    :meth:`~raisus_panel.rules.Contest.ended_ticket`). None for a team, or before a choice."""
    if isinstance(u, CharacterTeam):
        return None
    ticket = contest.ended_ticket(u.uid)
    return ticket if ticket is not None else contest.chosen(u.uid)


def character(contest: Contest, char_uid: str) -> Character | None:
    """A character of the contest (team members included) by uid."""
    return next((c for c in contest.characters() if c.uid == char_uid), None)


def names(contest: Contest) -> dict[str, str]:
    """Display names of every character and team the event log mentions, by uid."""
    out: dict[str, str] = {}
    if not contest.events:
        return out
    start = contest.events[0]
    for data in start.get("characters", []):
        out[data["uid"]] = data["name"]
    for data in start.get("teams", []):
        out[data["uid"]] = data["name"]
    for e in contest.events:
        if e["type"] == "team_formed":
            out[e["team"]["uid"]] = e["team"]["name"]
    for c in contest.characters():
        out[c.uid] = c.name
    for u in units(contest):
        out[u.uid] = u.name
    return out


def teams_by_uid(contest: Contest) -> dict[str, dict]:
    """Every team the event log knows (as its ``to_dict`` data), by uid."""
    out = {}
    if contest.events:
        for data in contest.events[0].get("teams", []):
            out[data["uid"]] = data
    for e in contest.events:
        if e["type"] == "team_formed":
            out[e["team"]["uid"]] = {**e["team"], "side": e["side"]}
    return out


def members(u) -> list[Character]:
    """The characters a unit is made of: a team's members, or the character itself."""
    return list(u.members) if isinstance(u, CharacterTeam) else [u]


def plays(u, player_id: str) -> bool:
    """Whether the player ``player_id`` plays the unit ``u`` (owns it, or a member of a team).

    Ownership as the room's permissions read it (``Character.owner``); no one plays anything with an
    empty id (the GM's, a spectator's): the GM's NPCs have an empty owner too.
    """
    return bool(player_id) and any(getattr(m, "owner", "") == player_id for m in members(u))


def is_mob(u) -> bool:
    """Whether a unit is a grunt mob."""
    return isinstance(u, GruntMob)
