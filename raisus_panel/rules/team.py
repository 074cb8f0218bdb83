"""Character teams (캐릭터 팀): several characters rolling as one unit behind a leader."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import param

from .character import Character, GruntMob, new_uid
from .cliche import Cliche
from .errors import Phrase, RuleError
from .validation import clean_name


def _member_spec(item: object) -> tuple[Character, str, bool]:
    """``knight``, ``(knight, "Knight")`` or ``(knight, "Knight", False)`` -> (character, cliché, appropriate)."""
    if isinstance(item, Character):
        usable = [c for c in item.cliches if c.pool > 0]
        if len(usable) != 1:
            raise RuleError(f"{item.name} has {len(usable)} usable clichés: say which one the team uses, "
                            f"e.g. ({item.name!r}-character, 'Cliché').",
                            key="error.team.which_cliche", name=item.name, count=len(usable))
        return item, usable[0].name, True
    if isinstance(item, (tuple, list)) and len(item) in (2, 3) and isinstance(item[0], Character):
        appropriate = bool(item[2]) if len(item) == 3 else True
        return item[0], item[0].cliche(item[1]).name, appropriate
    raise RuleError(f"A team member is a Character or (character, 'cliché'[, appropriate]); not {item!r}.",
                    key="error.team.bad_member", item=repr(item))


class CharacterTeam(param.Parameterized):
    """Two or more characters who roll as one unit in a contest.

    The **leader** is the member with the highest current score in the cliché it brings; on a tie the
    players name the leader. Only the leader rolls: its current score, doubled while a revenge bonus
    is armed, plus one die for each other active member using an appropriate cliché. A member at 0
    stays on the roster ("down") but adds nothing.

    Parameters
    ----------
    members
        Characters, or ``(character, "cliché")`` / ``(character, "cliché", appropriate)`` tuples.
    leader
        Who leads; required only when several members tie for the highest score.

    Examples
    --------
    >>> knight = Character("Knight", {"Knight": 4}); viking = Character("Viking", {"Viking": 2})
    >>> CharacterTeam([knight, viking]).pool
    5
    """

    uid = param.String(default="", doc="""A stable id for events and saves.""")

    name = param.String(default="", constant=False, doc="""The team's name as shown at the table.""")

    members = param.List(default=[], item_type=Character, doc="""
        The characters on the roster, leader included, in the order they joined.""")

    member_cliches = param.Dict(default={}, doc="""
        For each member's uid, the name of the cliché it brings to this team.""")

    appropriate = param.Dict(default={}, doc="""
        For each member's uid, whether its cliché is appropriate to the contest.""")

    leader = param.ClassSelector(class_=Character, default=None, allow_None=True, doc="""
        The member who rolls for the team and, by default, takes a lost round's damage.""")

    revenge = param.Boolean(default=False, doc="""
        True while a revenge bonus is armed: the leader's score counts double in the next decided
        round, then the bonus is used up.""")

    dropped = param.List(default=[], item_type=str, doc="""
        Uids of members who dropped out; their team cliché is 0 and they add nothing.""")

    approved = param.Boolean(default=False, doc="""
        The GM's approval, needed only when every member uses an inappropriate cliché.""")

    def __init__(self, members: Iterable[Any] = (), leader: Character | None = None, *, name: str | None = None,
                 **params: Any) -> None:
        if isinstance(members, (str, bytes)) or not isinstance(members, Iterable):
            raise RuleError(f"Give a team's members as a list of characters, not {members!r}.",
                            key="error.team.members_type", value=repr(members))
        specs = [_member_spec(m) for m in members]
        chars = [c for c, _, _ in specs]
        if len(specs) < 2:
            raise RuleError("A character team needs at least two characters; a lone character "
                            "simply fights as an individual.", key="error.team.too_small")
        if len({c.uid for c in chars}) != len(chars):
            raise RuleError("A character can join a team only once.", key="error.team.twice")
        for char, cliche_name, _ in specs:
            if isinstance(char, GruntMob):
                raise RuleError(f"{char.name} is a grunt mob: mobs fight as their own unit and cannot join a team.",
                                key="error.team.no_mobs", name=char.name)
            if char.cliche(cliche_name).pool < 1:
                raise RuleError(f"{char.name}'s {cliche_name} is at 0: only characters with dice left can form a team.",
                                key="error.team.cliche_at_zero", name=char.name, cliche=cliche_name)
        cliches = {c.uid: n for c, n, _ in specs}
        scores = {c.uid: c.cliche(cliches[c.uid]).current for c in chars}
        best = max(scores.values())
        tied = [c for c in chars if scores[c.uid] == best]
        if leader is None:
            if len(tied) > 1:
                names = ", ".join(c.name for c in tied)
                raise RuleError(f"Leader tie: {names} all have {best}; the players must name the leader.",
                                key="error.team.leader_tie", names=names, score=best)
            leader = tied[0]
        elif leader not in chars:
            who = str(getattr(leader, "name", leader))
            raise RuleError(f"{who} is not on this team: name a member as leader.",
                            key="error.team.leader_not_member", name=who)
        elif scores[leader.uid] != best:
            names = ", ".join(c.name for c in tied)
            raise RuleError(f"{leader.name} cannot lead: the leader has the highest score in its team "
                            f"cliché ({best}: {names}).", key="error.team.leader_not_best",
                            name=leader.name, score=best, names=names)
        params.setdefault("uid", new_uid())
        name = clean_name(name, Phrase("team name", "term.team_name")) if name else "+".join(c.name for c in chars)
        super().__init__(name=name, members=chars, member_cliches=cliches,  # type: ignore[no-untyped-call]  # Parameterized.__init__ takes **params untyped
                         appropriate={c.uid: a for c, _, a in specs}, leader=leader, **params)
        # The cliché object each member brought, last seen on the member. A ticket's temporary
        # cliché leaves the character when its contest ends; the team still has to say what it
        # fought with (views of the ended contest, repr), so it keeps the object as it stood then.
        self._brought: dict[str, Cliche] = {c.uid: c.cliche(cliches[c.uid]) for c in chars}

    # -- who is who ---------------------------------------------------------------------------
    def cliche_of(self, member: Character) -> Cliche:
        """The cliché ``member`` brings to this team.

        A ticket's temporary cliché vanishes from the character when its contest ends; it is then
        the cliché as it stood at that end (see :meth:`cliche_gone`), so the team's queries keep
        answering for the ended contest.

        Raises
        ------
        RuleError
            If ``member`` no longer has a cliché of that name that is not a vanished ticket.
        """
        name = self.member_cliches[member.uid]
        seen = self._brought.get(member.uid)
        if seen is not None and seen.temporary and not member.has_cliche(name):
            return seen
        cliche = member.cliche(name)
        self._brought[member.uid] = cliche
        return cliche

    def cliche_gone(self, member: Character) -> bool:
        """Whether ``member``'s team cliché was a ticket that vanished when its contest ended.

        :meth:`cliche_of` then gives it as it stood at the end; nobody can roll it any more.
        """
        seen = self._brought.get(member.uid)
        return bool(seen is not None and seen.temporary and not member.has_cliche(self.member_cliches[member.uid]))

    def is_active(self, member: Character) -> bool:
        """Whether ``member`` still counts: not dropped out and its team cliché above 0."""
        return member.uid not in self.dropped and self.cliche_of(member).pool > 0

    @property
    def active_members(self) -> list[Character]:
        """Members who are neither down nor dropped out."""
        return [m for m in self.members if self.is_active(m)]

    @property
    def down_members(self) -> list[Character]:
        """Members reduced to 0 who stay on the roster."""
        return [m for m in self.members if m.uid not in self.dropped and not self.is_active(m)]

    @property
    def helpers(self) -> list[Character]:
        """Active non-leader members with an appropriate cliché: each adds one die (or rolls for sixes)."""
        return [m for m in self.active_members if m is not self.leader and self.appropriate[m.uid]]

    @property
    def inappropriate(self) -> bool:
        """A team counts as inappropriate only if every member uses an inappropriate cliché."""
        return not any(self.appropriate.values())

    @property
    def lead(self) -> Character:
        """The leader, which every team has once made (``leader`` is None only as the bare parameter)."""
        leader = self.leader
        if leader is None:  # pragma: no cover - __init__ always names one
            raise ValueError("a team without a leader")
        return leader

    # -- dice -----------------------------------------------------------------------------------
    @property
    def leader_dice(self) -> int:
        """The leader's dice: its current score (plus extra dice), doubled by an armed revenge bonus."""
        dice = self.cliche_of(self.lead).pool
        return dice * 2 if self.revenge else dice

    @property
    def pool(self) -> int:
        """Dice the leader rolls under the default team rule: leader's dice + one per helper."""
        return self.leader_dice + len(self.helpers)

    def pool_text(self) -> str:
        """``"Knight 4 + Viking + Squire = 6"`` (the unit is left to the caller, for translation)."""
        lead = f"{self.lead.name} {self.cliche_of(self.lead).pool}"
        if self.revenge:
            lead = f"2×({lead})"
        return " + ".join([lead, *(m.name for m in self.helpers)]) + f" = {self.pool}"

    def to_dict(self) -> dict[str, Any]:
        """The team as a JSON-ready mapping (members by uid)."""
        return {"uid": self.uid, "name": self.name, "leader": self.lead.uid,
                "members": [{"character": m.uid, "cliche": self.member_cliches[m.uid],
                             "appropriate": self.appropriate[m.uid]} for m in self.members],
                "revenge": self.revenge, "dropped": list(self.dropped), "approved": self.approved}

    def __repr__(self) -> str:
        return f"CharacterTeam({self.name!r}, leader={self.lead.name!r}, pool={self.pool})"
