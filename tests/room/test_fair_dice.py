"""A room's committed dice: commitments before the first roll, reveals, client seeds, undo, restarts,
and the GM's secret rolls kept secret -- all verified by ``rules.verify`` on real played rooms."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raisus_panel.room import Actor, Room
from raisus_panel.room.transfer import import_room
from raisus_panel.rules import RuleError, verify
from raisus_panel.rules.commitment import roll_faces

from .conftest import Table


def committed_table() -> Table:
    t = Table(committed=True)
    t.k = t.char("Knight", t.alice, Knight=4)
    t.o = t.char("Ogre", None, Ogre=10)
    return t


def start(t: Table, **args) -> None:
    t.act(t.gm, "start_contest", name="Bridge", side_a=[t.k], side_b=[t.o], **args)


def play_out(t: Table) -> None:
    while t.room.contest.status == "active":
        t.act(t.gm, "roll_round")


def contest_events(room_events, kind=None):
    return [e for e in room_events if e["type"] == "contest" and (kind is None or e["event"]["type"] == kind)]


def test_a_played_room_verifies_contests_and_both_checks_sessions():
    t = committed_table()
    t.act(t.alice, "action_check", character=t.k, cliche="Knight", tn=10)
    t.act(t.gm, "action_check", character=t.o, cliche="Ogre", tn=10, private=True)
    start(t)
    play_out(t)
    t.act(t.gm, "reveal_checks")
    checks = verify(t.room.export_json())
    assert [(c.kind, c.private, c.status) for c in checks] == [
        ("contest", False, "verified"), ("checks", False, "verified"), ("checks", True, "verified")]
    assert checks[0].name == "Bridge" and checks[0].rolls > 0


def test_commitments_are_in_the_log_before_the_first_roll():
    t = committed_table()
    t.act(t.alice, "action_check", character=t.k, cliche="Knight", tn=10)
    start(t)
    t.act(t.gm, "roll_round")
    log = t.room.log
    kinds = [(e["type"], e.get("event", {}).get("type")) for e in log]
    assert kinds.index(("dice_committed", None)) < kinds.index(("action_checked", None))
    assert kinds.index(("contest", "dice_committed")) < kinds.index(("contest", "round_decided"))
    assert kinds.index(("contest", "contest_started")) + 1 == kinds.index(("contest", "dice_committed"))
    check = next(e for e in log if e["type"] == "action_checked")
    assert check["draw"]["scope"] == next(e for e in log if e["type"] == "dice_committed")["scope"]
    # the seed is nowhere in the log before it is revealed
    secret_seeds = t.store.room_meta(t.room.room_id)[Room.SECRETS].values()
    assert not any(seed in json.dumps(log) for seed in secret_seeds)
    assert verify(t.room.export_json())[0].status == "unrevealed"


def test_the_gm_secret_rolls_cannot_be_derived_from_what_players_see():
    t = committed_table()
    for _ in range(3):
        t.act(t.gm, "action_check", character=t.o, cliche="Ogre", tn=10, private=True)
    t.act(t.alice, "action_check", character=t.k, cliche="Knight", tn=10)
    start(t)
    play_out(t)
    t.act(t.gm, "reveal_checks")
    everything = t.room.visible_events(t.gm)
    secret = [e for e in everything if e["type"] == "action_checked" and e["private"]]
    gm_reveal = next(e for e in everything if e["type"] == "dice_revealed" and e["private"])
    seen = t.room.visible_events(t.alice)
    seen_text = json.dumps(seen)
    assert not any(e["private"] for e in seen)
    assert gm_reveal["seed"] not in seen_text and gm_reveal["commitment"] not in seen_text
    assert gm_reveal["scope"] not in seen_text
    # every seed a player has been shown gives other faces for the secret rolls than they had
    shown = [e["seed"] for e in seen if e["type"] == "dice_revealed"]
    shown += [e["event"]["seed"] for e in contest_events(seen, "dice_revealed")]
    assert len(shown) == 2  # the public checks' and the contest's
    for event in secret:
        faces, draw = event["check"]["faces"], event["draw"]
        assert len(faces) == 10
        for seed in shown:
            for scope in (draw["scope"], "checks"):
                assert roll_faces(bytes.fromhex(seed), scope, draw["roll"], len(faces), {}) != faces
    # while the GM, who has the whole log, verifies the secret session too
    assert all(c.ok for c in verify(t.room.export_json(t.gm)))


def test_players_set_their_own_client_seed_before_the_first_roll_only():
    t = committed_table()
    start(t)
    started = contest_events(t.room.log, "dice_committed")[0]["event"]
    assert set(started["client_seeds"]) == {t.alice.player_id, t.bob.player_id}  # random by default
    event = t.act(t.alice, "set_client_seed", seed="three crows at dawn")[0]
    assert event["event"] == {**event["event"], "type": "client_seed_set", "who": t.alice.player_id,
                              "seed": "three crows at dawn"}
    t.act(t.gm, "roll_round")
    seq, stored, snap = t.room.seq, len(t.store.read(t.room.room_id)), t.snapshot()
    with pytest.raises(RuleError) as caught:
        t.act(t.bob, "set_client_seed", seed="too late")
    assert caught.value.key == "error.dice.seeds_fixed"
    assert (t.room.seq, len(t.store.read(t.room.room_id)), t.snapshot()) == (seq, stored, snap)
    with pytest.raises(RuleError) as caught:
        t.act(t.bob, "set_client_seed", seed="two\nlines")
    assert caught.value.key == "error.input.one_line"
    play_out(t)
    assert verify(t.room.export_json())[0].ok


def test_undo_never_takes_back_a_client_seed_and_never_reuses_a_roll_number():
    t = committed_table()
    start(t)
    first = t.act(t.gm, "roll_round")[0]["event"]
    t.act(t.gm, "undo")
    again = t.act(t.gm, "roll_round")[0]["event"]
    assert again["draw"] > first["draw"]  # the undone roll's numbers are used up
    assert [e["type"] for e in t.room.log].count("undone") == 1
    play_out(t)
    [check] = verify(t.room.export_json())
    assert check.ok and check.unused == ()  # the room's log keeps the undone roll: it is checked too

    t2 = committed_table()
    start(t2)
    t2.act(t2.alice, "set_client_seed", seed="mine")
    t2.act(t2.gm, "choose", unit=t2.k, cliche="Knight")
    t2.act(t2.gm, "undo")  # takes back the choice, not the seed (nor the start)
    assert contest_events(t2.room.log, "client_seed_set")
    assert t2.room.contest.dice_commitment["client_seeds"][t2.alice.player_id] == "mine"
    play_out(t2)
    assert verify(t2.room.export_json())[0].ok


def test_a_reloaded_room_rolls_on_under_the_same_commitment():
    t = committed_table()
    start(t)
    t.act(t.gm, "roll_round")
    again = t.reloaded()
    assert again.snapshot(t.gm) == t.room.snapshot(t.gm)  # replaying the log gives the same state
    while again.contest.status == "active":
        again.apply(t.gm, "roll_round")
    assert len(contest_events(again.log, "dice_committed")) == 1
    assert verify(again.export_json())[0].ok


def test_an_imported_room_has_no_secret_and_commits_anew_before_rolling():
    t = committed_table()
    start(t)
    t.act(t.gm, "roll_round")
    imported = import_room(t.store, t.room.export_json())
    gm = Actor.gm()
    events = imported.apply(gm, "roll_round")
    assert events[0]["event"]["type"] == "dice_committed"
    while imported.contest.status == "active":
        imported.apply(gm, "roll_round")
    [check] = verify(imported.export_json())
    assert check.status == "unrevealed" and len(check.commitments) == 2  # the first seed stayed behind


def test_the_gm_reveals_early_and_the_next_roll_commits_to_a_new_seed():
    t = committed_table()
    start(t)
    t.act(t.gm, "roll_round")
    revealed = t.act(t.gm, "reveal_dice")
    assert revealed[0]["event"]["type"] == "dice_revealed"
    with pytest.raises(RuleError) as caught:
        t.act(t.gm, "reveal_dice")
    assert caught.value.key == "error.dice.nothing_to_reveal"
    events = t.act(t.gm, "roll_round")
    assert [e["event"]["type"] for e in events][:2] == ["dice_committed", "round_decided"]
    t.act(t.gm, "end_contest", outcome="The bridge falls.")
    assert verify(t.room.export_json())[0].ok


def test_tampering_with_a_room_export_names_the_roll():
    t = committed_table()
    start(t)
    play_out(t)
    data = json.loads(t.room.export_json())
    decided = [e for e in data["events"] if e["type"] == "contest" and e["event"]["type"] == "round_decided"]
    roll = decided[0]["event"]["attempts"][0][0]
    roll["faces"][-1] = roll["faces"][-1] % 6 + 1
    roll["total"] = sum(roll["faces"])
    [check] = verify(json.dumps(data))
    assert check.status == "failed" and check.problem.kind == "face"
    assert check.problem.roll == decided[0]["event"]["draw"] and check.problem.die == len(roll["faces"])


def test_scripted_rooms_are_not_committed():
    t = Table(rolls=[[1, 1, 1, 1], [2] * 8])
    t.k = t.char("Knight", t.alice, Knight=4)
    t.o = t.char("Ogre", None, Ogre=8)
    start(t)
    t.act(t.gm, "roll_round")
    assert not contest_events(t.room.log, "dice_committed")
    with pytest.raises(RuleError) as caught:
        t.act(t.alice, "set_client_seed", seed="x")
    assert caught.value.key == "error.dice.not_committed"



ROOM_MOVES = st.lists(st.sampled_from(["check", "secret", "roll", "roll", "undo", "reveal_checks", "reveal_dice",
                                       "reload", "seed"]), max_size=12)


def play_then_verify(moves) -> None:
    """Play ``moves`` at a committed table, end the contest, reveal the checks: every die verifies."""
    t = committed_table()
    start(t)
    room = t.room
    for move in moves:
        try:
            if move == "check":
                room.apply(t.alice, "action_check", {"character": t.k, "cliche": "Knight", "tn": 10})
            elif move == "secret":
                room.apply(t.gm, "action_check", {"character": t.o, "cliche": "Ogre", "tn": 10, "private": True})
            elif move == "roll" and room.contest is not None and room.contest.status == "active":
                room.apply(t.gm, "roll_round")
            elif move in ("undo", "reveal_checks", "reveal_dice"):
                room.apply(t.gm, move)
            elif move == "seed":
                room.apply(t.alice, "set_client_seed", {"seed": "mine"})
            elif move == "reload":
                room = Room.load(t.store, room.room_id)
        except RuleError:
            pass
    if room.contest is not None and room.contest.status == "active":
        room.apply(t.gm, "end_contest", {"outcome": "Dawn."})
    try:
        room.apply(t.gm, "reveal_checks")
    except RuleError:
        pass
    checks = verify(room.export_json())
    assert all(c.ok or c.status == "uncommitted" for c in checks), [c.message for c in checks if not c.ok]


# Derandomized: the same examples on every run, so CI does not turn on a draw. To search further by
# hand: RAISUS_FAIR_DICE_EXAMPLES=2000 pytest tests/room/test_fair_dice.py -k any_play
@settings(max_examples=int(os.environ.get("RAISUS_FAIR_DICE_EXAMPLES", 25)), deadline=None,
          derandomize="RAISUS_FAIR_DICE_EXAMPLES" not in os.environ)
@given(moves=ROOM_MOVES)
def test_any_play_at_a_table_verifies_after_the_end_and_the_reveal(moves):
    play_then_verify(moves)


# Plays random runs found failing once: an undo took back the commitment the dice went on with (or
# the reveal before it), and the room, reloaded or not, rolled on or ended without revealing it.
@pytest.mark.parametrize("moves", [
    ["reveal_dice", "roll", "undo", "undo"],
    ["reveal_dice", "roll", "undo", "undo", "reload"],
    ["reveal_dice", "roll", "undo", "reload", "undo"],
    ["roll", "reveal_dice", "roll", "undo", "undo", "reload", "roll", "undo"],
    ["roll", "reveal_dice", "undo", "reload", "roll"],
])
def test_every_seed_is_revealed_at_the_end_whatever_undo_took_back(moves):
    play_then_verify(moves)


@pytest.mark.parametrize("reload", [False, True])
def test_a_seed_revealed_then_taken_back_by_undo_never_rolls_again(reload):
    """The reveal reached every page before the undo: anyone could predict that seed's dice now."""
    t = committed_table()
    start(t)
    t.act(t.gm, "reveal_dice")
    t.act(t.gm, "undo")
    room = Room.load(t.store, t.room.room_id) if reload else t.room
    room.apply(t.gm, "roll_round")
    first, renewed = [e["event"]["commitment"] for e in contest_events(room.log, "dice_committed")]
    assert first != renewed
    assert verify(room.export_json())[0].status == "unrevealed"  # the renewed seed is still secret


