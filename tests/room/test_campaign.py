"""Campaign play in a room (RULES.md section 11): the table's rules, sessions, lucky shots, pumps, the
creation budget and advancement -- through ``Room.apply``, as every page gives them, on a real SQLite
file where it matters. A refused command changes nothing; everything replays, undoes and verifies.
"""

from __future__ import annotations

import json

import pytest

from raisus_panel.room import PermissionDenied, Room, SQLiteStore
from raisus_panel.rules import RuleError, verify

from .conftest import Table

CAMPAIGN = {"pumps": True, "lucky_shots": True, "advancement": "rolls"}


def character(t: Table, uid: str):
    return next(c for c in t.room.characters if c.uid == uid)


def refused(t: Table, key: str, actor, command: str, **args):
    """``command`` is refused with ``key`` and leaves the room exactly as it was."""
    seq, stored, snap = t.room.seq, len(t.store.read(t.room.room_id)), t.snapshot()
    with pytest.raises((RuleError, PermissionDenied)) as caught:
        t.act(actor, command, **args)
    assert caught.value.key == key
    assert (t.room.seq, len(t.store.read(t.room.room_id)), t.snapshot()) == (seq, stored, snap)
    return caught.value


def olaf(t: Table, **fields) -> str:
    """Alice's Olaf (Viking 2) with 3 lucky shots, made by her."""
    made = t.act(t.alice, "create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 2}],
                 lucky_shots=3, **fields)
    return made[0]["character"]["uid"]


def test_32_a_lucky_shot_in_a_check_is_spent_and_a_new_session_refills_it(tmp_path):
    store = SQLiteStore(str(tmp_path / "room.sqlite"))
    t = Table(rolls=[[4, 3, 3]], store=store)
    t.act(t.gm, "set_rules", profile=CAMPAIGN)
    uid = olaf(t)
    event = t.act(t.alice, "action_check", character=uid, cliche="Viking", tn=10, lucky=1)[-1]
    assert (event["check"]["dice"], event["check"]["total"], event["check"]["success"]) == (3, 10, True)
    assert character(t, uid).lucky_left == 2
    t.act(t.gm, "new_session")
    assert character(t, uid).lucky_left == 3 and t.room.snapshot(t.gm) is not None
    reloaded = Room.load(SQLiteStore(str(tmp_path / "room.sqlite")), t.room.room_id)
    assert next(c for c in reloaded.characters if c.uid == uid).lucky_left == 3
    t.act(t.gm, "undo")  # takes the new session back: the shot is spent again
    assert character(t, uid).lucky_left == 2


def test_lucky_shots_and_pumps_in_checks_are_refused_when_not_allowed_and_change_nothing():
    t = Table()
    uid = olaf(t)
    refused(t, "error.lucky.off", t.alice, "action_check", character=uid, cliche="Viking", tn=10, lucky=1)
    t.act(t.gm, "set_rules", profile=CAMPAIGN)
    refused(t, "error.lucky.too_many", t.alice, "action_check", character=uid, cliche="Viking", tn=10, lucky=4)
    refused(t, "error.pump.checks_off", t.alice, "action_check", character=uid, cliche="Viking", tn=10, pump=1)
    for bad in (-1, "1", 1.5, True):
        with pytest.raises(RuleError):
            t.act(t.alice, "action_check", character=uid, cliche="Viking", tn=10, lucky=bad)
    refused(t, "error.permission.not_yours", t.bob, "action_check", character=uid, cliche="Viking", tn=10, lucky=1)


def test_a_pump_in_a_check_is_paid_after_it_when_the_gm_allows_them():
    t = Table(rolls=[[1, 1, 1, 1]])
    t.act(t.gm, "set_rules", profile={**CAMPAIGN, "pump_checks": True})
    uid = t.char("Viking", t.alice, Viking=3)
    t.act(t.alice, "action_check", character=uid, cliche="Viking", tn=10, pump=1)
    assert t.score(uid) == 2


def test_28_a_pump_and_lucky_shots_in_a_room_contest_through_the_players_own_pages():
    t = Table(rolls=[[6, 5, 4, 1, 1, 1, 3], [4, 4, 4]])
    t.act(t.gm, "set_rules", profile=CAMPAIGN)
    viking = olaf(t)
    t.act(t.gm, "update_character", uid=viking, cliches=[{"name": "Viking", "rating": 4}])
    pirate = t.char("Pirate", None, Pirate=3)
    t.act(t.gm, "start_contest", name="Brawl", side_a=[viking], side_b=[pirate])
    assert t.room.contest.profile.pumps  # the table's rules, as none were given
    t.act(t.alice, "pump", unit=viking, amount=2)
    t.act(t.alice, "spend_lucky", character=viking, amount=1)
    refused(t, "error.permission.not_yours", t.bob, "pump", unit=viking, amount=1)
    refused(t, "error.permission.not_yours", t.alice, "pump", unit=pirate, amount=1)
    refused(t, "error.session.contest_open", t.gm, "new_session")
    refused(t, "error.check.spend_in_contest", t.alice, "action_check", character=viking, cliche="Viking",
            tn=5, lucky=1)
    t.act(t.gm, "roll_round")
    assert (t.score(viking), t.score(pirate), character(t, viking).lucky_left) == (2, 2, 2)
    again = t.reloaded()
    assert next(c for c in again.characters if c.uid == viking).lucky_left == 2
    assert [c.cliches[0].current for c in again.characters] == [2, 2]


