"""Refusals are shown in the component's language: the alert after a refused click and the tooltips
of disabled buttons, from the refusal's catalog key and fields (RuleError.key/.fields)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import panel as pn
import pytest

from raisus_panel import i18n
from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import ContestTable, Actions
from raisus_panel.ui._base import hint, md_esc

from .conftest import click

#: Small English words that any English sentence in a refusal would contain.
ENGLISH = re.compile(r"\b(the|is|are|and|to|before|cannot|only|first|after|with|of)\b", re.IGNORECASE)


def cook_against_king(cook_name="Cook"):
    cook = Character(cook_name, {"Cook": 3})
    king = Character("Demon King", {"Demon King": 4})
    contest = Contest("Martial-arts bout", cook, king, dice=ScriptedDice([[6, 6, 5], [3, 3, 3, 3]]))
    return contest, cook


def test_a_refused_click_is_shown_in_korean():
    contest, cook = cook_against_king()
    table = ContestTable(actions=Actions.local(contest), lang="ko")
    table._cards[cook.uid]["inappropriate"].value = True  # no approval yet
    events = list(contest.events)
    click(table._roll)  # pressed anyway
    shown = table._error.object
    assert table._error.visible and contest.events == events
    refusal = contest.why_not_error("roll_round")
    assert refusal.key == "error.contest.needs_approval"
    assert shown == f"**{md_esc('거절됨:')}** {md_esc(i18n.translate(refusal, 'ko'))}"
    assert "GM의 승인" in shown and not ENGLISH.search(shown)


def test_the_same_refusal_in_english_is_the_rules_message():
    contest, cook = cook_against_king()
    table = ContestTable(actions=Actions.local(contest), lang="en")
    table._cards[cook.uid]["inappropriate"].value = True
    click(table._roll)
    assert md_esc(contest.why_not("roll_round")) in table._error.object
    assert hint(table._roll) == contest.why_not("roll_round")


def test_a_disabled_button_says_why_in_the_tables_language_and_follows_a_switch():
    contest, cook = cook_against_king()
    table = ContestTable(actions=Actions.local(contest))  # follows the global language: Korean
    table._cards[cook.uid]["inappropriate"].value = True
    korean = hint(table._roll)
    assert table._roll.disabled and "승인" in korean and not ENGLISH.search(korean)
    table.lang = "en"
    assert hint(table._roll) == contest.why_not("roll_round")
    table.lang = "ko"
    assert hint(table._roll) == korean


def test_user_text_in_a_refusal_is_escaped():
    contest, cook = cook_against_king(cook_name="<b>*Cook*</b>")
    table = ContestTable(actions=Actions.local(contest), lang="ko")
    table._cards[cook.uid]["inappropriate"].value = True
    click(table._roll)
    shown = table._error.object
    assert "<b>" not in shown and "&lt;b&gt;" in shown and r"\*Cook\*" in shown


def test_a_rooms_refusals_are_korean_for_a_player():
    gm = Room.local("Tavern", dice=ScriptedDice([]))
    ann = RoomSession(gm.room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    gm.act("save_character", data={"name": "Olaf", "owner": "p1", "cliches": [{"name": "Viking", "rating": 4}]})
    gm.act("save_character", data={"name": "Pirate", "cliches": [{"name": "Pirate", "rating": 3}]})
    olaf, pirate = gm.room.characters
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[pirate.uid])
    table = ContestTable(actions=Actions(ann), lang="ko")
    assert hint(table._roll) == "GM이 라운드를 열 때까지 기다리세요. 그 전에는 GM만 굴릴 수 있습니다."
    assert hint(table._end) == "대결 일찍 끝내기는 GM만 할 수 있습니다."
    click(table._roll)  # pressed anyway: the room refuses
    assert table._error.visible and "GM이 라운드를 열 때까지" in table._error.object
    assert not ENGLISH.search(table._error.object)


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
    """What the browser gets from a Markdown pane (Panel renders the Markdown to HTML in Python)."""
    return _Rendered(html.unescape(pane._transform_object(pane.object)["object"]))


NASTY = "O'Brien <b>x</b> *y*"


def test_a_name_with_quotes_tags_and_stars_shows_verbatim_in_a_refusal():
    contest, cook = cook_against_king(cook_name=NASTY)
    table = ContestTable(actions=Actions.local(contest), lang="en")
    table._cards[cook.uid]["inappropriate"].value = True
    click(table._roll)
    shown = rendered(table._error)
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
