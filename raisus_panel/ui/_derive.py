"""Read-only facts about a contest that the views need and the models do not publish directly.

Everything here only reads public state (parameters, helpers and the event log) of
:class:`~raisus_panel.rules.Contest`; nothing changes a model. Where a fact could only be derived from
the event log, the function says so: those are candidates for a public helper on ``Contest``.
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


def team_of(contest: Contest, char_uid: str) -> CharacterTeam | None:
    """The team on a side that has the character ``char_uid`` on its roster."""
    for u in units(contest):
        if isinstance(u, CharacterTeam) and any(m.uid == char_uid for m in u.members):
            return u
    return None


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


def pending_revenge(contest: Contest, side: int) -> bool:
    """Whether the next team formed on ``side`` inherits a revenge bonus (its leader fell volunteering).

    Derived from the event log: ``Contest`` keeps this as private state.
    """
    carry = [False, False]
    team_side = {}
    if contest.events:
        for s, ids in enumerate(contest.events[0].get("sides", [])):
            for uid in ids:
                team_side[uid] = s
    for e in contest.events:
        kind = e["type"]
        if kind == "team_formed":
            team_side[e["team"]["uid"]] = e["side"]
            carry[e["side"]] = False
        elif kind == "round_decided":
            carry = [False, False]
        elif kind == "team_disbanded" and e.get("revenge_carry"):
            s = team_side.get(e["team"])
            if s is not None:
                carry[s] = True
    return carry[side]


def is_inappropriate(contest: Contest, u) -> bool:
    """Whether a unit's current choice is an inappropriate cliché (approved or not).

    For an individual this is derived from the event log (the latest choice, a ticket, or the
    flags its disbanded team had): ``Contest`` keeps choices private.
    """
    if isinstance(u, CharacterTeam):
        return u.inappropriate
    teams = teams_by_uid(contest)
    for e in reversed(contest.events):
        kind = e["type"]
        if kind == "cliche_chosen" and e["unit"] == u.uid:
            return not e["appropriate"]
        if kind == "tickets_given" and (u.uid in e["temporary"]
                                        or any(b["character"] == u.uid for b in e["brevet"])):
            return False
        if kind == "team_disbanded":
            data = teams.get(e["team"], {})
            for m in data.get("members", []):
                if m["character"] == u.uid:
                    return not m["appropriate"]
    return False


def exchange_played(contest: Contest) -> bool:
    """Whether an exchange of the current (unfinished) round has been played."""
    nxt = contest.round + 1
    return any(h["kind"] == "round" and h["round"] == nxt for h in contest.history)


def has_rolled(contest: Contest) -> bool:
    """Whether any round or exchange has been decided."""
    return any(e["type"] == "round_decided" for e in contest.events)


def can_roll(contest: Contest, u) -> bool:
    """Whether a unit has what it needs to roll now: a cliché with dice and no pending approval."""
    if not contest.is_active(u.uid):
        return False
    if contest.needs_approval(u.uid):
        return False
    if isinstance(u, CharacterTeam):
        return contest.pool(u.uid) > 0
    chosen = contest.chosen(u.uid)
    return chosen is not None and chosen.pool > 0


def is_mob(u) -> bool:
    """Whether a unit is a grunt mob."""
    return isinstance(u, GruntMob)
