"""One command path: a notebook's local room and a served room give the same answers, role by role.

The notebook table is built the notebook way -- characters and a contest made in plain Python, then
adopted by a :class:`~raisus_panel.room.LocalRoom` -- and the served one the dashboard's way -- a
room in an SQLite file made by the registry, players joining with the invitation, the GM creating
characters and starting the contest with commands. Both are played through the one adapter,
:class:`~raisus_panel.ui.Actions`, on the same dice; after every step each role's answer to every
command (accepted, or the refusal's catalog key) must be the same.
"""

from __future__ import annotations

import pytest

from raisus_panel.room import Actor, LocalRoom, Room, RoomRegistry, RoomSession, SQLiteStore
from raisus_panel.rules import Character, CharacterTeam, Contest, RuleError, SeededDice
from raisus_panel.ui import Actions

SEED = 5
ROLES = ("gm", "owner", "other", "spectator")


class NotebookTable:
    """Knight (Ann's) and Viking (Bob's) against an Ogre (the GM's), built in Python and adopted."""

    def __init__(self):
        self.room = LocalRoom("Tavern")
        ids = [RoomSession(self.room, Actor.player("")).act("join", name=n)[0]["player"]["player_id"]
               for n in ("Ann", "Bob")]
        self.players = dict(zip(("Ann", "Bob"), ids))
        knight = Character("Knight", {"Knight": 4}, owner=ids[0])
        viking = Character("Viking", {"Viking": 2, "Cook": 1}, owner=ids[1])
        ogre = Character("Ogre", {"Ogre": 5})
        self.contest = Contest("Ogre fight", [knight, viking], ogre, dice=SeededDice(SEED))
        self.room.adopt(self.contest)
        self.sessions = {"gm": self.room.session,
                         "owner": RoomSession(self.room, Actor.player(ids[0], "Ann")),
                         "other": RoomSession(self.room, Actor.player(ids[1], "Bob")),
                         "spectator": RoomSession(self.room, Actor.spectator("Sam"))}


class ServedTable:
    """The same table made the dashboard's way, in an SQLite file."""

    def __init__(self, path):
        registry = RoomRegistry(SQLiteStore(path), dice_factory=lambda: SeededDice(SEED))
        self.room, links = registry.create_room("Tavern")
        gm = registry.open_session(links.gm)
        ann, _ = registry.join(links.player, "Ann")
        bob, _ = registry.join(links.player, "Bob")
        self.players = {"Ann": ann.actor.player_id, "Bob": bob.actor.player_id}
        uids = []
        for name, cliches, owner in (("Knight", {"Knight": 4}, "Ann"), ("Viking", {"Viking": 2, "Cook": 1}, "Bob"),
                                     ("Ogre", {"Ogre": 5}, None)):
            data = {"name": name, "owner": self.players.get(owner, ""),
                    "cliches": [{"name": k, "rating": v} for k, v in cliches.items()]}
            uids.append(gm.act("create_character", **data)[0]["character"]["uid"])
        gm.act("start_contest", name="Ogre fight", side_a=uids[:2], side_b=uids[2:])
        self.contest = self.room.contest
        self.sessions = {"gm": gm, "owner": ann, "other": bob,
                         "spectator": registry.open_session(links.spectator)}


def commands(contest: Contest) -> list[tuple[str, dict]]:
    """Every command with arguments that name this table's units (by their names)."""
    knight, viking, ogre = (next(c for c in contest.characters() if c.name == n) for n in ("Knight", "Viking", "Ogre"))
    team = next((u for u in contest.sides[0] if isinstance(u, CharacterTeam)), None)
    member = lambda c, cliche: {"character": c.uid, "cliche": cliche}  # noqa: E731
    return [
        ("roll_round", {}), ("end_round", {}), ("undo", {}), ("open_round", {"open": True}),
        ("choose", {"unit": knight.uid, "cliche": "Knight"}),
        ("choose", {"unit": viking.uid, "cliche": "Cook", "appropriate": False}),
        ("approve", {"unit": viking.uid}),
        ("exchange", {"attacker": knight.uid, "target": ogre.uid}),
        ("exchange", {"attacker": ogre.uid, "target": viking.uid}),
        ("form_team", {"members": [member(knight, "Knight"), member(viking, "Viking")]}),
        ("disband", {"team": team.uid if team else "none"}),
        ("volunteer", {"member": viking.uid}), ("drop_out", {"member": viking.uid}),
        ("give_tickets", {}), ("end", {"outcome": "Stop", "winner": 0}),
        ("decide_fate", {"character": ogre.uid, "text": "Flees"}), ("veto_fate", {"character": ogre.uid}),
        ("recover", {"character": knight.uid}), ("close_contest", {}),
        ("action_check", {"character": knight.uid, "cliche": "Knight", "tn": 10}),
        ("action_check", {"character": ogre.uid, "cliche": "Ogre", "tn": 10, "private": True}),
        ("save_character", {"data": {**knight.to_dict(), "name": "Sir Knight"}}),
        ("start_contest", {"name": "Again", "side_a": [knight.uid], "side_b": [ogre.uid]}),
    ]


