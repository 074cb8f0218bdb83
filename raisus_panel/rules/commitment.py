"""Commit, then reveal: how a committed die's face is derived, so anyone can recompute it.

The server draws a secret 256-bit *seed* and publishes only its *commitment*, the SHA-256 of the seed,
before any die is rolled. Each die face is then a keyed hash of a public counter: HMAC-SHA256 with the
seed as the key, over a canonical message naming the scope (a contest's uid, or a room's checks
session), the roll number, the die number within the roll, and a digest of the players' client seeds.
When the seed is revealed, anyone can check that it matches the commitment and recompute every face.

The server cannot pick a face: the commitment binds it to one seed before it knows how the game goes,
and the client seeds, fixed by the players after the commitment and before the first roll, change
every face in a way the seed's owner could not plan for.

A face comes from the digest's bytes by rejection sampling: a byte ``b < 252`` gives ``1 + b % 6``
(252 = 6 x 42, so each face has exactly 42 of the 252 accepted bytes); bytes 252..255 are skipped.
In the very unlikely case that all 32 bytes of a digest are skipped, the next block (the same message
with the block number one higher) is used, and so on: deterministic and unbiased.

This module is pure (standard library only) and holds no state; :class:`~.dice.CommittedDice` is the
dice source that uses it, and :mod:`.verification` the checker.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

#: The name of this derivation, written into every commitment event (a verifier refuses others).
SCHEME = "raisus-hmac-sha256-v1"
#: Bytes of a seed: 256 bits.
SEED_BYTES = 32
#: Bytes below this are accepted; it is the largest multiple of 6 not above 256.
ACCEPT_BELOW = 252


def commitment_of(seed: bytes) -> str:
    """The public commitment to ``seed``: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def client_mix(client_seeds: Mapping[str, str]) -> str:
    """One digest of the players' client seeds, independent of the order they were given in."""
    canonical = json.dumps(sorted((str(k), str(v)) for k, v in client_seeds.items()),
                           ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def die_message(scope: str, roll: int, die: int, mix: str, block: int = 0) -> bytes:
    """The canonical message HMAC'd for die ``die`` (1-based) of roll ``roll`` in ``scope``."""
    return json.dumps([SCHEME, scope, roll, die, mix, block], ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")


def face_of_byte(byte: int) -> int | None:
    """The face one byte gives, or None for a byte that is skipped (252..255)."""
    return 1 + byte % 6 if byte < ACCEPT_BELOW else None


def face_from_blocks(blocks: Iterable[bytes]) -> int:
    """The first accepted byte's face, reading the blocks in order (rejection sampling)."""
    for block in blocks:
        for byte in block:
            face = face_of_byte(byte)
            if face is not None:
                return face
    raise ValueError("the blocks ran out before a byte was accepted")


def die_face(seed: bytes, scope: str, roll: int, die: int, mix: str) -> int:
    """The face of one committed die."""
    def blocks() -> Iterator[bytes]:
        block = 0
        while True:
            yield hmac.new(seed, die_message(scope, roll, die, mix, block), hashlib.sha256).digest()
            block += 1
    return face_from_blocks(blocks())


def roll_faces(seed: bytes, scope: str, roll: int, n: int, client_seeds: Mapping[str, str]) -> list[int]:
    """The faces of roll number ``roll`` of ``n`` dice (dice numbered 1..n)."""
    mix = client_mix(client_seeds)
    return [die_face(seed, scope, roll, die, mix) for die in range(1, n + 1)]


def rolls_of(event: Mapping[str, Any]) -> list[list[int]]:
    """The rolls a ``round_decided`` event holds, in the order the contest drew them.

    Each attempt: side A's pool, then its helpers' pools (with the "members roll, sixes count"
    option), then side B's likewise; then the roll-off, each die of each of its rounds in turn.
    """
    rolls: list[list[int]] = []
    for attempt in event.get("attempts") or ():
        for roll in attempt:
            rolls.append(list(roll["faces"]))
            rolls.extend(list(f) for f in roll.get("helper_faces") or ())
    rolloff = event.get("rolloff")
    if rolloff:
        for faces in rolloff["rolls"]:
            rolls.extend([face] for face in faces.values())
    return rolls


def next_roll_after(events: Iterable[Mapping[str, Any]]) -> int:
    """The first roll number no committed roll among ``events`` (contest events) has used; 1 if none."""
    after = 1
    for event in events:
        if event.get("type") == "round_decided" and event.get("draw") is not None:
            after = max(after, int(event["draw"]) + len(rolls_of(event)))
        elif event.get("type") == "dice_committed":
            after = max(after, int(event["first_roll"]))
        elif event.get("type") == "dice_revealed":
            after = max(after, int(event["next_roll"]))
    return after
