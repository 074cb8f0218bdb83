"""Events have one documented shape: the docstring of ``rules/events.py`` and its field table agree,
``make_event`` keeps to it, and the checker that ``conftest.py`` runs over every committed event
(``event_shapes.py``) really catches what does not fit."""

import json
import pathlib
import re

import pytest

from raisus_panel.rules import events
from raisus_panel.rules.events import COMMON_FIELDS, EVENT_FIELDS, EVENT_TYPES, HIT_FIELDS, make_event

from .conftest import char
from .event_shapes import log_problems, shape_problems


def documented_fields() -> dict[str, str]:
    """Each event type of the module docstring -> the text that documents it."""
    blocks, kind = {}, None
    for line in events.__doc__.splitlines():
        head = re.fullmatch(r"``(\w+)``", line)
        if head:
            kind = head[1]
            blocks[kind] = ""
        elif kind and line.startswith("    "):
            blocks[kind] += line
        else:
            kind = None
    return blocks


def test_every_event_type_and_field_is_documented_in_one_place():
    blocks = documented_fields()
    assert set(EVENT_TYPES) <= set(blocks) and set(COMMON_FIELDS) <= set(blocks)
    for kind, fields in EVENT_FIELDS.items():
        missing = sorted(f for f in fields if f"``{f}``" not in blocks[kind])
        assert not missing, f"{kind}: {missing} not documented"
    hits = events.__doc__.split("A *hit*")[1]
    assert all(f'"{f}"' in hits for f in HIT_FIELDS)


def test_make_event_keeps_to_the_documented_fields():
    assert make_event("approved", unit="u1") == {"v": events.EVENT_VERSION, "type": "approved", "unit": "u1"}
    with pytest.raises(ValueError, match="fields"):
        make_event("approved", unit="u1", extra="no")
    with pytest.raises(ValueError, match="fields"):
        make_event("fate_decided", character="u1")
    with pytest.raises(ValueError, match="unknown"):
        make_event("exploded")


def test_the_shape_checker_catches_what_does_not_fit():
    good = {**make_event("dropped_out", team="t", member="m",
                         hits=[{"character": "m", "cliche": "Squire", "extra": 0, "current": 1}]),
            "seq": 2, "cmd": 2}
    assert shape_problems(good) == []
    assert shape_problems({**good, "note": "x"})
    assert shape_problems({k: v for k, v in good.items() if k != "cmd"})
    assert shape_problems({**good, "hits": [{"character": "m", "cliche": "Squire", "current": -1, "extra": 0}]})
    assert shape_problems({**good, "type": "exploded"})
    start = {**make_event("contest_started", contest="c", name="Brawl", single_roll=False, profile={}, sides=[[], []],
                          teams=[], characters=[]), "seq": 1, "cmd": 1}
    assert log_problems([start, good]) == []
    assert log_problems([good, start])
    assert log_problems([start, {**good, "seq": 3}])


def test_a_played_contest_writes_documented_events():
    from raisus_panel.rules import Contest, ScriptedDice

    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=1)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[1, 1, 1, 2], [6], [6, 6, 6], [1]]))
    contest.roll_round()
    contest.roll_round()
    contest.decide_fate(pirate, "Walks the plank.")
    contest.recover(viking)
    assert [e["type"] for e in contest.events] == ["contest_started", "round_decided", "round_decided",
                                                   "contest_ended", "fate_decided", "recovered"]
    assert log_problems(contest.events) == []
    assert [e["cmd"] for e in contest.events] == [1, 2, 3, 3, 4, 5]  # the end belongs to the round that made it


@pytest.mark.parametrize("name", ["bridge_fight", "pie_eating", "showdown"])
def test_saves_written_before_keep_the_documented_shape(name):
    text = (pathlib.Path(__file__).parent / "saves" / f"{name}.json").read_text(encoding="utf-8")
    assert log_problems(json.loads(text)["events"]) == []
