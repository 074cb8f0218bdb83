"""What the mixins of a contest read from one another, declared once for the type checker.

:class:`~raisus_panel.rules.contest.Contest` is made of mixins -- its event log, dry runs, lookups,
projection and saves -- that share its parameters and the projection's private state. Each mixin
inherits :class:`ContestParts`, which only *declares* those (under ``TYPE_CHECKING``: nothing here
exists at run time, so no declaration can shadow the mixin that defines it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from param.parameterized import Parameters

    from .character import Character
    from .cliche import Cliche
    from .contest import Contest
    from .dice import DiceSource
    from .errors import RuleError
    from .profile import RulesProfile
    from .team import CharacterTeam

    #: A character, grunt mob or team on a side.
    Unit = Character | CharacterTeam
    #: An event of a contest's log (``events.py`` documents each type).
    Event = dict[str, Any]


class ContestParts:
    """The parts of a contest its mixins share (declarations only)."""

    if TYPE_CHECKING:
        # the contest's parameters (contest.py)
        param: Parameters
        uid: str
        profile: RulesProfile
        dice: DiceSource | None
        event_sink: Callable[[list[Event]], None] | None
        single_roll: bool
        COMMANDS: tuple[str, ...]

        # the projection's private state (ContestProjection._reset says what each holds)
        _events: list[Event]
        _objects: dict[str, Character]
        _teams: dict[str, CharacterTeam]
        _side_ids: list[list[str]]
        _choice: dict[str, dict[str, Any]]
        _pumps: dict[str, int]
        _lucky: dict[str, dict[str, int]]
        _start_scores: dict[str, dict[str, int]]
        _dropped: set[str]
        _window: dict[str, Any] | None
        _carry: list[bool]
        _rounds: int
        _cmd: int
        _exchanges: int
        _rolled: bool
        _tickets: bool
        _final: dict[str, Any] | None

        # the event log's (contest_log.py)
        @classmethod
        def from_events(cls, events: list[Event], *, dice: DiceSource | None = None,
                        characters: dict[str, Character] | None = None,
                        event_sink: Callable[..., Any] | None = None) -> Contest: ...
        def _admit(self, command: str) -> None: ...
        def _busy_refusal(self) -> RuleError | None: ...
        def _undo_refusal(self) -> RuleError | None: ...

        # the projection's (contest_state.py)
        def _apply(self, event: Event) -> None: ...
        def _project(self, events: list[Event]) -> None: ...
        def _publish(self) -> None: ...

        # the lookups (contest_queries.py)
        def _unit(self, uid: str) -> Unit: ...
        def _side_of(self, uid: str) -> int: ...
        def _team_of(self, char: Character) -> CharacterTeam | None: ...
        def characters(self, side: int | None = None) -> list[Character]: ...
        def chosen(self, unit: Unit | str) -> Cliche | None: ...
        def is_active(self, unit: Unit | str) -> bool: ...
        def is_defeated(self, char: Character) -> bool: ...
