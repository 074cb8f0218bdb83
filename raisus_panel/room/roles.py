"""Who is at the table: the three roles, the actor behind a command, and the refusal they may meet."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from raisus_panel.rules import RuleError


class Role(str, enum.Enum):
    """The part a person plays in a room.

    ``GM`` runs the game and may do everything; a ``PLAYER`` acts for the characters they own; a
    ``SPECTATOR`` watches and cannot act.
    """

    GM = "gm"
    PLAYER = "player"
    SPECTATOR = "spectator"

    def __str__(self) -> str:
        return self.value


class PermissionDenied(RuleError):
    """The actor's role does not allow this command (nothing was changed).

    The message says who may do it instead, e.g. "Only the GM can approve ...".
    """


@dataclass(frozen=True)
class Actor:
    """The person behind a command: a role, a player id for players, and a display name.

    Parameters
    ----------
    role
        A :class:`Role` (a plain ``"gm"``/``"player"``/``"spectator"`` string is accepted).
    player_id
        The player's id in the room; empty for the GM and for spectators.
    name
        What to call the person (shown in the UI, never used for permissions).

    Examples
    --------
    >>> Actor.player("p1", "Ann").role
    <Role.PLAYER: 'player'>
    """

    role: Role
    player_id: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "role", Role(self.role))
        except ValueError:
            raise RuleError(f"Unknown role {self.role!r}: expected gm, player or spectator.",
                            key="error.actor.unknown_role", role=repr(self.role)) from None
        if not isinstance(self.player_id, str) or not isinstance(self.name, str):
            raise RuleError("An actor's player id and name are text.", key="error.actor.not_text")

    @classmethod
    def gm(cls, name: str = "GM") -> "Actor":
        """The game master."""
        return cls(Role.GM, "", name)

    @classmethod
    def player(cls, player_id: str, name: str = "") -> "Actor":
        """A player; ``player_id`` is empty only before joining."""
        return cls(Role.PLAYER, player_id, name)

    @classmethod
    def spectator(cls, name: str = "") -> "Actor":
        """Someone who watches."""
        return cls(Role.SPECTATOR, "", name)

    @property
    def is_gm(self) -> bool:
        """Whether this actor is the GM."""
        return self.role is Role.GM

    def to_dict(self) -> dict[str, Any]:
        """The actor as recorded in an event: role and player id (names live in the player list)."""
        return {"role": self.role.value, "player_id": self.player_id}

    @property
    def key(self) -> tuple[str, str]:
        """(role, player id): who this is, for comparing actors regardless of display name."""
        return (self.role.value, self.player_id)
