"""Asking without acting: whether the rules allow a command now, and why not, from the rules themselves.

Views enable only the actions the rules allow, and a room refuses a command before it rolls. Both ask
:meth:`DryRun.why_not_error` (or :meth:`~DryRun.why_not`, :meth:`~DryRun.can`) instead of keeping a
second copy of the rules: the real command runs in *dry-run* mode -- its checks run up to its first
event, then it stops (:meth:`DryRun._check_only`). Nothing is applied, and no die of the real dice
source is used (:meth:`DryRun._dice` hands out throw-away dice while dry-running).

One case cannot stop at the first event: when a team's leader was knocked to 0 and nobody
volunteered, the next command first disbands the team (lost leader), and whether the rest is allowed
depends on that. Then the command is played for real on a throw-away replica of the contest, with its
own characters and dice (:meth:`DryRun._why_not_on_a_copy`).

While a command of the contest is *changing* it -- its dice are being drawn, its events applied, its
``event_sink`` called -- a dry run answers ``error.contest.busy``: the state is half-made, and a
command given then would be refused as busy too. Once the command has finished changing the contest
and publishes its new state (watchers of the contest's parameters run then), dry runs answer about
that new state, which is what a view refreshing its buttons needs -- even though a command given
from such a watcher is still refused as busy until the running command returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from typing import Any, Protocol

from .character import Character
from .contest_parts import ContestParts
from .dice import DiceSource
from .errors import RuleError
from .team import CharacterTeam


class _Command(Protocol):
    """A contest command method, called by name."""

    def __call__(self, *args: Any, **kwargs: Any) -> object: ...


class _NeedsFullRun(Exception):
    """Internal: a dry check cannot finish without applying an event first."""


class _DryDice(DiceSource):
    """Dice for checking a command without using the real dice source (faces are irrelevant)."""

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def _faces(self, n: int) -> list[int]:
        return [self._rng.randint(1, 6) for _ in range(n)]


_DRY_DICE = _DryDice()


def _translate(value: Any, characters: dict[str, Any], teams: dict[str, Any]) -> Any:
    """Swap characters and teams inside ``value`` for the replica's objects with the same uid."""
    if isinstance(value, CharacterTeam):
        return teams.get(value.uid, value.uid)
    if isinstance(value, Character):
        return characters.get(value.uid, value.uid)
    if isinstance(value, (list, tuple)):
        return type(value)(_translate(v, characters, teams) for v in value)
    if isinstance(value, dict):
        return {_translate(k, characters, teams): _translate(v, characters, teams) for k, v in value.items()}
    return value


class DryRun(ContestParts):
    """Mixin of :class:`~raisus_panel.rules.contest.Contest`: :meth:`why_not`, :meth:`why_not_error`, :meth:`can`.

    It relies on the contest's ``COMMANDS``, its command methods (which call :meth:`_check_only`
    instead of committing while ``_dry_run`` is set), ``from_events`` for the replica, and the
    event log's ``_busy_refusal`` and ``_undo_refusal``.
    """

    #: True while a dry run is asking a command method; the command then checks and stops.
    _dry_run = False

    def why_not(self, command: str, *args: Any, **kwargs: Any) -> str | None:
        """Why ``command`` would be refused right now (the RuleError's message), or None if allowed.

        Nothing changes and no die of the real dice source is used: the rules run up to the point
        where the command would take effect. :meth:`why_not_error` gives the refusal itself.

        Parameters
        ----------
        command
            The name of a command, one of ``COMMANDS``.
        *args, **kwargs
            The command's arguments, as the command method takes them.

        Returns
        -------
        str or None
            The English message of the refusal, or None when the command would be allowed.

        Raises
        ------
        ValueError
            If ``command`` is not a contest command.

        Examples
        --------
        >>> from raisus_panel.rules import Character, Contest
        >>> viking = Character("Viking", {"Viking": 4}); pirate = Character("Pirate", {"Pirate": 3})
        >>> Contest("Brawl", viking, pirate).why_not("volunteer", viking)
        'Viking is not in a character team; only team members volunteer.'
        """
        error = self.why_not_error(command, *args, **kwargs)
        return None if error is None else str(error)

    def why_not_error(self, command: str, *args: Any, **kwargs: Any) -> RuleError | None:
        """The :class:`RuleError` ``command`` would raise right now, or None if allowed.

        As :meth:`why_not`, but the refusal keeps its message ``key`` and ``fields``, so a view can
        show it in the reader's language (``raisus_panel.i18n.translate``). While another command
        of this contest is changing it, the answer is ``error.contest.busy`` (see the module
        docstring).

        Parameters
        ----------
        command
            The name of a command, one of ``COMMANDS``.
        *args, **kwargs
            The command's arguments, as the command method takes them.

        Returns
        -------
        RuleError or None

        Raises
        ------
        ValueError
            If ``command`` is not a contest command.
        """
        if command not in self.COMMANDS:
            raise ValueError(f"{command!r} is not a contest command; commands are {', '.join(self.COMMANDS)}.")
        busy = self._busy_refusal()
        if busy is not None:
            return busy
        if command == "undo":
            return self._undo_refusal()
        self._dry_run = True
        try:
            getattr(self, command)(*args, **kwargs)
        except _NeedsFullRun:
            return self._why_not_on_a_copy(command, args, kwargs)
        except RuleError as exc:
            return exc.with_traceback(None)
        finally:
            self._dry_run = False
        return None

    def can(self, command: str, *args: Any, **kwargs: Any) -> bool:
        """Whether the rules allow ``command`` with these arguments right now (see :meth:`why_not`).

        Parameters
        ----------
        command
            The name of a command, one of ``COMMANDS``.
        *args, **kwargs
            The command's arguments, as the command method takes them.
        """
        return self.why_not(command, *args, **kwargs) is None

    def _check_only(self, plan: Callable[[], Generator[dict[str, Any], None, None]]) -> None:
        """Run ``plan``'s checks up to its first event, then stop: nothing is applied."""
        steps = plan()
        try:
            first = next(steps, None)
        finally:
            steps.close()
        window = self._window
        if first and window and window["leader_down"] and first["type"] == "team_disbanded" \
                and first["team"] == window["team"] and first["reason"] == "lost_leader":
            raise _NeedsFullRun  # the rest of the checks need the lost leader's disband applied

    def _why_not_on_a_copy(self, command: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> RuleError | None:
        """Play the command for real on a throw-away replica with its own characters."""
        copy_ = type(self).from_events(self._events, dice=_DryDice())

        def translate(value: Any) -> Any:
            return _translate(value, copy_._objects, copy_._teams)
        try:
            method: _Command = getattr(copy_, command)
            method(*translate(list(args)), **translate(dict(kwargs)))
        except RuleError as exc:
            return exc.with_traceback(None)
        return None

    def _dice(self) -> DiceSource:
        """The dice a command rolls: the contest's own, or throw-away dice while dry-running."""
        if self._dry_run:
            return _DRY_DICE
        if self.dice is None:  # pragma: no cover - a contest always has dice (SeededDice by default)
            raise ValueError("a contest without dice")
        return self.dice
