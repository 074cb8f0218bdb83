"""Anyone can check the dice: recompute every committed die of a game from its log.

A game rolled with :class:`~.dice.CommittedDice` writes, before its first roll, the commitment to a
secret seed (``dice_committed``), then the players' client seeds (``client_seed_set``), every roll
with its number (``round_decided``'s ``draw``; a room's checks carry theirs), and at the end the seed
itself (``dice_revealed``). :func:`verify` reads such a log -- a contest, a contest's save, a room
export -- and for each contest (and each session of a room's action checks) answers with a
:class:`DiceCheck`: verified, or the first roll that differs and why:

``commitment``
    The revealed seed is not the one committed to (its SHA-256 differs), or is not a seed at all.
``face``
    A die's face is not the one the seed gives for its roll number (or a roll's pool or total does
    not match its faces).
``order``
    Roll numbers go back or repeat, a roll comes before any commitment or before its own, or a
    client seed was set after the commitment had rolled.
``scheme``
    The commitment names a derivation this version does not know.
``damaged``
    An event the check needs is not shaped as documented.

A verified log proves that every face came from the committed seed, the counter and the client
seeds -- nothing the server could choose after it committed. Rolls taken back by undo keep their
numbers: they are checked too when the log still holds them (a room's log does), and the numbers
missing from the log are listed in :attr:`DiceCheck.unused`.

This module is pure: it needs no dice, no room and no network.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .commitment import SCHEME, SEED_BYTES, commitment_of, roll_faces, rolls_of
from .errors import SaveFileError

#: The statuses of a :class:`DiceCheck`.
STATUSES = ("verified", "failed", "unrevealed", "uncommitted")
#: Kinds of :class:`RollProblem`.
PROBLEMS = ("commitment", "face", "order", "scheme", "damaged")

_MESSAGES = {
    "commitment": "the revealed seed does not match its commitment {commitment}",
    "face": "roll {roll}, die {die}: the log says {found}, the seed gives {expected}",
    "pool": "roll {roll}: {found_faces} for a pool of {expected}",
    "total": "roll {roll}: the total {found} is not what its faces add up to ({expected})",
    "order": "roll {roll} is out of order (after roll {after})",
    "before_commitment": "roll {roll} comes before any commitment",
    "seed_after_roll": "a client seed was set after roll {roll} of its commitment",
    "unnumbered": "a roll without its number under committed dice (event {seq})",
    "scheme": "unknown dice scheme {found}",
    "damaged": "event {seq} is damaged",
    "missing": "roll {roll} is missing from the log, and no undo took it back",
}
_STATUS_MESSAGES = {
    "verified": "verified ({rolls_text}, {dice_text})",
    "verified_unused": "verified ({rolls_text}, {dice_text}); {unused_text} taken back",
    "failed": "FAILED: {problem}",
    "unrevealed": "not revealed yet ({rolls_text} committed)",
    "uncommitted": "not rolled with committed dice",
}


def _count(n: int, one: str, many: str) -> str:
    """``n`` and its noun in English, singular for 1: "1 roll", "3 rolls"."""
    return f"{n} {one if n == 1 else many}"


@dataclass(frozen=True)
class RollProblem:
    """What differs in a log of committed dice: the first problem :func:`verify` found.

    ``kind`` is one of :data:`PROBLEMS`; ``reason`` says more (``"pool"``, ``"seed_after_roll"``,
    ...); ``roll`` and ``die`` name the roll (its number) and die (1-based) when there is one;
    ``seq`` is the event's place in the log that was read; ``expected`` and ``found`` what the seed
    gives and what the log says. :attr:`message` is an English sentence; :attr:`key` and
    :attr:`fields` translate it (``raisus_panel.i18n``).
    """

    kind: str
    reason: str
    roll: int | None = None
    die: int | None = None
    seq: int | None = None
    expected: object = None
    found: object = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The catalog key of :attr:`message`."""
        return f"verify.problem.{self.reason}"

    @property
    def fields(self) -> dict[str, Any]:
        """The values :attr:`message` is made of."""
        return {"roll": self.roll, "die": self.die, "seq": self.seq, "expected": self.expected,
                "found": self.found, **self.detail}

    @property
    def message(self) -> str:
        """The problem in English."""
        found_faces = _count(self.found, "face", "faces") if isinstance(self.found, int) else self.found
        return _MESSAGES[self.reason].format(**self.fields, found_faces=found_faces)


