"""The odds advisor on a unit's card: each choice its unit may make now, with its two exact chances.

:func:`advice_html` draws a :class:`~raisus_panel.rules.Advice` (``rules.advise``, shared by every
page of a room through ``room.room_advice``) as a short list: one line per choice -- its words, then
"62.5% as is · 70.1% with best play" -- the best choice and the one that stands now marked in words
(not by colour alone), and a note saying what the two numbers assume, the other side included.
A refusal the person can act on (the other side has not chosen yet; several units a side) is said
in one line instead; any other means there is nothing to advise, and nothing is drawn.
"""

from __future__ import annotations

from typing import Callable

from raisus_panel.i18n import translate
from raisus_panel.rules import Advice, RuleError
from raisus_panel.rules.advisor import exchanges_refusal

from ._base import esc, percent

#: The advisor's refusals worth a line on the card: they say what would bring the odds.
SAID = ("error.advice.other_not_chosen", "error.advice.exchanges", "error.advice.exchanges_team",
        "error.advice.member_not_chosen")

#: The list's look: compact lines that wrap on a phone, the best one in bold with its mark in words.
ADVICE_CSS = """
.raisus-advice { margin: 4px 0 2px; font-size: 0.92em; line-height: 1.35; }
.raisus-advice h5 { margin: 0 0 2px; font-size: 1em; }
.raisus-advice ul { margin: 0; padding-inline-start: 1.2em; }
.raisus-advice li { margin: 1px 0; overflow-wrap: anywhere; }
.raisus-advice li.best { font-weight: 600; }
.raisus-advice .odds { white-space: nowrap; }
.raisus-advice .note, .raisus-advice .waiting { margin: 2px 0 0; opacity: 0.85; }
"""


def without_teaming(found: Advice | RuleError) -> Advice | RuleError:
    """``found`` as a table that forms no teams should say it: teaming up, the one way the advisor
    rates a side of several units, is not offered there, so the GM orders the exchanges."""
    teaming = isinstance(found, RuleError) and found.key in ("error.advice.exchanges_team",
                                                             "error.advice.member_not_chosen")
    if teaming or isinstance(found, Advice) and all(c.command == "form_team" for c in found.choices):
        return exchanges_refusal()
    return found


def advice_html(found: Advice | RuleError, t: Callable[..., str], lang: str) -> str:
    """The card's lines for ``found`` (the advisor's answer, or its refusal) in ``t``'s language."""
    if isinstance(found, RuleError):
        if found.key not in SAID:
            return ""
        return f"<div class='raisus-advice'><p class='waiting'>{esc(translate(found, lang))}</p></div>"
    lines = []
    for choice in found.choices:
        marks = [t(key) for key, on in (("advice.best_mark", choice.key == found.best_key),
                                        ("advice.now_mark", choice.current)) if on]
        odds = t("advice.odds", as_is=percent(choice.as_is), best=percent(choice.best))
        mark = f" <span class='mark'>— {esc(', '.join(marks))}</span>" if marks else ""
        css = " class='best'" if choice.key == found.best_key else ""
        lines.append(f"<li{css}>{esc(t(choice.label, **choice.field_map))}<br>"
                     f"<span class='odds'>{esc(odds)}</span>{mark}</li>")
    return (f"<div class='raisus-advice'><h5>{esc(t('advice.title'))}</h5><ul>{''.join(lines)}</ul>"
            f"<p class='note'>{esc(t('advice.note'))}</p></div>")
