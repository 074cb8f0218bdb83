"""What happens next at the contest, for one person: the single most useful step, as a catalog key.

:func:`next_step` reads the room's own answers -- ``actions.why_not_error(command, ...)``, the same
dry runs that enable the buttons, and for spectators (who may do nothing) the contest's own
``why_not_error`` -- and turns the first one that matters into a :class:`Step`: a message key and
its fields. It never decides a rule itself: "waiting for the GM to open round 3" is what the room
answered to this player's "roll round 3", and "choose a cliché for Arin" is the rules' refusal of
the roll ("choose which cliché Arin uses") together with the room's acceptance of this person's
``choose``. No Panel here: a pure function over the adapter, testable without a page.

The order of the questions is the order of the game:

1. no contest: nobody has a character yet (players make theirs, the GM waits or makes NPCs), a
   player has none of their own (they make one), else the GM starts one and the others wait;
2. a team just lost a round: its members may volunteer (before anything else happens);
3. the GM approves an inappropriate cliché; a person chooses a cliché for their own unit;
4. the round (or the round's exchanges): roll it, open it for the players, or wait -- for whom, the
   refusal of the roll says;
5. the contest is over: the winners write the losers' fates, then the GM closes the contest.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from raisus_panel import i18n
from raisus_panel.rules import CharacterTeam, RuleError

from . import _derive as d

__all__ = ["Step", "next_step"]

#: The stand-in text of a fate not typed yet (the table asks the same way).
_TEXT_LATER = "…"
#: A character not named yet: what "make your character" asks the room about.
_NEW_CHARACTER = {"name": _TEXT_LATER}


@dataclass(frozen=True)
class Step:
    """One person's next step: a ``what_now.*`` catalog key with its fields.

    ``command`` and ``args`` name the command the line asks this person to give (None while they
    wait or watch): the room accepts it now, which the tests hold the line to. ``note`` is a second
    key (with ``note_fields``) that adds what matters about that step (a revenge bonus).
    """

    key: str
    fields: dict = field(default_factory=dict)
    command: str | None = None
    args: dict = field(default_factory=dict)
    note: str | None = None
    note_fields: dict = field(default_factory=dict)

    @property
    def mine(self) -> bool:
        """Whether the line asks this person to act (else they wait, or watch)."""
        return self.command is not None

    def text(self, lang: str) -> str:
        """The line in ``lang`` ("ko" or "en"); not escaped. A refusal among the fields is shown in
        ``lang`` too."""
        fields = {k: i18n.translate(v, lang) if isinstance(v, RuleError) else v for k, v in self.fields.items()}
        line = i18n.t(self.key, lang, **fields)
        if self.note:
            line += " " + i18n.t(self.note, lang, **self.note_fields)
        return line


def _refusal(actions, command: str, **args) -> RuleError | None:
    try:
        return actions.why_not_error(command, **args)
    except RuleError as exc:  # arguments the room cannot even parse: refused all the same
        return exc


def _ok(actions, command: str, **args) -> bool:
    return _refusal(actions, command, **args) is None


def _usable(unit) -> str | None:
    """A cliché of ``unit`` with dice left, to ask whether choosing one would be accepted."""
    return next((c.name for c in unit.cliches if c.pool > 0), None)


def _owner_is_a_player(actions, unit) -> bool:
    members = unit.members if isinstance(unit, CharacterTeam) else [unit]
    players = actions.room.players
    return any(getattr(m, "owner", "") and m.owner in players for m in members)


def _revenge_note(contest) -> dict:
    team = next((u for u in d.units(contest) if isinstance(u, CharacterTeam) and u.revenge
                 and contest.is_active(u.uid)), None)
    return {} if team is None else {"note": "what_now.note.revenge", "note_fields": {"team": team.name}}


def _has_none(actions) -> bool:
    """Whether this player has no character of their own at the table (none to bring to a contest)."""
    me = actions.session.actor.player_id
    return actions.role == "player" and not any(c.owner and c.owner == me for c in actions.room.characters)


def _make_character(actions) -> Step | None:
    """A first evening: nobody has a character, or this player has none. A contest needs them first."""
    if _has_none(actions) and _ok(actions, "create_character", **_NEW_CHARACTER):
        return Step("what_now.you.make_character", command="create_character", args=dict(_NEW_CHARACTER))
    if actions.room.characters:
        return None
    if actions.role == "gm":
        return Step("what_now.gm.no_characters")
    return Step("what_now.watch.no_characters")


def _no_contest(actions) -> Step:
    step = _make_character(actions)
    if step is not None:
        return step
    past = actions.room.past_contests
    name = past[-1].get("name") if past else None
    if actions.role == "gm":
        return Step("what_now.gm.next_contest", {"name": name}) if name else Step("what_now.gm.start")
    return Step("what_now.wait.next_contest", {"name": name}) if name else Step("what_now.wait.start")


def _volunteer(actions, contest) -> Step | None:
    window = contest.volunteer_window
    team = d.unit(contest, window["team"]) if window else None
    if team is None:
        return None
    if actions.role == "gm":
        # the next roll is what says "nobody volunteered": say what it will do before the GM presses it
        if window["leader_down"]:
            return Step("what_now.gm.volunteer", {"team": team.name}, note="what_now.note.no_volunteer_leader_down",
                        note_fields={"team": team.name, "leader": team.lead.name})
        # with the "leader assigns" option the hit can also be handed on: say so where the buttons are
        note = "what_now.note.no_volunteer_hand_on" if _hand_on(actions, team) else "what_now.note.no_volunteer"
        return Step("what_now.gm.volunteer", {"team": team.name}, note=note, note_fields={"leader": team.lead.name})
    mine = [m for m in team.members if _ok(actions, "volunteer", member=m.uid)]
    if mine:
        note = "what_now.note.hand_on" if _hand_on(actions, team) else None
        return Step("what_now.you.volunteer", {"team": team.name}, "volunteer", {"member": mine[0].uid},
                    note=note, note_fields={"leader": team.lead.name})
    return None  # not this player's team: their next step is the round's


def _hand_on(actions, team) -> bool:
    """Whether this person may hand the team's hit on to a member other than its leader now."""
    return any(_ok(actions, "assign_loss", member=m.uid) for m in team.members if m.uid != team.lead.uid)