def answers(table) -> dict:
    """Each role's answer to each command: None when accepted, else the refusal's catalog key."""
    out = {}
    for role in ROLES:
        actions = Actions(table.sessions[role])
        for i, (name, args) in enumerate(commands(table.contest)):
            refusal = actions.why_not_error(name, **args)
            out[role, i, name] = None if refusal is None else refusal.key
        actions.dispose()
    return out


def state(table) -> dict:
    contest = table.contest
    return {"round": contest.round, "status": contest.status, "history": len(contest.history),
            "scores": sorted(c.label for c in contest.characters()),
            "sides": [[u.name for u in side] for side in contest.sides]}


def knight_and_viking(units: dict) -> dict:
    return {"members": [{"character": units["Knight"], "cliche": "Knight"},
                        {"character": units["Viking"], "cliche": "Viking"}]}


#: The game both tables play: (who, command, its arguments from the units' uids by name).
SCRIPT = [
    ("gm", "open_round", lambda u: {"open": True}),
    ("owner", "roll_round", lambda u: {}),
    ("other", "form_team", knight_and_viking),  # refused: Knight is not Bob's
    ("gm", "form_team", knight_and_viking),
    ("gm", "roll_round", lambda u: {}),
    ("gm", "roll_round", lambda u: {}),
    ("gm", "undo", lambda u: {}),
    ("gm", "roll_round", lambda u: {}),
]


@pytest.fixture
def tables(tmp_path):
    return NotebookTable(), ServedTable(tmp_path / "served.sqlite")


def test_a_notebook_room_and_a_served_room_answer_alike(tables):
    notebook, served = tables
    before = answers(notebook)
    # the only difference before play: the served GM may undo starting the contest; adopting is no move
    assert before.pop(("gm", 2, "undo")) == "error.room.nothing_to_undo"
    assert before == {k: v for k, v in answers(served).items() if k != ("gm", 2, "undo")}
    played = []
    for who, name, build in SCRIPT:
        outcomes = []
        for table in (notebook, served):
            args = build({c.name: c.uid for c in table.contest.characters()})
            try:
                Actions(table.sessions[who]).act(name, **args)
                outcomes.append(None)
            except RuleError as exc:  # a refusal (PermissionDenied is one): compare its key
                outcomes.append(exc.key)
        assert outcomes[0] == outcomes[1], (who, name, outcomes)
        assert state(notebook) == state(served), (who, name)
        assert answers(notebook) == answers(served), (who, name)
        played.append(outcomes[0])
    assert notebook.contest.round >= 2 and None in played and any(played)


def test_the_notebooks_objects_are_the_rooms(tables):
    notebook, _ = tables
    actions = Actions(notebook.room.session)
    assert actions.contest is notebook.contest
    assert set(notebook.room.characters) == set(notebook.contest.characters())
    knight, viking, ogre = notebook.contest.characters()
    actions.act("exchange", attacker=knight.uid, target=ogre.uid)
    notebook.contest.end_round()  # a command on the adopted contest itself goes into the room's log too
    assert notebook.room.log[-1]["event"]["type"] == "round_ended"
    assert actions.seq == notebook.room.seq
    reloaded = Room.load(notebook.room.store, notebook.room.room_id)
    assert reloaded.contest.events == notebook.contest.events
    assert [c.to_dict() for c in reloaded.characters] == [c.to_dict() for c in notebook.room.characters]


def test_an_adopted_contests_own_undo_is_the_tables():
    notebook = NotebookTable()
    actions = Actions(notebook.room.session)
    knight, viking, ogre = notebook.contest.characters()
    actions.act("exchange", attacker=knight.uid, target=ogre.uid)
    actions.act("action_check", character=viking.uid, cliche="Cook", tn=5)  # not a contest command
    seq = notebook.room.seq
    notebook.contest.undo()  # takes back the exchange, the contest's last command
    assert notebook.contest.exchanges_this_round == 0 and notebook.room.seq == seq + 1
    assert notebook.room.log[-1]["type"] == "undone" and notebook.room.log[-1]["undone_command"] == "exchange"
    assert len(notebook.room.checks) == 1  # the check stays
    reloaded = Room.load(notebook.room.store, notebook.room.room_id)
    assert reloaded.contest.events == notebook.contest.events
    actions.act("undo")  # the table's undo: the check, once
    assert notebook.room.checks == [] and notebook.contest.exchanges_this_round == 0


def test_the_adopted_contest_stays_the_tables_after_any_undo():
    notebook = NotebookTable()
    actions = Actions(notebook.room.session)
    knight, viking, ogre = notebook.contest.characters()
    actions.act("exchange", attacker=knight.uid, target=ogre.uid)
    actions.act("action_check", character=viking.uid, cliche="Cook", tn=5)
    actions.act("undo")  # a room command: the room re-projects its whole log
    assert notebook.room.contest is notebook.contest and actions.contest is notebook.contest
    assert notebook.room.checks == [] and notebook.contest.exchanges_this_round == 1
    notebook.contest.end_round()  # still the table's: its direct commands are still logged
    assert notebook.room.log[-1]["event"]["type"] == "round_ended"
    assert Room.load(notebook.room.store, notebook.room.room_id).contest.events == notebook.contest.events
