"""What a command declaration is made of, and the parsing every command's arguments share.

A command's arguments are parsed once, before anything else, into a frozen dataclass (an
:class:`Args`): the shapes the room itself reads -- ids are text, flags are true or false, lists of
members and teams are what they should be. Values the rules judge (a target number, a cliché's
rating, a fate's text) are carried as given and checked by the rules when the command is decided, so
every role meets the same checks in the same order as before: the parse, the role, the rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, NamedTuple, Self, TypeVar

from raisus_panel.rules import RuleError
from raisus_panel.rules.dice import DiceSource
from raisus_panel.rules.errors import Phrase

from ..events import Event
from ..projection import RoomState
from ..roles import Actor

_CHARACTER = Phrase("character", "term.character")

#: The raw arguments of a command as a page or a script sends them.
Raw = Mapping[str, object]


@dataclass(frozen=True)
class Args:
    """The parsed arguments of a command that takes none; each command's own subclass adds its fields.

    The fields are the arguments (same names); :meth:`parse` reads them from the raw mapping.
    """

    #: The argument names, when they are not the dataclass's fields (a character's data).
    NAMES: ClassVar[frozenset[str] | None] = None

    @classmethod
    def names(cls) -> frozenset[str]:
        """The arguments this command takes."""
        return cls.NAMES if cls.NAMES is not None else frozenset(f.name for f in dataclasses.fields(cls))

    @classmethod
    def parse(cls, raw: Raw) -> Self:
        """The arguments from ``raw`` (whose names are known to be :meth:`names`); RuleError if malformed."""
        return cls()

    @property
    def in_secret(self) -> bool:
        """Whether its dice are the GM's secret ones (a private check's session of committed dice)."""
        return False


@dataclass(frozen=True)
class Context:
    """What a room command's decision may use besides the state: the dice, and whether it is a dry run."""

    dice: DiceSource | None = None
    #: True for :meth:`Room.check <..room.Room.check>`: decide, roll nothing, return no events.
    dry: bool = False
    #: The seeds the room could reveal now (``reveal_checks``), asked only by the command that needs them.
    pending: Callable[[], list[Event]] = list


class ContestCall(NamedTuple):
    """A contest command ready to run: ``getattr(contest, method)(*args, **kwargs)``."""

    method: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = {}


A = TypeVar("A", bound=Args)

#: Raises PermissionDenied unless the (joined) player may give the command with these arguments.
PlayerRule = Callable[[RoomState, Actor, A], None]
#: A room command's decision: the payloads of the events to write (``room_event``), changing nothing.
Plan = Callable[[RoomState, Actor, A, Context], list[Event]]
#: A contest command's decision: the current contest's method and its arguments, ids made objects.
ContestStep = Callable[[RoomState, Actor, A], ContestCall]


@dataclass(frozen=True)
class CommandSpec(Generic[A]):
    """One command, declared once: its arguments, who may give it, and what it does.

    The room (:meth:`~..room.Room.apply`), the permissions, the staleness check and the pages all
    read these fields; none of them names a command.
    """

    name: str
    #: Its arguments, parsed once.
    args: type[A]
    #: For a GM-only command, what "Only the GM can ..." says it does.
    gm_only: Phrase | None = None
    #: For a command players may give too: when they may (``None`` with ``gm_only``).
    players: PlayerRule[A] | None = None
    #: A player may give it before joining the room (``join`` itself).
    before_joining: bool = False
    #: It answers what the person's page showed, so it is refused when the room has moved on since
    #: (``seen_seq``; see :mod:`..stale`).
    state_bound: bool = False
    #: ``undo`` may take it back.
    undoable: bool = True
    #: A room command: the events it makes.
    plan: Plan[A] | None = None
    #: A contest command: the current contest's method it runs.
    contest: ContestStep[A] | None = None
    #: With both ``plan`` and ``contest``: whether it runs on the contest now (``recover``).
    on_contest: Callable[[RoomState, A], bool] | None = None
    #: The dice the room prepares for it when it has committed dice: a new contest's, or the checks'.
    dice: Literal["contest", "checks"] | None = None

    def __post_init__(self) -> None:
        # a declaration that says too little or too much is a programming error, found at import
        if (self.gm_only is None) == (self.players is None):
            raise TypeError(f"{self.name}: declare either gm_only or players")
        if self.plan is not None and self.contest is not None and self.on_contest is None:
            raise TypeError(f"{self.name}: a command both planned and run on the contest needs on_contest")

    @property
    def is_undo(self) -> bool:
        """Neither planned nor run on the contest: the room's own ``undo`` (it needs the whole log)."""
        return self.plan is None and self.contest is None


