"""Recovery: after a contest the GM restores spent dice, never above a cliché's rating."""

from __future__ import annotations

from typing import Any

from .character import Character
from .errors import RuleError


def recovery_gains(char: Character, cliche: str | None = None, amount: int | None = None) -> list[dict[str, Any]]:
    """What recovering ``char`` restores: ``[{"character", "cliche", "amount"}]``, one per cliché that gains.

    Parameters
    ----------
    char
        The character who recovers.
    cliche
        The cliché to restore, or None for every cliché of the character.
    amount
        How many dice each cliché gets back (capped at its rating), or None for all.

    Raises
    ------
    RuleError
        If ``amount`` is not a whole number of at least 1, the cliché is unknown, or nothing is spent.
    """
    if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int) or amount < 1):
        raise RuleError(f"Recover a whole number of dice (1 or more), or leave the amount out for all; "
                        f"not {amount!r}.", key="error.recovery.amount", amount=repr(amount))
    targets = [char.cliche(cliche)] if cliche is not None else list(char.cliches)
    gains = []
    for c in targets:
        gain = c.rating - c.current if amount is None else min(amount, c.rating - c.current)
        if gain > 0:
            gains.append({"character": char.uid, "cliche": c.name, "amount": gain})
    if not gains:
        raise RuleError(f"{char.name} has nothing to recover: every cliché is at its rating.",
                        key="error.recovery.nothing", name=char.name)
    return gains
