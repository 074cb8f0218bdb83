"""Issue 9: one roll per round, one answer per click -- commands name the state they were decided on.

A state-bound command carries ``seen_seq`` (the room's ``seq`` as the person's page showed it); when
the room has moved on since in a way that matters, it is refused with what happened and nothing
changes (room/stale.py).
"""

from __future__ import annotations

import threading

import pytest

from raisus_panel import i18n
from raisus_panel.room import Actor, LocalRoom, RoomSession, SQLiteStore, StaleCommand
from raisus_panel.room.stale import STATE_BOUND
from raisus_panel.rules import RuleError, SeededDice

from .conftest import Table


def brawl(t: Table) -> tuple[str, str]:
    """Alice's Viking (4) against Bob's Dwarf (3), the round open."""
    v = t.char("Viking", t.alice, Viking=4)
    d = t.char("Dwarf", t.bob, Dwarf=3)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[d])
    t.act(t.gm, "open_round")
    return v, d


def refused_and_unchanged(t: Table, actor: Actor, name: str, seen: int, **args) -> StaleCommand:
    """Run a command decided at ``seen``: it must raise StaleCommand and change nothing at all."""
    before, seq, log = t.snapshot(), t.room.seq, t.store.read(t.room.room_id)
    with pytest.raises(StaleCommand) as caught:
        t.room.apply(actor, name, args, seen_seq=seen)
    assert t.snapshot() == before and t.room.seq == seq and t.store.read(t.room.room_id) == log
    return caught.value


def test_the_commands_of_the_issue_name_their_state():
    assert {"roll_round", "end_round", "exchange", "volunteer", "assign_loss", "drop_out", "disband",
            "end_contest", "undo", "open_round"} <= STATE_BOUND
    assert "choose" not in STATE_BOUND  # a declaration, not an answer to what was shown


def test_a_roll_decided_on_round_one_after_someone_rolled_it_is_refused_with_who():
    t = Table([[6, 6, 6, 6], [1, 1, 1]])
    brawl(t)
    seen = t.room.seq  # both pages show "roll round 1"
    t.room.apply(t.alice, "roll_round", {}, seen_seq=seen)
    assert t.room.contest.round == 1
    refusal = refused_and_unchanged(t, t.gm, "roll_round", seen)
    assert str(refusal).startswith("Round 1 was already rolled by Alice")
    assert i18n.translate(refusal, "ko").startswith("1라운드는 이미 Alice")


def test_a_player_who_clicked_on_the_same_round_is_told_the_gm_rolled_it_not_that_the_round_is_closed():
    t = Table([[6, 6, 6, 6], [1, 1, 1]])
    brawl(t)
    seen = t.room.seq
    t.room.apply(t.gm, "roll_round", {}, seen_seq=seen)
    refusal = refused_and_unchanged(t, t.bob, "roll_round", seen)
    assert str(refusal).startswith("Round 1 was already rolled by the GM")
    assert "이미 GM이" in i18n.translate(refusal, "ko")


def test_a_double_click_gives_one_answer():
    t = Table([[6, 6, 6, 6], [1, 1, 1]])
    brawl(t)
    seen = t.room.seq
    t.room.apply(t.gm, "roll_round", {}, seen_seq=seen)
    refusal = refused_and_unchanged(t, t.gm, "roll_round", seen)
    assert str(refusal).startswith("Round 1 was already rolled by you")
    assert "이미 본인이" in i18n.translate(refusal, "ko")


def test_ones_own_moves_do_not_make_ones_page_stale_but_other_peoples_do():
    t = Table([[6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6], [1, 1]])
    v, o = brawl(t)
    t.act(t.gm, "open_round", open=False)
    seen = t.room.seq
    t.room.apply(t.gm, "open_round", {"open": True}, seen_seq=seen)  # the GM opens, then rolls at once
    t.room.apply(t.gm, "roll_round", {}, seen_seq=seen)
    assert t.room.contest.round == 1
    seen = t.room.seq
    t.act(t.alice, "choose", unit=v, cliche="Viking")  # Alice changes her mind meanwhile
    refusal = refused_and_unchanged(t, t.gm, "roll_round", seen)
    assert str(refusal).startswith("The table changed after your page showed it: Alice chose a cliché.")
    assert "Alice이(가) 클리셰를 골랐습니다" in i18n.translate(refusal, "ko")
    t.room.apply(t.gm, "roll_round", {}, seen_seq=t.room.seq)
    assert t.room.contest.round == 2


def test_joining_renaming_and_action_checks_never_make_a_roll_stale():
    t = Table([[3, 3, 3, 3], [6, 6, 6, 6], [1, 1, 1]])
    v, _ = brawl(t)
    seen = t.room.seq
    t.join("Carol")
    t.act(t.gm, "set_title", title="Friday")
    t.act(t.gm, "action_check", character=v, cliche="Viking", tn=5, private=True)
    t.char("Rat", None, Rat=1)
    t.room.apply(t.alice, "roll_round", {}, seen_seq=seen)
    assert t.room.contest.round == 1


