"""Issue 9: the GM manages links (reissue, revoke, replace), the server's limits, unloading, same names."""

from __future__ import annotations

import gc
import json

import pytest

from raisus_panel.room import PermissionDenied, Role, RoomRegistry, SQLiteStore
from raisus_panel.room.errors import RoomFileError
from raisus_panel.room.limits import CreationQuota, LimitReached, Limits
from raisus_panel.rules import RuleError


@pytest.fixture
def registry(tmp_path):
    reg = RoomRegistry(SQLiteStore(tmp_path / "server.sqlite"))
    yield reg
    reg.store.close()


def closed_with(session) -> list:
    seen = []
    session.on_close(seen.append)
    return seen


# -- revoke, replace, reissue ---------------------------------------------------------------------
def test_a_revoked_player_is_closed_out_and_their_link_refused_with_the_reason(registry):
    room, links = registry.create_room("Friday game")
    ann, ann_token = registry.join(links.player, "Ann")
    bob, _ = registry.join(links.player, "Bob")
    second_tab = registry.open_session(ann_token)
    ann.connect("tab-1")
    second_tab.connect("tab-2")
    bob.connect("tab-3")
    told = closed_with(ann), closed_with(second_tab), closed_with(bob)
    gm = registry.open_session(links.gm)
    with pytest.raises(PermissionDenied, match="Only the GM"):
        registry.revoke_player(bob, ann.actor.player_id)

    assert registry.revoke_player(gm, ann.actor.player_id) == 2
    assert [len(t) for t in told] == [1, 1, 0]
    assert told[0][0].key == "error.link.revoked"
    assert set(room.presence) == {"tab-3"}, "the revoked player's pages leave the presence line"
    with pytest.raises(PermissionDenied, match="removed you"):
        registry.open_session(ann_token)
    with pytest.raises(PermissionDenied, match="removed you"):
        ann.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    assert ann.why_not_error("create_character").key == "error.link.revoked"
    assert registry.revoked_players(room.room_id) == {ann.actor.player_id}
    assert room.players[ann.actor.player_id] == "Ann", "the log keeps who played"
    bob.act("create_character", name="Bobo", cliches=[{"name": "Viking", "rating": 2}])
    with pytest.raises(RuleError, match="no player"):
        registry.revoke_player(gm, "nobody")


def test_replacing_the_gm_link_closes_every_other_gm_page_but_the_asking_one(registry):
    room, links = registry.create_room("Friday game")
    mine, leaked = registry.open_session(links.gm), registry.open_session(links.gm)
    mine.connect("mine")
    leaked.connect("thief")
    told = closed_with(mine), closed_with(leaked)
    player, _ = registry.join(links.player, "Ann")
    with pytest.raises(PermissionDenied):
        registry.replace_gm_link(player)

    token = registry.replace_gm_link(mine)
    assert [len(t) for t in told] == [0, 1] and told[1][0].key == "error.link.replaced"
    assert set(room.presence) == {"mine"}
    with pytest.raises(PermissionDenied) as refused:  # the GM holds it: the way back, not "ask the GM"
        registry.open_session(links.gm)
    assert refused.value.key == "error.link.gm_replaced"
    assert f"raisus links {room.room_id} --new-gm" in str(refused.value)
    assert registry.resolve(token) == (room, Role.GM)
    mine.act("set_title", title="Saturday game")
    with pytest.raises(PermissionDenied):
        registry.reissue_links(leaked)


def test_reissued_spectator_links_close_spectator_pages_and_keep_joined_players(registry):
    room, links = registry.create_room("Friday game")
    watcher = registry.open_session(links.spectator)
    player, personal = registry.join(links.player, "Ann")
    told = closed_with(watcher), closed_with(player)
    fresh = registry.reissue_links(registry.open_session(links.gm))
    assert [len(t) for t in told] == [1, 0]
    with pytest.raises(PermissionDenied, match="replaced this link"):
        registry.open_session(links.spectator)
    with pytest.raises(PermissionDenied, match="replaced this link"):
        registry.join(links.player, "Late")
    assert registry.join(fresh["player"], "Late")[0].actor.name == "Late"
    assert registry.open_session(personal).actor.name == "Ann"


# -- same names -----------------------------------------------------------------------------------
def test_a_second_player_with_the_same_name_is_refused_with_a_clear_message(registry):
    room, links = registry.create_room("Friday game", gm_name="Mina")
    registry.join(links.player, "서연")
    for same in ("서연", " 서연 ", "서연"):
        with pytest.raises(RuleError, match="already in this room") as refused:
            registry.join(links.player, same)
        assert refused.value.key == "error.room.name_taken"
    registry.join(links.player, "Ann")
    with pytest.raises(RuleError, match="already in this room"):
        registry.join(links.player, "ＡＮＮ")  # full-width capitals read as the same name
    with pytest.raises(RuleError, match="GM's name"):
        registry.join(links.player, "mina")
    assert registry.join(links.player, "서연 K")[0].actor.name == "서연 K"
    assert sorted(room.players.values()) == ["Ann", "서연", "서연 K"]


