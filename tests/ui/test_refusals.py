"""Refusals are shown in the component's language: the alert after a refused click and the tooltips
of disabled buttons, from the refusal's catalog key and fields (RuleError.key/.fields)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import panel as pn
import pytest

from raisus_panel import i18n
from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import Actions, ContestTable
from raisus_panel.ui._base import md_esc

from .conftest import brawl_in_room, click
from .drivers import Screen, roll_button

#: Small English words that any English sentence in a refusal would contain.
ENGLISH = re.compile(r"\b(the|is|are|and|to|before|cannot|only|first|after|with|of)\b", re.IGNORECASE)


def cook_against_king(cook_name="Cook"):
    cook = Character(cook_name, {"Cook": 3})
    king = Character("Demon King", {"Demon King": 4})
    contest = Contest("Martial-arts bout", cook, king, dice=ScriptedDice([[6, 6, 5], [3, 3, 3, 3]]))
    return contest, cook


def inappropriate_cook(table) -> Screen:
    """The table after the Cook's player ticks "inappropriate" (no approval yet)."""
    s = Screen(table)
    s.card(table.contest.sides[0][0].name).tick(s.t("contest.inappropriate"))
    return s


def test_a_refused_click_is_shown_in_korean():
    contest, cook = cook_against_king()
    s = inappropriate_cook(ContestTable(actions=Actions.local(contest), lang="ko"))
    events = list(contest.events)
    click(roll_button(s))  # pressed anyway
    shown = s.error_pane.object
    assert s.error and contest.events == events
    refusal = contest.why_not_error("roll_round")
    assert refusal.key == "error.contest.needs_approval"
    assert shown == f"**{md_esc('거절됨:')}** {md_esc(i18n.translate(refusal, 'ko'))}"
    assert "GM의 승인" in shown and not ENGLISH.search(shown)


def test_the_same_refusal_in_english_is_the_rules_message():
    contest, cook = cook_against_king()
    s = inappropriate_cook(ContestTable(actions=Actions.local(contest), lang="en"))
    click(roll_button(s))
    assert md_esc(contest.why_not("roll_round")) in s.error_pane.object
    assert roll_button(s).title == contest.why_not("roll_round")


def test_a_disabled_button_says_why_in_the_tables_language_and_follows_a_switch():
    contest, cook = cook_against_king()
    table = ContestTable(actions=Actions.local(contest))  # follows the global language: Korean
    s = inappropriate_cook(table)
    korean = roll_button(s).title
    assert roll_button(s).disabled and "승인" in korean and not ENGLISH.search(korean)
    table.lang = "en"
    assert roll_button(s).title == contest.why_not("roll_round")
    table.lang = "ko"
    assert roll_button(s).title == korean


def test_user_text_in_a_refusal_is_escaped():
    contest, cook = cook_against_king(cook_name="<b>*Cook*</b>")
    s = inappropriate_cook(ContestTable(actions=Actions.local(contest), lang="ko"))
    click(roll_button(s))
    shown = s.error_pane.object
    assert "<b>" not in shown and "&lt;b&gt;" in shown and r"\*Cook\*" in shown


def test_a_rooms_refusals_are_korean_for_a_player():
    gm, ann, room, olaf, pirate = brawl_in_room()
    table = ContestTable(actions=Actions(ann), lang="ko")
    s = Screen(table)
    assert roll_button(s).title == "GM이 라운드를 열 때까지 기다리세요. 그 전에는 GM만 굴릴 수 있습니다."
    # a player's table lays out no End button; what it would say is the room's own refusal
    assert i18n.translate(Actions(ann).why_not_error("end", outcome="x"), "ko") == "대결 일찍 끝내기는 GM만 할 수 있습니다."
    click(roll_button(s))  # pressed anyway: the room refuses
    assert s.error and "GM이 라운드를 열 때까지" in s.error_pane.object
    assert not ENGLISH.search(s.error_pane.object)


class _Rendered(HTMLParser):
    """The tags and the text of rendered HTML."""

    def __init__(self, markup):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def rendered(pane) -> _Rendered:
    """What the browser gets from a Markdown pane (Panel renders the Markdown to HTML in Python, in a
    private step of its panes: no public call gives that HTML)."""
    return _Rendered(html.unescape(pane._transform_object(pane.object)["object"]))


NASTY = "O'Brien <b>x</b> *y*"


def test_a_name_with_quotes_tags_and_stars_shows_verbatim_in_a_refusal():
    contest, cook = cook_against_king(cook_name=NASTY)
    s = inappropriate_cook(ContestTable(actions=Actions.local(contest), lang="en"))
    click(roll_button(s))
    shown = rendered(s.error_pane)
    message = i18n.translate(contest.why_not_error("roll_round"), "en")
    assert NASTY in message
    assert "".join(shown.text).strip() == f"Refused: {message}"
    assert shown.tags == ["p", "strong"]  # the label in bold; nothing of the name became markup


@pytest.mark.parametrize("text", [
    NASTY, "&#x27; &amp; &lt;", 'say "hi" & <i>', "<script>alert(1)</script>", "[a](javascript:alert(1))",
    "![i](x.png)", "http://example.com/x www.example.com a@b.org", "# not a heading", "a\n===", "1. x",
    "- x", "> quote", "`code`", "~~gone~~", "x\\*y", "__u__ _v_", "| a | b |", "[^1]", "$x$", ":smile:",
])
def test_md_esc_shows_any_text_verbatim(text):
    shown = rendered(pn.pane.Alert(md_esc(text)))
    assert shown.tags == ["p"], shown.tags
    assert " ".join("".join(shown.text).split()) == " ".join(text.split())