def _active(contest) -> list:
    return [u for s in (0, 1) for u in contest.active_units(s)]


def _approve_or_choose(actions, contest) -> Step | None:
    gm = actions.role == "gm"
    mine = _my_units(actions, contest)
    for u in _active(contest):
        if not contest.needs_approval(u.uid):
            continue
        if gm and _ok(actions, "approve", unit=u.uid):
            if isinstance(u, CharacterTeam):
                return Step("what_now.gm.approve_team", {"team": u.name}, "approve", {"unit": u.uid})
            return Step("what_now.gm.approve", {"name": u.name, "cliche": contest.chosen(u.uid).name},
                        "approve", {"unit": u.uid})
        if u.uid in mine and not isinstance(u, CharacterTeam):
            return Step("what_now.you.wait_approve", {"name": u.name, "cliche": contest.chosen(u.uid).name})
    for u in _active(contest):
        if isinstance(u, CharacterTeam) or contest.chosen(u.uid) is not None:
            continue
        if gm and _owner_is_a_player(actions, u):
            continue  # its player chooses; the roll's refusal tells the GM it is awaited
        pick = _usable(u)
        if pick is not None and _ok(actions, "choose", unit=u.uid, cliche=pick):
            key = "what_now.gm.choose" if gm else "what_now.you.choose"
            return Step(key, {"name": u.name}, "choose", {"unit": u.uid, "cliche": pick})
    return None


def _waiting_for(refusal: RuleError, n: int) -> Step:
    """What a refused roll (or exchange) says this person waits for.

    A player's own inappropriate cliché, and the GM's approvals, were asked about before the roll:
    an approval the roll still waits for is someone else's, the GM's to give.
    """
    key, fields = refusal.key, refusal.fields
    if key == "error.permission.round_closed":
        return Step("what_now.wait.open_round", {"n": n})
    if key == "error.permission.not_in_contest":
        return Step("what_now.you.watching")
    if key == "error.contest.choose_cliche":
        return Step("what_now.wait.choose", {"name": fields["name"]})
    if key == "error.contest.needs_approval":
        return Step("what_now.wait.approve", {"name": fields["name"], "cliche": fields["cliche"]})
    if key == "error.team.needs_approval":
        return Step("what_now.wait.approve_team", {"team": fields["team"]})
    return Step("what_now.blocked", {"reason": refusal})


def _my_units(actions, contest) -> set[str]:
    """The uids of the units this person plays (a player's own characters, or teams holding one)."""
    me = actions.session.actor.player_id
    return {u.uid for u in d.units(contest) if d.plays(u, me)}


def _pairs(contest) -> list[tuple]:
    """Every attacker (side A) and target (side B) that could meet in an exchange now."""
    return [(a, b) for a in contest.active_units(0) for b in contest.active_units(1)]


def _exchanges(contest) -> bool:
    return contest.needs_exchanges and not contest.single_roll


