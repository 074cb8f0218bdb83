"""Checks for what people type: names, ratings, free text.

Each check returns the cleaned value or raises :class:`~raisus_panel.rules.errors.RuleError` with a
message that says what to type instead. Names keep any script (Korean names are names); they are
stripped of surrounding white space and control characters are refused. Escaping for display is the
UI's job, not ours: we keep what was typed.
"""

from __future__ import annotations

import unicodedata

from .errors import RuleError

#: Highest rating of a cliché a character may have. Risus characters start with 10 dice in all;
#: 100 leaves room for house rules and superhuman NPCs while refusing typos such as 4000.
MAX_RATING = 100
#: Highest rating of a grunt mob's cliché ("700 Skeletal Rats (7)" is typical; armies go higher).
MAX_MOB_RATING = 1000
#: Longest name (of a character, cliché, team or contest), in characters.
MAX_NAME_LENGTH = 80
#: Longest free text (a description, a fate, an outcome), in characters.
MAX_TEXT_LENGTH = 2000


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" and ch not in "\n\t" for ch in text)


def clean_name(value, what: str = "name") -> str:
    """Return ``value`` as a trimmed one-line name, or raise RuleError."""
    if not isinstance(value, str):
        raise RuleError(f"A {what} must be text, not {type(value).__name__}.")
    name = value.strip()
    if not name:
        raise RuleError(f"The {what} is empty: type a {what}.")
    if len(name) > MAX_NAME_LENGTH:
        raise RuleError(
            f"The {what} is {len(name)} characters long; keep it to {MAX_NAME_LENGTH} or fewer."
        )
    if _has_control(name) or "\n" in name or "\t" in name:
        raise RuleError(f"The {what} must be one line of text without control characters.")
    return name


def clean_text(value, what: str = "text", *, required: bool = False) -> str:
    """Return ``value`` as trimmed free text (several lines allowed), or raise RuleError."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RuleError(f"The {what} must be text, not {type(value).__name__}.")
    text = value.strip()
    if required and not text:
        raise RuleError(f"The {what} is empty: write a few words.")
    if len(text) > MAX_TEXT_LENGTH:
        raise RuleError(f"The {what} is {len(text)} characters long; keep it to {MAX_TEXT_LENGTH}.")
    if _has_control(text):
        raise RuleError(f"The {what} contains control characters; remove them.")
    return text


def whole_number(value, what: str, *, low: int, high: int) -> int:
    """Return ``value`` if it is a whole number in ``[low, high]``, or raise RuleError."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise RuleError(f"The {what} must be a whole number, not {value!r}.")
    if value < low:
        raise RuleError(f"The {what} must be at least {low}; got {value}.")
    if value > high:
        raise RuleError(f"The {what} must be at most {high}; got {value}.")
    return value
