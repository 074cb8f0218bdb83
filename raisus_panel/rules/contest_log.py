"""The event log of a contest: committing a command's events, rolling back, undo and replay.

The log is the truth of a contest (ARCHITECTURE.md): save = the events, load = replay, undo = replay
without the last command. This module keeps the log and the state built from it in step:

* :meth:`EventLog._commit_new` runs one command: each event its plan yields is numbered, appended and
  applied at once (so the plan sees its effects before it goes on), the new events go to
  ``event_sink``, and the new state is published to the public parameters in one update. Anything
  raised on the way removes the command's events and projects the old log again: a command applies
  fully or not at all.
* One command at a time. A command that starts while another command of the same contest is still
  running -- called from the dice source while the round's dice are drawn, from ``event_sink``, or
  from a param watcher the running command set off -- is refused with ``error.contest.busy`` and
  changes nothing, so the running command completes (or fails) exactly as it would have alone.
  The running command is in one of two phases: *changing* the contest (its plan, its events
  applied, ``event_sink``, a rollback) and then *publishing* the result (one ``param.update``;
  watchers of the contest's parameters run then). Dry runs answer "busy" only while it changes the
  contest (``dry_run.py``). This is not a lock between threads: a room serialises its commands.
* :meth:`EventLog.undo` takes back the last command; :meth:`EventLog.from_events` replays a log;
  :meth:`EventLog.follow` applies events committed by another server process.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

from .character import Character
from .contest_parts import ContestParts
from .dice import DiceSource
from .errors import Phrase, RuleError, SaveFileError
from .profile import RulesProfile

#: The phases of a running command (see the module docstring).
_CHANGING, _PUBLISHING = "changing", "publishing"


def _nothing_to_undo() -> RuleError:
    return RuleError("Nothing to undo: the contest has just started.", key="error.contest.nothing_to_undo")


def _busy() -> RuleError:
    return RuleError("Another command of this contest is still running: try again once it has finished.",
                     key="error.contest.busy")


if TYPE_CHECKING:
    from .contest import Contest


class EventLog(ContestParts):
    """Mixin of :class:`~raisus_panel.rules.contest.Contest`: the log, the command cycle, undo and replay.

    It owns ``_events`` (the log) and ``_cmd`` (the number of the last command), applies events
    through :class:`~raisus_panel.rules.contest_state.ContestProjection` (``_apply``, ``_project``,
    ``_publish``) and admits undo through the contest's ``_admit``.
    """

    #: The phase of the command running now, or None when none is.
    _running: str | None = None

    @classmethod
    def from_events(cls, events: list[dict[str, Any]], *, dice: DiceSource | None = None,
                    characters: dict[str, Character] | None = None,
                    event_sink: Callable[..., Any] | None = None) -> Contest:
        """Rebuild a contest by replaying its events.

        Parameters
        ----------
        events
            The contest's event log, beginning with its ``contest_started`` event.
        dice
            The dice source for the rounds still to play; replaying needs none.
        characters
            uid -> Character: lets a room reuse its own character objects; any character not given
            is created from the start event.
        event_sink
            As the contest's ``event_sink`` parameter.

        Returns
        -------
        Contest

        Raises
        ------
        SaveFileError
            If the events do not begin with a start or cannot be replayed.
        """
        if not events or events[0].get("type") != "contest_started":
            raise SaveFileError("A contest's events must begin with its start.", key="error.save.no_contest_start")
        start = events[0]
        try:
            made = cast("type[Contest]", cls)  # a mixin of Contest: cls is Contest (or a subclass)
            contest = made(uid=start["contest"], single_roll=bool(start["single_roll"]),
                          profile=RulesProfile.from_dict(start["profile"]), dice=dice,
                          event_sink=event_sink, _events=events, _characters=characters)
        except SaveFileError:
            raise
        except (RuleError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SaveFileError(f"These contest events cannot be replayed: {exc}", key="error.save.not_replayable",
                                detail=Phrase.of(exc)) from None
        return contest

    def reload(self, events: list[dict[str, Any]]) -> None:
        """Replace this contest's log by ``events`` and rebuild its state in place.

        The object, its characters and its teams stay the same objects (views bound to them stay
        bound): a room re-projecting its log after an undo reuses the contest this way.

        Parameters
        ----------
        events
            This contest's event log, beginning with its own ``contest_started`` event.

        Raises
        ------
        SaveFileError
            If the events are not this contest's or cannot be replayed (nothing changes then).
        RuleError
            While a command of this contest is running (``error.contest.busy``).
        """
        self._refuse_if_busy()
        if not events or events[0].get("type") != "contest_started" or events[0].get("contest") != self.uid:
            raise SaveFileError("These events are not this contest's: they must begin with its start.",
                                key="error.save.not_this_contest")
        old = self._events
        with self._one_command():
            self._events = [copy.deepcopy(e) for e in events]
            try:
                self._replay()
            except SaveFileError:
                self._events = old
                self._rebuild()
                raise

    def follow(self, events: list[dict[str, Any]]) -> None:
        """Apply events that continue this contest's log, committed elsewhere (another server process).

        They are applied as they are (no dice are rolled) and published in one update; the
        contest's own next command numbers on from them.

        Raises
        ------
        SaveFileError
            If they do not continue the log or cannot be applied (nothing changes then).
        RuleError
            While a command of this contest is running (``error.contest.busy``).
        """
        self._refuse_if_busy()
        events = [copy.deepcopy(e) for e in events]
        if not events:
            return
        if [e.get("seq") for e in events] != list(range(len(self._events) + 1, len(self._events) + len(events) + 1)):
            raise SaveFileError("These events do not continue this contest's log.", key="error.save.not_continued")
        before, cmd = len(self._events), self._cmd
        with self._one_command():
            try:
                for event in events:
                    self._events.append(event)
                    self._apply(event)
                    self._cmd = max(self._cmd, int(event.get("cmd", 0)))
            except (RuleError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                del self._events[before:]
                self._cmd = cmd
                self._rebuild()
                raise SaveFileError(f"These contest events cannot be replayed: {exc}",
                                    key="error.save.not_replayable", detail=Phrase.of(exc)) from None
            self._publish_finished()

    def _replay(self) -> None:
        """Project a log given at construction, naming the event that cannot be replayed."""
        self._cmd = max((e.get("cmd", 0) for e in self._events), default=0)
        for i, event in enumerate(self._events):
            try:
                self._apply(event)
            except (RuleError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                raise SaveFileError(f"Event {i + 1} ({event.get('type')}) cannot be replayed: {exc}",
                                    key="error.save.event_not_replayable", n=i + 1, type=str(event.get("type")),
                                    detail=Phrase.of(exc)) from None
        self._publish()

    # ------------------------------------------------------------------------- the command cycle --
    def _refuse_if_busy(self) -> None:
        """Raise ``error.contest.busy`` while a command of this contest is running."""
        if self._running is not None:
            raise _busy()

    def _busy_refusal(self) -> RuleError | None:
        """What a dry run answers before anything else: busy while a command changes the contest."""
        return _busy() if self._running == _CHANGING else None

    @contextmanager
    def _one_command(self) -> Iterator[None]:
        """Mark a command as running until it returns or raises (the caller has refused a second one)."""
        self._running = _CHANGING
        try:
            yield
        finally:
            self._running = None

    def _commit_new(self, plan: Callable[..., Any]) -> list[dict[str, Any]]:
        """Run one command: ``plan`` is a generator function that checks, rolls and yields events.

        Each event is applied as soon as it is yielded, so the plan sees its effects before it goes
        on. Anything raised rolls the whole command back. Returns copies of the new events.
        """
        before = len(self._events)
        new: list[dict[str, Any]] = []
        with self._one_command():
            self._cmd += 1
            try:
                for event in plan():
                    new.append(self._emit(event))
                if self.event_sink is not None and new:
                    self.event_sink([copy.deepcopy(e) for e in new])
            except BaseException:
                self._cmd -= 1
                if len(self._events) > before:  # something was applied: project the old log again
                    del self._events[before:]
                    if self._events:
                        self._rebuild()
                raise
            self._publish_finished()
        return [copy.deepcopy(e) for e in new]

    def _emit(self, event: dict[str, Any]) -> dict[str, Any]:
        """Number ``event``, append it to the log and apply it."""
        event = {**event, "seq": len(self._events) + 1, "cmd": self._cmd}
        self._events.append(event)
        self._apply(event)
        return event

    def _publish_finished(self) -> None:
        """Publish the state the running command left: it no longer changes the contest, so the
        watchers that run now get real answers from dry runs (commands stay refused until it returns)."""
        self._running = _PUBLISHING
        self._publish()

    def _rebuild(self) -> None:
        """Project the whole log again (after a rollback or an undo) and publish the result."""
        self._project(self._events)
        self._publish_finished()

    # ------------------------------------------------------------------------------------ undo --
    def _undo_refusal(self) -> RuleError | None:
        """Why :meth:`undo` would be refused now, or None."""
        # the start's command (the start, and the commitment of committed dice) cannot be undone
        return None if self._events[-1]["cmd"] != self._events[0]["cmd"] else _nothing_to_undo()

    def undo(self) -> list[dict[str, Any]]:
        """Take back the last command: every event it made.

        The contest's characters and teams are put back as they were before that command, by
        projecting the log without it. The start of the contest cannot be undone.

        Returns
        -------
        list of dict
            The events removed.

        Raises
        ------
        RuleError
            When only the start is left (``error.contest.nothing_to_undo``), or while another
            command of this contest is running (``error.contest.busy``).
        """
        self._admit("undo")
        refusal = self._undo_refusal()
        if refusal is not None:
            raise refusal
        with self._one_command():
            last = self._events[-1]["cmd"]
            cut = next(i for i, e in enumerate(self._events) if e["cmd"] == last)
            removed = self._events[cut:]
            del self._events[cut:]
            self._cmd = self._events[-1]["cmd"]
            self._rebuild()
        return removed
