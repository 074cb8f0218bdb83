"""Dice sources.

Rules code never calls a global random number generator: it asks an injected dice source for a pool of
six-sided dice. :class:`SeededDice` is for play (give a seed to make a game repeatable);
:class:`ScriptedDice` hands out given faces for tests and tutorials and fails loudly when the pool size
asked for is not the next scripted roll -- so every scripted scenario also checks its pool sizes.
:class:`CommittedDice` are dice anyone can check afterwards: a secret seed committed to before the first
roll, every face derived from it and a public counter, the seed revealed at the end (``commitment.py``).
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Iterable, Mapping, Sequence

from .commitment import SCHEME, SEED_BYTES, commitment_of, roll_faces
from .errors import DiceError, Phrase, RuleError
from .validation import clean_name

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

    #: The number the next roll will have, for sources that count their rolls (``CommittedDice``).
    next_roll: int | None = None

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

    def __init__(self, seed: int | str | None = None) -> None:
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

    def __init__(self, rolls: Iterable[Sequence[int]] = ()) -> None:
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
            raise DiceError(f"The scripted dice have run out: asked for {n} {'die' if n == 1 else 'dice'} with no roll left.",
                            key="error.dice.script_empty", n=n)
        nxt = self._rolls[0]
        if len(nxt) != n:
            dice = "die" if n == 1 else "dice"
            raise DiceError(f"Asked for a pool of {n} {dice}, but the next scripted roll {nxt} has {len(nxt)}.",
                            key="error.dice.script_mismatch", n=n, roll=str(nxt), size=len(nxt))
        return list(self._rolls.popleft())

    def __repr__(self) -> str:
        return f"ScriptedDice({list(self._rolls)!r})"


_CLIENT_SEED = Phrase("client seed", "term.client_seed")
_SEED_OWNER = Phrase("client seed's owner", "term.client_seed_owner")


def seeds_fixed() -> RuleError:
    """The refusal of a client seed once the first die of the commitment has been rolled."""
    return RuleError("The dice have been rolled: client seeds are fixed before the first roll of a "
                     "commitment. Set yours before the next contest's first roll.", key="error.dice.seeds_fixed")


def clean_client_seed(who: object, seed: object) -> tuple[str, str]:
    """``(who, seed)`` checked: each one line of text, as a name is (at most 80 characters)."""
    return clean_name(who, _SEED_OWNER), clean_name(seed, _CLIENT_SEED)


def new_client_seed() -> str:
    """A random client seed (a player may replace it with words of their own)."""
    return secrets.token_hex(8)


class CommittedDice(DiceSource):
    """Dice anyone can verify: a secret seed, committed to before the first roll, revealed at the end.

    Each roll is numbered; die ``d`` of roll ``r`` is HMAC-SHA256 of the seed over ``(scope, r, d)``
    and the players' client seeds, mapped to 1-6 without bias (:mod:`.commitment`). Publish
    :attr:`commitment` before rolling, let the players set their client seeds, roll, then publish
    :meth:`reveal`: :func:`~.verification.verify` recomputes every face. A :class:`~.contest.Contest` with
    committed dice writes the commitment, the client seeds and the reveal into its own log.

    The counter only moves on: a roll that was taken back (undo) keeps its number, and the next roll
    gets the next one, so a roll is never drawn again differently.

    Parameters
    ----------
    seed
        The secret seed, 32 bytes; a fresh one from :func:`secrets.token_bytes` when omitted.
    scope
        What the counter belongs to (a contest binds it to its uid when it is None).
    client_seeds
        The players' client seeds so far: who -> text.
    first_roll
        The number of the first roll under this seed (a renewed seed goes on counting).

    Examples
    --------
    >>> dice = CommittedDice(bytes(32), scope="demo")
    >>> dice.commitment[:16]
    '66687aadf862bd77'
    >>> dice.roll(3), dice.roll(1)
    ([1, 4, 5], [6])
    """

    next_roll: int  # these dice always count their rolls

    scheme = SCHEME

    def __init__(self, seed: bytes | None = None, *, scope: str | None = None,
                 client_seeds: Mapping[str, str] | None = None, first_roll: int = 1) -> None:
        seed = secrets.token_bytes(SEED_BYTES) if seed is None else seed
        if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
            raise DiceError(f"A committed seed is {SEED_BYTES} bytes.", key="error.dice.bad_seed", n=SEED_BYTES)
        self._seed = bytes(seed)
        self.scope = scope
        self._client_seeds = dict(client_seeds or {})
        self.first_roll = int(first_roll)
        self.next_roll = self.first_roll
        self.revealed = False

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, in hex: what is published before the first roll."""
        return commitment_of(self._seed)

    @property
    def client_seeds(self) -> dict[str, str]:
        """The client seeds mixed into every face (a copy)."""
        return dict(self._client_seeds)

    @property
    def rolled(self) -> bool:
        """Whether a roll has been drawn under this seed (then the client seeds are fixed)."""
        return self.next_roll > self.first_roll

    def set_client_seed(self, who: str, seed: str) -> None:
        """Set ``who``'s client seed; refused (``error.dice.seeds_fixed``) once a die has been rolled."""
        who, seed = clean_client_seed(who, seed)
        if self.rolled:
            raise seeds_fixed()
        self._client_seeds[who] = seed

    def use_client_seeds(self, client_seeds: Mapping[str, str]) -> None:
        """Take these client seeds (as a contest's log has them); refused once a die has been rolled."""
        client_seeds = dict(client_seeds)
        if client_seeds != self._client_seeds:
            if self.rolled:
                raise seeds_fixed()
            self._client_seeds = client_seeds

    def secret(self) -> str:
        """The seed, in hex, for the server to keep beside the log (never in it) until it is revealed.

        A room keeps it with its store's metadata, so that after a restart it rolls on under the same
        commitment. Whoever reads it can predict the dice: never show it to a player.
        """
        return self._seed.hex()

    def reveal(self) -> str:
        """The seed, in hex, for the log; these dice roll no more afterwards (anyone could predict them)."""
        self.revealed = True
        return self._seed.hex()

    def renewed(self, *, scope: str | None = None, client_seeds: Mapping[str, str] | None = None,
                first_roll: int | None = None) -> "CommittedDice":
        """Fresh dice with a new secret seed that go on counting (after a reveal, or a seed that was lost)."""
        return CommittedDice(scope=self.scope if scope is None else scope,
                             client_seeds=self._client_seeds if client_seeds is None else client_seeds,
                             first_roll=max(self.next_roll, first_roll or 1))

    def _faces(self, n: int) -> list[int]:
        if self.revealed:
            raise DiceError("These dice' seed has been revealed: anyone could predict them. Renew them first.",
                            key="error.dice.revealed")
        faces = roll_faces(self._seed, self.scope or "", self.next_roll, n, self._client_seeds)
        self.next_roll += 1
        return faces

    def __repr__(self) -> str:  # never the seed
        return f"CommittedDice(commitment={self.commitment[:12]}..., scope={self.scope!r}, next_roll={self.next_roll})"
