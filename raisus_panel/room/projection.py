"""The room's state as a projection of its events.

:class:`RoomState` is plain state; :func:`apply_event` changes it by one event and :func:`project`
builds it from a whole log. The live room and a replay use the same :func:`apply_event`, so loading
a room gives exactly the state the live room had.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from raisus_panel.rules import Character, Contest, GruntMob, RulesProfile
from raisus_panel.rules.character import CAMPAIGN_FIELDS
from raisus_panel.rules.dice import DiceSource

#: Makes the dice of a contest rebuilt from its events (committed dice: the room restores its seed).
DiceFor = Callable[[list[dict[str, Any]]], DiceSource | None]

#: Contest events after which the round is over, so players may no longer roll until the GM opens one.
_ROUND_CLOSERS = {"contest_started", "round_ended", "contest_ended"}


class RoomState:
    """Everything a room knows, projected from its effective events (private checks included).

    A contest's events are replayed lazily: while a log is being replayed they are collected, and the
    :class:`~raisus_panel.rules.Contest` is rebuilt from them once, when it is first needed.
    """

    def __init__(self, dice: DiceSource | None = None, reuse: dict[str, Contest] | None = None,
                 dice_for: DiceFor | None = None) -> None:
        self.title = ""
        self.players: dict[str, str] = {}
        self.characters: dict[str, Character] = {}
        self.past: list[dict[str, Any]] = []
        self.checks: list[dict[str, Any]] = []
        self.round_open = False
        #: the checks sessions of committed dice, public (False) and the GM's (True): the last
        #: ``dice_committed`` of each, with ``revealed``
        self.check_sessions: dict[bool, dict[str, Any]] = {}
        #: the table's rules: checks, the creation budget and sessions play by them, and a contest
        #: starts with them unless the GM gives it others
        self.profile = RulesProfile()
        #: the session being played (1 until the GM starts another), and whether the GM has ended it
        self.session = 1
        self.session_ended = False
        #: the clichés each character used this session (character uid -> cliché names)
        self.used: dict[str, set[str]] = {}
        #: the advancement owed since the last end of a session: character uid -> the clichés it may
        #: roll for (``advancement_way`` "rolls") or [] (a creation die to invest, "points")
        self.advancement: dict[str, list[str]] = {}
        self.advancement_way = "off"
        #: team uid -> {member uid: its cliché}, of the teams formed in this room's contests
        self._team_cliches: dict[str, dict[str, str]] = {}
        self.dice = dice
        self.dice_for = dice_for
        self._contest: Contest | None = None
        self._pending: list[dict[str, Any]] | None = None
        #: contest objects to rebuild in place (by uid) instead of making new ones
        self._reuse = dict(reuse or {})

    @property
    def contest(self) -> Contest | None:
        """The current contest (running or ended but not closed), rebuilt from its events if needed."""
        if self._pending is not None:
            start = self._pending[0]
            old = self._reuse.get(start["contest"])
            if old is not None:  # the object views are bound to, rebuilt on the characters it plays
                old.reload(self._pending)
                self._contest = old
            else:
                mine = {d["uid"]: self.characters[d["uid"]] for d in start["characters"]}
                dice = self.dice if self.dice is not None or self.dice_for is None else self.dice_for(self._pending)
                self._contest = Contest.from_events(self._pending, characters=mine, dice=dice)
            self._pending = None
        return self._contest

    @property
    def built_contest(self) -> Contest | None:
        """The current contest object if it has been built (None while it waits to be replayed)."""
        return self._contest if self._pending is None else None

    def note_used(self, event: dict[str, Any]) -> None:
        """Remember the clichés a contest event shows in use this session (for advancement)."""
        kind = event["type"]
        if kind in ("contest_started", "team_formed"):
            for team in event["teams"] if kind == "contest_started" else [event["team"]]:
                self._team_cliches[team["uid"]] = {m["character"]: m["cliche"] for m in team["members"]}
        elif kind == "round_decided":
            for spec in event["used"]:
                self.used.setdefault(spec["character"], set()).add(spec["cliche"])
                for helper in spec["helpers"]:
                    cliche = self._team_cliches.get(spec["unit"], {}).get(helper)
                    if cliche is not None:
                        self.used.setdefault(helper, set()).add(cliche)

    def add_contest_event(self, event: dict[str, Any], *, live: bool) -> None:
        """Record a contest's event; ``live`` means the contest object has applied it already."""
        self.note_used(event)
        if event["type"] == "contest_started":
            self._contest, self._pending = None, [event]
        elif self._pending is not None:
            self._pending.append(event)
        elif not live:  # replaying after the contest was built: rebuild it once more, later
            assert self._contest is not None  # no start pending: the contest is built
            self._pending = [*self._contest.events, event]
            self._contest = None
        self.round_open = round_open_after(event, self.round_open)

    def adopt_contest(self, contest: Contest) -> None:
        """Make ``contest`` -- an object that has applied all its events -- the current contest."""
        self._contest, self._pending = contest, None
        self.round_open = False

    def close_contest(self, summary: dict[str, Any]) -> None:
        """Archive the current contest (its effects on the characters stay)."""
        _ = self.contest  # its events must have reached the characters before it goes
        self.past.append(summary)
        self._contest, self._pending = None, None
        self.round_open = False