def test_another_process_rolls_on_under_the_commitment_and_takes_seeds_before_the_first_roll():
    t = committed_table()
    start(t)
    other = Room.load(t.store, t.room.room_id)  # a second process on the same store, after the start
    player = next(iter(other.players))
    alice = Actor.player(player, other.players[player])
    other.check(alice, "set_client_seed", {"seed": "from the other process"})  # allowed there too
    other.apply(alice, "set_client_seed", {"seed": "from the other process"})
    while other.contest.status == "active":
        other.apply(t.gm, "roll_round")
    assert len(contest_events(other.log, "dice_committed")) == 1  # no new commitment was needed
    assert verify(other.export_json())[0].ok


def test_verify_takes_a_room_or_its_session():
    gm = Room.local("Docks")
    uid = gm.act("create_character", name="Ann", cliches=[{"name": "Fencer", "rating": 3}])[0]["character"]["uid"]
    gm.act("action_check", character=uid, cliche="Fencer", tn=5)
    gm.act("reveal_checks")
    assert [c.ok for c in verify(gm)] == [c.ok for c in verify(gm.room)] == [True]


def test_an_adopted_contest_rolls_under_the_commitment_it_showed():
    """Issue 22 (found playing 13 in JupyterLab): a notebook's ``Actions.local(Contest(...,
    dice=CommittedDice()))`` showed a commitment on the Fair dice card, and the first roll revealed
    that seed and committed to a new one before rolling: the dice shown were never the dice rolled.
    The room keeps an adopted contest's seed, so round 1 rolls under the commitment shown."""
    from raisus_panel.rules import Character, CommittedDice, Contest
    from raisus_panel.ui import Actions

    contest = Contest("Bridge", Character("Knight", {"Knight": 4}), Character("Ogre", {"Ogre": 5}),
                      dice=CommittedDice())
    shown = contest.dice.commitment
    actions = Actions.local(contest)
    actions.act("roll_round")
    kinds = [e["type"] for e in contest.events]
    assert kinds == ["contest_started", "dice_committed", "round_decided"], kinds
    assert contest.dice.commitment == shown and not contest.dice.revealed
    actions.act("reveal_dice")
    [check] = [c for c in verify(actions.room.export_json()) if c.kind == "contest"]
    assert check.ok and [c["commitment"] for c in check.commitments] == [shown]
