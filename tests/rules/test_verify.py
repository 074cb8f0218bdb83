"""Committed dice and their verification: commit, roll, reveal, and anyone recomputes every die.

No dice are mocked: every contest here rolls :class:`CommittedDice` for real, and the checks tamper
with what a real game wrote.
"""

import copy
import json
import pathlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raisus_panel.rules import (
    Character,
    CharacterTeam,
    CommittedDice,
    Contest,
    RuleError,
    RulesProfile,
    SaveFileError,
    verify,
    verify_contest,
)
from raisus_panel.rules.commitment import (
    ACCEPT_BELOW,
    SCHEME,
    commitment_of,
    face_from_blocks,
    face_of_byte,
    roll_faces,
    rolls_of,
)

SEED = bytes(range(32))
SAVES = pathlib.Path(__file__).parent / "saves"


def duel(seed=SEED, **kw):
    ann = Character("Ann", {"Fencer": 4}, uid="ann")
    bo = Character("Bo", {"Brute": 3}, uid="bo")
    return Contest("Duel", ann, bo, dice=CommittedDice(seed), uid="duel", **kw)


def played(seed=SEED):
    contest = duel(seed)
    while contest.status == "active":
        contest.roll_round()
    return contest


def rounds(events):
    return [e for e in events if e["type"] == "round_decided"]


# -- the face mapping ----------------------------------------------------------------------------
def test_the_face_mapping_is_exactly_uniform_over_every_byte():
    faces = Counter(face_of_byte(b) for b in range(256))
    assert {f: faces[f] for f in range(1, 7)} == {f: 42 for f in range(1, 7)}  # 252 / 6
    assert faces[None] == 256 - ACCEPT_BELOW == 4


def test_a_rejected_byte_moves_on_to_the_next_byte_and_block():
    assert face_from_blocks([bytes([255, 253, 7])]) == 2
    assert face_from_blocks([bytes([252] * 32), bytes([254, 11])]) == 6  # a whole block skipped
    with pytest.raises(ValueError):
        face_from_blocks([bytes([252, 253, 254, 255])])


def test_faces_depend_on_the_seed_the_counter_the_scope_and_the_client_seeds():
    base = roll_faces(SEED, "duel", 1, 20, {})
    assert all(1 <= f <= 6 for f in base)
    assert roll_faces(SEED, "duel", 1, 20, {}) == base  # deterministic
    for other in (roll_faces(bytes(32), "duel", 1, 20, {}), roll_faces(SEED, "duel", 2, 20, {}),
                  roll_faces(SEED, "other", 1, 20, {}), roll_faces(SEED, "duel", 1, 20, {"ann": "x"})):
        assert other != base
    assert roll_faces(SEED, "s", 1, 5, {"a": "1", "b": "2"}) == roll_faces(SEED, "s", 1, 5, {"b": "2", "a": "1"})


def test_committed_dice_count_their_rolls_and_never_show_their_seed():
    dice = CommittedDice(SEED, scope="s")
    assert dice.commitment == commitment_of(SEED) and dice.next_roll == 1
    assert dice.roll(3) == roll_faces(SEED, "s", 1, 3, {}) and dice.roll(2) == roll_faces(SEED, "s", 2, 2, {})
    assert dice.next_roll == 3
    assert SEED.hex() not in repr(dice)
    with pytest.raises(RuleError) as caught:
        dice.set_client_seed("ann", "late")
    assert caught.value.key == "error.dice.seeds_fixed"
    assert dice.reveal() == SEED.hex()
    with pytest.raises(RuleError) as caught:
        dice.roll(1)
    assert caught.value.key == "error.dice.revealed"


# -- a played contest -----------------------------------------------------------------------------
def test_a_played_contest_verifies_and_its_seed_is_revealed_at_the_end():
    contest = played()
    [check] = verify(contest)
    assert check.ok and check.status == "verified" and check.problem is None
    assert check.rolls == sum(len(rolls_of(e)) for e in rounds(contest.events))
    assert check.commitments == ({"commitment": commitment_of(SEED), "first_roll": 1, "seed": SEED.hex()},)
    assert contest.events[-1]["type"] == "dice_revealed" and contest.events[-2]["type"] == "contest_ended"
    assert [c.status for c in verify(contest.to_json())] == ["verified"]  # a save verifies the same


