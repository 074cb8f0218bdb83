"""Dice sources.

Rules code never calls a global random number generator: it asks an injected dice source for a pool of
six-sided dice. :class:`SeededDice` is for play (give a seed to make a game repeatable);
:class:`ScriptedDice` hands out given faces for tests and tutorials and fails loudly when the pool size
asked for is not the next scripted roll -- so every scripted scenario also checks its pool sizes.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence

from .errors import DiceError, RuleError

#: The largest pool one roll may ask for. A grunt mob may be rated up to ``MAX_MOB_RATING`` and a
#: revenge bonus doubles a leader, so this leaves room for both while refusing absurd requests.
MAX_POOL = 2_500


def _check_pool(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuleError(f"A dice pool is a whole number of dice, not {n!r}.", key="error.dice.not_whole",
                        n=repr(n))
    if n < 1:
        raise RuleError(f"A roll needs at least one die; asked for {n}.", key="error.dice.too_few", n=n)
    if n > MAX_POOL:
        raise RuleError(f"A roll of {n} dice is more than the {MAX_POOL} this table allows.",
                        key="error.dice.too_many", n=n, most=MAX_POOL)
    return n


class DiceSource:
    """Something that rolls pools of six-sided dice. Subclasses implement :meth:`_faces`."""

    def roll(self, n: int) -> list[int]:
        """Roll ``n`` six-sided dice and return their faces (each 1..6), in the order rolled."""
        return self._faces(_check_pool(n))

    def _faces(self, n: int) -> list[int]:  # pragma: no cover - abstract
        raise NotImplementedError


class SeededDice(DiceSource):
    """Fair dice from a private :class:`random.Random`; the same seed gives the same rolls.

    Parameters
    ----------
    seed
        Any hashable seed. ``None`` seeds from the operating system (unrepeatable play).
    """

    def __init__(self, seed: int | str | None = None):
        self.seed = seed
        self._rng = random.Random(seed)

    def _faces(self, n: int) -> list[int]:
        return [self._rng.randint(1, 6) for _ in range(n)]

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed!r})"


class ScriptedDice(DiceSource):
    """Dice that hand out the given rolls, in order, and check every pool size.

    Parameters
    ----------
    rolls
        The scripted rolls, each a sequence of faces; its length is the pool size it must be asked for.

    Raises
    ------
    DiceError
        When a pool of another size is asked for, or when the script has run out. The failing roll is
        not consumed, so nothing is lost by the refusal.

    Examples
    --------
    >>> dice = ScriptedDice([[6, 5, 1, 1], [4, 4, 4]])
    >>> dice.roll(4)
    [6, 5, 1, 1]
    """

    def __init__(self, rolls: Iterable[Sequence[int]] = ()):
        self._rolls: deque[list[int]] = deque()
        self.extend(rolls)

    def extend(self, rolls: Iterable[Sequence[int]]) -> None:
        """Add more scripted rolls at the end."""
        for faces in rolls:
            faces = list(faces)
            if not faces or any(isinstance(f, bool) or f not in (1, 2, 3, 4, 5, 6) for f in faces):
                raise DiceError(f"A scripted roll must be a non-empty list of faces 1..6, not {faces!r}.",
                                key="error.dice.bad_script", faces=repr(faces))
            self._rolls.append(faces)

    @property
    def remaining(self) -> int:
        """How many scripted rolls are left."""
        return len(self._rolls)

    def _faces(self, n: int) -> list[int]:
        if not self._rolls:
            raise DiceError(f"The scripted dice have run out: asked for {n} dice with no roll left.",
                            key="error.dice.script_empty", n=n)
        nxt = self._rolls[0]
        if len(nxt) != n:
            raise DiceError(f"Asked for a pool of {n} dice, but the next scripted roll {nxt} has {len(nxt)}.",
                            key="error.dice.script_mismatch", n=n, roll=str(nxt), size=len(nxt))
        return list(self._rolls.popleft())

    def __repr__(self) -> str:
        return f"ScriptedDice({list(self._rolls)!r})"