# -- limits ---------------------------------------------------------------------------------------
def test_room_creation_is_capped_per_client_and_per_server_in_a_window(tmp_path):
    now = [0.0]
    reg = RoomRegistry(SQLiteStore(tmp_path / "s.sqlite"), limits=Limits(rooms_per_client=2, rooms_per_server=3))
    reg._quota = CreationQuota(reg.limits, clock=lambda: now[0])
    reg.create_room("a", client="10.0.0.1")
    exported = reg.create_room("b", client="10.0.0.1")[0].export_json()
    with pytest.raises(LimitReached, match="You have made 2 rooms") as refused:
        reg.import_room(exported, client="10.0.0.1")
    assert refused.value.key == "error.limit.rooms_per_client" and refused.value.fields["minutes"] == 60
    reg.create_room("c", client="10.0.0.2")
    with pytest.raises(LimitReached, match="This server has made 3 rooms"):
        reg.create_room("d", client="10.0.0.3")
    assert len(reg.store.list_rooms()) == 3, "a refused creation writes nothing"
    now[0] = 3601.0
    reg.create_room("e", client="10.0.0.1")
    reg.store.close()


def test_a_too_large_room_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    reg = RoomRegistry(SQLiteStore(tmp_path / "s.sqlite"), limits=Limits(max_upload_bytes=1000))
    monkeypatch.setattr("raisus_panel.room.transfer.json.loads", lambda *a, **k: pytest.fail("parsed"))
    with pytest.raises(LimitReached, match="at most 0.0 MB") as refused:
        reg.import_room(b"{" + b" " * 2000 + b"}")
    assert refused.value.key == "error.limit.file_too_large" and refused.value.fields["size"] == "0.0"
    with pytest.raises(LimitReached):
        reg.import_room("가" * 400)  # 1200 bytes of UTF-8
    assert reg.store.list_rooms() == []
    reg.store.close()


def tampered(export: str, change) -> str:
    data = json.loads(export)
    change(data["events"])
    return json.dumps(data, ensure_ascii=False)


def _long_title(events):
    events[0]["title"] = "T" * 100_000


def _long_player(events):
    next(e for e in events if e["type"] == "player_joined")["player"]["name"] = "서" * 81


def _bad_player_id(events):
    next(e for e in events if e["type"] == "player_joined")["player"]["player_id"] = "<script>"


def _long_contest(events):
    next(e for e in events if e["type"] == "contest")["event"]["name"] = "C" * 500


def _control_title(events):
    events[0]["title"] = "a\x07b"


def _huge_text_anywhere(events):
    events[-1]["extra"] = "x" * 5000


def _long_command_id(events):
    events[-1]["cmd_id"] = "c" * 500


@pytest.mark.parametrize("change", [_long_title, _long_player, _bad_player_id, _long_contest, _control_title,
                                    _huge_text_anywhere, _long_command_id])
def test_every_imported_field_meets_the_limits_of_typed_input(registry, change):
    room, links = registry.create_room("Friday game")
    registry.join(links.player, "Ann")
    gm = registry.open_session(links.gm)
    a = gm.act("create_character", name="A", cliches=[{"name": "Viking", "rating": 3}])[0]["character"]["uid"]
    b = gm.act("create_character", name="B", cliches=[{"name": "Pirate", "rating": 3}])[0]["character"]["uid"]
    gm.act("start_contest", name="Brawl", side_a=[a], side_b=[b])
    before = registry.store.list_rooms()
    with pytest.raises(RoomFileError, match="at event"):
        registry.import_room(tampered(room.export_json(), change))
    assert registry.store.list_rooms() == before
    registry.import_room(room.export_json())  # the untouched file still imports


def test_an_imported_title_has_the_typed_titles_length_limit(registry):
    room, _ = registry.create_room("Friday game")
    with pytest.raises(RoomFileError) as refused:
        registry.import_room(tampered(room.export_json(), _long_title))
    assert refused.value.fields["problem"].key == "error.input.too_long"


# -- unloading ------------------------------------------------------------------------------------
def test_a_room_nobody_uses_leaves_memory_and_loads_again_on_demand(registry):
    room, links = registry.create_room("Friday game")
    room_id = room.room_id
    gm = registry.open_session(links.gm)
    gm.act("set_title", title="Saturday game")
    again = registry.open_session(links.gm)
    assert again.room is gm.room, "one room in memory while it is used: never two copies"
    del room, gm, again
    gc.collect()
    assert room_id not in registry.loaded
    back = registry.open_session(links.gm)
    assert back.room.title == "Saturday game" and registry.loaded == [room_id]
    assert registry.rooms() == [{"room_id": room_id, "title": "Saturday game"}]


