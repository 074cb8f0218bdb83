"""The advisor for a room's contest: worked out once per change for all of the room's pages."""

from __future__ import annotations

import threading

import pytest

from raisus_panel.room import room_advice
from raisus_panel.rules import RuleError, advise

from .conftest import Table


def test_every_page_gets_the_one_answer_until_the_contest_changes():
    t = Table(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    v = t.char("Viking", t.alice, Viking=4, Cook=2)
    p = t.char("Pirate", None, Pirate=3)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[p])
    t.act(t.alice, "choose", unit=v, cliche="Viking")
    first = room_advice(t.room, v)
    assert room_advice(t.room, v) is first  # a second page: no second computation
    assert first == advise(t.room.contest, v)
    other = room_advice(t.room, p)
    assert other.side == 1 and room_advice(t.room, p) is other
    t.act(t.gm, "roll_round")  # a change: the next page to ask computes anew
    after = room_advice(t.room, v)
    assert after is not first and after == advise(t.room.contest, v)
    assert after.choice("cliche:Viking").as_is != first.choice("cliche:Viking").as_is


def test_pages_asking_at_once_all_get_the_same_answer():
    t = Table()
    v = t.char("Viking", t.alice, Viking=4)
    p = t.char("Pirate", None, Pirate=3)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[p])
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(room_advice(t.room, v))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 8 and all(a == answers[0] for a in answers)
    assert room_advice(t.room, v) is room_advice(t.room, v)


def test_a_refusal_is_kept_and_raised_for_every_page():
    t = Table()
    with pytest.raises(RuleError) as caught:
        room_advice(t.room, "nobody")
    assert caught.value.key == "error.advice.no_contest"
    a = t.char("A", None, A=2)
    b = t.char("B", None, B=2)
    c = t.char("C", None, C=2)
    d = t.char("D", None, D=2)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[a, b], side_b=[c, d])
    for _ in range(2):
        with pytest.raises(RuleError) as caught:
            room_advice(t.room, a)
        assert caught.value.key == "error.advice.exchanges_team"
