"""The cliché: a character's one-line job description and the dice it rolls."""

from __future__ import annotations

from typing import Any, cast

import param

from .errors import Phrase, RuleError
from .validation import MAX_RATING, clean_name, whole_number


class Cliche(param.Parameterized):
    """One cliché of a character, such as "Viking (4)".

    ``rating`` is the number of dice the cliché is worth when fresh; ``current`` is how many it rolls
    now, after losses in contests. Recovery brings ``current`` back up, never above ``rating``.
    Tickets hand out ``temporary`` clichés that vanish when their contest ends, and the "brevet" ticket
    option gives ``extra`` temporary dice that absorb damage first.

    Examples
    --------
    >>> Cliche("Viking", 4).label
    'Viking (4)'
    """

    name = param.String(default="", constant=False, doc="""
        What the cliché is called, e.g. "Viking" or "해적". Unique within one character.""")

    rating = param.Integer(default=1, bounds=(0, None), doc="""
        The cliché's full score: how many six-sided dice it is worth when fresh.""")

    current = param.Integer(default=1, bounds=(0, None), doc="""
        How many dice the cliché rolls now. Contest losses lower it; recovery raises it back,
        never above ``rating``. A cliché at 0 cannot be used.""")

    temporary = param.Boolean(default=False, doc="""
        True for a ticket's temporary cliché: it exists only for one contest.""")

    extra = param.Integer(default=0, bounds=(0, None), doc="""
        Temporary extra dice for one contest (the "brevet" ticket option). They are rolled with the
        cliché and absorb damage before ``current`` does.""")

    double_pump = param.Boolean(default=False, doc="""
        A double-pump cliché (written in brackets, ``[Wizard] (3)``): each point pumped adds two dice,
        and under a creation budget each die of it costs two creation dice (RULES.md section 11).""")

    def __init__(self, name: str = "", rating: int = 1, current: int | None = None, *,
                 max_rating: int = MAX_RATING, **params: Any) -> None:
        name = clean_name(name, Phrase("cliché name", "term.cliche_name"))
        rating = whole_number(rating, Phrase(f"rating of {name}", "term.rating_of", name=name),
                              low=0, high=max_rating)
        current = rating if current is None else whole_number(
            current, Phrase(f"current score of {name}", "term.current_of", name=name), low=0, high=rating)
        super().__init__(name=name, rating=rating, current=current, **params)  # type: ignore[no-untyped-call]  # Parameterized.__init__ takes **params untyped

    @property
    def pool(self) -> int:
        """Dice rolled when this cliché is used: ``current`` plus any ``extra`` dice."""
        return self.current + self.extra

    @property
    def label(self) -> str:
        """``"Name (current)"``, or ``"Name (current/rating)"`` after losses."""
        score = str(self.current) if self.current == self.rating else f"{self.current}/{self.rating}"
        if self.extra:
            score += f"+{self.extra}"
        return f"[{self.name}] ({score})" if self.double_pump else f"{self.name} ({score})"

    @property
    def dice_per_pump(self) -> int:
        """The dice one point of pump adds: 2 for a double-pump cliché, else 1."""
        return 2 if self.double_pump else 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description of this cliché."""
        data = {"name": self.name, "rating": self.rating, "current": self.current}
        if self.temporary:
            data["temporary"] = True
        if self.extra:
            data["extra"] = self.extra
        if self.double_pump:
            data["double_pump"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, max_rating: int = MAX_RATING) -> "Cliche":
        """Build a cliché from :meth:`to_dict` output, checking every field."""
        if not isinstance(data, dict):
            raise RuleError(f"A cliché must be described by a mapping, not {type(data).__name__}.",
                            key="error.cliche.not_mapping", type=type(data).__name__)
        unknown = set(data) - {"name", "rating", "current", "temporary", "extra", "double_pump"}
        if unknown:
            raise RuleError(f"Unknown cliché fields: {', '.join(sorted(unknown))}.",
                            key="error.cliche.unknown_fields", names=", ".join(sorted(unknown)))
        extra = whole_number(data.get("extra", 0), Phrase("extra dice", "term.extra_dice"), low=0, high=max_rating)
        # as given: __init__ checks the name and the numbers (clean_name, whole_number)
        return cls(cast(str, data.get("name")), cast(int, data.get("rating")), data.get("current"),
                   max_rating=max_rating, temporary=bool(data.get("temporary", False)), extra=extra,
                   double_pump=bool(data.get("double_pump", False)))

    def __repr__(self) -> str:
        return f"Cliche({self.name!r}, {self.rating}, current={self.current})"