def test_lookalike_names_are_refused_as_the_gm_or_another_player(registry):
    """Issue 21: "G\\u200bM", "Ann\\u200b" and a Cyrillic "Аnn" looked like the GM or Ann."""
    room, links = registry.create_room("Friday game")  # the GM is called "GM"
    registry.join(links.player, "Ann")
    with pytest.raises(RuleError, match="GM's name") as refused:
        registry.join(links.player, "G\u200bM")
    assert refused.value.key == "error.room.name_is_gm"
    with pytest.raises(RuleError, match="invisible or text-direction") as refused:
        registry.join(links.player, "Ann\u200b")
    assert refused.value.key == "error.input.invisible"
    for lookalike in ("\u0410nn", "\u0391nn", "ANN", "\u0430nn"):  # Cyrillic А, Greek Α, Cyrillic а
        with pytest.raises(RuleError, match="already in this room") as refused:
            registry.join(links.player, lookalike)
        assert refused.value.key == "error.room.name_taken"
    with pytest.raises(RuleError, match="GM's name"):
        registry.join(links.player, "G\u041c")  # a Cyrillic М after a Latin G
    registry.join(links.player, "\u2694\ufe0f Kai")
    with pytest.raises(RuleError, match="already in this room"):  # the emoji without its selector reads the same
        registry.join(links.player, "\u2694 Kai")
    for name in ("\u202eBob", "\u2066Bob\u2069"):  # direction overrides are refused outright
        with pytest.raises(RuleError, match="invisible or text-direction"):
            registry.join(links.player, name)
    assert registry.join(links.player, "Анна")[0].actor.name == "Анна"  # a real Cyrillic name still joins
    assert registry.join(links.player, "아린")[0].actor.name == "아린"
    assert sorted(room.players.values()) == ["Ann", "Анна", "\u2694\ufe0f Kai", "아린"]


# -- issue 21, item 9: a removed player, or one who lost their link, comes back to their name and characters --

def test_the_gm_reissues_a_removed_players_personal_link_and_the_same_player_comes_back(registry):
    room, links = registry.create_room("Tavern", gm_name="Gina")
    gm = registry.open_session(links.gm)
    sam, old = registry.join(links.player, "Sam")
    player_id = sam.actor.player_id
    room.apply(sam.actor, "create_character", {"uid": "olaf", "name": "Olaf", "cliches": [{"name": "Viking", "rating": 4}]})
    registry.revoke_player(gm, player_id)
    assert player_id in registry.revoked_players(room.room_id)
    token = registry.reissue_player_link(gm, player_id)
    back = registry.open_session(token)
    assert back.actor.player_id == player_id and back.actor.name == "Sam"
    assert player_id not in registry.revoked_players(room.room_id)
    back.act("update_character", uid="olaf", description="back at the table")  # still his character
    with pytest.raises(PermissionDenied) as refused:
        registry.open_session(old)
    assert refused.value.key == "error.link.replaced"


def test_a_reissued_personal_link_closes_the_pages_of_the_lost_one_and_only_the_gm_may_reissue(registry):
    room, links = registry.create_room("Tavern")
    gm = registry.open_session(links.gm)
    sam, old = registry.join(links.player, "Sam")
    ann, _ = registry.join(links.player, "Ann")
    seen = closed_with(sam)
    with pytest.raises(PermissionDenied):
        registry.reissue_player_link(ann, sam.actor.player_id)
    assert registry.open_session(old).actor.name == "Sam"  # the refusal changed nothing
    with pytest.raises(RuleError) as unknown:
        registry.reissue_player_link(gm, "nobody")
    assert unknown.value.key == "error.link.no_player"
    registry.reissue_player_link(gm, sam.actor.player_id)
    assert [r.key for r in seen] == ["error.link.replaced"]
    assert ann.closed is None


def test_the_gm_hands_a_character_to_another_player_with_undo(registry):
    room, links = registry.create_room("Tavern")
    gm = registry.open_session(links.gm)
    sam, _ = registry.join(links.player, "Sam")
    ann, _ = registry.join(links.player, "Ann")
    sam.act("create_character", uid="olaf", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    with pytest.raises(PermissionDenied):
        sam.act("update_character", uid="olaf", owner=ann.actor.player_id)  # a player gives nothing away
    gm.act("update_character", uid="olaf", owner=ann.actor.player_id)
    assert next(c for c in room.characters if c.uid == "olaf").owner == ann.actor.player_id
    ann.act("update_character", uid="olaf", description="mine now")
    gm.act("undo")
    gm.act("undo")
    assert next(c for c in room.characters if c.uid == "olaf").owner == sam.actor.player_id