def test_the_commitment_is_in_the_log_before_the_first_roll():
    contest = duel()
    types = [e["type"] for e in contest.events]
    assert types == ["contest_started", "dice_committed"]  # published at the start, nothing rolled yet
    committed = contest.events[1]
    assert committed["commitment"] == commitment_of(SEED) and committed["scheme"] == SCHEME
    assert committed["scope"] == "duel" and committed["first_roll"] == 1
    assert SEED.hex() not in json.dumps(contest.events)  # the seed itself is not
    while contest.status == "active":
        contest.roll_round()
    types = [e["type"] for e in contest.events]
    assert types.index("dice_committed") < types.index("round_decided")
    assert types.index("dice_revealed") > max(i for i, t in enumerate(types) if t == "round_decided")


def test_teams_with_helper_dice_and_roll_offs_verify():
    profile = RulesProfile(team_dice="member_sixes", team_loss="roll_off")
    a, b, c = (Character(n, {n: 3}, uid=n.lower()) for n in ("Ann", "Bea", "Cy"))
    ogre = Character("Ogre", {"Ogre": 9}, uid="ogre")
    team = CharacterTeam([a, b, c], leader=a, name="Trio")
    contest = Contest("Ogre", team, ogre, profile=profile, dice=CommittedDice(SEED))
    while contest.status == "active" and contest.round < 6 and contest.can("roll_round"):
        contest.roll_round()
    if contest.status == "active":
        contest.end("Night falls.")
    decided = rounds(contest.events)
    assert any("helper_faces" in r for e in decided for a in e["attempts"] for r in a)
    [check] = verify(contest)
    assert check.ok, check.message


# -- tampering is caught, and the roll named ------------------------------------------------------
def tampered(contest, change):
    data = json.loads(contest.to_json())
    change(data["events"])
    return verify(json.dumps(data))[0]


def test_changing_one_face_fails_and_names_the_roll_and_die():
    contest = played()
    second = rounds(contest.events)[1]

    def change(events):
        event = next(e for e in events if e["seq"] == second["seq"])
        roll = event["attempts"][0][1]
        roll["faces"][0] = roll["faces"][0] % 6 + 1
        roll["total"] = sum(roll["faces"])  # even with the total made to fit
    check = tampered(contest, change)
    assert check.status == "failed" and not check.ok
    problem = check.problem
    number = second["draw"] + 1  # the second roll of that round: side B's pool
    assert (problem.kind, problem.roll, problem.die, problem.seq) == ("face", number, 1, second["seq"])
    assert f"roll {number}, die 1" in check.message


def test_changing_one_byte_of_the_revealed_seed_fails_on_the_commitment():
    contest = played()

    def change(events):
        reveal = events[-1]
        seed = bytearray.fromhex(reveal["seed"])
        seed[7] ^= 1
        reveal["seed"] = seed.hex()
    check = tampered(contest, change)
    assert check.status == "failed" and check.problem.kind == "commitment"
    assert check.problem.roll == 1  # the first roll it would have vouched for


def test_swapping_two_rounds_fails_on_the_order_and_names_the_roll():
    contest = played()
    first, second = rounds(contest.events)[:2]

    def change(events):
        i, j = first["seq"] - 1, second["seq"] - 1
        events[i], events[j] = {**events[j], "seq": events[i]["seq"]}, {**events[i], "seq": events[j]["seq"]}
    check = tampered(contest, change)
    assert check.status == "failed" and check.problem.kind == "order"
    assert check.problem.roll == first["draw"]  # roll 1, met after roll 2's round


def test_swapping_two_rolls_inside_a_round_fails_on_a_face():
    contest = played()
    target = next(e for e in rounds(contest.events) if e["attempts"][0][0]["faces"][0] != e["attempts"][0][1]["faces"][0])

    def change(events):
        event = next(e for e in events if e["seq"] == target["seq"])
        attempt = event["attempts"][0]
        attempt[0], attempt[1] = attempt[1], attempt[0]
    check = tampered(contest, change)
    assert check.status == "failed" and check.problem.kind == "face"
    assert check.problem.roll in (target["draw"], target["draw"] + 1)


