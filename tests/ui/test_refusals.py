"""Refusals are shown in the component's language: the alert after a refused click and the tooltips
of disabled buttons, from the refusal's catalog key and fields (RuleError.key/.fields)."""

from __future__ import annotations

import re

from raisus_panel import i18n
from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import ContestActions, ContestTable, SessionActions
from raisus_panel.ui._base import md_esc

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
    table = ContestTable(actions=ContestActions(contest), lang="ko")
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
    table = ContestTable(actions=ContestActions(contest), lang="en")
    table._cards[cook.uid]["inappropriate"].value = True
    click(table._roll)
    assert md_esc(contest.why_not("roll_round")) in table._error.object
    assert table._roll.description == contest.why_not("roll_round")


def test_a_disabled_button_says_why_in_the_tables_language_and_follows_a_switch():
    contest, cook = cook_against_king()
    table = ContestTable(actions=ContestActions(contest))  # follows the global language: Korean
    table._cards[cook.uid]["inappropriate"].value = True
    korean = table._roll.description
    assert table._roll.disabled and "승인" in korean and not ENGLISH.search(korean)
    table.lang = "en"
    assert table._roll.description == contest.why_not("roll_round")
    table.lang = "ko"
    assert table._roll.description == korean


def test_user_text_in_a_refusal_is_escaped():
    contest, cook = cook_against_king(cook_name="<b>*Cook*</b>")
    table = ContestTable(actions=ContestActions(contest), lang="ko")
    table._cards[cook.uid]["inappropriate"].value = True
    click(table._roll)
    shown = table._error.object
    assert "<b>" not in shown and "&lt;b&gt;" in shown and r"\*Cook\*" in shown


def test_the_local_tables_role_refusal_is_korean():
    contest, _ = cook_against_king()
    table = ContestTable(actions=ContestActions(contest, role="player"), lang="ko")
    assert table._undo.disabled
    assert table._undo.description == "PL은(는) 이 명령(undo)을 내릴 수 없습니다."


def test_a_rooms_refusals_are_korean_for_a_player():
    gm = Room.local("Tavern", dice=ScriptedDice([]))
    ann = RoomSession(gm.room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    gm.act("save_character", data={"name": "Olaf", "owner": "p1", "cliches": [{"name": "Viking", "rating": 4}]})
    gm.act("save_character", data={"name": "Pirate", "cliches": [{"name": "Pirate", "rating": 3}]})
    olaf, pirate = gm.room.characters
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[pirate.uid])
    table = ContestTable(actions=SessionActions(ann), lang="ko")
    assert table._roll.description == "GM이 라운드를 열 때까지 기다리세요. 그 전에는 GM만 굴릴 수 있습니다."
    assert table._end.description == "대결 일찍 끝내기은(는) GM만 할 수 있습니다."
    click(table._roll)  # pressed anyway: the room refuses
    assert table._error.visible and "GM이 라운드를 열 때까지" in table._error.object
    assert not ENGLISH.search(table._error.object)