def round_open_after(contest_event: dict[str, Any], was_open: bool) -> bool:
    """Whether the GM's "players may roll" still holds after a contest event."""
    if contest_event["type"] in _ROUND_CLOSERS:
        return False
    if contest_event["type"] == "round_decided" and contest_event.get("closes_round"):
        return False
    return was_open


def round_open_of(events: Iterable[dict[str, Any]]) -> bool:
    """Whether the round is open after ``events`` (effective room events), computed from scratch."""
    is_open = False
    for event in events:
        if event["type"] == "round_opened":
            is_open = bool(event["open"])
        elif event["type"] == "contest":
            is_open = round_open_after(event["event"], is_open)
        elif event["type"] == "contest_closed":
            is_open = False
    return is_open


def sync_character(obj: Character, data: dict[str, Any]) -> Character:
    """Bring ``obj`` to the state ``data`` describes, keeping the objects (so views stay bound).

    Returns ``obj``, or a new object when the kind changed (character <-> grunt mob).
    """
    fresh = Character.from_dict(data)
    if type(fresh) is not type(obj) or fresh.uid != obj.uid:
        return fresh
    old = {c.name: c for c in obj.cliches}
    cliches = []
    for cliche in fresh.cliches:
        mine = old.get(cliche.name)
        if mine is None:
            cliches.append(cliche)
            continue
        mine.param.update(rating=cliche.rating, current=cliche.current, temporary=cliche.temporary,
                          extra=cliche.extra, double_pump=cliche.double_pump)
        cliches.append(mine)
    changes = {k: getattr(fresh, k) for k in ("name", "description", "owner", *CAMPAIGN_FIELDS)
               if getattr(fresh, k) != getattr(obj, k)}
    if [id(c) for c in cliches] != [id(c) for c in obj.cliches]:
        changes["cliches"] = cliches
    if isinstance(obj, GruntMob) and isinstance(fresh, GruntMob):
        changes.update(member_rating=fresh.member_rating, count=fresh.count)
    if changes:
        obj.param.update(**changes)
    return obj


def contest_summary(contest: Contest) -> dict[str, Any]:
    """What the room keeps of a closed contest (its events stay in the log for a full replay)."""
    return {"contest": contest.uid, "name": contest.name, "single_roll": contest.single_roll,
            "status": contest.status, "winner": contest.winner, "outcome": contest.outcome,
            "rounds": contest.round,
            "sides": [[{"uid": u.uid, "name": u.name} for u in side] for side in contest.sides],
            "characters": [c.uid for c in contest.characters()],
            "fates": dict(contest.fates), "owed_fates": list(contest.owed_fates)}


def apply_event(state: RoomState, event: dict[str, Any], *, live: bool = False,
                pool: dict[str, Character] | None = None) -> None:
    """Change ``state`` by one (effective, not undone) room event.

    ``live`` says a contest event was already applied by the running contest. ``pool`` offers
    existing character objects to reuse by uid (so an undo keeps the objects views are bound to).
    """
    kind = event["type"]
    if kind in ("room_created", "title_set"):
        state.title = event["title"]
    elif kind == "player_joined":
        state.players = {**state.players, event["player"]["player_id"]: event["player"]["name"]}
    elif kind == "character_created":
        data = event["character"]
        old = (pool or {}).get(data["uid"])
        state.characters[data["uid"]] = sync_character(old, data) if old else Character.from_dict(data)
    elif kind == "character_updated":
        data = event["character"]
        state.characters[data["uid"]] = sync_character(state.characters[data["uid"]], data)
    elif kind == "character_removed":
        del state.characters[event["character"]["uid"]]
    elif kind == "action_checked":
        state.checks.append({"seq": event["seq"], "character": event["character"],
                             "private": event["private"], "actor": event["actor"], **event["check"]})
        _paid_check(state, event)
    elif kind == "rules_set":
        state.profile = RulesProfile.from_dict(event["profile"])
    elif kind == "session_started":
        state.session, state.session_ended, state.used = event["session"], False, {}
        for char in state.characters.values():
            char.lucky_left = char.lucky_shots
    elif kind == "session_ended":
        state.session_ended = True
        state.advancement = {uid: list(names) for uid, names in event["advancement"].items()}
        state.advancement_way = state.profile.advancement
    elif kind == "advancement_rolled":
        _advanced(state, event)
    elif kind == "advancement_invested":
        char = state.characters[event["character"]]
        if event["new"]:
            char.add_cliche(event["cliche"], 1)
        else:
            cliche = char.cliche(event["cliche"])
            cliche.param.update(rating=cliche.rating + 1, current=cliche.current + 1)
        state.advancement.pop(char.uid, None)
    elif kind == "contest":
        state.add_contest_event(event["event"], live=live)
    elif kind == "contest_closed":
        state.close_contest(event["summary"])
    elif kind == "round_opened":
        state.round_open = bool(event["open"])
    elif kind == "recovered":
        for gain in event["gains"]:
            cliche = state.characters[gain["character"]].cliche(gain["cliche"])
            cliche.current += gain["amount"]
    elif kind == "dice_committed":
        state.check_sessions[event["private"]] = {
            "scope": event["scope"], "commitment": event["commitment"], "first_roll": event["first_roll"],
            "client_seeds": dict(event["client_seeds"]), "revealed": False}
    elif kind == "dice_revealed":
        session = state.check_sessions.get(event["private"])
        if session is not None and session["commitment"] == event["commitment"]:
            session["revealed"] = True
    elif kind == "undone":  # handled by the room (it re-projects); nothing to apply
        pass
    else:  # pragma: no cover - the envelope check refuses unknown types first
        raise ValueError(f"unknown room event type {kind!r}")


