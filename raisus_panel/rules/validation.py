"""Checks for what people type: names, ratings, free text.

Each check returns the cleaned value or raises :class:`~raisus_panel.rules.errors.RuleError` with a
message that says what to type instead. Names keep any script (Korean names are names); they are
stripped of surrounding white space and control characters are refused. Escaping for display is the
UI's job, not ours: we keep what was typed.
"""

from __future__ import annotations

import unicodedata

from .errors import Phrase, RuleError

#: Highest rating of a cliché a character may have. Risus characters start with 10 dice in all;
#: 100 leaves room for house rules and superhuman NPCs while refusing typos such as 4000.
MAX_RATING = 100
#: Highest rating of a grunt mob's cliché ("700 Skeletal Rats (7)" is typical; armies go higher).
MAX_MOB_RATING = 1000
#: Longest name (of a character, cliché, team or contest), in characters.
MAX_NAME_LENGTH = 80
#: Longest free text (a description, a fate, an outcome), in characters.
MAX_TEXT_LENGTH = 2000


#: What :func:`clean_name` and :func:`clean_text` call their value when the caller does not say.
NAME = Phrase("name", "term.name")
TEXT = Phrase("text", "term.text")


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" and ch not in "\n\t" for ch in text)


#: Letters that draw nothing: a name made of them (or padded with them) looks empty or like another.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


#: Marks that draw nothing (Unicode's default-ignorable marks): the combining grapheme joiner, Khmer's
#: inherent vowels, and the variation selectors, which only pick the look of the character before them.
_IGNORABLE_MARKS = frozenset("\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")
_MONGOLIAN_SELECTORS = frozenset("\u180b\u180c\u180d\u180f")


def _is_variation_selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def draws_nothing(ch: str) -> bool:
    """Whether the character ``ch`` shows nothing by itself (what :func:`has_invisible` looks for,
    without the exceptions it makes for what comes before): names compare without them."""
    return (unicodedata.category(ch) in ("Cf", "Co", "Cs") or ch in _BLANK_LETTERS or ch in _IGNORABLE_MARKS
            or _is_variation_selector(ch))


def _selects_a_look(before: str, ch: str) -> bool:
    """Whether the selector ``ch`` picks the look of ``before``, which then draws differently: an
    emoji's (U+2694 U+FE0F is the coloured ⚔️) or another symbol's, a Mongolian letter's variant, a
    Han character's variant (an ideographic variation sequence)."""
    if ch in _MONGOLIAN_SELECTORS:
        return "\u1820" <= before <= "\u18aa"
    if not _is_variation_selector(ch):
        return False
    return unicodedata.category(before) in ("So", "Sm", "Sk", "No") or "CJK UNIFIED IDEOGRAPH" in unicodedata.name(
        before, "") or "CJK COMPATIBILITY IDEOGRAPH" in unicodedata.name(before, "")


def has_invisible(text: str) -> bool:
    """Whether ``text`` holds a character that shows nothing or reorders the text around it.

    Format characters (zero-width spaces and joiners, U+202E and the other bidirectional overrides,
    the byte-order mark) let "G\u200bM" look like "GM" or flip a name on screen; no name needs one.
    Marks that draw nothing do the same ("Ann\u034f"), save a variation selector right after a
    symbol or letter whose look it picks: an emoji from a phone's keyboard is part of a name.
    """
    return any(draws_nothing(ch) and not (i and _selects_a_look(text[i - 1], ch)) for i, ch in enumerate(text))


def _breaks_line(text: str) -> bool:
    """A line or paragraph separator (U+2028, U+2029) starts a new line as surely as a newline."""
    return any(unicodedata.category(ch) in ("Zl", "Zp") for ch in text)


def clean_name(value: object, what: str | Phrase = NAME) -> str:
    """Return ``value`` as a trimmed one-line name, or raise RuleError.

    ``what`` names the field in the message, best as a :class:`~.errors.Phrase` (``"contest name"``)
    so that the message can be translated whole.
    """
    if not isinstance(value, str):
        raise RuleError(f"The {what} must be text, not {type(value).__name__}.", key="error.input.not_text",
                        what=what, type=type(value).__name__)
    name = value.strip()
    if not name:
        raise RuleError(f"The {what} is empty: type a {what}.", key="error.input.empty_name", what=what)
    if len(name) > MAX_NAME_LENGTH:
        raise RuleError(f"The {what} is {len(name)} characters long; keep it to {MAX_NAME_LENGTH} or fewer.",
                        key="error.input.too_long", what=what, length=len(name), most=MAX_NAME_LENGTH)
    if _has_control(name) or "\n" in name or "\t" in name or _breaks_line(name):
        raise RuleError(f"The {what} must be one line of text without control characters.",
                        key="error.input.one_line", what=what)
    if has_invisible(name):
        raise RuleError(f"The {what} contains invisible or text-direction characters; type it with visible "
                        "letters only.", key="error.input.invisible", what=what)
    return name


def clean_text(value: object, what: str | Phrase = TEXT, *, required: bool = False) -> str:
    """Return ``value`` as trimmed free text (several lines allowed), or raise RuleError."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RuleError(f"The {what} must be text, not {type(value).__name__}.", key="error.input.not_text",
                        what=what, type=type(value).__name__)
    text = value.strip()
    if required and not text:
        raise RuleError(f"The {what} is empty: write a few words.", key="error.input.empty_text", what=what)
    if len(text) > MAX_TEXT_LENGTH:
        raise RuleError(f"The {what} is {len(text)} characters long; keep it to {MAX_TEXT_LENGTH} or fewer.",
                        key="error.input.too_long", what=what, length=len(text), most=MAX_TEXT_LENGTH)
    if _has_control(text):
        raise RuleError(f"The {what} contains control characters; remove them.", key="error.input.control",
                        what=what)
    return text


def whole_number(value: object, what: str | Phrase, *, low: int, high: int) -> int:
    """Return ``value`` if it is a whole number in ``[low, high]``, or raise RuleError."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise RuleError(f"The {what} must be a whole number, not {value!r}.", key="error.input.not_whole",
                            what=what, value=repr(value))
    if value < low:
        raise RuleError(f"The {what} must be at least {low}; got {value}.", key="error.input.too_low",
                        what=what, low=low, value=value)
    if value > high:
        raise RuleError(f"The {what} must be at most {high}; got {value}.", key="error.input.too_high",
                        what=what, high=high, value=value)
    return value
