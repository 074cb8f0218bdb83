"""One person cannot flood the room's permanent log: each link's commands are limited (a burst of
a busy round passes; a stream like 342 action checks in 13 s is refused with how long to wait)."""

from __future__ import annotations

import pytest

from raisus_panel import i18n
from raisus_panel.room import RoomRegistry, SQLiteStore
from raisus_panel.room.limits import SERVED_COMMAND_BURST, CommandRate, LimitReached, Limits


class Clock:
    """Time that moves only when the test says (seconds)."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def table(tmp_path):
    registry = RoomRegistry(SQLiteStore(tmp_path / "rooms.sqlite"), limits=Limits(command_burst=SERVED_COMMAND_BURST))
    clock = Clock()
    registry.command_rate = CommandRate(registry.limits, clock=clock)
    room, links = registry.create_room("Friday")
    gm = registry.open_session(links.gm)
    ann, ann_token = registry.join(links.player, "Ann")
    ann.token = ann_token  # the test's note of Ann's personal link
    bob, _ = registry.join(links.player, "Bob")
    viking = gm.act("create_character", name="Viking", owner=ann.actor.player_id,
                    cliches=[{"name": "Viking", "rating": 4}])[0]["character"]["uid"]
    pirate = gm.act("create_character", name="Pirate", owner=bob.actor.player_id,
                    cliches=[{"name": "Pirate", "rating": 3}])[0]["character"]["uid"]
    yield registry, clock, room, gm, ann, bob, viking, pirate
    registry.store.close()


def test_a_busy_round_of_every_person_passes_at_once(table):
    registry, clock, room, gm, ann, bob, viking, pirate = table
    for _ in range(1):  # a contest played as fast as a quick table clicks, no pause at all
        gm.act("start_contest", name="Brawl", side_a=[viking], side_b=[pirate])
        for player in (ann, bob, ann, bob):
            if room.contest.status == "ended":
                break
            gm.act("open_round")
            player.act("roll_round")
        if not room.contest.status == "ended":
            gm.act("end_contest", outcome="a draw")
        gm.act("close_contest")
    for n in range(20):  # and the GM's quick string of changes after it
        gm.act("set_title", title=f"Friday {n}")
    assert room.seq > 30


def test_a_flood_of_one_player_is_refused_with_the_wait_and_writes_nothing(table):
    registry, clock, room, gm, ann, bob, viking, pirate = table
    written = 0
    refusal = None
    for _ in range(342):
        try:
            ann.act("action_check", character=viking, cliche="Viking", tn=5)
            written += 1
        except LimitReached as exc:
            refusal = exc
        clock.now += 13 / 342  # 342 clicks in 13 s
    assert 30 <= written <= 30 + 14, written  # the burst, and one a second after it
    try:  # the last of the 13 s may have brought one back: use it
        ann.act("action_check", character=viking, cliche="Viking", tn=5)
    except LimitReached:
        pass
    seq = room.seq
    with pytest.raises(LimitReached) as refused:
        ann.act("action_check", character=viking, cliche="Viking", tn=5)
    assert room.seq == seq  # refused: nothing written
    assert refusal is not None and refused.value.key == "error.limit.too_many_actions"
    wait = refused.value.fields["seconds"]
    assert 1 <= wait <= 2
    assert i18n.translate(refused.value, "en") == f"Too many actions at once: wait {wait} second{'s' * (wait != 1)} and try again."
    assert i18n.translate(refused.value, "ko") == f"한꺼번에 너무 많이 눌렀습니다. {wait}초 기다린 뒤 다시 해 보세요."
    # the others at the table are not slowed by Ann's flood
    bob.act("action_check", character=pirate, cliche="Pirate", tn=5)
    gm.act("action_check", character=pirate, cliche="Pirate", tn=5)
    # a second tab with Ann's link draws on the same bucket
    second_tab = registry.open_session(ann.token)
    with pytest.raises(LimitReached):
        second_tab.act("action_check", character=viking, cliche="Viking", tn=5)
    clock.now += wait  # after the wait, Ann plays again
    ann.act("action_check", character=viking, cliche="Viking", tn=5)


def test_the_limit_can_be_turned_off_and_is_off_for_scripts():
    assert Limits().command_burst == 0
    rate = CommandRate(Limits(command_burst=0))
    for _ in range(1000):
        rate.take("room/gm")
    with pytest.raises(ValueError):
        Limits(command_burst=-1)
