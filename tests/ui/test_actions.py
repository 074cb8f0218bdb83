"""The Actions adapters: commands reach the models; refusals change nothing; `can` matches the rules."""

from __future__ import annotations

import param
import pytest

from raisus_panel.rules import Character, RuleError, ScriptedDice
from raisus_panel.ui import ContestActions, NotAllowed, SessionActions

from .conftest import duel, free_trio_vs_ogre, team_vs_ogre


def test_commands_reach_the_contest():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    assert actions.can("roll_round")
    events = actions.act("roll_round")
    assert events[-1]["type"] == "round_decided"
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
    actions = ContestActions(characters=[a, b], dice=ScriptedDice([[1, 2, 3, 4], [5, 4, 2], [6, 3, 1]]))
    assert actions.contest is None and not actions.can("roll_round")
    with pytest.raises(RuleError):
        actions.act("roll_round")
    viking = Character("Viking", {"Viking": 4})
    actions.characters = [*actions.characters, viking]
    check = actions.act("action_check", character=viking.uid, cliche="Viking", tn=10)
    assert check["success"] and check["faces"] == [1, 2, 3, 4] and actions.checks == [check]
    actions.act("start_contest", name="Showdown", side_a=[a.uid], side_b=[b.uid], single_roll=True)
    assert actions.contest.single_roll
    actions.act("roll_round")
    assert actions.contest.status == "ended" and actions.contest.winner == 0
    with pytest.raises(RuleError):
        actions.act("start_contest", name="x", side_a=["nobody"], side_b=[b.uid])


def test_roles_are_hints_and_refusals():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    actions.role = "player"
    assert actions.can("roll_round") and not actions.can("undo")
    with pytest.raises(NotAllowed):
        actions.act("end", outcome="The GM is busy")
    actions.role = "spectator"
    assert not actions.can("roll_round")
    with pytest.raises(NotAllowed):
        actions.act("roll_round")
    with pytest.raises(ValueError):
        actions.act("no_such_command")


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
    contest, actions, viking, pirate = duel()
    actions.role = "player"
    assert actions.why_not("undo") and not actions.can("undo")
    assert actions.can("choose", unit=viking.uid, cliche="Viking")
    assert not actions.can("no_such_command")
    empty = ContestActions()
    assert empty.why_not("roll_round") and empty.why_not("start_contest") is None


class FakeRoom(param.Parameterized):
    contest = param.Parameter(default=None, doc="The contest.")
    characters = param.List(default=[], doc="The characters.")
    checks = param.List(default=[], doc="The checks.")


class FakeSession:
    """What SessionActions needs from a RoomSession: act, why_not, room, actor."""

    def __init__(self, room, role="player"):
        self.room = room
        self.actor = type("Actor", (), {"role": role})()
        self.calls = []

    def act(self, name, **args):
        self.calls.append((name, args))
        if name == "roll_round":
            return self.room.contest.roll_round()
        raise PermissionError("not yours")

    def why_not(self, name, **args):
        return None if name == "roll_round" else "not yours"


def test_session_actions_mirror_the_room_and_send_commands():
    contest, _, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    room = FakeRoom(characters=[viking, pirate])
    session = FakeSession(room)
    actions = SessionActions(session)
    assert actions.role == "player" and actions.contest is None
    room.contest = contest
    assert actions.contest is contest
    assert actions.can("roll_round") and not actions.can("undo")
    actions.act("roll_round")
    assert session.calls == [("roll_round", {})] and contest.round == 1
    with pytest.raises(PermissionError):
        actions.act("undo")
    actions.dispose()
    room.contest = None
    assert actions.contest is contest  # no longer mirrored


def test_session_actions_on_a_real_local_room():
    from raisus_panel.room import Room

    gm = Room.local("Tavern", dice=ScriptedDice([[1, 2, 3, 4], [6, 5, 1, 1], [4, 4, 4]]))
    actions = SessionActions(gm)
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
