"""Message catalogs: every string the UI shows, in Korean (``ko``) and English (``en``).

The catalogs are JSON files beside this module, one flat mapping of dotted keys to texts with
``str.format`` fields. :func:`t` looks a key up; the language is the ``lang`` argument, or else the
process-wide :data:`settings` ``.lang``, whose default comes from the ``RAISUS_LANG`` environment
variable ("ko" when unset). Components watch :data:`settings` and also have a ``lang`` parameter of
their own, so one browser tab can switch language without changing the others.

Examples
--------
>>> from raisus_panel.i18n import t
>>> t("contest.round", lang="en", n=3)
'Round 3'
>>> t("contest.round", lang="ko", n=3)
'3라운드'

A refusal (``RuleError``) carries its catalog key and fields; :func:`translate` shows it:

>>> from raisus_panel.rules import RuleError
>>> translate(RuleError("This contest has ended: start a new contest to roll again.",
...                     key="error.contest.ended"), lang="ko")
'이 대결은 끝났습니다. 다시 굴리려면 새 대결을 시작하세요.'
"""

from __future__ import annotations

import json
import os
import re
import string
import warnings
from functools import cache
from importlib import resources

import param

__all__ = ["LANGUAGES", "DEFAULT_LANG", "I18nSettings", "catalog", "fill", "josa", "keys", "settings", "t",
           "translate", "verification_text"]

#: The languages with a catalog, in the order a language picker shows them.
LANGUAGES = ("ko", "en")

#: The language used when neither ``RAISUS_LANG`` nor a caller says otherwise.
DEFAULT_LANG = "ko"