@dataclass(frozen=True)
class DiceCheck:
    """The verification of one contest's dice (or one session of a room's action checks).

    Parameters
    ----------
    kind
        ``"contest"`` or ``"checks"``.
    scope
        The contest's uid, or the checks session's scope (the counter's name).
    name
        The contest's name ("" for checks).
    status
        ``"verified"``; ``"failed"`` (see :attr:`problem`); ``"unrevealed"`` (a seed is not in
        the log yet: the contest is still on); ``"uncommitted"`` (rolled with other dice).
    rolls, dice
        How many rolls and dice were recomputed.
    commitments
        Each commitment in order: ``{"commitment", "first_roll", "seed"}`` (``seed`` None until revealed).
    unused
        Roll numbers the log does not hold (rolls taken back by undo); drawn once, never again.
    problem
        The first problem found, or None.
    private
        A GM-private checks session (its events are the GM's only).
    """

    kind: str
    scope: str
    name: str
    status: str
    rolls: int = 0
    dice: int = 0
    commitments: tuple[Any, ...] = ()
    unused: tuple[Any, ...] = ()
    problem: RollProblem | None = None
    private: bool = False

    @property
    def ok(self) -> bool:
        """True when every die was recomputed and agrees."""
        return self.status == "verified"

    @property
    def key(self) -> str:
        """The catalog key of :attr:`message` (``problem`` in :attr:`fields` is translated by its own)."""
        suffix = "verified_unused" if self.status == "verified" and self.unused else self.status
        return f"verify.status.{suffix}"

    @property
    def fields(self) -> dict[str, Any]:
        """The values :attr:`message` is made of."""
        return {"rolls": self.rolls, "dice": self.dice,
                "problem": self.problem.message if self.problem else "",
                "unused": ", ".join(map(str, self.unused)), "unused_count": len(self.unused)}

    @property
    def message(self) -> str:
        """The result in English."""
        unused = ", ".join(map(str, self.unused))
        words = {"rolls_text": _count(self.rolls, "roll", "rolls"), "dice_text": _count(self.dice, "die", "dice"),
                 "unused_text": f"roll {unused} was" if len(self.unused) == 1 else f"rolls {unused} were"}
        return _STATUS_MESSAGES[self.key.rsplit(".", 1)[1]].format(**self.fields, **words)

    @property
    def label(self) -> str:
        """What the check is of: the contest's name, or the checks session."""
        if self.kind == "contest":
            return self.name or self.scope
        return ("GM-private checks " if self.private else "checks ") + self.scope


class _Session:
    def __init__(self, event: Mapping[str, Any]) -> None:
        self.commitment = str(event["commitment"])
        self.scope = str(event["scope"])
        self.first_roll = int(event["first_roll"])
        self.client_seeds = {str(k): str(v) for k, v in dict(event["client_seeds"]).items()}
        self.rolls: list[tuple[int, list[Any], int | None]] = []
        self.seed: bytes | None = None


