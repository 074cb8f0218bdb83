"""A contest's chart history point by point: the event that made each point, and the odds then.

``contest.history`` holds the scores of every point. The charts also say what happened at a point
(who volunteered, which cliché was chosen) and draw the odds as they stood at each point -- which
depend on more than the scores (the chosen clichés, team bonus dice, a pending revenge bonus, an
approval). Both come from the event log, replayed event by event on a private copy of the contest,
so a page opened in round 9 draws the odds of rounds 1 to 8 as they were, not today's odds nine times.

The replay is kept per contest (weakly) and moves on with it: a change that adds events applies just
those to the copy; a shorter or different log (an undo) replays from the start. Every page of a room
in this process shares one replay, so a hundred spectators cost one per change.
"""

from __future__ import annotations

import logging
import threading
import weakref
from dataclasses import dataclass
from typing import Callable

from raisus_panel.rules import Contest


@dataclass(frozen=True)
class TrailPoint:
    """One point of a contest's history, as the charts describe it.

    Attributes
    ----------
    event
        The event that made the point (``contest_started`` for the first one; before the first
        roll, setup changes rewrite the first point and it keeps its start); None if the log could
        not be replayed.
    chances
        What ``rate`` said about the contest from this point until the next one (the last point:
        now), or None when no rating was asked for.
    """

    event: dict | None
    chances: object = None


class _Replay:
    """The private copy of one contest, the events applied to it, and the points so far."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rate: Callable | None = None  # kept once a view asked for chances: later points get them too
        self.reset()

    def reset(self) -> None:
        self.copy: Contest | None = None
        self.n = 0  # events applied
        self.last: dict | None = None  # the last event applied, to tell a continued log from a new one
        self.events = None  # the contest's event list the points were made for
        self.points: list[TrailPoint] = []


log = logging.getLogger(__name__)

_replays: "weakref.WeakKeyDictionary[object, _Replay]" = weakref.WeakKeyDictionary()
_replays_lock = threading.Lock()


def trail(contest, rate: Callable | None = None) -> tuple[TrailPoint, ...]:
    """Every point of ``contest.history``, with the event that made it and, if ``rate`` is given,
    ``rate(the contest as it was)`` at each point.

    ``rate`` is called on the private copy for past states and on ``contest`` itself for the state
    now (which the caller has usually rated already, once per change). A trail asked for without
    ``rate`` may still carry chances (another view of the contest asked for them).

    Returns an empty tuple for no contest.
    """
    if contest is None or not contest.events:
        return ()
    with _replays_lock:
        replay = _replays.get(contest)
        if replay is None:
            replay = _replays[contest] = _Replay()
    with replay.lock:
        events = contest.events
        if rate is not None and replay.rate is None:
            replay.rate = rate
            replay.reset()  # the points so far have no chances: replay with them
        if replay.events is not events:
            try:
                _advance(replay, events, contest, replay.rate)
            except Exception:  # pragma: no cover - the contest replayed this log itself, so can a copy
                log.exception("the chart trail of contest %s could not be replayed", contest.uid)
                replay.reset()
                now = replay.rate(contest) if replay.rate is not None else None
                return tuple(TrailPoint(None, now) for _ in contest.history)  # today's odds, no markers
        return tuple(replay.points)


def _continues(replay: _Replay, events: list) -> bool:
    """Whether ``events`` continue the log the copy was built from (not an undo or another log)."""
    if replay.copy is None or replay.n > len(events):
        return replay.copy is None and replay.n == 0
    last = events[replay.n - 1]
    return last is replay.last or last == replay.last


def _advance(replay: _Replay, events: list, contest, rate) -> None:
    if not _continues(replay, events):
        replay.reset()
    points = replay.points
    for i in range(replay.n, len(events)):
        event = events[i]
        if replay.copy is None:
            replay.copy = Contest.from_events([event])
        else:
            replay.copy.follow([event])
        grown = len(replay.copy.history) - len(points)
        if grown > 0:
            points.extend(TrailPoint(event) for _ in range(grown))
        elif grown < 0:  # pragma: no cover - the history only grows while events are added
            del points[grown:]
        if rate is not None:
            chances = _rate_at(contest, events, i, replay.copy, rate)
            for j in range(len(points) - max(grown, 1), len(points)):
                points[j] = TrailPoint(points[j].event, chances)
        replay.n, replay.last = i + 1, event
    replay.events = events


def _rate_at(contest, events: list, i: int, copy: Contest, rate: Callable):
    """The rating after ``events[i]``: the contest's own for its state now (the caller rated that once
    per change already), the copy's for a past state -- or when the contest moved on meanwhile."""
    if i == len(events) - 1 and contest.events is events:
        chances = rate(contest)
        if contest.events is events:
            return chances
    return rate(copy)


