"""Every refusal of the room can be shown in Korean: a catalog key, the same fields, no English left."""

from __future__ import annotations

import pytest

from raisus_panel import i18n
from raisus_panel.room import MemoryStore, PermissionDenied, RoomFileError, RoomSession, import_room

from ..rules.keyed_errors import check_keys_in_catalogs, unkeyed_raises


def test_every_refusal_of_the_room_has_a_key():
    assert unkeyed_raises("room") == []


def test_every_key_of_the_room_is_in_both_catalogs_with_its_fields():
    check_keys_in_catalogs("room")


def test_a_spectators_refusal_reads_in_korean(table):
    spectator = RoomSession(table.room, table.spectator)
    exc = spectator.why_not_error("set_title", title="Inn")
    assert isinstance(exc, PermissionDenied) and exc.key == "error.permission.spectator"
    assert spectator.why_not("set_title", title="Inn") == str(exc) == "Spectators watch; they cannot act."
    assert i18n.translate(exc, "ko") == "관전자는 지켜보기만 하고 행동할 수는 없습니다."
    assert RoomSession(table.room, table.gm).why_not_error("set_title", title="Inn") is None


def test_a_gm_only_command_names_the_action_in_korean(table):
    with pytest.raises(PermissionDenied) as caught:
        table.act(table.alice, "start_contest", name="Brawl")
    assert str(caught.value) == "Only the GM can start a contest."
    assert i18n.translate(caught.value, "ko") == "대결 시작은 GM만 할 수 있습니다."


def test_a_contest_refusal_keeps_its_key_through_the_room(table):
    viking = table.char("Viking", table.alice, Viking=4)
    pirate = table.char("Pirate", Pirate=3)
    table.act(table.gm, "start_contest", name="Brawl", side_a=[viking], side_b=[pirate])
    exc = RoomSession(table.room, table.gm).why_not_error("volunteer", member=viking)
    assert exc.key == "error.team.not_member" and exc.fields["name"] == "Viking"
    assert i18n.translate(exc, "ko") == "Viking은 캐릭터 팀에 속하지 않습니다. 자원은 팀원만 할 수 있습니다."


def test_a_damaged_room_file_says_what_is_wrong_in_korean(table):
    text = table.room.export_json().replace('"seq": 2', '"seq": 7', 1)
    with pytest.raises(RoomFileError) as caught:
        import_room(MemoryStore(), text)
    assert str(caught.value) == "This room file is damaged at event 2: sequence number 7 where 2 belongs."
    assert i18n.translate(caught.value, "ko") == "이 방 파일은 2번째 기록이 손상되었습니다: 2번이어야 할 순번이 7번."