class _Walk:
    """Reads one counter's events in log order, then recomputes every face."""

    def __init__(self) -> None:
        self.sessions: dict[str, _Session] = {}
        self.current: _Session | None = None
        self.last_roll = 0
        self.seen: set[int] = set()
        self.uncommitted = 0
        self.revealed_up_to = 0
        self.problems: list[RollProblem] = []

    def fail(self, kind: str, reason: str, **info: Any) -> None:
        self.problems.append(RollProblem(kind, reason, **info))

    def commit(self, event: Mapping[str, Any], seq: int | None) -> None:
        if event.get("scheme") != SCHEME:
            return self.fail("scheme", "scheme", seq=seq, found=event.get("scheme"))
        session = self.sessions.get(event["commitment"])
        if session is None:
            session = self.sessions[event["commitment"]] = _Session(event)
            if session.first_roll <= self.last_roll:
                self.fail("order", "order", roll=session.first_roll, seq=seq, detail={"after": self.last_roll})
        self.current = session

    def client_seed(self, who: str, seed: str, seq: int | None) -> None:
        if self.current is None:
            return self.fail("order", "before_commitment", seq=seq, roll=None)
        if self.current.rolls:
            return self.fail("order", "seed_after_roll", seq=seq, roll=self.current.rolls[-1][0])
        self.current.client_seeds[str(who)] = str(seed)

    def draw(self, first: int | None, rolls: list[list[Any]], seq: int | None) -> None:
        if first is None:
            if self.current is not None:
                self.fail("order", "unnumbered", seq=seq)
            self.uncommitted += len(rolls)
            return
        for i, faces in enumerate(rolls):
            number = int(first) + i
            if self.current is None:
                return self.fail("order", "before_commitment", roll=number, seq=seq)
            if number <= self.last_roll or number < self.current.first_roll:
                return self.fail("order", "order", roll=number, seq=seq,
                                 detail={"after": max(self.last_roll, self.current.first_roll - 1)})
            self.current.rolls.append((number, list(faces), seq))
            self.seen.add(number)
            self.last_roll = number

    def reveal(self, event: Mapping[str, Any], seq: int | None) -> None:
        session = self.sessions.get(event["commitment"])
        if session is None:  # a commitment this log does not hold (taken back): nothing to check
            return
        try:
            seed = bytes.fromhex(str(event["seed"]))
        except ValueError:
            seed = b""
        first = session.rolls[0][0] if session.rolls else None
        if len(seed) != SEED_BYTES or not hmac.compare_digest(commitment_of(seed), session.commitment) \
                or (session.seed is not None and session.seed != seed):
            return self.fail("commitment", "commitment", seq=seq, roll=first,
                             detail={"commitment": session.commitment[:16]})
        session.seed = seed
        if isinstance(event.get("next_roll"), int):
            self.revealed_up_to = max(self.revealed_up_to, event["next_roll"] - 1)

    def result(self, kind: str, scope: str, name: str, private: bool = False, *,
               complete: bool = False) -> DiceCheck:
        """The check of what was read. ``complete``: the log keeps every roll drawn, undone ones too
        (a room's log does), so a roll number it lacks was deleted, not taken back."""
        problems = list(self.problems)
        rolls = dice = 0
        for session in self.sessions.values():
            if session.seed is None:
                continue
            for number, faces, seq in session.rolls:
                expected = roll_faces(session.seed, session.scope, number, len(faces), session.client_seeds)
                rolls, dice = rolls + 1, dice + len(faces)
                wrong = next((d for d, (a, b) in enumerate(zip(faces, expected), 1) if a != b), None)
                if wrong is not None:
                    problems.append(RollProblem("face", "face", roll=number, die=wrong, seq=seq,
                                                expected=expected[wrong - 1], found=faces[wrong - 1]))
                    break
        commitments = tuple({"commitment": s.commitment, "first_roll": s.first_roll,
                             "seed": s.seed.hex() if s.seed is not None else None} for s in self.sessions.values())
        unused: tuple[int, ...] = ()
        if self.seen:
            last = max(self.last_roll, self.revealed_up_to)
            unused = tuple(n for n in range(min(s.first_roll for s in self.sessions.values()), last + 1)
                           if n not in self.seen)
        if complete and unused:
            problems.append(RollProblem("order", "missing", roll=unused[0], seq=None))
            unused = ()
        if problems:
            first = min(problems, key=lambda p: (p.seq if isinstance(p.seq, int) else 0, p.reason != "face",
                                                 p.roll or 0))
            return DiceCheck(kind, scope, name, "failed", rolls, dice, commitments, unused, first, private)
        if not self.sessions:
            return DiceCheck(kind, scope, name, "uncommitted", 0, 0, (), (), None, private)
        if any(s.seed is None for s in self.sessions.values()):
            pending = sum(len(s.rolls) for s in self.sessions.values())
            return DiceCheck(kind, scope, name, "unrevealed", pending, 0, commitments, unused, None, private)
        if self.uncommitted:
            return DiceCheck(kind, scope, name, "uncommitted", rolls, dice, commitments, unused, None, private)
        return DiceCheck(kind, scope, name, "verified", rolls, dice, commitments, unused, None, private)


