"""Every refusal of the rules can be shown in Korean: a catalog key, the same fields, no English left."""

from __future__ import annotations

import pickle

import pytest

from raisus_panel import i18n
from raisus_panel.rules import Character, Contest, DiceError, RuleError, ScriptedDice
from raisus_panel.rules.errors import Phrase

from .keyed_errors import check_keys_in_catalogs, unkeyed_raises


def test_every_refusal_of_the_rules_has_a_key():
    assert unkeyed_raises("rules") == []


def test_every_key_of_the_rules_is_in_both_catalogs_with_its_fields():
    check_keys_in_catalogs("rules")


def test_a_refusal_keeps_its_english_message_key_and_fields():
    exc = DiceError("The scripted dice have run out: asked for 3 dice with no roll left.",
                    key="error.dice.script_empty", n=3)
    assert isinstance(exc, RuleError) and str(exc).startswith("The scripted dice")
    assert exc.key == "error.dice.script_empty" and exc.fields == {"n": 3}
    again = pickle.loads(pickle.dumps(exc))
    assert (str(again), again.key, again.fields) == (str(exc), exc.key, exc.fields)
    plain = RuleError("no key")
    assert plain.key is None and plain.fields == {} and i18n.translate(plain, "ko") == "no key"


def test_a_refusal_reads_in_korean_with_its_phrases_translated():
    with pytest.raises(RuleError) as caught:
        Character("   ")
    exc = caught.value
    assert str(exc) == "The character name is empty: type a character name."
    assert exc.key == "error.input.empty_name" and isinstance(exc.fields["what"], Phrase)
    assert i18n.translate(exc, "ko") == "캐릭터 이름이 비어 있습니다. 캐릭터 이름을 적어 주세요."
    assert i18n.translate(exc, "en") == str(exc)


def test_why_not_error_is_the_refusal_why_not_reads():
    viking, pirate = Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3})
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice())
    exc = contest.why_not_error("volunteer", viking)
    assert str(exc) == contest.why_not("volunteer", viking) == \
        "Viking is not in a character team; only team members volunteer."
    assert exc.key == "error.team.not_member" and exc.fields["name"] == "Viking"
    assert i18n.translate(exc, "ko") == "Viking은 캐릭터 팀에 속하지 않습니다. 자원은 팀원만 할 수 있습니다."
    assert contest.why_not_error("undo").key == "error.contest.nothing_to_undo"
    assert contest.why_not_error("roll_round") is None


def test_a_nested_refusal_is_translated_inside_the_outer_one():
    events = Contest("Brawl", Character("A", {"A": 1}), Character("B", {"B": 1}), dice=ScriptedDice()).events
    broken = [{**events[0], "characters": [{"uid": "u1", "name": "", "cliches": []}]}]
    with pytest.raises(RuleError) as caught:
        Contest.from_events(broken)
    korean = i18n.translate(caught.value, "ko")
    assert caught.value.key == "error.save.event_not_replayable" and "비어 있습니다" in korean
