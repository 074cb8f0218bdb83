"""Room files: what export writes, import reads back; anything else is refused and writes nothing."""

from __future__ import annotations

import json

import pytest

from raisus_panel.room import MemoryStore, Room, RoomFileError, SQLiteStore, import_room
from raisus_panel.rules import Character, Contest, RuleError, SaveFileError

from .conftest import Table


def played() -> Table:
    t = Table([[6, 5, 1, 1], [4, 4, 4], [2, 2]])
    v = t.char("Viking", t.alice, Viking=4)
    p = t.char("Pirate", None, Pirate=3)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[p])
    t.act(t.gm, "roll_round")
    t.act(t.gm, "action_check", character=p, cliche="Pirate", tn=5, private=True)
    return t


def without_id(snapshot: dict) -> dict:
    return {k: v for k, v in snapshot.items() if k != "room_id"}


def test_export_then_import_gives_the_same_room(tmp_path):
    t = played()
    text = t.room.export_json(t.gm)
    data = json.loads(text)
    assert data["format"] == "raisus_panel/room" and data["version"] == 1
    assert len(data["events"]) == t.room.seq and data["events"][-1]["private"] is True

    store = SQLiteStore(tmp_path / "other.sqlite")
    imported = import_room(store, text)
    assert imported.room_id != t.room.room_id
    assert without_id(imported.snapshot(t.gm)) == without_id(t.snapshot())
    assert without_id(Room.load(store, imported.room_id).snapshot(t.gm)) == without_id(t.snapshot())
    again = import_room(store, text)  # importing twice makes two rooms, never overwrites
    assert len(store.list_rooms()) == 2 and again.room_id != imported.room_id
    store.close()


def _damage(mutate):
    data = json.loads(played().room.export_json())
    mutate(data)
    return json.dumps(data)


def _set(path, value):
    def mutate(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


REFUSED = {
    "not json": ("{not json", "not valid JSON"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00", "not valid JSON"),
    "a list": ("[1, 2, 3]", "'format'"),
    "foreign format": (json.dumps({"format": "someone/else", "version": 1, "events": []}), "'format'"),
    "a contest save": (None, "'format'"),
    "newer version": (lambda: _damage(_set(["version"], 2)), "version 2"),
    "no events": (lambda: _damage(_set(["events"], [])), "no events"),
    "gap in sequence": (lambda: _damage(lambda d: d["events"].pop(3)), "sequence number"),
    "unknown type": (lambda: _damage(_set(["events", 4, "type"], "teleported")), "unknown version or type"),
    "missing envelope": (lambda: _damage(lambda d: d["events"][2].pop("actor")), "missing actor"),
    "bad actor": (lambda: _damage(_set(["events", 2, "actor", "role"], "god")), "unknown actor"),
    "not starting with the room": (lambda: _damage(_set(["events", 0, "type"], "title_set")), "creation"),
    "a contest event without its contest": (lambda: _damage(_set(["events", 6, "event"], "x")), "without its contest"),
    "events that do not replay": (
        lambda: _damage(_set(["events", 6, "event", "hits"], [{"character": "ghost", "cliche": "x",
                                                               "extra": 0, "current": 1}])), "do not replay"),
    "an update of nobody": (lambda: _damage(lambda d: d["events"].append({
        **d["events"][3], "seq": len(d["events"]) + 1, "type": "character_updated",
        "character": {**d["events"][3]["character"], "uid": "ghost"}})), "do not replay"),
}


@pytest.mark.parametrize("case", list(REFUSED), ids=list(REFUSED))
@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_refused_imports_leave_the_store_untouched(case, kind, tmp_path):
    text, message = REFUSED[case]
    if case == "a contest save":
        text = Contest("Brawl", Character("A", {"A": 2}), Character("B", {"B": 2})).to_json()
    elif callable(text):
        text = text()
    store = MemoryStore() if kind == "memory" else SQLiteStore(tmp_path / "rooms.sqlite")
    keep = Room.create(store, "Keep")
    keep.apply(Table().gm, "set_title", {"title": "Kept"})
    before = {r: store.read(r) for r in store.list_rooms()}
    with pytest.raises(RoomFileError, match=message) as info:
        import_room(store, text)
    assert isinstance(info.value, SaveFileError) and isinstance(info.value, RuleError)
    assert {r: store.read(r) for r in store.list_rooms()} == before
    store.close()