def _contest_rolls(walk: _Walk, event: Mapping[str, Any], seq: int | None) -> None:
    """A round's rolls, after checking each pool and total against its faces."""
    for attempt in event["attempts"]:
        for roll in attempt:
            faces, helpers = list(roll["faces"]), [list(f) for f in roll.get("helper_faces") or ()]
            number = None if event.get("draw") is None else event["draw"]
            if len(faces) != roll["pool"]:
                walk.fail("face", "pool", seq=seq, roll=number, expected=roll["pool"], found=len(faces))
            total = sum(faces) + 6 * sum(f.count(6) for f in helpers)
            if total != roll["total"]:
                walk.fail("face", "total", seq=seq, roll=number, expected=total, found=roll["total"])
    walk.draw(event.get("draw"), rolls_of(event), seq)


def _walk_contest(events: Iterable[Mapping[str, Any]], walk: _Walk) -> None:
    for i, event in enumerate(events, 1):
        seq = event.get("seq", i) if isinstance(event, Mapping) else i
        try:
            kind = event["type"]
            if kind == "dice_committed":
                walk.commit(event, seq)
            elif kind == "client_seed_set":
                walk.client_seed(event["who"], event["seed"], seq)
            elif kind == "round_decided":
                _contest_rolls(walk, event, seq)
            elif kind == "dice_revealed":
                walk.reveal(event, seq)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            walk.fail("damaged", "damaged", seq=seq)


def verify_contest(events: Iterable[Mapping[str, Any]], *, name: str | None = None) -> DiceCheck:
    """Verify one contest's dice from its events (its log, as ``Contest.events`` or a save has it).

    Parameters
    ----------
    events
        The contest's events, beginning with ``contest_started``.
    name
        What to call it; the start's name when omitted.
    """
    events = list(events)
    start = events[0] if events and isinstance(events[0], Mapping) else {}
    walk = _Walk()
    _walk_contest(events, walk)
    return walk.result("contest", str(start.get("contest", "")), str(name or start.get("name", "")))


#: The room events that roll on a checks session's dice -> the field holding their faces.
_CHECKS_ROLLS = {"action_checked": "check", "advancement_rolled": "roll"}