@dataclass(frozen=True)
class Command(Generic[A]):
    """A command as the room runs it: its declaration and its parsed arguments."""

    spec: CommandSpec[A]
    args: A

    @property
    def name(self) -> str:
        """The command's name (an alias given becomes its command's)."""
        return self.spec.name

    def runs_on_contest(self, state: RoomState) -> bool:
        """Whether the current contest runs it (else the room plans it, or it is ``undo``)."""
        if self.spec.contest is None:
            return False
        if self.spec.plan is None or self.spec.on_contest is None:
            return True
        return self.spec.on_contest(state, self.args)


# ------------------------------------------------------------------------- parsing helpers --
def flag(raw: Raw, key: str, default: bool) -> bool:
    """The true-or-false argument ``key`` (``default`` when absent)."""
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise RuleError(f"'{key}' is true or false, not {value!r}.", key="error.room.not_flag", argument=key,
                        value=repr(value))
    return value


def some_id(raw: Raw, key: str, what: Phrase = _CHARACTER) -> str | None:
    """The id argument ``key``: text, or None when absent (then the lookup says what is missing)."""
    value = raw.get(key)
    if value is None or (isinstance(value, str) and value):
        return value
    raise RuleError(f"Say which {what} ('{key}': its id).", key="error.room.say_which_id", what=what,
                    argument=key)


def required_id(value: str | None, key: str, what: Phrase = _CHARACTER) -> str:
    """An id a player's permission needs: refused when it was left out."""
    if value is None:
        raise RuleError(f"Say which {what} ('{key}': its id).", key="error.room.say_which_id", what=what,
                        argument=key)
    return value


def text(value: object, key: str, what: Phrase) -> str:
    """A text argument a decision needs, non-empty."""
    if not isinstance(value, str) or not value:
        raise RuleError(f"Say which {what} ('{key}').", key="error.room.say_which", what=what, argument=key)
    return value


@dataclass(frozen=True)
class Member:
    """A team member as a command names them: a character's id, with the cliché it helps with.

    Given as an id, ``[id, cliché]``, ``[id, cliché, appropriate]`` or
    ``{"character": id, "cliche": name, "appropriate": bool}``.
    """

    character: str
    cliche: str | None = None
    appropriate: bool = True


def members(value: object) -> tuple[Member, ...]:
    """A team's members (see :class:`Member`); RuleError naming the shape when one is malformed."""
    if not isinstance(value, list) or not value:
        raise RuleError("List the team's members: [[id, cliché, appropriate], ...].", key="error.room.team_members")
    return tuple(_member(spec) for spec in value)


def _member(spec: object) -> Member:
    if isinstance(spec, dict):
        if set(spec) - {"character", "cliche", "appropriate"} or "character" not in spec:
            raise RuleError(f"A team member is {{'character': id, 'cliche': name, 'appropriate': bool}}; "
                            f"not {spec!r}.", key="error.room.member_mapping", spec=repr(spec))
        spec = ([spec["character"], spec["cliche"], spec.get("appropriate", True)] if "cliche" in spec
                else spec["character"])
    if isinstance(spec, str):
        return Member(spec)
    if isinstance(spec, (list, tuple)) and len(spec) in (2, 3) and isinstance(spec[1], str) \
            and isinstance(spec[0], str):
        appropriate = spec[2] if len(spec) == 3 else True
        if not isinstance(appropriate, bool):
            raise RuleError("A member's 'appropriate' is true or false.", key="error.room.member_appropriate")
        return Member(spec[0], spec[1], appropriate)
    raise RuleError(f"A team member is an id, [id, cliché, appropriate] or "
                    f"{{'character': id, 'cliche': name, 'appropriate': bool}}; not {spec!r}.",
                    key="error.room.member_spec", spec=repr(spec))
