"""Room files: what export writes, import reads back; anything else is refused and writes nothing."""

from __future__ import annotations

import json
import re

import pytest

from raisus_panel.room import Actor, MemoryStore, Room, RoomFileError, SQLiteStore, import_room
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
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00", "not text"),
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


def _bad_files() -> dict:
    good = json.loads(played().room.export_json(Actor.gm()))
    wrong_type = json.loads(json.dumps(good))
    wrong_type["events"][1]["type"] = ["player_joined"]  # unhashable where a name belongs
    misfit = json.loads(json.dumps(good))
    misfit["events"][3]["character"] = "not a character"
    return {
        "cut off": json.dumps(good)[:500],
        "binary": bytes(range(256)) * 4,
        "binary as the browser reads it": (bytes(range(256)) * 4).decode("utf-8", "replace"),
        "latin-1": "{\"title\": \"Caf\u00e9\"}".encode("latin-1"),
        "nested too deep": "[" * 200_000 + "]" * 200_000,
        "a number too long": "[" + "9" * 5000 + "]",
        "wrong type": json.dumps(wrong_type),
        "does not replay": json.dumps(misfit),
        "huge": "[" + " " * 5_000_001 + "]",
        "empty": "",
    }


# what Python says in its own words, which a page must never show
_PYTHON_WORDS = ("Expecting", "codec", "recursion", "unhashable", "Traceback", "object", "char ", "Exceeds",
                 "NoneType", "str", "int(", "dict", "list")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_import_refusal_is_a_catalog_message_in_the_pages_language(lang, tmp_path):
    from raisus_panel import i18n
    from raisus_panel.room import RoomRegistry
    from raisus_panel.room.limits import Limits

    store = SQLiteStore(tmp_path / "rooms.sqlite")
    registry = RoomRegistry(store, limits=Limits(rooms_per_client=0, rooms_per_server=0))
    for name, text in _bad_files().items():
        with pytest.raises(RuleError) as refused:
            registry.import_room(text, client="203.0.113.5")
        key = refused.value.key
        assert key and all(key in i18n.catalog(other) for other in ("en", "ko")), (name, key)
        shown = i18n.translate(refused.value, lang)
        assert shown and "{" not in shown, (name, shown)
        assert not any(word in shown for word in _PYTHON_WORDS), (name, shown)
        if lang == "ko":
            assert re.search("[가-힣]", shown) and not re.search("[A-Za-z]{4,}", shown.replace("raisus_panel", "")
                                                                 .replace("JSON", "").replace("UTF", "")), (name, shown)
    assert store.list_rooms() == []
    store.close()