def verify_room_events(events: Iterable[Mapping[str, Any]]) -> list[DiceCheck]:
    """Verify every contest and every checks session of a room's log (as an export holds it).

    Every event counts, those undo took back too: their dice were drawn all the same. So, unlike a
    contest's own log, a room's log holds every roll number drawn: a gap is a roll deleted from the
    file, and fails. A contest whose start was taken back is left out (it rolled nothing).
    """
    events = [e for e in events if isinstance(e, Mapping)]
    undone = {e.get("undone_cmd_id") for e in events if e.get("type") == "undone"}
    contests: dict[str, list[Any]] = {}
    names: dict[str, str] = {}
    gone: set[str] = set()
    checks: dict[str, _Walk] = {}
    private: dict[str, bool] = {}
    for event in events:
        kind, seq = event.get("type"), event.get("seq")
        try:
            if kind == "contest":
                inner = dict(event["event"])
                if inner.get("type") == "contest_started":
                    names[event["contest"]] = str(inner.get("name", ""))
                    if event.get("cmd_id") in undone:
                        gone.add(event["contest"])
                contests.setdefault(event["contest"], []).append({**inner, "seq": seq})
            elif kind in ("dice_committed", "dice_revealed"):
                walk = checks.setdefault(event["scope"], _Walk())
                private[event["scope"]] = private.get(event["scope"], False) or bool(event.get("private"))
                (walk.commit if kind == "dice_committed" else walk.reveal)(event, seq)
            elif kind in _CHECKS_ROLLS and event.get("draw") is not None:
                draw = event["draw"]
                walk = checks.setdefault(draw["scope"], _Walk())
                walk.draw(draw["roll"], [list(event[_CHECKS_ROLLS[kind]]["faces"])], seq)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            checks.setdefault("", _Walk()).fail("damaged", "damaged", seq=seq)
    results = []
    for uid, contest_events in contests.items():
        if uid in gone:
            continue
        walk = _Walk()
        _walk_contest(contest_events, walk)
        results.append(walk.result("contest", uid, names.get(uid, ""), complete=True))
    results += [walk.result("checks", scope, "", private.get(scope, False), complete=True)
                for scope, walk in checks.items()]
    return results


def _parsed(source: object) -> object:
    if isinstance(source, (bytes, bytearray)):
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveFileError(f"This is not a game log (not valid JSON: {exc}).", key="error.verify.not_json",
                                detail=str(exc)) from None
    if isinstance(source, str):
        try:
            return json.loads(source)
        except ValueError as exc:
            raise SaveFileError(f"This is not a game log (not valid JSON: {exc}).", key="error.verify.not_json",
                                detail=str(exc)) from None
    return source


def verify(source: object) -> list[DiceCheck]:
    """Verify the dice of a game: one :class:`DiceCheck` per contest (and per room checks session).

    Parameters
    ----------
    source
        A :class:`~.contest.Contest`, a room (anything with ``export_json``, or with a ``room`` that
        has it: a room session, a table's actions), a contest's events, a
        room's events, or the JSON (text, bytes or parsed) of a contest save or a room export.

    Returns
    -------
    list of DiceCheck

    Raises
    ------
    SaveFileError
        When ``source`` is none of these (``error.verify.not_json``, ``error.verify.not_ours``).

    Examples
    --------
    >>> from raisus_panel.rules import Character, CommittedDice, Contest
    >>> duel = Contest("Duel", Character("Ann", {"Fencer": 3}), Character("Bo", {"Brute": 3}),
    ...                dice=CommittedDice())
    >>> _ = duel.roll_round(); _ = duel.end("Both walk away.")
    >>> [check.status for check in verify(duel)]
    ['verified']
    """
    room = getattr(source, "room", None)  # a room's session, or a table's actions
    if not hasattr(source, "export_json") and hasattr(room, "export_json"):
        source = room
    if hasattr(source, "export_json"):
        source = source.export_json()
    if hasattr(source, "events") and hasattr(source, "uid"):
        return [verify_contest(list(source.events), name=getattr(source, "name", None))]
    data = _parsed(source)
    if isinstance(data, Mapping):
        if data.get("format") in ("raisus_panel/room", "raisus_panel/contest") and isinstance(data.get("events"), list):
            data = data["events"]
        else:
            data = None
    if isinstance(data, list) and data and isinstance(data[0], Mapping):
        first = data[0].get("type")
        if first == "room_created":
            return verify_room_events(data)
        if first == "contest_started":
            return [verify_contest(data)]
    raise SaveFileError("This is neither a contest save nor a room export: there is no game log to verify.",
                        key="error.verify.not_ours")