def test_renumbering_the_rolls_fails_too():
    contest = played()
    second = rounds(contest.events)[1]

    def change(events):
        next(e for e in events if e["seq"] == second["seq"])["draw"] += 40
    check = tampered(contest, change)
    assert check.status == "failed" and check.problem.kind == "face"


# -- client seeds ---------------------------------------------------------------------------------
def test_client_seeds_are_mixed_in_and_fixed_before_the_first_roll():
    plain, mixed = duel(), duel()
    mixed.set_client_seed("ann", "three crows at dawn")
    plain.roll_round(), mixed.roll_round()
    faces = rounds(mixed.events)[0]["attempts"][0][0]["faces"]
    assert faces == roll_faces(SEED, "duel", 1, 4, {"ann": "three crows at dawn"})
    assert rounds(plain.events)[0]["attempts"][0][0]["faces"] == roll_faces(SEED, "duel", 1, 4, {})
    before = copy.deepcopy(mixed.events)
    with pytest.raises(RuleError) as caught:
        mixed.set_client_seed("bo", "too late")
    assert caught.value.key == "error.dice.seeds_fixed"
    assert mixed.events == before  # a refused command changes nothing
    assert mixed.why_not_error("set_client_seed", "bo", "x").key == "error.dice.seeds_fixed"
    while mixed.status == "active":
        mixed.roll_round()
    assert verify(mixed)[0].ok


def test_a_client_seed_set_after_a_roll_is_caught_in_a_tampered_log():
    contest = played()

    def change(events):
        at = rounds(events)[0]["seq"]
        events.insert(at, {"v": 1, "type": "client_seed_set", "who": "bo", "seed": "late", "seq": at + 1, "cmd": 99})
    check = tampered(contest, change)
    assert check.status == "failed" and check.problem.reason == "seed_after_roll"


# -- undo, early reveal, replay -------------------------------------------------------------------
def test_undo_moves_the_counter_on_and_the_log_shows_the_gap():
    contest = duel()
    first = contest.roll_round()[0]
    taken_back = contest.roll_round()[0]
    contest.undo()
    again = contest.roll_round()[0]
    used = len(rolls_of(taken_back))
    assert again["draw"] == taken_back["draw"] + used  # never the numbers of the round taken back
    assert again["attempts"] != taken_back["attempts"] or again["draw"] != taken_back["draw"]
    while contest.status == "active":
        contest.roll_round()
    [check] = verify(contest)
    assert check.ok and check.unused == tuple(range(taken_back["draw"], taken_back["draw"] + used))
    assert first["draw"] == 1


def test_the_start_and_its_commitment_cannot_be_undone():
    contest = duel()
    with pytest.raises(RuleError) as caught:
        contest.undo()
    assert caught.value.key == "error.contest.nothing_to_undo" and len(contest.events) == 2


def test_an_early_reveal_then_more_rolls_commit_to_a_new_seed_first():
    contest = duel()
    contest.roll_round()
    revealed = contest.reveal_dice()
    assert [e["type"] for e in revealed] == ["dice_revealed"] and revealed[0]["seed"] == SEED.hex()
    with pytest.raises(RuleError) as caught:
        contest.reveal_dice()
    assert caught.value.key == "error.dice.nothing_to_reveal"
    events = contest.roll_round()
    assert events[0]["type"] == "dice_committed" and events[0]["commitment"] != commitment_of(SEED)
    assert events[0]["first_roll"] == rounds(contest.events)[0]["draw"] + len(rolls_of(rounds(contest.events)[0]))
    contest.end("Enough.")
    [check] = verify(contest)
    assert check.ok and len(check.commitments) == 2 and all(c["seed"] for c in check.commitments)


def test_an_undone_end_reveals_again_before_a_new_commitment():
    contest = duel()
    contest.roll_round()
    contest.end("Stop.")
    contest.undo()  # the end and its reveal are taken back; the seed is out all the same
    assert contest.status == "active" and "dice_revealed" not in [e["type"] for e in contest.events]
    events = contest.roll_round()
    assert [e["type"] for e in events[:2]] == ["dice_revealed", "dice_committed"]
    while contest.status == "active":
        contest.roll_round()
    assert verify(contest)[0].ok


def test_replaying_the_log_gives_the_same_state_without_dice():
    contest = played()
    again = Contest.from_events(contest.events)
    assert again.history == contest.history and again.events == contest.events
    assert again.winner == contest.winner and again.round == contest.round