# -- a point in words, and the series it concerns ------------------------------------------------
def point_words(point: dict, event: dict | None, names: dict, t) -> str:
    """What happened at a history point, in the words of the round log (``t`` translates).

    ``names`` maps character and team uids to their names (``_derive.names``). Plain text: escape
    it for HTML (Bokeh tooltips show column values as text).
    """
    def n(uid):
        return names.get(uid, uid)

    kind = event["type"] if event is not None else ""
    if kind == "round_decided":
        who = [n(u) for u in event["units"]]
        words = [t("roll.winner", round=event["round"], name=who[event["winner"]])]
        words += [t("log.loses", name=n(h["character"]), cliche=h["cliche"], n=h["current"] + h["extra"])
                  for h in event["hits"]] or [t("log.no_damage")]
        return " · ".join(words)
    if kind == "volunteered":
        return t("log.volunteered", name=n(event["member"]), team=n(event["team"]))
    if kind == "loss_assigned":
        return t("log.loss_assigned", name=n(event["member"]),
                 n=sum(h["current"] + h["extra"] for h in event["hits"]))
    if kind == "team_disbanded":
        return t("log.lost_leader" if event["reason"] == "lost_leader" else "log.disbanded", team=n(event["team"]))
    if kind == "dropped_out":
        return t("log.dropped_out", name=n(event["member"]), team=n(event["team"]))
    if kind == "cliche_chosen" and point["kind"] != "start":
        return t("log.chose", unit=n(event["unit"]), cliche=event["cliche"])
    if kind == "tickets_given" and point["kind"] != "start":
        return t("log.tickets", cliche=event["cliche"], n=event["rating"])
    if kind == "team_formed" and point["kind"] != "start":
        return t("log.team_formed", team=event["team"]["name"], side=t(f"side.{event['side']}"))
    if kind == "recovered":
        gains = [t("log.gain", name=n(g["character"]), cliche=g["cliche"], n=g["amount"]) for g in event["gains"]]
        return " · ".join([t("log.recovered"), *gains])
    return t(f"event.{point['kind']}")


def marked_series(point: dict, event: dict | None, teams: dict | None = None) -> list[str]:
    """The series (``"<character uid>:<cliché>"``) a between-round point's marker belongs on: the
    clichés its event changed or chose, in the order of ``point["scores"]``; [] if none is in play.

    ``teams`` (``_derive.teams_by_uid``) places the marker of a team that broke up at no cost on
    its members' lines.
    """
    if event is None:
        return []
    kind = event["type"]
    keys = set()
    if kind in ("volunteered", "loss_assigned", "team_disbanded", "dropped_out"):
        keys = {f"{h['character']}:{h['cliche']}" for h in [*event.get("restore", []), *event["hits"]]}
        if not keys and kind == "dropped_out":  # a member already at 0: the marker goes on its line
            keys = {k for k in point["scores"] if k.split(":", 1)[0] == event["member"]}
        if not keys and kind == "team_disbanded":
            members = (teams or {}).get(event["team"], {}).get("members", [])
            keys = {f"{m['character']}:{m['cliche']}" for m in members}
    elif kind == "cliche_chosen":
        keys = {f"{event['unit']}:{event['cliche']}"}
    elif kind == "tickets_given":
        keys = {f"{uid}:{event['cliche']}" for uid in event["temporary"]}
        keys |= {f"{b['character']}:{b['cliche']}" for b in event["brevet"]}
    elif kind == "team_formed":
        keys = {f"{m['character']}:{m['cliche']}" for m in event["team"]["members"]}
    elif kind == "recovered":
        keys = {f"{g['character']}:{g['cliche']}" for g in event["gains"]}
    return [k for k in point["scores"] if k in keys]
