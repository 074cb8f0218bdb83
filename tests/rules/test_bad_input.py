"""Bad input gets a RuleError that says what to do, and changes nothing."""

import pytest

from raisus_panel.rules import (
    MAX_RATING,
    Character,
    Cliche,
    Contest,
    DiceError,
    GruntMob,
    RuleError,
    SaveFileError,
    ScriptedDice,
    SeededDice,
    action_check,
)
from raisus_panel.rules.dice import MAX_POOL

from .conftest import char


@pytest.mark.parametrize("rating", [-1, 2.5, "4", None, True, MAX_RATING + 1, 10**9])
def test_wrong_ratings(rating):
    with pytest.raises(RuleError):
        Cliche("Viking", rating)


def test_ratings_messages_say_what_to_do():
    with pytest.raises(RuleError, match="whole number"):
        Character("Olaf", {"Viking": 2.5})
    with pytest.raises(RuleError, match=f"at most {MAX_RATING}"):
        Character("Olaf", {"Viking": 4000})
    assert GruntMob("Army", rating=900).cliches[0].rating == 900  # mobs go higher


@pytest.mark.parametrize("name", ["", "   ", "x" * 81, "line\nbreak", "bell\x07", 42, None])
def test_bad_names(name):
    with pytest.raises(RuleError):
        Character(name, {"Viking": 2})


def test_korean_and_html_names_are_kept_as_typed():
    hero = Character("  홍길동  ", {"의적": 4, "<img src=x onerror=alert(1)>": 2})
    assert hero.name == "홍길동"
    assert hero.cliche("<img src=x onerror=alert(1)>").rating == 2


def test_cliche_text_and_duplicates():
    assert [c.label for c in Character("Olaf", "Viking (4), Swashbuckler(2)").cliches] == [
        "Viking (4)", "Swashbuckler (2)"]
    with pytest.raises(RuleError, match="Name \\(rating\\)"):
        Character("Olaf", "Viking 4")
    with pytest.raises(RuleError, match="two clichés"):
        Character("Olaf", [("Viking", 4), ("Viking", 2)])


def test_current_cannot_exceed_rating():
    with pytest.raises(RuleError, match="at most 3"):
        Cliche("Viking", 3, 5)


def test_huge_dice_counts_are_refused():
    with pytest.raises(RuleError, match="more than"):
        SeededDice(1).roll(MAX_POOL + 1)
    with pytest.raises(RuleError):
        SeededDice(1).roll(0)
    with pytest.raises(RuleError):
        action_check(10**6, 10)


def test_scripted_dice_fail_loudly_and_keep_the_roll():
    dice = ScriptedDice([[1, 2, 3]])
    with pytest.raises(DiceError, match="pool of 2"):
        dice.roll(2)
    assert dice.roll(3) == [1, 2, 3]
    with pytest.raises(DiceError, match="run out"):
        dice.roll(1)
    with pytest.raises(DiceError):
        ScriptedDice([[7]])


def test_a_failed_roll_changes_nothing():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6, 6, 6, 6]]))
    before = contest.to_json()
    with pytest.raises(DiceError):
        contest.roll_round()
    assert contest.to_json() == before and contest.round == 0 and len(contest.history) == 1


def test_rolling_after_the_end_is_refused():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=1)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6] * 4, [1]]))
    contest.roll_round()
    with pytest.raises(RuleError, match="ended"):
        contest.roll_round()
    with pytest.raises(RuleError, match="ended"):
        contest.choose(viking, "Viking")


@pytest.mark.parametrize("text, message", [
    ("not json", "not valid JSON"),
    ('{"format": "something else"}', "not a raisus_panel contest"),
    ('{"format": "raisus_panel/contest", "version": 99, "events": []}', "version 99"),
    ('{"format": "raisus_panel/contest", "version": 1, "events": []}', "no events"),
    ('{"format": "raisus_panel/contest", "version": 1, "events": [{"type": "round_decided"}]}', "damaged"),
    (b"\xff\xfe\x00", "not valid JSON"),
])
def test_broken_save_files(text, message):
    with pytest.raises(SaveFileError, match=message):
        Contest.from_json(text)


def test_tampered_save_is_refused_not_half_loaded():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6] * 4, [1] * 3]))
    contest.roll_round()
    import json
    data = json.loads(contest.to_json())
    data["events"][1]["hits"][0]["current"] = 99  # more damage than the cliché has
    with pytest.raises(SaveFileError, match="Event 2"):
        Contest.from_json(json.dumps(data))
    data["events"][1]["hits"][0]["character"] = "nobody"
    with pytest.raises(SaveFileError):
        Contest.from_json(json.dumps(data))
