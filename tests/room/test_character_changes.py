"""Issue 9: after a character has been in a contest, its clichés and dice are the GM's.

A player could restore lost dice or raise a cliché to 100 by editing their own sheet between
contests. Now a player may still change the name and description of such a character; any other
change is refused (and changes nothing), the GM's changes go through, and every change is an event
that says who changed what.
"""

from __future__ import annotations

import pytest

from raisus_panel import i18n
from raisus_panel.room import PermissionDenied
from raisus_panel.room.permissions import character_changes, has_been_in_contest

from .conftest import Table


def after_a_lost_contest() -> tuple[Table, str]:
    """Alice's Viking (4) lost a round to the GM's Ogre, then the contest was ended and closed."""
    t = Table([[1, 1, 1, 1], [6, 6, 6, 6, 6, 6]])
    v = t.char("Viking", t.alice, Viking=4)
    o = t.char("Ogre", None, Ogre=6)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[o])
    t.act(t.gm, "roll_round")
    t.act(t.gm, "end_contest", outcome="Called off")
    t.act(t.gm, "close_contest")
    assert t.score(v) == 3 and has_been_in_contest(t.room.past_contests, v)
    return t, v


@pytest.mark.parametrize("change", [
    {"cliches": [{"name": "Viking", "rating": 4, "current": 4}]},    # restore the lost die
    {"cliches": [{"name": "Viking", "rating": 100, "current": 100}]},  # or worse
    {"cliches": [{"name": "Viking", "rating": 4, "current": 3}, {"name": "Bard", "rating": 2}]},
    {"cliches": [{"name": "Berserker", "rating": 4, "current": 3}]},
    {"kind": "grunt_mob", "member_rating": 1, "cliches": [{"name": "Viking", "rating": 3, "current": 3}]},
])
def test_a_player_cannot_change_the_dice_of_a_character_that_has_been_in_a_contest(change):
    t, v = after_a_lost_contest()
    before, seq = t.snapshot(), t.room.seq
    with pytest.raises(PermissionDenied) as caught:
        t.act(t.alice, "update_character", uid=v, **change)
    assert caught.value.key == "error.permission.veteran_dice" and "Viking has been in a contest" in str(caught.value)
    assert i18n.translate(caught.value, "ko").startswith("Viking은 이미 대결에 나간 캐릭터입니다")
    assert t.snapshot() == before and t.room.seq == seq


def test_the_player_may_still_rename_and_describe_it_and_the_gm_may_change_anything():
    t, v = after_a_lost_contest()
    t.act(t.alice, "update_character", uid=v, name="Olaf", description="Sore but proud")
    same_dice = [{"name": "Viking", "rating": 4, "current": 3}]
    t.act(t.alice, "update_character", uid=v, name="Olaf the Red", cliches=same_dice)  # the sheet sends them all
    (event,) = t.act(t.gm, "update_character", uid=v, cliches=[{"name": "Viking", "rating": 4, "current": 4}])
    assert t.score(v) == 4
    assert event["actor"] == {"role": "gm", "player_id": ""}
    assert character_changes(event["before"], event["character"]) == [
        {"field": "current", "cliche": "Viking", "from": 3, "to": 4}]


def test_before_any_contest_a_player_edits_freely():
    t = Table()
    v = t.char("Viking", t.alice, Viking=4)
    t.act(t.alice, "update_character", uid=v, cliches=[{"name": "Viking", "rating": 5}])
    assert t.score(v) == 5


def test_every_change_is_an_event_naming_who_changed_what():
    t, v = after_a_lost_contest()
    (event,) = t.act(t.alice, "update_character", uid=v, name="Olaf", description="Sore")
    assert event["type"] == "character_updated" and event["command"] == "update_character"
    assert event["actor"] == {"role": "player", "player_id": t.alice.player_id}
    assert t.room.log[-1] == event and t.reloaded().log[-1]["actor"] == event["actor"]
    assert character_changes(event["before"], event["character"]) == [
        {"field": "name", "cliche": None, "from": "Viking", "to": "Olaf"},
        {"field": "description", "cliche": None, "from": "", "to": "Sore"}]


def test_character_changes_names_clichés_added_and_removed():
    before = {"name": "A", "cliches": [{"name": "X", "rating": 2, "current": 1}]}
    after = {"name": "A", "cliches": [{"name": "Y", "rating": 3, "current": 3}]}
    assert character_changes(before, after) == [
        {"field": "cliche", "cliche": "X", "from": before["cliches"][0], "to": None},
        {"field": "cliche", "cliche": "Y", "from": None, "to": after["cliches"][0]}]
