"""Errors a user can cause.

Every mistake a person at the table can make -- a wrong rating, acting out of turn, choosing a cliché
at 0 -- raises :class:`RuleError` (or a subclass) *before* anything changes, with a message that says
what to do instead.

The message is English (``str(exc)``: notebooks, logs and tests read it). So that a Korean table reads
it in Korean, a refusal also carries a message ``key`` of the i18n catalogs and the ``fields`` the
message is made of; the UI shows ``raisus_panel.i18n.translate(exc, lang)``. Words of ours inside a
message (*which* name is empty, who may do something) are a :class:`Phrase`, translated the same way.

Examples
--------
>>> exc = RuleError("Viking is out of this contest.", key="error.contest.out", name="Viking")
>>> str(exc), exc.key, exc.fields
('Viking is out of this contest.', 'error.contest.out', {'name': 'Viking'})
"""

from __future__ import annotations

from typing import Any


class Phrase:
    """Our own words inside a refusal, translated with it: English ``text``, a catalog ``key``, ``fields``.

    A :class:`RuleError` field is usually a value someone gave (a name, a number) and is shown as is.
    When a field is our words instead -- "contest name" in "The contest name is empty" -- pass a
    Phrase: it formats as its English ``text``, so the English message is built as before, and the UI
    translates it by its own ``key`` and ``fields``.

    Examples
    --------
    >>> what = Phrase("contest name", "term.contest_name")
    >>> f"The {what} is empty."
    'The contest name is empty.'
    """

    __slots__ = ("text", "key", "fields")

    def __init__(self, text: str, key: str, **fields: Any) -> None:
        self.text = str(text)
        self.key = key
        self.fields = fields

    @classmethod
    def of(cls, exc: BaseException) -> "Phrase | str":
        """Another error's message as a field: a Phrase when it has a key, else its English text."""
        key = getattr(exc, "key", None)
        return cls(str(exc), key, **getattr(exc, "fields", {})) if key else str(exc)

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)

    def __repr__(self) -> str:
        return f"Phrase({self.text!r}, {self.key!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Phrase):
            return (self.text, self.key, self.fields) == (other.text, other.key, other.fields)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.text, self.key))


class RuleError(ValueError):
    """A request the rules (or our rulings) do not allow; nothing was changed.

    The message is meant for the person who asked: it says what is wrong and what to do instead.

    Parameters
    ----------
    message
        The English message, ``str(exc)``.
    key
        The message's key in the i18n catalogs (``"error.<area>.<what>"``), or None when there is
        no translation (the UI then shows the English message).
    **fields
        The values the message is made of, for the catalog text's ``{fields}``: plain values (names,
        numbers) or a :class:`Phrase` for words of ours.
    """

    def __init__(self, message: str = "", *, key: str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


class DiceError(RuleError):
    """A dice source cannot give the roll asked for (a scripted roll of the wrong size, or none left)."""


class SaveFileError(RuleError):
    """A saved game or contest that cannot be loaded: not JSON, not ours, or from an unknown version."""
