"""What a report is made from: a room's log as one role may see it, or one contest's save.

Every input becomes a list of :class:`ContestPart`, one per contest played, each on a room of its
own that shares nothing with the original: the report's components (the score chart, the odds
chart, the round log) are built over that room exactly as a page builds them over a live one, so
the report words and draws the game as the dashboard did.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.room.events import visible_to
from raisus_panel.room.limits import MAX_ROOM_FILE_BYTES, too_large
from raisus_panel.room.projection import effective
from raisus_panel.room.store import MemoryStore
from raisus_panel.room.transfer import read_room_file
from raisus_panel.rules import Contest, RuleError
from raisus_panel.rules.save import SAVE_FORMAT
from raisus_panel.ui import Actions

__all__ = ["ContestPart", "Session", "from_contest", "from_events", "from_room", "read_file"]

_SCRATCH = "report"

#: The room events of a game played in sessions (RULES.md section 11).
SESSION_EVENTS = frozenset({"session_started", "session_ended", "advancement_rolled", "advancement_invested"})


@dataclass
class ContestPart:
    """One contest of a report, on a room of its own (a copy: acting on it changes nothing real).

    Attributes
    ----------
    contest
        The contest, rebuilt from its events, as it stood when it was closed (or now).
    actions
        A spectator's adapter on the copy room whose contest it is, for the report's components.
    events
        The room events of this contest (wrapped contest events) that the report's reader may see,
        oldest first; empty for a contest loaded from its own save.
    started
        When it started (seconds since the epoch), or None when the input does not say.
    session
        The number of the room's session it was played in, when the room plays in sessions (the GM
        started or ended one); None otherwise.
    """

    contest: Contest
    actions: Actions
    events: list = field(default_factory=list)
    started: float | None = None
    session: int | None = None


@dataclass
class Session:
    """Everything a report shows: the room's title, its players and its contests.

    Attributes
    ----------
    title
        The room's title, or the contest's name for a single contest.
    players
        Player id -> name (empty for a single contest).
    contests
        The contests in the order they started.
    room
        True when the report is of a room session, False for one contest's save.
    actions
        An adapter that sees the whole copy of the room (which holds only what the reader may see),
        for what happened outside the contests: the action checks.
    """

    title: str
    players: dict
    contests: list
    room: bool = True
    actions: Actions | None = None


def _renumbered(events: list[dict]) -> list[dict]:
    """Events numbered 1, 2, 3... (a role's view skips the events it may not see)."""
    return [{**e, "seq": i} for i, e in enumerate(events, 1)]


def _scratch_room(events: list[dict]) -> Room:
    store = MemoryStore()
    store.create_room(_SCRATCH, {}, _renumbered(events))
    return Room.load(store, _SCRATCH)


def _watch(room: Room) -> Actions:
    return Actions(RoomSession(room, Actor.spectator()))


def from_events(events: list[dict], *, contest: int | str | None = None) -> Session:
    """A session from a room's events as one role may see them (already filtered), oldest first.

    Parameters
    ----------
    events
        Room events (``Room.visible_events(actor)``, or a room file's events filtered by
        :func:`~raisus_panel.room.events.visible_to`).
    contest
        Only the contest with this number (1 = the first played) or uid; every contest when None.

    Raises
    ------
    RuleError
        ``contest`` is not the number of a contest played in the room.
    """
    events = list(events)
    whole = _scratch_room(events)
    kept = effective(events)
    order: list[str] = []
    closed: dict[str, int] = {}  # contest uid -> seq of the event that closed it (and still counts)
    started: dict[str, float | None] = {}  # None: an event written before times were kept
    in_session: dict[str, int] = {}  # contest uid -> the session it started in
    playing = 1  # a room's game starts in session 1
    for e in kept:
        if e["type"] == "session_started":
            playing = e["session"]
        if e["type"] == "contest" and e["contest"] not in order:
            order.append(e["contest"])
            started[e["contest"]] = e.get("ts")
            in_session[e["contest"]] = playing
        elif e["type"] == "contest_closed":
            closed[e["contest"]] = e["seq"]
    if contest is not None:
        number = order.index(contest) + 1 if contest in order else contest  # a number, or a contest's uid
        if not isinstance(number, int) or not 1 <= number <= len(order):
            raise RuleError(f"There is no contest number {contest} here (there are {len(order)}).",
                            key="error.report.no_contest", n=contest, total=len(order))
        chosen = [order[number - 1]]
    else:
        chosen = order
    sessions = any(e["type"] in SESSION_EVENTS for e in kept)
    parts = []
    for uid in chosen:
        # the room as it stood just before the contest was closed: its contest is this one
        cut = next((i for i, e in enumerate(events) if e["seq"] == closed.get(uid)), len(events))
        room = _scratch_room(events[:cut])
        if room.contest is None or room.contest.uid != uid:  # pragma: no cover - a log we never write
            adopted = Actions.local(whole.replay_contest(uid))
            assert adopted.contest is not None  # it adopted one
            parts.append(ContestPart(adopted.contest, adopted, [], started.get(uid),
                                     in_session.get(uid) if sessions else None))
            continue
        mine = [e for e in events[:cut] if e["type"] == "contest" and e["contest"] == uid]
        parts.append(ContestPart(room.contest, _watch(room), mine, started.get(uid),
                                 in_session.get(uid) if sessions else None))
    # the copy holds only the reader's events: seen whole, it shows them all and nothing more;
    # a report of one contest leaves out what happened around it
    around = Actions(RoomSession(whole, Actor.gm())) if contest is None else None
    return Session(whole.title, dict(whole.players), parts, actions=around)


def from_room(room: Room, actor: Actor | None = None, *, contest: int | str | None = None) -> Session:
    """A session from a live room, as ``actor`` may see it (a spectator's view when None)."""
    return from_events(room.visible_events(actor or Actor.spectator()), contest=contest)


def from_contest(contest: Contest) -> Session:
    """A session of one contest (a copy of it: the contest itself is left as it is)."""
    copy = Contest.from_events(contest.events)
    actions = Actions.local(copy, title=copy.name)
    assert actions.contest is not None  # it adopted the copy
    return Session(copy.name, {}, [ContestPart(actions.contest, actions)], room=False)


def read_file(text: str | bytes, *, contest: int | None = None,
              max_bytes: int = MAX_ROOM_FILE_BYTES) -> Session:
    """A session from a file's text: a room export (what everyone at the table saw: the GM's secret
    rolls are left out) or a contest's save (``Contest.to_json``).

    Raises
    ------
    RuleError
        The file is too large, not JSON, or neither kind of file (a keyed error that says which).
    """
    size = len(text.encode("utf-8", "surrogatepass")) if isinstance(text, str) else len(text)
    if size > max_bytes:
        raise too_large(size, max_bytes)
    try:
        data = json.loads(text)
    except (TypeError, ValueError, UnicodeDecodeError) as exc:
        raise RuleError(f"This is not a raisus_panel room export or contest save (not valid JSON: {exc}).",
                        key="error.report.not_json", detail=str(exc)) from None
    if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
        if contest not in (None, 1):
            raise RuleError(f"There is no contest number {contest} here (there are 1).",
                            key="error.report.no_contest", n=contest, total=1)
        return from_contest(Contest.from_json(text))
    if not isinstance(data, dict) or "events" not in data:
        raise RuleError("This JSON is neither a raisus_panel room export nor a contest save.",
                        key="error.report.not_ours")
    events = read_room_file(text, max_bytes=max_bytes)["events"]
    try:
        return from_events([e for e in events if visible_to(Actor.spectator(), e)], contest=contest)
    except RuleError:
        raise
    except Exception as exc:  # the file passed its checks but does not replay: it is damaged
        raise RuleError(f"This room file is damaged: its events do not replay ({exc}).",
                        key="error.report.damaged", detail=str(exc)) from None
