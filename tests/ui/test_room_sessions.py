"""The components on a shared room: a GM and a player, each with their own views, one game."""

from __future__ import annotations

from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.rules import ScriptedDice
from raisus_panel.ui import ContestTable, LiveOdds, RoundLog, ScoreChart, Actions
from raisus_panel.ui._base import hint

from .conftest import click, confirm


def table_for_two():
    gm = Room.local("Tavern", dice=ScriptedDice([[6, 5, 1, 1], [4, 4, 4], [6, 6, 6, 6], [1, 1]]))
    room = gm.room
    ann = RoomSession(room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    gm.act("save_character", data={"name": "Olaf", "owner": "p1",
                                   "cliches": [{"name": "Viking", "rating": 4}]})
    gm.act("save_character", data={"name": "Pirate", "cliches": [{"name": "Pirate", "rating": 3}]})
    olaf, pirate = room.characters
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[pirate.uid])
    return gm, ann, room, olaf, pirate


def test_each_session_acts_by_its_role_and_sees_the_same_game():
    gm, ann, room, olaf, pirate = table_for_two()
    gm_actions, ann_actions = Actions(gm), Actions(ann)
    gm_table, ann_table = ContestTable(actions=gm_actions), ContestTable(actions=ann_actions)
    gm_chart, ann_chart = ScoreChart(actions=gm_actions), ScoreChart(actions=ann_actions)
    log, odds = RoundLog(actions=ann_actions), LiveOdds(actions=ann_actions)
    assert ann_actions.role == "player"
    assert ann_table._roll.disabled  # the GM has not opened the round
    assert not ann_table._open_round.visible and gm_table._open_round.visible
    assert ann_table._undo.disabled and not gm_table._undo.disabled
    click(gm_table._open_round)
    assert room.round_open and not ann_table._roll.disabled
    click(ann_table._roll)  # the player rolls; both sessions' views follow
    assert pirate.cliche("Pirate").current == 2
    for chart in (gm_chart, ann_chart):
        assert len(chart.source.data["x"]) == 2
    assert "2" in gm_table._roll.name and "2" in ann_table._roll.name
    assert log.entries()[0][0].startswith("1")
    assert odds.chances.scores == (4, 2)
    click(ann_table._roll)  # the round is closed again: refused, shown, nothing changes
    assert ann_table._error.visible and pirate.cliche("Pirate").current == 2
    click(gm_table._undo)
    assert pirate.cliche("Pirate").current == 3
    for chart in (gm_chart, ann_chart):
        assert len(chart.source.data["x"]) == 1


def test_the_gm_closes_an_ended_contest():
    gm, ann, room, olaf, pirate = table_for_two()
    table = ContestTable(actions=Actions(gm))
    table._outcome.value = "Last orders"
    click(table._end)
    confirm(table._end_confirm)
    assert room.contest.status == "ended" and table._close.visible and not table._close.disabled
    click(table._close)
    confirm(table._close_confirm)
    assert room.contest is None and table._setup_box.visible


def test_the_room_says_why_and_the_owner_picks_the_cliché():
    gm, ann, room, olaf, pirate = table_for_two()
    gm_table, ann_table = ContestTable(actions=Actions(gm)), ContestTable(actions=Actions(ann))
    assert ann_table._roll.disabled and "라운드를 열 때까지" in hint(ann_table._roll)
    assert not ann_table._cards[olaf.uid]["cliche"].disabled  # Ann's own character
    assert "cliche" not in ann_table._cards[pirate.uid]  # the GM's: its cliché in words, no picker
    assert not gm_table._cards[pirate.uid]["cliche"].disabled
    assert ann_table._end.disabled and hint(ann_table._end)  # only the GM ends a contest
    assert not gm_table._end.disabled  # the outcome is asked for when pressed


def test_the_setup_form_enables_start_once_both_sides_are_picked():
    from raisus_panel.room import Room
    from raisus_panel.ui import ContestTable, Actions

    gm = Room.local("Table")
    for name in ("Ann", "Ogre"):
        gm.act("create_character", name=name, cliches=[{"name": name, "rating": 3}])
    table = ContestTable(actions=Actions(gm))
    ann, ogre = (c.uid for c in gm.room.characters)
    assert table._start.disabled and hint(table._start)
    table._setup_sides[0].value = [ann]
    assert table._start.disabled
    table._setup_sides[1].value = [ogre]
    assert not table._start.disabled
    table.start()
    assert gm.room.contest is not None and gm.room.contest.status == "active"


def test_a_view_that_fails_to_follow_a_change_does_not_fail_the_command_or_the_other_views(caplog):
    from raisus_panel.room import Actor, Room, RoomSession

    class Broken(Actions):
        broken = False

        def _mirror(self):
            if self.broken:
                raise RuntimeError("this view is broken")
            super()._mirror()

    gm = Room.local("Table")
    spectator = RoomSession(gm.room, Actor.spectator())
    broken, fine = Broken(spectator), Actions(spectator)
    broken.broken = True
    events = gm.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    assert events and [c.name for c in fine.characters] == ["Olaf"]  # applied, returned, followed
    assert "could not follow a change" in caplog.text