def test_33_the_creation_budget_refuses_a_players_character_over_it_until_the_gm_accepts_a_hook():
    t = Table()
    t.act(t.gm, "set_rules", profile={"creation_dice": 10})

    def make(*ratings, **fields):
        cliches = [{"name": n, "rating": r} for n, r in zip(("Viking", "Cook", "Sailor"), ratings)]
        return t.act(t.alice, "create_character", name="Olaf", cliches=cliches, **fields)[0]["character"]["uid"]

    make(4, 3, 3)
    refused(t, "error.budget.over_max", t.alice, "create_character", name="Olaf",
            cliches=[{"name": "Viking", "rating": 5}])
    cliches = [{"name": "Viking", "rating": 4}, {"name": "Cook", "rating": 4}, {"name": "Sailor", "rating": 3}]
    refused(t, "error.budget.over", t.alice, "create_character", name="Olaf", cliches=cliches)
    refused(t, "error.permission.accept", t.alice, "create_character", name="Olaf", cliches=cliches,
            hook="Cannot swim", accepted=["hook"])
    uid = make(4, 3, 3, hook="Cannot swim")
    refused(t, "error.budget.over", t.alice, "update_character", uid=uid, cliches=cliches)
    t.act(t.gm, "update_character", uid=uid, accepted=["hook"])
    t.act(t.alice, "update_character", uid=uid, cliches=cliches)  # the accepted hook's die pays for it
    assert [c.rating for c in character(t, uid).cliches] == [4, 4, 3]
    # what the GM accepted is that hook: its player does not rewrite it (nor drops it) afterwards
    refused(t, "error.permission.accepted_text", t.alice, "update_character", uid=uid, hook="Fears the dark")
    refused(t, "error.permission.accepted_text", t.alice, "update_character", uid=uid, hook="")
    t.act(t.alice, "update_character", uid=uid, tale="Born on a longship")  # a tale not yet accepted: hers
    t.act(t.gm, "update_character", uid=uid, hook="Cannot swim, nor row")  # the GM may
    assert character(t, uid).hook == "Cannot swim, nor row" and character(t, uid).accepted == ["hook"]
    npc = t.act(t.gm, "create_character", name="Dragon", cliches=[{"name": "Dragon", "rating": 6}])
    assert npc  # NPCs have no budget


def test_34_advancement_rolls_on_committed_dice_raise_a_used_cliche_and_verify():
    t = Table(committed=True)
    t.act(t.gm, "set_rules", profile=CAMPAIGN)
    viking = t.char("Viking", t.alice, Viking=3, Cook=2)
    veteran = t.char("Veteran", t.alice, Veteran=6)
    t.act(t.alice, "action_check", character=viking, cliche="Viking", tn=5)
    t.act(t.alice, "action_check", character=veteran, cliche="Veteran", tn=5)
    refused(t, "error.advancement.none", t.alice, "roll_advancement", character=viking, cliche="Viking")
    ended = t.act(t.gm, "end_session")[-1]
    assert ended["advancement"] == {viking: ["Viking"]}  # the Cook was not used; a 6 does not rise
    refused(t, "error.advancement.not_used", t.alice, "roll_advancement", character=viking, cliche="Cook")
    refused(t, "error.session.ended", t.gm, "end_session")
    event = t.act(t.alice, "roll_advancement", character=viking, cliche="Viking")[-1]
    faces = event["roll"]["faces"]
    assert len(faces) == 3 and event["roll"]["rises"] == all(f % 2 == 0 for f in faces)
    assert character(t, viking).cliche("Viking").rating == (4 if event["roll"]["rises"] else 3)
    refused(t, "error.advancement.none", t.alice, "roll_advancement", character=viking, cliche="Viking")
    t.act(t.gm, "reveal_checks")
    assert all(check.ok for check in verify(t.room.export_json(t.gm)))
    rolls = [e for e in json.loads(t.room.export_json(t.gm))["events"] if e["type"] == "advancement_rolled"]
    assert rolls and rolls[0]["draw"] is not None


def test_advancement_points_invest_a_creation_die():
    t = Table()
    t.act(t.gm, "set_rules", profile={"advancement": "points"})
    viking = t.char("Viking", t.alice, Viking=3)
    t.act(t.gm, "end_session")
    t.act(t.alice, "invest_advancement", character=viking, cliche="Sailor")
    assert [(c.name, c.rating) for c in character(t, viking).cliches] == [("Viking", 3), ("Sailor", 1)]
    refused(t, "error.advancement.none", t.alice, "invest_advancement", character=viking, cliche="Viking")
    t.act(t.gm, "new_session")
    t.act(t.gm, "end_session")
    t.act(t.alice, "invest_advancement", character=viking, cliche="Viking")
    assert character(t, viking).cliche("Viking").rating == 4


def test_the_tables_rules_are_refused_when_unknown_or_unchanged():
    t = Table()
    refused(t, "error.profile.unknown", t.gm, "set_rules", profile={"exploding_dice": True})
    refused(t, "error.profile.invalid", t.gm, "set_rules", profile={"advancement": "always"})
    t.act(t.gm, "set_rules", profile={"pumps": True})
    refused(t, "error.room.same_rules", t.gm, "set_rules", profile={"pumps": True})
    assert t.reloaded().snapshot(t.gm) == t.snapshot()


def test_the_room_publishes_its_rules_session_and_advancement():
    t = Table()
    seen = []
    t.room.param.watch(lambda *events: seen.extend(e.name for e in events), ["profile", "session_number", "session_ended", "advancement"])
    t.act(t.gm, "set_rules", profile={"advancement": "points"})
    viking = t.char("Viking", t.alice, Viking=3)
    t.act(t.gm, "end_session")
    assert (t.room.session_number, t.room.session_ended, t.room.advancement) == (1, True, {viking: []})
    t.act(t.gm, "new_session")
    assert (t.room.session_number, t.room.session_ended, t.room.profile.advancement) == (2, False, "points")
    assert {"profile", "session_number", "session_ended", "advancement"} <= set(seen)
