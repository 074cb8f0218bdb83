"""Issue 21 (faults and abuse), for joining: a join that meets a store fault leaves the person a way in.

Before, the join was written first and the personal link after it. When the link's write failed the
page said "join again", but the player was already at the table: joining again was refused, the name
being taken, and nobody could be that player. When the join's own answer was lost and it landed
after all, the page could only say "ask the GM for a link". The link is now saved first, so a player
the room holds always has one. Against a real ``redis-server`` behind a relay that holds its answers.
"""

from __future__ import annotations

import hashlib

import pytest

from raisus_panel.i18n import translate
from raisus_panel.room import JoinNotKnownYet, RoomRegistry, StoreError
from raisus_panel.room.redis_store import _APPEND_LUA, _SET_META_LUA, RedisStore
from raisus_panel.rules import RuleError

from .test_outcome_unknown import settled
from .test_stores import eventually

#: What a link change and an append send to Redis: their scripts' SHAs (EVALSHA).
META_SHA = hashlib.sha1(_SET_META_LUA.encode()).hexdigest().encode()
APPEND_SHA = hashlib.sha1(_APPEND_LUA.encode()).hexdigest().encode()


@pytest.fixture
def inn(relay, redis_url):
    """A room on Redis through the relay, whose scripts Redis already knows; its invitation."""
    store, truth = RedisStore(relay.url, timeout=1.0), RedisStore(redis_url)
    registry = RoomRegistry(store)
    room, links = registry.create_room("Inn", gm_name="Gina")
    registry.join(links.player, "Ann")  # an append and a link change ran: their scripts are known
    yield registry, truth, room, links
    store.close()
    truth.close()


def joined(truth, room_id) -> list[str]:
    return [e["player"]["name"] for e in truth.read(room_id, 0) if e.get("type") == "player_joined"]


def test_a_join_whose_link_could_not_be_saved_joined_nobody_and_can_be_given_again(relay, inn):
    registry, truth, room, links = inn
    relay.stall_after(META_SHA, 6.0)  # the link's write, and its read-back, get no answer
    with pytest.raises(StoreError) as caught:
        registry.join(links.player, "Bob")
    relay.stalled.clear()
    assert caught.value.key == "error.link.not_joined"
    assert "Join again" in translate(caught.value, "en") and "다시 참가하세요" in translate(caught.value, "ko")
    assert joined(truth, room.room_id) == ["Ann"]  # what the page said is true: Bob is not at the table
    session, token = registry.join(links.player, "Bob")  # so the same name joins, once
    assert joined(truth, room.room_id) == ["Ann", "Bob"]
    again = RoomRegistry(truth).open_session(token)  # and the link shown brings Bob back, anywhere
    assert again.actor.name == "Bob" and again.actor.player_id == session.actor.player_id


def test_a_join_whose_answer_was_lost_brings_the_player_in_once_it_is_known(relay, inn):
    registry, truth, room, links = inn
    relay.stall_after(APPEND_SHA, 1.4)  # the join lands in time; its answer comes after the timeout
    with pytest.raises(JoinNotKnownYet) as caught:
        registry.join(links.player, "Bob")
    unknown = caught.value
    assert "not known yet" in translate(unknown, "en")
    answers = settled(registry.get(room.room_id), unknown)
    assert eventually(lambda: answers, timeout=20) == [True]
    assert joined(truth, room.room_id) == ["Ann", "Bob"]
    session = RoomRegistry(truth).open_session(unknown.token)  # the link saved with the join is Bob's
    assert session.actor.name == "Bob"


def test_a_refused_join_leaves_no_link_behind(inn):
    registry, truth, room, links = inn
    before = truth.room_meta(room.room_id)["auth"]["players"]
    with pytest.raises(RuleError) as caught:  # the name is taken (case aside)
        registry.join(links.player, "ann")
    assert caught.value.key == "error.room.name_taken"
    assert truth.room_meta(room.room_id)["auth"]["players"] == before
    assert joined(truth, room.room_id) == ["Ann"]
