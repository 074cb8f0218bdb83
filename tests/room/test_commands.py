"""Each room command is declared once (room/commands/), and the room, permissions and staleness read it.

What issue 23 found spread over five modules: a command named in several, its arguments decoded two
or three times, two shapes of the ``undone`` event, an import cycle and a second way into the log.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import raisus_panel.room
from raisus_panel.room import COMMANDS, GM_ONLY, LocalRoom, PermissionDenied
from raisus_panel.room.commands import ARGUMENTS, parse_command
from raisus_panel.room.commands.spec import Member
from raisus_panel.room.events import ROOM_EVENT_FIELDS, room_event
from raisus_panel.room.stale import STATE_BOUND
from raisus_panel.rules import Character, Contest, RuleError, ScriptedDice

from .conftest import Table

ROOM = Path(raisus_panel.room.__file__).parent


def _literals(path: Path) -> set[str]:
    return {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def test_no_module_of_the_room_but_the_declarations_names_a_command():
    # the registry gives ``join`` by name, as a page gives any command: it is a caller, not a decider
    outside = {path.name: _literals(path) & set(COMMANDS) for path in ROOM.glob("*.py") if path.name != "registry.py"}
    # ``undo`` is also the name its events are recorded under (Room._undo, LocalRoom's direct undo)
    assert {name: found - {"undo"} for name, found in outside.items() if found - {"undo"}} == {}


def test_the_tables_are_read_from_the_declarations():
    assert set(ARGUMENTS) == set(COMMANDS)
    assert STATE_BOUND == {name for name, spec in COMMANDS.items() if spec.state_bound}
    assert set(GM_ONLY) == {name for name, spec in COMMANDS.items() if spec.players is None}
    assert {"roll_round", "undo", "open_round"} <= STATE_BOUND and "choose" not in STATE_BOUND
    assert not COMMANDS["set_client_seed"].undoable and COMMANDS["roll_round"].undoable


def test_arguments_are_parsed_once_into_a_typed_value():
    command = parse_command("form_team", {"members": [["k1", "Knight"], {"character": "s1", "cliche": "Squire",
                                                                          "appropriate": False}, "v1"]})
    assert command.name == "form_team"
    assert command.args.members == (Member("k1", "Knight"), Member("s1", "Squire", False), Member("v1"))
    assert parse_command("end", {"winner": 1}).name == "end_contest"
    with pytest.raises(RuleError) as caught:
        parse_command("choose", {"unit": "u", "approved": "yes"})
    assert caught.value.key == "error.room.not_flag"


@pytest.mark.parametrize("members", [[], "k", [[1, "Knight"]]])
def test_the_gm_and_a_player_meet_the_same_refusal_of_malformed_members(members):
    t = Table()
    knight = t.char("Knight", t.alice, Knight=4)
    t.act(t.gm, "start_contest", name="Melee", side_a=[knight], side_b=[t.char("Ogre", None, Ogre=5)])
    keys = set()
    for actor in (t.gm, t.alice):
        with pytest.raises(RuleError) as caught:
            t.act(actor, "form_team", members=members)
        assert not isinstance(caught.value, PermissionDenied)
        keys.add(caught.value.key)
    assert len(keys) == 1 and keys <= {"error.room.team_members", "error.room.member_spec"}


def test_a_room_event_has_exactly_its_documented_fields():
    assert room_event("title_set", title="Inn") == {"type": "title_set", "title": "Inn", "private": False}
    with pytest.raises(ValueError):
        room_event("title_set", title="Inn", colour="red")
    with pytest.raises(ValueError):
        room_event("player_joined")
    with pytest.raises(ValueError):
        room_event("teleported", where="Mars")
    assert "undone" in ROOM_EVENT_FIELDS


def _undone_fields(room) -> set[str]:
    return {k for e in room.log if e["type"] == "undone" for k in e}


def test_the_undone_event_has_one_shape_from_the_room_and_from_an_adopted_contest():
    viking, pirate = Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3})
    game = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6, 5, 1, 1], [4, 4, 4]] * 2))
    table = LocalRoom("Tavern")
    table.adopt(game)
    table.act("roll_round")
    table.act("undo")  # the room's undo
    game.roll_round()
    game.undo()  # the contest's own undo, written to the room's log by the room
    undone = [e for e in table.log if e["type"] == "undone"]
    assert len(undone) == 2 and undone[0].keys() == undone[1].keys()
    assert {"undone_cmd_id", "undone_command", "undone_seqs", "private"} <= _undone_fields(table)


def _runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it runs (imports under ``if TYPE_CHECKING:`` left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for n in ast.walk(node)}
    return {node.module or "" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and id(node) not in typing_only}


def test_the_session_module_does_not_import_the_room_module():
    assert "room" not in _runtime_imports(ROOM / "session.py")


def test_the_room_writes_its_log_in_one_place():
    tree = ast.parse((ROOM / "room.py").read_text(encoding="utf-8"))
    writers = {func.name for func in ast.walk(tree) if isinstance(func, ast.FunctionDef)
               for node in ast.walk(func) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr in ("_commit", "_log")}
    # _write is the way in; _heard and refresh take in what another process already wrote
    assert writers == {"_write", "_heard"}


def test_room_events_are_made_by_their_one_constructor():
    from raisus_panel.room.events import ROOM_EVENT_TYPES

    literals = []
    for path in [*ROOM.glob("*.py"), *ROOM.glob("commands/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict) and any(
                    isinstance(k, ast.Constant) and k.value == "type" and isinstance(v, ast.Constant)
                    and v.value in ROOM_EVENT_TYPES for k, v in zip(node.keys, node.values)):
                literals.append(f"{path.name}:{node.lineno}")
    assert literals == []  # each is room_event(kind, ...), checked against ROOM_EVENT_FIELDS


def test_the_written_permission_table_names_every_command_as_declared():
    """The room.commands docstring's table of what a player may, and its list of the GM's own, are
    written by hand: each command is in the one its declaration says (issue 23's audit found the
    command count hard-coded here instead)."""
    import re

    import raisus_panel.room.commands as commands

    doc = commands.__doc__
    table = doc.split("a player may ...", 1)[1].split("GM only:", 1)[0]
    rows = [re.match(r"\w+(, \w+)*", line).group() for line in table.splitlines()
            if line and not line.startswith(("=", " ", "command"))]
    written_player = {name for row in rows for name in row.split(", ")}
    gm_list = doc.split("GM only:", 1)[1].split("and the secret", 1)[0]
    written_gm = set(re.findall(r"``(\w+)``", gm_list))
    assert written_player == {name for name, spec in COMMANDS.items() if spec.players is not None}
    assert written_gm == set(GM_ONLY)
    assert written_player | written_gm == set(COMMANDS)
