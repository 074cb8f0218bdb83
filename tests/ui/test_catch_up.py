"""Issue 21 item 1: a page that falls behind the room notices it by the room's sequence number and
draws the room's whole state again by itself; a refused command leaves no control showing what the
room does not hold."""

from __future__ import annotations

import logging

from raisus_panel.room import Actor, Room, RoomRegistry, RoomSession, SQLiteStore
from raisus_panel.room.limits import Limits
from raisus_panel.ui import Actions, ContestTable

from .drivers import Screen


def duel():
    """The GM's room: Ann's Olaf (Viking 4, Sailor 3) against the GM's Pirate (3), started."""
    gm = Room.local("Tavern")
    room = gm.room
    ann = RoomSession(room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    gm.act("save_character", data={"name": "Olaf", "owner": "p1",
                                   "cliches": [{"name": "Viking", "rating": 4}, {"name": "Sailor", "rating": 3}]})
    gm.act("save_character", data={"name": "Pirate", "cliches": [{"name": "Pirate", "rating": 3}]})
    olaf, pirate = room.characters
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[pirate.uid])
    return gm, ann, room, olaf, pirate


def olaf_picker(table):
    """The cliché picker on Olaf's card."""
    s = Screen(table)
    return s.card("Olaf").select(s.t("contest.cliche"))


def test_a_page_that_missed_a_change_of_the_room_notices_it_and_draws_the_whole_state(caplog):
    gm, ann, room, olaf, pirate = duel()
    actions = Actions(ann)
    table = ContestTable(actions=actions, lang="en")
    missed = []
    actions.param.watch(lambda e: missed.append(e), "missed")
    picker = olaf_picker(table)
    assert picker.value == ""  # nothing chosen yet
    # one delivery is lost: the adapter does not hear the GM's choice for Olaf (its one watcher on the
    # room is taken off and put back: an inside on purpose, as no person can lose a delivery)
    (obj, watcher), = actions._watchers
    obj.param.unwatch(watcher)
    gm.act("choose", unit=olaf.uid, cliche="Viking")
    obj.param.watch(watcher.fn, list(watcher.parameter_names))
    assert actions.seq < room.seq  # the page's adapter is behind the room
    # the next change starts after a state this page never had: it notices, and draws all of it again
    with caplog.at_level(logging.WARNING, logger="raisus_panel.ui.actions"):
        gm.act("choose", unit=pirate.uid, cliche="Pirate")
    assert len(missed) == 1 and "missed a change" in caplog.text
    assert actions.seq == room.seq
    redrawn = olaf_picker(table)
    assert redrawn is not picker  # new widgets, made from the room's state
    assert redrawn.value == "Viking" and "Viking" in redrawn.options.values()
    # in step again: the next change is drawn as usual
    gm.act("choose", unit=olaf.uid, cliche="Sailor")
    assert len(missed) == 1 and olaf_picker(table) is redrawn and redrawn.value == "Sailor"


def test_a_view_whose_known_seq_lags_draws_everything_again():
    gm, ann, room, olaf, pirate = duel()
    table = ContestTable(actions=Actions(ann), lang="en")
    picker = olaf_picker(table)
    # it last drew an older state than the change now starts from (a delivery lost, or a refresh that
    # raised in the page's batch, which leaves the seq it drew behind): the seq it drew is an inside,
    # set back on purpose, as nothing a person does sets it back
    table._drawn_seq -= 1
    gm.act("choose", unit=pirate.uid, cliche="Pirate")
    assert olaf_picker(table) is not picker and table._drawn_seq == room.seq


def test_a_refused_pick_leaves_the_picker_on_the_rooms_choice(tmp_path):
    """Ann's second quick pick is refused (the command limit): her picker shows the room's choice, not
    the cliché she asked for."""
    registry = RoomRegistry(SQLiteStore(str(tmp_path / "rooms.sqlite")), limits=Limits(command_burst=2))
    room, links = registry.create_room("Tavern", gm_name="Gina")
    ann, _ = registry.join(links.player, "Ann")  # her first command
    ann.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}, {"name": "Sailor", "rating": 3}])
    gm = registry.open_session(links.gm)
    gm.act("create_character", name="Pirate", cliches=[{"name": "Pirate", "rating": 3}])
    olaf, pirate = room.characters
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[pirate.uid])
    table = ContestTable(actions=Actions(ann), lang="en")
    s = Screen(table)
    s.card("Olaf").choose(s.t("contest.cliche"), "Viking")  # Ann's pick: accepted
    assert room.contest.chosen(olaf.uid).name == "Viking" and s.error is None
    s.card("Olaf").choose(s.t("contest.cliche"), "Sailor")  # at once again: refused by the command limit
    assert s.error and room.contest.chosen(olaf.uid).name == "Viking"
    assert olaf_picker(table).value == "Viking"
