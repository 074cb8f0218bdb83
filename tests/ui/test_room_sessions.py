"""The components on a shared room: a GM and a player, each with their own views, one game."""

from __future__ import annotations

from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.ui import Actions, ContestTable, LiveOdds, RoundLog, ScoreChart

from .conftest import brawl_in_room, click
from .drivers import Screen, roll_button


def table_for_two():
    return brawl_in_room([[6, 5, 1, 1], [4, 4, 4], [6, 6, 6, 6], [1, 1]])


def test_each_session_acts_by_its_role_and_sees_the_same_game():
    gm, ann, room, olaf, pirate = table_for_two()
    gm_actions, ann_actions = Actions(gm), Actions(ann)
    gm_table, ann_table = Screen(ContestTable(actions=gm_actions)), Screen(ContestTable(actions=ann_actions))
    gm_chart, ann_chart = ScoreChart(actions=gm_actions), ScoreChart(actions=ann_actions)
    log, odds = RoundLog(actions=ann_actions), LiveOdds(actions=ann_actions)
    open_round, undo = gm_table.t("contest.open_round"), gm_table.t("contest.undo")
    assert ann_actions.role == "player"
    assert roll_button(ann_table).disabled  # the GM has not opened the round
    assert not ann_table.has("button", open_round) and gm_table.has("button", open_round)
    assert not ann_table.has("button", undo) and gm_table.can_press(undo)  # a player's table has no Undo
    gm_table.click(open_round)
    assert room.round_open and not roll_button(ann_table).disabled
    click(roll_button(ann_table))  # the player rolls; both sessions' views follow
    assert pirate.cliche("Pirate").current == 2
    for chart in (gm_chart, ann_chart):
        assert len(chart.source.data["x"]) == 2
    assert roll_button(gm_table).name == roll_button(ann_table).name == gm_table.t("contest.roll", n=2)
    assert log.entries()[0][0].startswith("1")
    assert odds.chances.scores == (4, 2)
    click(roll_button(ann_table))  # the round is closed again: refused, shown, nothing changes
    assert ann_table.error and pirate.cliche("Pirate").current == 2
    gm_table.click(undo)
    assert pirate.cliche("Pirate").current == 3
    for chart in (gm_chart, ann_chart):
        assert len(chart.source.data["x"]) == 1


def test_the_gm_closes_an_ended_contest():
    gm, ann, room, olaf, pirate = table_for_two()
    s = Screen(ContestTable(actions=Actions(gm)))
    s.type(s.t("contest.outcome"), "Last orders")
    s.click(s.t("contest.end"))
    s.confirm()
    assert room.contest.status == "ended" and s.can_press(s.t("contest.close"))
    s.click(s.t("contest.close"))
    s.confirm()
    assert room.contest is None and s.has("button", s.t("contest.start"))


def test_the_room_says_why_and_the_owner_picks_the_cliché():
    gm, ann, room, olaf, pirate = table_for_two()
    gm_table, ann_table = Screen(ContestTable(actions=Actions(gm))), Screen(ContestTable(actions=Actions(ann)))
    cliche, end = gm_table.t("contest.cliche"), gm_table.t("contest.end")
    assert roll_button(ann_table).disabled and "라운드를 열 때까지" in roll_button(ann_table).title
    assert not ann_table.card("Olaf").select(cliche).disabled  # Ann's own character
    assert not ann_table.card("Pirate").controls()  # the GM's: its cliché in words, no picker
    assert not gm_table.card("Pirate").select(cliche).disabled
    # only the GM ends a contest: a player's table has no End at all (fewer models per page); the room
    # refuses it all the same (tests/ui/test_contest_view.py)
    assert not ann_table.controls("button", end, hidden=True)
    assert gm_table.can_press(end)  # the outcome is asked for when pressed


def test_the_setup_form_enables_start_once_both_sides_are_picked():
    from raisus_panel.ui import Actions, ContestTable

    gm = Room.local("Table")
    for name in ("Ann", "Ogre"):
        gm.act("create_character", name=name, cliches=[{"name": name, "rating": 3}])
    table = ContestTable(actions=Actions(gm))
    s = Screen(table)
    start = s.t("contest.start")
    assert not s.can_press(start) and s.reason(start)
    s.tick(s.t("side.0"), option="Ann")
    assert not s.can_press(start)
    s.tick(s.t("side.1"), option="Ogre")
    assert s.can_press(start)
    table.start()
    assert gm.room.contest is not None and gm.room.contest.status == "active"


def test_a_view_that_fails_to_follow_a_change_does_not_fail_the_command_or_the_other_views(caplog):

    class Broken(Actions):
        """A view that breaks while following a change: made by overriding the adapter's private step
        that follows the room (no person can break a view on purpose)."""

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