def _round(actions, contest) -> Step:
    n = contest.round + 1
    note = _revenge_note(contest)
    gm = actions.role == "gm"
    players_roll = gm and any(_owner_is_a_player(actions, u) for u in d.units(contest))
    if _exchanges(contest) or contest.exchanges_this_round:  # exchanges played: the round ends by end_round
        refusal = None
        for a, b in _pairs(contest):
            args = {"attacker": a.uid, "target": b.uid}
            refusal = _refusal(actions, "exchange", **args)
            if refusal is not None:
                continue
            if gm and contest.exchanges_this_round and _ok(actions, "end_round"):
                return Step("what_now.gm.exchange_or_end", {"n": n}, "exchange", args, **note)
            if gm and players_roll and not actions.room.round_open and _ok(actions, "open_round", open=True):
                return Step("what_now.gm.open_exchanges", {"n": n}, "open_round", {"open": True}, **note)
            key = "what_now.gm.exchange" if gm else "what_now.you.exchange"
            return Step(key, {"n": n}, "exchange", args, **note)
        if gm and contest.exchanges_this_round and _ok(actions, "end_round"):
            return Step("what_now.gm.end_round", {"n": n}, "end_round", {})
        if refusal is None:
            refusal = _refusal(actions, "roll_round")
        if refusal is not None:
            return _waiting_for(refusal, n)
    refusal = _refusal(actions, "roll_round")
    if refusal is not None:
        return _waiting_for(refusal, n)
    if players_roll:
        if actions.room.round_open:
            return Step("what_now.gm.round_open", {"n": n}, "roll_round", {}, **note)
        if _ok(actions, "open_round", open=True):
            return Step("what_now.gm.open_round", {"n": n}, "open_round", {"open": True}, **note)
    return Step("what_now.gm.roll" if gm else "what_now.you.roll", {"n": n}, "roll_round", {}, **note)


def _winners(contest) -> dict:
    if contest.winner is None:
        return {}
    return {"names": ", ".join(u.name for u in contest.sides[contest.winner])}


def _over(contest, waiting: bool) -> Step:
    """The contest is over and nothing is owed: who won (and, for a player, that the GM closes it)."""
    if contest.winner is None:
        return Step("what_now.wait.close_no_winner" if waiting else "what_now.watch.over_no_winner")
    return Step("what_now.wait.close" if waiting else "what_now.watch.over", _winners(contest))


def _ended(actions, contest) -> Step:
    gm = actions.role == "gm"
    names = d.names(contest)
    for uid in contest.owed_fates:
        if uid in contest.fates:
            continue
        name = names.get(uid, uid)
        if gm or _my_units(actions, contest):
            args = {"character": uid, "text": _TEXT_LATER}
            if _ok(actions, "decide_fate", **args):
                players_won = contest.winner is not None and any(
                    _owner_is_a_player(actions, u) for u in contest.sides[contest.winner])
                key = ("what_now.gm.fate_or_winners" if players_won else "what_now.gm.fate") if gm else \
                    "what_now.you.fate"
                return Step(key, {"name": name}, "decide_fate", args)
        return Step("what_now.wait.fate", {"name": name})
    if gm:
        if _ok(actions, "close_contest"):
            return Step("what_now.gm.close", command="close_contest")
        return _over(contest, waiting=False)  # a notebook's contest, outside a room that closes it
    return _over(contest, waiting=bool(_my_units(actions, contest)))


def _spectator(actions, contest) -> Step:
    """Someone who only watches: the contest's own answer to the roll says what the table waits for."""
    n = contest.round + 1
    if contest.status == "ended":
        return _ended(actions, contest)
    window = contest.volunteer_window
    team = d.unit(contest, window["team"]) if window else None
    if team is not None:
        return Step("what_now.watch.volunteer", {"team": team.name})
    if _exchanges(contest):
        pair = next(iter(_pairs(contest)), None)
        refusal = contest.why_not_error("exchange", pair[0].uid, pair[1].uid) if pair else None
    else:
        refusal = contest.why_not_error("roll_round")
    if refusal is not None:
        step = _waiting_for(refusal, n)
        if step.key != "what_now.blocked":
            return step
    note = _revenge_note(contest)
    if actions.room.round_open:
        return Step("what_now.watch.round_open", {"n": n}, **note)
    return Step("what_now.watch.round_closed", {"n": n}, **note)


def next_step(actions) -> Step:
    """The one most useful next step at the contest for the person acting through ``actions``.

    Parameters
    ----------
    actions
        A :class:`~raisus_panel.ui.Actions` on a person's room session (the GM's, a player's, a
        spectator's, or a notebook's local room).

    Returns
    -------
    Step
        A ``what_now.*`` catalog key with its fields, and the command it asks this person for (if any).
    """
    contest = actions.contest
    if contest is None:
        return _no_contest(actions)
    if actions.role == "spectator":
        return _spectator(actions, contest)
    if actions.role == "player" and not _my_units(actions, contest):
        if contest.status != "ended":
            # with no character at all, what to do for the next contest
            return Step("what_now.you.watching", **({"note": "what_now.note.make_character"}
                                                     if _has_none(actions) else {}))
        # over: what anyone watching is told -- and, as while it was played, that none of theirs was in it
        return replace(_spectator(actions, contest), note="what_now.note.not_in_contest", note_fields={})
    if contest.status == "ended":
        return _ended(actions, contest)
    step = _volunteer(actions, contest) or _approve_or_choose(actions, contest)
    return step or _round(actions, contest)
