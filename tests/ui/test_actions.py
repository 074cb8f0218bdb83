"""The Actions adapter: commands reach the models; refusals change nothing; `can` matches the rules."""

from __future__ import annotations

import pytest

from raisus_panel.room import Actor, PermissionDenied, RoomSession
from raisus_panel.rules import Character, RuleError, ScriptedDice
from raisus_panel.ui import Actions

from .conftest import duel, free_trio_vs_ogre, team_vs_ogre


def test_commands_reach_the_contest():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    assert actions.can("roll_round")
    events = actions.act("roll_round")
    assert events[-1]["event"]["type"] == "round_decided"
    assert pirate.cliche("Pirate").current == 2 and contest.round == 1
    actions.act("undo")
    assert pirate.cliche("Pirate").current == 3 and contest.round == 0


def test_a_refused_command_raises_and_changes_nothing():
    contest, actions, viking, pirate = duel(name="Martial-arts bout", a=("Cook", 3), b=("Demon King", 4))
    actions.act("choose", unit=viking.uid, cliche="Cook", appropriate=False)
    before = list(contest.events)
    assert not actions.can("roll_round")
    with pytest.raises(RuleError):
        actions.act("roll_round")
    assert contest.events == before
    assert actions.can("approve", unit=viking.uid)
    actions.act("approve", unit=viking.uid)
    assert not contest.needs_approval(viking.uid)


def test_characters_and_the_table():
    contest, actions, viking, pirate = duel()
    assert {c.uid for c in actions.characters} == {viking.uid, pirate.uid}
    olaf = actions.act("save_character", data={"name": "Olaf", "cliches": [{"name": "Viking", "rating": 4}]})
    assert olaf in actions.characters
    again = actions.act("save_character", data={**olaf.to_dict(), "name": "Olaf the Unready"})
    assert again is olaf and olaf.name == "Olaf the Unready"
    with pytest.raises(RuleError):  # in the running contest
        actions.act("save_character", data={**viking.to_dict(), "name": "Eric"})
    assert viking.name == "Viking"
    with pytest.raises(RuleError):
        actions.act("save_character", data={"name": "", "cliches": []})


def test_start_contest_and_action_check():
    a, b = Character("Gunslinger", {"Gunslinger": 3}), Character("Outlaw", {"Outlaw": 3})
    actions = Actions.local(a, b, dice=ScriptedDice([[1, 2, 3, 4], [5, 4, 2], [6, 3, 1]]))
    assert actions.contest is None and not actions.can("roll_round")
    with pytest.raises(RuleError):
        actions.act("roll_round")
    viking = Character("Viking", {"Viking": 4})
    actions.room.adopt(viking)
    check = actions.act("action_check", character=viking.uid, cliche="Viking", tn=10)
    assert check["success"] and check["faces"] == [1, 2, 3, 4] and actions.checks == [check]
    actions.act("start_contest", name="Showdown", side_a=[a.uid], side_b=[b.uid], single_roll=True)
    assert actions.contest.single_roll
    actions.act("roll_round")
    assert actions.contest.status == "ended" and actions.contest.winner == 0
    with pytest.raises(RuleError):
        actions.act("start_contest", name="x", side_a=["nobody"], side_b=[b.uid])


def test_roles_are_the_rooms():
    contest, gm, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    player = Actions(RoomSession(gm.room, Actor.player("p1", "Ann")))
    assert player.role == "player" and not player.can("undo")
    assert "Only the GM" in player.why_not("end", outcome="The GM is busy")
    with pytest.raises(PermissionDenied):
        player.act("end", outcome="The GM is busy")
    spectator = Actions(RoomSession(gm.room, Actor.spectator()))
    assert not spectator.can("roll_round")
    with pytest.raises(PermissionDenied):
        spectator.act("roll_round")
    with pytest.raises(RuleError):
        gm.act("no_such_command")
    assert contest.round == 0 and gm.can("roll_round")


def member(char, appropriate=True):
    """A form_team member as the adapters take it: the character's uid and its (only) cliché."""
    return {"character": char.uid, "cliche": char.cliches[0].name, "appropriate": appropriate}


