"""Players' names and ids: when two names are the same to the people reading them, and what an id is."""

from __future__ import annotations

import re
import unicodedata
import uuid

from raisus_panel.rules.validation import draws_nothing

#: A player id: 1-40 letters, digits, '-' or '_'.
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def new_player_id() -> str:
    """A fresh player id."""
    return uuid.uuid4().hex[:12]


#: Cyrillic and Greek letters drawn like Latin ones (after casefolding), read as those Latin letters.
#: A font draws Cyrillic "Аnn" exactly like "Ann": the table cannot tell them apart, so neither may
#: the room. A small hand-made table, not Unicode's full confusables list: it covers the letters of
#: these two scripts that pass for Latin in the fonts pages use, and leaves every other script alone.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "һ": "h",
    "ӏ": "l", "ԛ": "q", "ԝ": "w", "ү": "y", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j",
})


def name_key(name: str) -> str:
    """What makes two names the same to people reading them: case, width, spacing, invisible
    characters and Cyrillic or Greek letters that look Latin aside ("G\u200bM" is "GM", "Аnn" is "Ann")."""
    visible = "".join(ch for ch in unicodedata.normalize("NFKC", name) if not draws_nothing(ch))
    return " ".join(visible.casefold().translate(_LOOKALIKES).split())


def same_name(a: str, b: str) -> bool:
    """Whether people would read ``a`` and ``b`` as the same name ("서연" and " 서연", "Ann" and "ANN")."""
    return name_key(a) == name_key(b)
