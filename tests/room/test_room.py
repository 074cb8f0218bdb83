"""The room's command cycle: events, replay, undo, idempotency, privacy, failures and fan-out."""

from __future__ import annotations

import json

import pytest

from raisus_panel.room import Actor, MemoryStore, PermissionDenied, Room, RoomSession, StoreError
from raisus_panel.rules import Contest, RuleError, ScriptedDice

from .conftest import Table


class FlakyStore(MemoryStore):
    """A memory store whose appends fail while ``failing`` is set (a full disk, a lost database)."""

    failing = False

    def append(self, room_id, events):
        if self.failing:
            raise StoreError("The disk is full; nothing was saved.")
        return super().append(room_id, events)


def brawl(t: Table) -> tuple[str, str]:
    """Viking (Alice) vs Pirate (NPC), as in RULES.md scenario 7."""
    v = t.char("Viking", t.alice, Viking=4)
    p = t.char("Pirate", None, Pirate=3)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[p])
    return v, p


def test_events_carry_the_envelope(table):
    events = table.act(table.alice, "create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    (event,) = events
    assert event["seq"] == table.room.seq == 4  # room_created, two joins, this
    assert event["type"] == "character_created" and event["command"] == "create_character"
    assert event["actor"] == {"role": "player", "player_id": table.alice.player_id}
    assert event["private"] is False and isinstance(event["ts"], float) and event["cmd_id"]
    assert table.room.log[-1] == event


def test_a_contest_round_is_a_wrapped_contest_event_with_its_dice():
    t = Table([[6, 5, 1, 1], [4, 4, 4]])
    v, p = brawl(t)
    (event,) = t.act(t.gm, "roll_round")
    assert event["type"] == "contest" and event["contest"] == t.room.contest.uid
    assert event["event"]["type"] == "round_decided"
    assert [r["faces"] for r in event["event"]["attempts"][0]] == [[6, 5, 1, 1], [4, 4, 4]]
    assert t.score(p) == 2 and t.score(v) == 4 and t.room.contest.round == 1


def test_replay_gives_the_same_state():
    t = Table([[6, 5, 1, 1], [4, 4, 4], [1, 1, 1, 1], [4, 4], [6, 6, 6], [1, 1]])
    v, p = brawl(t)
    t.act(t.gm, "roll_round")
    t.act(t.gm, "roll_round")
    t.act(t.gm, "roll_round")
    t.dice.extend([[5, 5, 5]])
    t.act(t.alice, "action_check", character=v, cliche="Viking", tn=10)
    assert t.room.contest.status == "active"
    again = t.reloaded()
    assert again.snapshot(t.gm) == t.snapshot()
    assert [c.label for c in again.characters] == [c.label for c in t.room.characters]
    assert again.contest.history == t.room.contest.history
    assert again.log == t.room.log and again.seq == t.room.seq


def test_a_whole_game_replays_contests_checks_and_recovery():
    t = Table([[1, 1, 1, 2], [6], [6, 6, 6], [1]])
    v = t.char("Viking", t.alice, Viking=4)
    p = t.char("Pirate", None, Pirate=1)
    t.act(t.gm, "start_contest", name="Duel", side_a=[v], side_b=[p])
    t.act(t.gm, "roll_round")
    t.act(t.gm, "roll_round")  # scenario 9: Pirate 0, Viking's side wins
    assert t.room.contest.status == "ended" and t.room.contest.owed_fates == [p]
    t.act(t.alice, "decide_fate", character=p, text="Walks the plank")
    t.act(t.gm, "recover", character=v)
    assert t.score(v) == 4
    t.act(t.gm, "close_contest")
    assert t.room.contest is None
    (summary,) = t.room.past_contests
    assert summary["winner"] == 0 and summary["fates"] == {p: "Walks the plank"}
    t.act(t.gm, "recover", character=p)  # between contests, the room recovers
    assert t.score(p) == 1
    assert t.reloaded().snapshot(t.gm) == t.snapshot()
    replayed = t.room.replay_contest(summary["contest"])
    assert isinstance(replayed, Contest) and replayed.round == 2 and replayed.fates == {p: "Walks the plank"}


def test_starting_a_contest_closes_the_ended_one():
    t = Table([[6, 6, 6, 6], [1]])
    v = t.char("Viking", t.alice, Viking=4)
    p = t.char("Pirate", None, Pirate=1)
    t.act(t.gm, "start_contest", name="Duel", side_a=[v], side_b=[p])
    t.act(t.gm, "roll_round")
    events = t.act(t.gm, "start_contest", name="Rematch", side_a=[v], side_b=[t.char("Rat", None, Rat=2)])
    assert [e["type"] for e in events] == ["contest_closed", "contest"]
    assert t.room.past_contests[0]["name"] == "Duel" and t.room.contest.name == "Rematch"


def test_a_running_contest_must_end_before_another_starts():
    t = Table()
    v, p = brawl(t)
    with pytest.raises(RuleError, match="A contest is running"):
        t.act(t.gm, "start_contest", name="Another", side_a=[v], side_b=[p])
    with pytest.raises(RuleError, match="still running"):
        t.act(t.gm, "close_contest")


def test_characters_in_the_contest_are_locked_until_it_is_closed():
    t = Table()
    v, p = brawl(t)
    with pytest.raises(RuleError, match="in the current contest"):
        t.act(t.alice, "update_character", uid=v, name="Olaf")
    with pytest.raises(RuleError, match="in the current contest"):
        t.act(t.gm, "remove_character", uid=p)
    t.act(t.gm, "end_contest", outcome="Both run from the guards")
    with pytest.raises(RuleError, match="in the current contest"):
        t.act(t.alice, "update_character", uid=v, name="Olaf")
    t.act(t.gm, "close_contest")
    t.act(t.alice, "update_character", uid=v, name="Olaf")
    assert t.room.characters[0].name == "Olaf"


def test_update_keeps_the_character_objects():
    t = Table()
    v = t.char("Viking", t.alice, Viking=4)
    obj = t.room.characters[0]
    cliche = obj.cliches[0]
    t.act(t.alice, "update_character", uid=v, cliches=[{"name": "Viking", "rating": 5}, {"name": "Poet", "rating": 1}])
    assert t.room.characters[0] is obj and obj.cliches[0] is cliche and cliche.rating == 5
    assert [c.label for c in obj.cliches] == ["Viking (5)", "Poet (1)"]
    with pytest.raises(RuleError, match="Nothing to change"):
        t.act(t.alice, "update_character", uid=v, name="Viking")


def test_bad_input_is_a_rule_error_and_changes_nothing(table):
    before = table.snapshot()
    bad = [
        ("fly", {}),
        ("create_character", {"name": "", "cliches": []}),
        ("create_character", {"name": "X", "cliches": [{"name": "Y", "rating": 4000}]}),
        ("create_character", {"name": "X", "cliches": [{"name": "Y", "rating": 2, "temporary": True}]}),
        ("create_character", {"name": "X", "colour": "red"}),
        ("create_character", {"name": "X", "owner": "nobody"}),
        ("action_check", {"character": "nope", "cliche": "Y", "tn": 5}),
        ("start_contest", {"name": "Brawl", "side_a": ["nope"], "side_b": []}),
        ("roll_round", {}),
        ("undo", {}),
    ]
    for name, args in bad:
        with pytest.raises(RuleError):
            table.room.apply(table.gm, name, args)
    assert table.snapshot() == before


# ------------------------------------------------------------------------------ idempotency --
def test_the_same_command_id_applies_once():
    t = Table([[6, 5, 1, 1], [4, 4, 4]])
    v, p = brawl(t)
    first = t.room.apply(t.gm, "roll_round", {}, command_id="click-1")
    seq = t.room.seq
    again = t.room.apply(t.gm, "roll_round", {}, command_id="click-1")  # no dice left: it must not roll
    assert again == first and t.room.seq == seq and t.score(p) == 2
    with pytest.raises(RuleError, match="already used by someone else"):
        t.room.apply(t.alice, "roll_round", {}, command_id="click-1")


def test_command_ids_survive_a_restart():
    t = Table()
    first = t.room.apply(t.alice, "create_character", {"name": "Olaf"}, command_id="resend-me")
    again = t.reloaded()
    assert again.apply(t.alice, "create_character", {"name": "Olaf"}, command_id="resend-me") == first
    assert len(again.characters) == 1


def test_recent_command_ids_are_bounded(monkeypatch):
    t = Table()
    monkeypatch.setattr(Room, "RECENT_COMMANDS", 3)
    for i in range(5):
        t.room.apply(t.gm, "set_title", {"title": f"T{i}"}, command_id=f"c{i}")
    assert list(t.room._recent) == ["c2", "c3", "c4"]


# ------------------------------------------------------------------------------------- undo --
def test_undo_takes_back_the_last_contest_command_in_place():
    t = Table([[6, 5, 1, 1], [4, 4, 4]])
    v, p = brawl(t)
    contest = t.room.contest
    t.act(t.gm, "roll_round")
    events = t.act(t.gm, "undo")
    assert events[0]["type"] == "undone" and events[0]["undone_command"] == "roll_round"
    assert t.room.contest is contest and contest.round == 0 and t.score(p) == 3
    assert t.reloaded().snapshot(t.gm) == t.snapshot()
    assert [e["type"] for e in t.store.read(t.room.room_id)][-2:] == ["contest", "undone"]  # append-only


def test_undo_takes_back_room_commands_and_keeps_the_objects():
    t = Table()
    v = t.char("Viking", t.alice, Viking=4)
    obj = t.room.characters[0]
    t.act(t.alice, "update_character", uid=v, name="Olaf")
    t.act(t.gm, "undo")
    assert t.room.characters[0] is obj and obj.name == "Viking"
    t.act(t.gm, "remove_character", uid=v)
    t.act(t.gm, "undo")
    assert [c.name for c in t.room.characters] == ["Viking"]
    t.act(t.gm, "undo")  # the creation
    assert t.room.characters == []
    with pytest.raises(RuleError, match="Nothing to undo"):  # joins are not undone
        t.act(t.gm, "undo")
    assert len(t.room.players) == 2
    assert t.reloaded().snapshot(t.gm) == t.snapshot()


def test_undo_walks_back_one_command_at_a_time_and_never_redoes():
    t = Table([[6, 5, 1, 1], [4, 4, 4], [1, 1, 1, 1], [6, 6]])
    v, p = brawl(t)
    t.act(t.gm, "open_round")
    t.act(t.alice, "roll_round")
    t.act(t.gm, "roll_round")
    t.act(t.gm, "undo")
    t.act(t.gm, "undo")
    assert t.room.contest.round == 0 and t.room.round_open  # the round opened before is open again
    t.act(t.gm, "undo")
    assert not t.room.round_open
    t.act(t.gm, "undo")  # the contest's start
    assert t.room.contest is None
    assert t.reloaded().snapshot(t.gm) == t.snapshot()


def test_undo_of_a_secret_roll_stays_secret():
    t = Table([[6, 6, 6, 6]])
    v = t.char("Viking", t.alice, Viking=4)
    t.act(t.gm, "action_check", character=v, cliche="Viking", tn=30, private=True)
    (undone,) = t.act(t.gm, "undo")
    assert undone["private"] is True
    assert all(e["type"] not in ("action_checked", "undone") for e in t.room.visible_events(t.alice))
    assert t.room.checks_for(t.gm) == []


# ------------------------------------------------------------------------------------ privacy --
def test_private_rolls_are_never_given_to_players_or_spectators():
    t = Table([[6, 6, 6, 6], [1, 2, 3, 4]])
    v = t.char("Viking", t.alice, Viking=4)
    seen = {"alice": [], "sam": [], "gm": []}
    for who, actor in (("alice", t.alice), ("sam", t.spectator), ("gm", t.gm)):
        RoomSession(t.room, actor).subscribe(seen[who].extend)
    t.act(t.gm, "action_check", character=v, cliche="Viking", tn=30, private=True)
    t.act(t.alice, "action_check", character=v, cliche="Viking", tn=5)
    for actor, who in ((t.alice, "alice"), (t.spectator, "sam")):
        events = t.room.visible_events(actor)
        assert not any(e["private"] for e in events) and not any(e["private"] for e in seen[who])
        assert [c["faces"] for c in RoomSession(t.room, actor).checks] == [[1, 2, 3, 4]]
        assert "6, 6, 6, 6" not in json.dumps(events).replace(",", ", ")
    assert [c["faces"] for c in t.room.checks] == [[1, 2, 3, 4]]  # the public parameter
    assert [c["faces"] for c in t.room.checks_for(t.gm)] == [[6, 6, 6, 6], [1, 2, 3, 4]]
    assert len(seen["gm"]) == 2 and len(seen["alice"]) == 1
    assert not any(e["private"] for e in t.room.log)
    with pytest.raises(PermissionDenied):
        t.room.export_json(t.alice)


def test_visible_events_catch_up_from_a_sequence_number(table):
    table.char("Viking", table.alice, Viking=4)
    seen = table.room.seq
    table.char("Pirate", None, Pirate=3)
    (event,) = table.room.visible_events(table.bob, from_seq=seen)
    assert event["seq"] == seen + 1


def test_names_that_look_like_html_are_kept_verbatim(table):
    name = '<script>alert("x")</script>'
    uid = table.act(table.alice, "create_character", name=name,
                    cliches=[{"name": "<b>Bold</b> & co", "rating": 2}])[0]["character"]["uid"]
    table.room.apply(Actor.player(""), "join", {"name": "<img src=x onerror=alert(1)>"})
    again = table.reloaded()
    char = next(c for c in again.characters if c.uid == uid)
    assert char.name == name and char.cliches[0].name == "<b>Bold</b> & co"
    assert "<img src=x onerror=alert(1)>" in again.players.values()


# ------------------------------------------------------------------------- a failing store --
def test_a_store_failure_rolls_back_a_room_command():
    store = FlakyStore()
    t = Table(store=store)
    before = t.snapshot()
    store.failing = True
    with pytest.raises(StoreError):
        t.act(t.alice, "create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])
    assert t.snapshot() == before and t.room.characters == []


def test_a_store_failure_rolls_back_a_contest_round():
    store = FlakyStore()
    t = Table([[6, 5, 1, 1], [4, 4, 4], [6, 5, 1, 1], [4, 4, 4]], store=store)
    v, p = brawl(t)
    before = t.snapshot()
    store.failing = True
    with pytest.raises(StoreError):
        t.act(t.gm, "roll_round")
    assert t.snapshot() == before and t.score(p) == 3 and t.room.contest.round == 0
    store.failing = False
    t.act(t.gm, "roll_round")
    assert t.score(p) == 2 and t.reloaded().snapshot(t.gm) == t.snapshot()


def test_a_store_failure_refuses_a_contest_start_and_an_undo():
    store = FlakyStore()
    t = Table(store=store)
    v = t.char("Viking", t.alice, Viking=4)
    p = t.char("Pirate", None, Pirate=3)
    store.failing = True
    with pytest.raises(StoreError):
        t.act(t.gm, "start_contest", name="Brawl", side_a=[v], side_b=[p])
    with pytest.raises(StoreError):
        t.act(t.gm, "undo")
    assert t.room.contest is None and len(t.room.characters) == 2


def test_another_writer_makes_the_room_refresh():
    t = Table()
    other = t.reloaded()  # a second process on the same store
    other.apply(t.gm, "set_title", {"title": "Elsewhere"})
    from raisus_panel.room import RoomChanged
    with pytest.raises(RoomChanged):
        t.act(t.gm, "set_title", title="Here")
    assert t.room.title == "Elsewhere"  # refreshed from the store
    t.act(t.gm, "set_title", title="Here")
    assert t.room.seq == other.seq + 1


# ------------------------------------------------------------------------ fan-out, presence --
def test_subscribers_get_each_command_and_can_leave():
    t = Table()
    got = []
    unsubscribes = [t.room.subscribe(got.append) for _ in range(3)]
    assert t.room.subscriber_count == 3
    t.char("Viking", t.alice, Viking=4)
    assert len(got) == 3 and all(batch[0]["type"] == "character_created" for batch in got)
    for unsubscribe in unsubscribes:
        unsubscribe()
        unsubscribe()  # twice is harmless
    assert t.room.subscriber_count == 0
    sessions = [RoomSession(t.room, t.bob).subscribe(lambda e: None) for _ in range(5)]
    assert t.room.subscriber_count == 5
    for unsubscribe in sessions:
        unsubscribe()
    assert t.room.subscriber_count == 0


def test_a_broken_subscriber_does_not_break_the_command(table, caplog):
    def broken(events):
        raise RuntimeError("a closed tab")
    table.room.subscribe(broken)
    table.char("Viking", table.alice, Viking=4)
    assert len(table.room.characters) == 1 and "subscriber failed" in caplog.text


def test_presence_is_not_an_event(table):
    seq = table.room.seq
    RoomSession(table.room, table.spectator).connect("tab-1")
    RoomSession(table.room, table.alice).connect("tab-2")
    assert {v["role"] for v in table.room.presence.values()} == {"spectator", "player"}
    table.room.disconnect("tab-1")
    table.room.disconnect("tab-1")
    assert list(table.room.presence) == ["tab-2"] and table.room.seq == seq


def test_watchers_fire_once_per_command(table):
    fired = []
    table.room.param.watch(lambda *events: fired.append(sorted(e.name for e in events)),
                           ["characters", "log", "seq", "title", "contest"])
    table.char("Viking", table.alice, Viking=4)
    assert fired == [["characters", "log", "seq"]]


# --------------------------------------------------------------------------- local rooms --
def test_a_local_room_is_the_gms_session(tmp_path):
    gm = Room.local("Notebook", dice=ScriptedDice([[6, 5, 1, 1], [4, 4, 4]]))
    assert gm.actor.role == "gm" and gm.room.title == "Notebook"
    v = gm.act("create_character", name="Viking", cliches=[{"name": "Viking", "rating": 4}])[0]["character"]["uid"]
    p = gm.act("create_character", name="Pirate", cliches=[{"name": "Pirate", "rating": 3}])[0]["character"]["uid"]
    assert gm.can("start_contest", name="Brawl", side_a=[v], side_b=[p])
    gm.act("start_contest", name="Brawl", side_a=[v], side_b=[p])
    gm.act("roll_round")
    assert gm.room.contest.round == 1

    path = tmp_path / "notebook.sqlite"
    first = Room.local("Kept", path=path)
    first.act("set_title", title="Kept on disk")
    first.room.store.close()
    again = Room.local("ignored", path=path)
    assert again.room.title == "Kept on disk"
    again.room.store.close()


def test_can_asks_the_rules_without_rolling():
    t = Table()
    v, p = brawl(t)
    session = RoomSession(t.room, t.gm)
    assert session.can("roll_round") and t.dice.remaining == 0  # no scripted die was used
    assert session.why_not("volunteer", member=v) == "Viking is not in a character team; only team members volunteer."
    assert "no unit" in session.why_not("choose", unit="nope", cliche="x")
    assert not RoomSession(t.room, t.spectator).can("roll_round")