def test_can_follows_the_team_windows():
    rolls = [[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    assert not actions.can("volunteer", member=viking.uid)
    assert "right after" in actions.why_not("volunteer", member=viking.uid)  # the rules' own reason
    assert actions.can("drop_out", member=squire.uid)
    assert actions.can("disband", team=team.uid)
    actions.act("roll_round")  # lost
    assert actions.can("volunteer", member=viking.uid)
    actions.act("volunteer", member=viking.uid)
    assert not actions.can("volunteer", member=knight.uid)
    actions.act("roll_round")  # won
    assert "won its last round" in actions.why_not("volunteer", member=knight.uid)
    assert not actions.can("drop_out", member=viking.uid)  # down
    assert actions.can("undo")


def test_can_follows_exchanges_and_forming():
    contest, actions, (knight, viking, squire, ogre) = free_trio_vs_ogre([[1, 1, 1, 1], [2] * 8])
    assert not actions.can("roll_round")
    assert actions.can("exchange", attacker=knight.uid, target=ogre.uid)
    assert not actions.can("exchange", attacker=knight.uid, target=viking.uid)
    assert not actions.can("end_round")
    assert actions.can("form_team", members=[member(knight), member(viking)])
    assert actions.can("form_team", members=[member(knight), member(viking, False)], leader=knight.uid)
    assert "same side" in actions.why_not("form_team", members=[member(knight), member(ogre)])
    assert not actions.can("form_team", members=[member(knight)])
    assert not actions.can("form_team", members=[member(knight), {"character": "nobody", "cliche": "x"}])
    actions.act("exchange", attacker=knight.uid, target=ogre.uid)
    assert actions.can("end_round")


def test_asking_changes_nothing_and_uses_no_dice():
    contest, actions, (knight, viking, squire, ogre) = free_trio_vs_ogre([[1, 1, 1, 1], [2] * 8])
    before = list(contest.events)
    for command, args in [("exchange", {"attacker": knight.uid, "target": ogre.uid}),
                          ("form_team", {"members": [member(knight), member(squire)]}),
                          ("end", {"outcome": "Stop"}), ("give_tickets", {})]:
        assert actions.why_not(command, **args) is None
    assert contest.events == before and contest.dice.remaining == 2


def test_why_not_gives_the_role_and_the_missing_contest():
    contest, gm, viking, pirate = duel()
    ann = RoomSession(gm.room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    actions = Actions(ann)
    assert actions.why_not("undo") and not actions.can("undo")
    assert "Viking" in actions.why_not("choose", unit=viking.uid, cliche="Viking")  # not Ann's
    assert not actions.can("no_such_command")
    empty = Actions()
    assert "no contest" in empty.why_not("roll_round")
    assert "at least one" in empty.why_not("start_contest")  # the room's own dry run: no sides


def test_actions_mirror_the_room_until_disposed():
    contest, gm, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    watcher = Actions(RoomSession(gm.room, Actor.spectator()))
    assert watcher.role == "spectator" and watcher.contest is contest
    gm.act("roll_round")
    assert watcher.seq == gm.room.seq and watcher.contest.round == 1
    watcher.dispose()
    gm.act("undo")
    assert watcher.seq == gm.room.seq - 1  # no longer mirrored


def test_session_actions_on_a_real_local_room():
    from raisus_panel.room import Room

    gm = Room.local("Tavern", dice=ScriptedDice([[1, 2, 3, 4], [6, 5, 1, 1], [4, 4, 4]]))
    actions = Actions(gm)
    assert actions.role == "gm" and actions.contest is None
    olaf = actions.act("save_character", data={"name": "Olaf", "cliches": [{"name": "Viking", "rating": 4}]})
    assert olaf is gm.room.characters[0] and actions.characters == [olaf]
    pirate = actions.act("save_character", data={"name": "Pirate", "cliches": [{"name": "Pirate", "rating": 3}]})
    check = actions.act("action_check", character=olaf.uid, cliche="Viking", tn=10)
    assert check["success"] and check["faces"] == [1, 2, 3, 4] and len(actions.checks) == 1
    actions.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[pirate.uid])
    assert actions.contest is gm.room.contest and actions.can("roll_round")
    actions.act("roll_round")
    assert pirate.cliche("Pirate").current == 2
    with pytest.raises(RuleError):
        actions.act("volunteer", member=olaf.uid)
