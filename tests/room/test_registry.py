"""Rooms on a server: links with secret tokens (only hashes stored), joining, lazy loading."""

from __future__ import annotations

import pytest

from raisus_panel.room import PermissionDenied, Role, RoomRegistry, RoomSession, SQLiteStore, get_registry
from raisus_panel.room.tokens import TOKEN_BYTES, hash_token


@pytest.fixture
def registry(tmp_path):
    reg = RoomRegistry(SQLiteStore(tmp_path / "server.sqlite"))
    yield reg
    reg.store.close()


def test_a_new_room_has_three_distinct_strong_links(registry):
    room, links = registry.create_room("Friday game", gm_name="Mina")
    tokens = [links.gm, links.player, links.spectator]
    assert len(set(tokens)) == 3
    for token in tokens:
        room_id, _, secret = token.partition(".")
        assert room_id == room.room_id and len(secret) >= 43 and TOKEN_BYTES * 8 >= 128
    assert registry.resolve(links.gm) == (room, Role.GM)
    assert registry.resolve(links.player) == (room, Role.PLAYER)
    assert registry.resolve(links.spectator) == (room, Role.SPECTATOR)
    assert registry.open_session(links.gm).actor.name == "Mina"
    assert links.url("spectator", "https://example.org/room").endswith("?token=" + links.spectator)


@pytest.mark.parametrize("token", [None, "", "garbage", "nope.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                                   "a b.cccccccccccccccccccccccccc"])
def test_wrong_or_missing_tokens_are_refused(registry, token):
    registry.create_room("Friday game")
    with pytest.raises(PermissionDenied):
        registry.resolve(token)


def test_a_tampered_token_is_refused(registry):
    room, links = registry.create_room("Friday game")
    tampered = links.gm[:-1] + ("A" if links.gm[-1] != "A" else "B")
    with pytest.raises(PermissionDenied, match="not valid for this room"):
        registry.resolve(tampered)


def test_tokens_are_stored_only_as_hashes_and_never_shown(registry, tmp_path):
    room, links = registry.create_room("Friday game")
    session, personal = registry.join(links.player, "Ann")
    session.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    registry.store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for token in (links.gm, links.player, links.spectator, personal):
        secret = token.partition(".")[2]
        assert secret.encode() not in raw
        assert secret not in room.export_json() and secret not in repr(links) and secret not in repr(room)
        assert secret not in repr(registry) and secret not in repr(session)
    assert hash_token(links.gm).encode() in raw


def test_players_join_with_the_invitation_and_come_back_with_their_own_token(registry):
    room, links = registry.create_room("Friday game")
    session, personal = registry.join(links.player, "Ann")
    assert isinstance(session, RoomSession) and session.actor.role is Role.PLAYER
    assert room.players == {session.actor.player_id: "Ann"}
    back = registry.open_session(personal)
    assert back.actor == session.actor
    assert registry.resolve(personal) == (room, Role.PLAYER)
    other, _ = registry.join(links.player, "Bo")
    assert other.actor.player_id != session.actor.player_id
    with pytest.raises(PermissionDenied, match="invitation"):
        registry.open_session(links.player)
    with pytest.raises(PermissionDenied):
        registry.join(links.gm, "Sneaky")
    spectator = registry.open_session(links.spectator)
    with pytest.raises(PermissionDenied, match="Spectators watch"):
        spectator.act("create_character", name="X")


def test_rooms_load_lazily_from_the_store_and_are_cached(tmp_path):
    path = tmp_path / "server.sqlite"
    first = RoomRegistry(SQLiteStore(path))
    room, links = first.create_room("Friday game")
    session, personal = first.join(links.player, "Ann")
    session.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    first.store.close()

    second = RoomRegistry(SQLiteStore(path))  # a restarted server
    assert second.rooms() == [{"room_id": room.room_id, "title": "Friday game"}]
    again, role = second.resolve(personal)
    assert role is Role.PLAYER and [c.name for c in again.characters] == ["Olaf"]
    assert second.get(room.room_id) is again
    second.store.close()


def test_pages_opening_one_room_at_once_share_one_copy_and_one_name_joins_once(tmp_path):
    """Loading and joining wait on the store outside the registry's lock: many pages at once still get
    one room in memory, and one name at the table."""
    import threading

    path = tmp_path / "server.sqlite"
    first = RoomRegistry(SQLiteStore(path))
    room, links = first.create_room("Friday game")
    first.store.close()
    second = RoomRegistry(SQLiteStore(path))  # a restarted server: the room is not in memory yet
    start, got, joins = threading.Barrier(8), [], []

    def open_and_join(i):
        start.wait()
        got.append(second.get(room.room_id))
        try:
            joins.append(second.join(links.player, "Ann" if i % 2 else f"Bo {i}")[0].actor.name)
        except Exception as exc:  # noqa: BLE001 - the refusals are what is counted
            joins.append(getattr(exc, "key", repr(exc)))
    threads = [threading.Thread(target=open_and_join, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len({id(r) for r in got}) == 1 and got[0] is second.get(room.room_id)
    assert sorted(joins) == ["Ann", "Bo 0", "Bo 2", "Bo 4", "Bo 6", *["error.room.name_taken"] * 3]
    assert sorted(got[0].players.values()) == ["Ann", "Bo 0", "Bo 2", "Bo 4", "Bo 6"]
    linked = second.store.room_meta(room.room_id)["auth"]["players"]
    assert sorted(linked.values()) == sorted(got[0].players)  # a refused join left no link
    second.store.close()


def test_an_imported_room_gets_new_links(registry):
    room, links = registry.create_room("Friday game")
    imported, new_links = registry.import_room(room.export_json())
    assert imported.room_id != room.room_id and registry.resolve(new_links.gm) == (imported, Role.GM)
    assert links.gm.partition(".")[2] != new_links.gm.partition(".")[2]


def test_get_registry_is_one_per_database(tmp_path):
    a = get_registry(tmp_path / "a.sqlite")
    assert get_registry(tmp_path / "a.sqlite") is a
    assert get_registry(str(tmp_path / "." / "a.sqlite")) is a
    assert get_registry(tmp_path / "b.sqlite") is not a
    assert get_registry() is get_registry(None)


def test_the_gm_reissues_invitation_and_spectator_links(registry):
    room, links = registry.create_room("Friday game")
    player, personal = registry.join(links.player, "Ann")
    gm = registry.open_session(links.gm)
    with pytest.raises(PermissionDenied, match="Only the GM"):
        registry.reissue_links(player)
    fresh = registry.reissue_links(gm)
    assert set(fresh) == {"player", "spectator"}
    for old in (links.player, links.spectator):
        with pytest.raises(PermissionDenied):
            registry.resolve(old)
    assert registry.resolve(fresh["player"]) == (room, Role.PLAYER)
    assert registry.resolve(fresh["spectator"]) == (room, Role.SPECTATOR)
    assert registry.open_session(personal).actor.name == "Ann", "joined players keep their links"
    assert registry.resolve(links.gm) == (room, Role.GM)