def test_a_log_loaded_without_its_seed_renews_it_and_says_the_old_one_is_unrevealed():
    contest = duel()
    contest.roll_round()
    loaded = Contest.from_events(contest.events, dice=CommittedDice())  # the secret stayed behind
    events = loaded.roll_round()
    assert events[0]["type"] == "dice_committed" and events[0]["first_roll"] > rounds(contest.events)[0]["draw"]
    loaded.end("Stop.")
    [check] = verify(loaded)
    assert check.status == "unrevealed" and not check.ok


def test_other_dice_are_not_committed_and_say_so():
    from raisus_panel.rules import SeededDice
    contest = Contest("Plain", Character("A", {"A": 2}), Character("B", {"B": 2}), dice=SeededDice(1))
    while contest.status == "active":
        contest.roll_round()
    assert all(e["draw"] is None for e in rounds(contest.events))
    assert verify(contest)[0].status == "uncommitted"


def test_the_committed_save_fixture_verifies():
    [check] = verify((SAVES / "fair_duel.json").read_text(encoding="utf-8"))
    assert check.ok and check.unused  # it holds an undone round


@pytest.mark.parametrize("text, key", [
    ("not json", "error.verify.not_json"), (b"\xff\xfe", "error.verify.not_json"),
    ('{"format": "something else"}', "error.verify.not_ours"), ("[]", "error.verify.not_ours"),
    ("[1, 2]", "error.verify.not_ours"),
])
def test_what_is_not_a_game_log_is_refused_with_a_key(text, key):
    with pytest.raises(SaveFileError) as caught:
        verify(text)
    assert caught.value.key == key


def test_a_damaged_event_fails_instead_of_raising():
    contest = played()
    events = json.loads(contest.to_json())["events"]
    rounds(events)[0]["attempts"] = "garbage"
    check = verify_contest(events)
    assert check.status == "failed" and check.problem.kind == "damaged"


# -- any play verifies -----------------------------------------------------------------------------

MOVES = st.lists(st.sampled_from(["roll", "roll", "roll", "undo", "reveal", "seed", "end"]), max_size=14)


@settings(max_examples=40, deadline=None)
@given(moves=MOVES, seed=st.binary(min_size=32, max_size=32))
def test_any_sequence_of_rolls_undos_reveals_and_seeds_verifies(moves, seed):
    contest = duel(seed)
    numbers = []
    for move in moves:
        try:
            if move == "roll":
                numbers += [e["draw"] for e in contest.roll_round() if e["type"] == "round_decided"]
            elif move == "undo":
                contest.undo()
            elif move == "reveal":
                contest.reveal_dice()
            elif move == "seed":
                contest.set_client_seed("ann", f"seed {len(numbers)}")
            elif move == "end":
                contest.end("Time.")
        except RuleError:
            pass  # refused: nothing changed, the play goes on
    if contest.status == "active":
        contest.end("Time.")
    assert numbers == sorted(set(numbers)), "a roll number was used twice"
    [check] = verify(contest)
    assert check.ok, check.message
    assert [c.ok for c in verify(contest.to_json())] == [True]



@pytest.mark.parametrize("rolls, dice, unused, english", [
    (1, 1, (5,), "verified (1 roll, 1 die); roll 5 was taken back"),
    (2, 7, (5, 6), "verified (2 rolls, 7 dice); rolls 5, 6 were taken back"),
    (1, 4, (), "verified (1 roll, 4 dice)"),
])
def test_the_result_counts_in_good_english_and_says_it_in_korean(rolls, dice, unused, english):
    from raisus_panel.i18n import t
    from raisus_panel.rules.verification import DiceCheck

    check = DiceCheck("contest", "duel", "Duel", "verified", rolls, dice, (), unused, None)
    assert check.message == english
    assert t(check.key, "en", **check.fields) == english  # the catalog says the same
    assert f"굴림 {rolls}번" in t(check.key, "ko", **check.fields)
    pending = DiceCheck("contest", "duel", "Duel", "unrevealed", 1, 0, (), (), None)
    assert pending.message == t(pending.key, "en", **pending.fields) == "not revealed yet (1 roll committed)"
