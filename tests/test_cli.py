"""``raisus verify FILE``: one line per contest, a summary line per part, exit 0 only when no die fails
(dice not revealed yet are no failure), and a clear message (never a traceback) for a file that is no game log."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from raisus_panel import cli
from raisus_panel.room import Actor, MemoryStore, Room
from raisus_panel.room.limits import MAX_ROOM_FILE_BYTES


def played_room_file(tmp_path, *, tamper=False):
    room = Room.create(MemoryStore(), "Tavern")
    gm = Actor.gm()
    for uid, name, rating in (("ann", "Ann", 4), ("bo", "Bo", 3)):
        room.apply(gm, "create_character", {"uid": uid, "name": name, "cliches": [{"name": name, "rating": rating}]})
    room.apply(gm, "action_check", {"character": "ann", "cliche": "Ann", "tn": 10})
    room.apply(gm, "start_contest", {"name": "Duel", "side_a": ["ann"], "side_b": ["bo"]})
    while room.contest.status == "active":
        room.apply(gm, "roll_round")
    room.apply(gm, "reveal_checks")
    data = json.loads(room.export_json())
    if tamper:
        event = next(e["event"] for e in data["events"] if e["type"] == "contest" and e["event"]["type"] == "round_decided")
        roll = event["attempts"][0][1]
        roll["faces"][1] = roll["faces"][1] % 6 + 1
        roll["total"] = sum(roll["faces"])
        tamper = event["draw"] + 1
    path = tmp_path / "room.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, tamper


def test_a_played_room_verifies_with_one_line_per_contest(tmp_path, capsys):
    path, _ = played_room_file(tmp_path)
    assert cli.main(["verify", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4  # one line per contest and checks session, then a summary line per part
    assert lines[0].startswith("Duel: verified (") and lines[1].startswith("action checks checks-")
    assert lines[2:] == ["Contests: 1 contest, 1 verified.", "Action checks: 1 session, 1 verified."]
    assert cli.main(["verify", str(path), "--lang", "ko"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Duel: 검증됨 (")


def test_a_tampered_face_fails_and_names_the_roll(tmp_path, capsys):
    path, roll = played_room_file(tmp_path, tamper=True)
    assert cli.main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"Duel: FAILED: roll {roll}, die 2: the log says" in out
    assert "action checks" in out and out.count("verified (") == 1  # the checks still verify


@pytest.mark.parametrize("content, message", [
    (b"{ not json", "This is not a game log (not valid JSON"),
    (b"\xff\xfe\x00garbage", "This is not a game log (not valid JSON"),
    (b'{"format": "raisus_panel/room", "version": 1, "events": "no"}', "neither a contest save nor a room export"),
    (b"[" * 100_000 + b"]" * 100_000, "neither a contest save nor a room export"),
])
def test_a_file_that_is_no_log_gets_a_clear_message_and_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert cli.main(["verify", str(path)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err and captured.out == ""


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, capsys):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(MAX_ROOM_FILE_BYTES + 1)  # sparse: nothing is written, nothing is read
    assert cli.main(["verify", str(path)]) == 2
    assert f"is at most {MAX_ROOM_FILE_BYTES} bytes" in capsys.readouterr().err


def test_a_missing_file_and_a_file_without_dice(tmp_path, capsys):
    assert cli.main(["verify", str(tmp_path / "none.json")]) == 2
    assert "Cannot read" in capsys.readouterr().err
    room = Room.create(MemoryStore(), "Empty")
    (tmp_path / "empty.json").write_text(room.export_json(), encoding="utf-8")
    assert cli.main(["verify", str(tmp_path / "empty.json")]) == 1
    assert "nothing to verify" in capsys.readouterr().out


def test_the_installed_command_runs_as_a_process(tmp_path):
    path, _ = played_room_file(tmp_path, tamper=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-m", "raisus_panel.cli", "verify", str(path)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 1 and "FAILED: roll" in done.stdout and not done.stderr


# -- issue 21: a summary line per part; unrevealed checks are no failure; a deleted roll is -------
def unrevealed_checks_room_file(tmp_path):
    room = Room.create(MemoryStore(), "Tavern")
    gm = Actor.gm()
    for uid, name, rating in (("ann", "Ann", 4), ("bo", "Bo", 3)):
        room.apply(gm, "create_character", {"uid": uid, "name": name, "cliches": [{"name": name, "rating": rating}]})
    room.apply(gm, "action_check", {"character": "ann", "cliche": "Ann", "tn": 10})
    room.apply(gm, "start_contest", {"name": "Duel", "side_a": ["ann"], "side_b": ["bo"]})
    while room.contest.status == "active":
        room.apply(gm, "roll_round")
    path = tmp_path / "room.json"
    path.write_text(room.export_json(), encoding="utf-8")  # the checks' seed was never revealed
    return path


def test_checks_not_revealed_yet_are_no_failure_and_the_summary_says_why(tmp_path, capsys):
    path = unrevealed_checks_room_file(tmp_path)
    assert cli.main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Duel: verified (") and "not revealed yet" in out[1]
    assert out[-2] == "Contests: 1 contest, 1 verified."
    assert out[-1].startswith("Action checks: 1 session, 1 not revealed yet (no failure: verify again")
    assert cli.main(["verify", str(path), "--lang", "ko"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("행동 판정: 1개 묶음, 1개는 아직 공개 전")


def test_a_summary_counts_a_failure(tmp_path, capsys):
    path, _ = played_room_file(tmp_path, tamper=True)
    assert cli.main(["verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "Contests: 1 contest, 1 failed." in out and "Action checks: 1 session, 1 verified." in out


def test_a_roll_deleted_from_a_room_export_fails_and_names_the_roll(tmp_path, capsys):
    path, _ = played_room_file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    rounds = [e for e in data["events"] if e["type"] == "contest" and e["event"]["type"] == "round_decided"]
    assert len(rounds) >= 2
    deleted = rounds[0]["event"]["draw"]
    data["events"].remove(rounds[0])  # deleted by hand: no undo event says it was taken back
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"Duel: FAILED: roll {deleted} is missing from the log, and no undo took it back" in out
    assert "taken back" not in out.replace("no undo took it back", "")


def test_a_round_undone_in_the_room_still_verifies(tmp_path, capsys):
    room = Room.create(MemoryStore(), "Tavern")
    gm = Actor.gm()
    for uid, name, rating in (("ann", "Ann", 4), ("bo", "Bo", 3)):
        room.apply(gm, "create_character", {"uid": uid, "name": name, "cliches": [{"name": name, "rating": rating}]})
    room.apply(gm, "start_contest", {"name": "Duel", "side_a": ["ann"], "side_b": ["bo"]})
    room.apply(gm, "roll_round")
    room.apply(gm, "undo")
    while room.contest.status == "active":
        room.apply(gm, "roll_round")
    path = tmp_path / "room.json"
    path.write_text(room.export_json(), encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Duel: verified (")


# -- raisus links ROOM --new-gm (issue 21): the server's owner gives a locked-out GM a new link ------------------

def test_links_new_gm_issues_a_working_gm_link_and_retires_the_old_one_on_a_real_sqlite_file(tmp_path):
    from raisus_panel.room import RoomRegistry, SQLiteStore
    from raisus_panel.room.roles import PermissionDenied

    db = str(tmp_path / "raisus.sqlite")
    store = SQLiteStore(db)
    room, links = RoomRegistry(store).create_room("Long evening", gm_name="Gina")
    store.close()
    done = subprocess.run([sys.executable, "-m", "raisus_panel.cli", "links", room.room_id, "--new-gm", "--db", db,
                           "--url", "http://table.example/dashboard"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    link = done.stdout.strip().splitlines()[-1]
    assert link.startswith("http://table.example/dashboard?token=")
    token = link.partition("token=")[2]
    assert token != links.gm and token.startswith(room.room_id + ".")
    registry = RoomRegistry(SQLiteStore(db))
    session = registry.open_session(token)
    assert session.actor.is_gm and session.actor.name == "Gina"
    with pytest.raises(PermissionDenied) as refused:
        registry.open_session(links.gm)
    assert refused.value.key == "error.link.gm_replaced"  # and says how the next lost one comes back
    assert refused.value.fields["room_id"] == room.room_id
    # the other links still work
    assert registry.resolve(links.spectator)[1].value == "spectator"


def test_links_new_gm_refuses_an_unknown_room_and_a_missing_action_and_changes_nothing(tmp_path, capsys):
    from raisus_panel.room import RoomRegistry, SQLiteStore

    db = str(tmp_path / "raisus.sqlite")
    store = SQLiteStore(db)
    room, links = RoomRegistry(store).create_room("Long evening")
    store.close()
    assert cli.main(["links", "nosuchroom", "--new-gm", "--db", db]) == 2
    err = capsys.readouterr().err
    assert "There is no room 'nosuchroom' on this store" in err and "Traceback" not in err
    assert cli.main(["links", room.room_id, "--db", db]) == 2
    assert "--new-gm" in capsys.readouterr().err
    assert RoomRegistry(SQLiteStore(db)).open_session(links.gm).actor.is_gm  # still the GM's link


def test_links_new_gm_takes_a_room_id_that_begins_with_a_dash_as_it_is_copied_from_a_link(tmp_path, monkeypatch):
    """CI met a room ``-3VzmUH8Bv9_``: argparse took it for an option ('the following arguments are required: room')."""
    from raisus_panel.room import RoomRegistry, SQLiteStore
    from raisus_panel.room import registry as registry_module

    db = str(tmp_path / "raisus.sqlite")
    store = SQLiteStore(db)
    monkeypatch.setattr(registry_module, "new_room_id", lambda: "-3VzmUH8Bv9_")  # a room made before ids avoided '-'
    room, links = RoomRegistry(store).create_room("Older room", gm_name="Gina")
    store.close()
    for argv in (["links", room.room_id, "--new-gm", "--db", db], ["links", "--new-gm", f"--db={db}", room.room_id],
                 ["links", "--new-gm", "--db", db, "--", room.room_id]):
        done = subprocess.run([sys.executable, "-m", "raisus_panel.cli", *argv], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        token = done.stdout.strip().splitlines()[-1].partition("token=")[2]
        assert RoomRegistry(SQLiteStore(db)).open_session(token).actor.is_gm


def test_new_room_ids_never_begin_with_a_dash():
    from raisus_panel.room.room import new_room_id

    assert not any(new_room_id().startswith("-") for _ in range(2000))