def _paid_check(state: RoomState, event: dict[str, Any]) -> None:
    """An action check's cliché counts as used; its lucky shots are spent and its pump paid."""
    check, char = event["check"], state.characters.get(event["character"])
    if char is None or not check.get("cliche"):
        return
    state.used.setdefault(char.uid, set()).add(check["cliche"])
    if check.get("lucky"):
        char.lucky_left -= check["lucky"]
    if check.get("pumped"):
        cliche = char.cliche(check["cliche"])
        extra = min(cliche.extra, check["pumped"])
        cliche.param.update(extra=cliche.extra - extra, current=max(0, cliche.current - (check["pumped"] - extra)))


def _advanced(state: RoomState, event: dict[str, Any]) -> None:
    """An advancement roll: all even raises the rating (and the current score with it) by 1."""
    char, roll = state.characters[event["character"]], event["roll"]
    if roll["rises"]:
        cliche = char.cliche(roll["cliche"])
        cliche.param.update(rating=cliche.rating + 1, current=cliche.current + 1)
    left = [name for name in state.advancement.get(char.uid, []) if name != roll["cliche"]]
    if left:
        state.advancement[char.uid] = left
    else:
        state.advancement.pop(char.uid, None)


def follow_events(state: RoomState, events: list[dict[str, Any]]) -> None:
    """Change ``state`` by events another server process committed (none of them ``undone``).

    Like :func:`apply_event` for each, except that the built contest applies a run of its own
    events in one step (:meth:`~raisus_panel.rules.Contest.follow`), so its views update once.
    """
    run: list[dict[str, Any]] = []

    def flush() -> None:
        if run:
            contest = state.built_contest
            assert contest is not None  # the run is of the built contest
            contest.follow(run)
            run.clear()

    for event in events:
        contest = state.built_contest
        if (event["type"] == "contest" and contest is not None and event["contest"] == contest.uid
                and event["event"]["type"] != "contest_started"):
            run.append(event["event"])
            state.round_open = round_open_after(event["event"], state.round_open)
            continue
        flush()
        apply_event(state, event)
    flush()


def effective(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that still count: without ``undone`` events and the commands they took back.

    A contest whose start was taken back takes its events with it (a client seed, which undo never
    takes back, may have been set in it).
    """
    events = list(events)
    undone = {e["undone_cmd_id"] for e in events if e["type"] == "undone"}
    gone = {e["contest"] for e in events if e["type"] == "contest" and e["cmd_id"] in undone
            and e["event"]["type"] == "contest_started"}
    return [e for e in events if e["type"] != "undone" and e["cmd_id"] not in undone
            and not (e["type"] == "contest" and e["contest"] in gone)]


def project(events: Iterable[dict[str, Any]], *, dice: DiceSource | None = None,
            pool: dict[str, Character] | None = None, contests: Iterable[Contest] = (),
            dice_for: DiceFor | None = None) -> RoomState:
    """The state a room's whole log leads to.

    ``pool`` (uid -> character) and ``contests`` offer existing objects to rebuild in place instead
    of new ones, so views bound to them stay bound. ``dice_for`` makes a rebuilt contest's dice
    when ``dice`` is None.
    """
    state = RoomState(dice, reuse={c.uid: c for c in contests}, dice_for=dice_for)
    for event in effective(events):
        apply_event(state, event, pool=pool)
    _ = state.contest  # build the contest now, so the characters show its effects
    return state