def test_the_gms_secret_moves_never_show_in_a_players_refusal():
    t = Table([[2, 2, 2, 2], [6, 6, 6, 6], [1, 1, 1]])
    v, _ = brawl(t)
    seen = t.room.seq
    t.act(t.gm, "action_check", character=v, cliche="Viking", tn=30, private=True)
    t.act(t.gm, "undo")  # a secret roll taken back: an undo only the GM sees
    t.room.apply(t.alice, "roll_round", {}, seen_seq=seen)  # not stale for Alice: she saw nothing change
    assert t.room.contest.round == 1


def test_a_stale_undo_never_takes_back_someone_elses_newer_command():
    t = Table([[6, 6, 6, 6], [1, 1, 1]])
    brawl(t)
    t.act(t.gm, "roll_round")
    seen = t.room.seq  # the GM's page shows round 1 rolled: "undo" means that roll
    t.act(t.bob, "create_character", name="Newcomer", cliches=[{"name": "Bard", "rating": 2}])
    refusal = refused_and_unchanged(t, t.gm, "undo", seen)
    assert str(refusal) == ("The table changed after your page showed it: Bob created Newcomer. Nothing was "
                            "done: look at the table and click again if you still want to.")
    assert [c.name for c in t.room.characters][-1] == "Newcomer" and t.room.contest.round == 1
    # once the page shows Bob's character, undo takes back what it shows last -- his character
    t.room.apply(t.gm, "undo", {}, seen_seq=t.room.seq)
    assert "Newcomer" not in [c.name for c in t.room.characters] and t.room.contest.round == 1


def test_undo_clicked_twice_undoes_once():
    t = Table([[6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6], [1, 1]])
    brawl(t)
    t.act(t.gm, "roll_round")
    t.act(t.gm, "roll_round")
    seen = t.room.seq
    t.room.apply(t.gm, "undo", {}, seen_seq=seen)
    refusal = refused_and_unchanged(t, t.gm, "undo", seen)
    assert "you undid the last move" in str(refusal)
    assert t.room.contest.round == 1


def test_a_resent_command_still_gets_its_first_answer_after_the_table_moved_on():
    t = Table([[6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6], [1, 1]])
    brawl(t)
    seen = t.room.seq
    first = t.room.apply(t.alice, "roll_round", {}, command_id="click-7", seen_seq=seen)
    t.act(t.gm, "roll_round")
    assert t.room.apply(t.alice, "roll_round", {}, command_id="click-7", seen_seq=seen) == first
    assert t.room.contest.round == 2


def test_a_command_that_does_not_depend_on_the_round_is_never_stale():
    t = Table([[6, 6, 6, 6], [1, 1, 1]])
    v, _ = brawl(t)
    seen = t.room.seq
    t.act(t.gm, "roll_round")
    t.room.apply(t.alice, "choose", {"unit": v, "cliche": "Viking"}, seen_seq=seen)
    t.room.apply(t.alice, "create_character", {"name": "Spare"}, seen_seq=seen)


@pytest.mark.parametrize("seen", [-1, 10_000, True, "3", 2.0])
def test_a_seen_seq_that_is_no_state_of_the_room_is_refused(seen):
    t = Table()
    before = t.snapshot()
    with pytest.raises(RuleError) as caught:
        t.room.apply(t.gm, "undo", {}, seen_seq=seen)
    assert caught.value.key == "error.room.bad_seen_seq" and t.snapshot() == before


def test_sessions_and_local_rooms_pass_the_seen_state_on():
    t = Table([[6, 6, 6, 6], [1, 1, 1]])
    brawl(t)
    seen = t.room.seq
    alice, gm = RoomSession(t.room, t.alice), RoomSession(t.room, t.gm)
    alice.act("roll_round", seen_seq=seen)
    with pytest.raises(StaleCommand):
        gm.act("roll_round", seen_seq=seen)
    local = LocalRoom("Notebook")
    local.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    seen = local.seq
    local.act("undo", seen_seq=seen)
    with pytest.raises(StaleCommand):
        local.act("undo", seen_seq=seen)


def test_two_threads_rolling_the_same_round_at_once_roll_it_once_every_time(tmp_path):
    """The GM and a player press "roll round n" at the same instant, 60 times: one roll each time."""
    store = SQLiteStore(tmp_path / "race.sqlite")
    t = Table(store=store, dice=SeededDice(9))
    brawl(t)
    tries = 0
    while tries < 60:
        if t.room.contest.status != "active":  # a fresh contest (and fighters) when one ends
            t.act(t.gm, "close_contest")
            brawl(t)
        if not t.room.round_open:
            t.act(t.gm, "open_round")
        seen, round_before = t.room.seq, t.room.contest.round
        barrier = threading.Barrier(2)
        won, stale, other = [], [], []

        def click(actor, barrier=barrier, seen=seen, won=won, stale=stale, other=other):  # this round's
            barrier.wait()
            try:
                won.append(t.room.apply(actor, "roll_round", {}, seen_seq=seen))
            except StaleCommand as exc:
                stale.append(exc)
            except Exception as exc:  # reported below
                other.append(exc)

        threads = [threading.Thread(target=click, args=(who,)) for who in (t.gm, t.alice)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert other == [] and len(won) == 1 and len(stale) == 1, (tries, won, stale, other)
        assert t.room.contest.round == round_before + 1
        assert str(stale[0]).startswith(f"Round {round_before + 1} was already rolled by")
        tries += 1
    events = store.read(t.room.room_id)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert t.reloaded().snapshot(t.gm) == t.snapshot()
    store.close()