@cache
def catalog(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` as a mapping of key to text (cached; do not change it)."""
    if lang not in LANGUAGES:
        raise ValueError(f"No catalog for language {lang!r}; choose one of {', '.join(LANGUAGES)}.")
    text = resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    return json.loads(text)


def keys(lang: str = DEFAULT_LANG) -> set[str]:
    """Every key in the catalog of ``lang``."""
    return set(catalog(lang))


def _env_lang() -> str:
    lang = os.environ.get("RAISUS_LANG", "").strip().lower() or DEFAULT_LANG
    if lang not in LANGUAGES:
        warnings.warn(f"RAISUS_LANG={lang!r} has no catalog; using {DEFAULT_LANG!r}.", stacklevel=2)
        return DEFAULT_LANG
    return lang


class I18nSettings(param.Parameterized):
    """The process-wide language setting that components follow unless given their own ``lang``."""

    # plain words, no markup, in both languages (the switch is how a learner changes language, so it
    # cannot know which one they read): a notebook's switch (RadioButtonGroup.from_param) shows this
    # as its tooltip
    lang: param.Selector[str] = param.Selector(default=_env_lang(), objects=list(LANGUAGES), doc="""
        표, 카드, 거절 메시지의 언어: ko(한국어) 또는 en(영어). 언어를 따로 정하지 않은 구성 요소는 바로
        따라 바뀌고, 출력된 줄은 그 셀을 다시 실행하면 바뀝니다. 처음 값은 RAISUS_LANG 환경 변수, 없으면 ko.
        The language of the tables, cards and refusals: ko (Korean) or en (English). Every
        component without a language of its own follows it at once; a printed line follows when
        its cell is run again. It starts from the RAISUS_LANG environment variable, else ko.""")


#: The shared settings object; change ``settings.lang`` to switch every component at run time.
settings = I18nSettings(name="i18n_settings")


#: A Korean particle written for both endings, as the catalog writes it after a ``{field}``.
_PARTICLE = re.compile(r"([A-Za-z]+|[0-9]+|[^\s])([\"'”’」』)\]]*)"
                       r"(은\(는\)|이\(가\)|을\(를\)|과\(와\)|와\(과\)|\(으\)로|이\(여\)|아\(야\))")
#: particle -> (after a final consonant, after a vowel)
_FORMS = {"은(는)": ("은", "는"), "이(가)": ("이", "가"), "을(를)": ("을", "를"), "과(와)": ("과", "와"),
          "와(과)": ("과", "와"), "(으)로": ("으로", "로"), "이(여)": ("이여", "여"), "아(야)": ("아", "야")}


def josa(text: str) -> str:
    """Korean particles chosen by the syllable before them: "점수은(는)" -> "점수는", "검은(는)" -> "검은".

    The catalogs write a particle after a ``{field}`` in both forms, since the value is not known
    until the message is made. After a Hangul syllable the right form is chosen (a final consonant
    or not; ``(으)로`` takes 로 after ㄹ too); closing quotes and brackets in between are skipped.
    After a number or a Latin name, by how a Korean reader says it (:func:`_final_sound`); where
    that cannot be told (Jack 잭, Mark 마크), both forms stay, as they are never wrong.

    Examples
    --------
    >>> josa("점수은(는) 0입니다. 바이킹을(를) 고르세요. 칼(으)로 벤다.")
    '점수는 0입니다. 바이킹을 고르세요. 칼로 벤다.'
    >>> josa("Ogre이(가) 이겼다. Sir Ann은(는) 3(으)로 진다. Jack이(가)")
    'Ogre가 이겼다. Sir Ann은 3으로 진다. Jack이(가)'
    """
    def choose(match: re.Match) -> str:
        word, closing, particle = match.groups()
        final = _final_sound(word)
        if final is None:
            return match.group(0)
        after_consonant = final != "" and not (particle == "(으)로" and final == "ㄹ")
        return word + closing + _FORMS[particle][0 if after_consonant else 1]
    return _PARTICLE.sub(choose, text)


#: How the last digit of a number is read (Sino-Korean): its final consonant, "" for none. A number
#: ending in 0 is read 십, 백, 천, 만... or 영: a final consonant that is never ㄹ.
_DIGIT_FINALS = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ", "8": "ㄹ",
                 "9": ""}


def _final_sound(word: str) -> str | None:
    """The final consonant ("ㄹ", another, or "" for none) a Korean reader hears at the end of
    ``word`` -- a Hangul syllable, a number, or a Latin word -- or None when it cannot be told.

    A Latin word (a name like "Ogre" or "Sir Ann") is judged as Korean writes such names: a final
    l is ㄹ (Paul 폴), m, n and ng are final consonants (Tom 톰, Ann 앤, Viking 바이킹), a vowel
    or r ends in a vowel (Ogre 오거, Thor 토르); a silent e after a consonant is skipped (Jane
    제인). Other final consonants are read either way (Jack 잭 but Mark 마크): None.
    """
    if len(word) == 1 and 0 <= (code := ord(word) - 0xAC00) < 11172:
        final = code % 28
        return "" if final == 0 else "ㄹ" if final == 8 else "other"
    if word.isdigit():
        return _DIGIT_FINALS[word[-1]]
    if not word.isascii() or not word.isalpha():
        return None
    low = word.lower()
    if len(low) > 2 and low.endswith("e") and low[-2] not in "aeiouy":
        low = low[:-1]  # a silent e: Jane, Dale, Rome
    if low.endswith("l"):
        return "ㄹ"
    if low.endswith(("m", "n", "ng")):
        return "other"
    if low[-1] in "aeiouyrw":
        return ""
    return None


class _CatalogFormatter(string.Formatter):
    """``str.format`` with one addition: a count's plural forms, written ``{n:# die|# dice}``.

    A format spec holding ``|`` is "singular|plural": the singular when the value is 1, else the
    plural, with ``#`` replaced by the value. English needs it ("1 die", "3 dice"); Korean does not
    inflect nouns for number, so its catalog writes the plain ``{n}``.
    """

    def format_field(self, value, format_spec: str) -> str:
        if "|" in format_spec:
            one, other = format_spec.split("|", 1)
            return (one if value == 1 else other).replace("#", str(value))
        return super().format_field(value, format_spec)


_FORMATTER = _CatalogFormatter()


def fill(template: str, /, **fields) -> str:
    """A catalog text with its ``{fields}`` filled in, plural forms chosen (see :func:`t`).

    Examples
    --------
    >>> fill("Rolls {n:# die|# dice}", n=1), fill("Rolls {n:# die|# dice}", n=3)
    ('Rolls 1 die', 'Rolls 3 dice')
    """
    return _FORMATTER.format(template, **fields)


def t(key: str, lang: str | None = None, **fmt) -> str:
    """The text for ``key`` in ``lang`` (default :data:`settings` ``.lang``), formatted with ``fmt``.

    A key missing from the chosen catalog falls back to the other catalogs and finally to the key
    itself, so a missing translation shows up as text instead of breaking a page (a test checks
    that both catalogs have the same keys).

    Parameters
    ----------
    key
        A dotted catalog key, e.g. ``"contest.roll"``.
    lang
        "ko" or "en"; ``None`` follows :data:`settings`.
    **fmt
        Values for the text's ``{fields}``. They are inserted as given: escape them (or the result)
        before putting the text into HTML. A count written ``{n:# die|# dice}`` in a catalog takes
        the first form for 1 and the second otherwise (``#`` is the number): see :func:`fill`.
    """
    lang = lang or settings.lang
    text = catalog(lang).get(key)
    if text is None:
        text = next((catalog(o)[key] for o in LANGUAGES if key in catalog(o)), key)
    if fmt:
        try:
            text = fill(text, **fmt)
        except (KeyError, IndexError, ValueError):
            return text
    return josa(text) if lang == "ko" else text


def translate(message, lang: str | None = None) -> str:
    """A refusal (a ``RuleError``) or a ``Phrase`` in ``lang``, else ``str(message)``.

    Anything with a catalog ``key`` and a ``fields`` mapping is looked up with :func:`t`; fields that
    carry a key themselves (a ``Phrase``, a nested refusal) are translated first. Without a key, or
    with a key no catalog has (or fields the text does not fit), the English ``str(message)`` is
    returned, so every error can be shown.
    The result is not escaped: escape it before putting it into HTML or Markdown.
    """
    key = getattr(message, "key", None)
    fields = getattr(message, "fields", None)
    if not isinstance(key, str) or not isinstance(fields, dict) or \
            not any(key in catalog(lang_) for lang_ in LANGUAGES):
        return str(message)
    values = {name: translate(value, lang) if isinstance(getattr(value, "key", None), str) else value
              for name, value in fields.items()}
    try:
        text = fill(t(key, lang), **values)
    except (KeyError, IndexError, ValueError, AttributeError):  # a catalog out of step with the code
        return str(message)
    return josa(text) if (lang or settings.lang) == "ko" else text


def verification_text(check, lang: str | None = None) -> str:
    """One line for a :class:`raisus_panel.rules.verification.DiceCheck` in ``lang``: what was checked, and how it went.

    Examples
    --------
    >>> from raisus_panel.rules.verification import DiceCheck
    >>> verification_text(DiceCheck("contest", "c1", "Duel", "verified", 3, 9), "en")
    'Duel: verified (3 rolls, 9 dice)'
    """
    problem = t(check.problem.key, lang, **check.problem.fields) if check.problem else ""
    if check.kind == "contest":
        label = check.name or check.scope
    else:
        label = t("verify.label.gm_checks" if check.private else "verify.label.checks", lang, scope=check.scope)
    return f"{label}: " + t(check.key, lang, **{**check.fields, "problem": problem})
