"""The report's dice section: the commitment, the revealed seed, the client seeds and the check of
every die, made from the log the reader may see (a tampered file fails, naming the roll)."""

from __future__ import annotations

import json

from raisus_panel.report import read_file, report
from raisus_panel.room import Actor, MemoryStore, Room
from raisus_panel.rules import Character, CommittedDice, Contest, ScriptedDice, verify

from .conftest import EVIL


def committed_room(*, end: bool = True) -> tuple[Room, Actor]:
    """A room on committed dice (the default): Ann (a name with HTML) sets her own client seed."""
    room = Room.create(MemoryStore(), "Fair table")
    gm = Actor.gm()
    joined = room.apply(Actor.player(""), "join", {"name": EVIL})[0]["player"]
    ann = Actor.player(joined["player_id"], joined["name"])
    olaf = room.apply(gm, "create_character", {"name": "Olaf", "kind": "character", "owner": ann.player_id,
                                               "cliches": [{"name": "Viking", "rating": 3}]})[0]["character"]["uid"]
    ogre = room.apply(gm, "create_character", {"name": "Ogre", "kind": "character", "owner": "",
                                               "cliches": [{"name": "Ogre", "rating": 2}]})[0]["character"]["uid"]
    room.apply(gm, "start_contest", {"name": "Brawl", "side_a": [olaf], "side_b": [ogre]})
    room.apply(ann, "set_client_seed", {"seed": "ann's <lucky> words"})
    room.apply(ann, "choose", {"unit": olaf, "cliche": "Viking"})
    room.apply(gm, "roll_round")
    if end:
        while room.contest.status == "active":
            room.apply(gm, "roll_round")
    return room, gm


def section(html: str) -> str:
    start = html.index("<section class=verification>")
    return html[start:html.index("</section>", start)]


def test_a_played_contest_shows_its_commitment_seed_and_verified_dice():
    room, gm = committed_room()
    checks = verify(room)
    html = report(room, "en").html()
    part = section(html)
    committed = checks[0].commitments[0]
    assert "Dice anyone can check" in part
    assert f"✓ Verified when this report was made: every die of {checks[0].rolls} rolls" in part
    assert committed["commitment"] in part and committed["seed"] in part
    # the client seeds by the players' names, escaped like every text people typed
    assert "ann&#x27;s &lt;lucky&gt; words" in part and EVIL not in html
    assert "raisus verify FILE" in part
    korean = section(report(room, "ko").html())
    assert "✓ 이 기록을 만들 때 검증함" in korean and committed["seed"] in korean


def test_a_running_contest_keeps_its_seed_secret():
    room, gm = committed_room(end=False)
    part = section(report(room, "en").html())
    assert "The seed was not revealed yet" in part and "not revealed yet" in part
    assert "✓" not in part
    commitment = verify(room)[0].commitments[0]
    assert commitment["seed"] is None and commitment["commitment"] in part


def test_a_tampered_export_fails_and_names_the_roll():
    room, gm = committed_room()
    data = json.loads(room.export_json())
    decided = next(e for e in data["events"] if e.get("type") == "contest"
                   and e["event"]["type"] == "round_decided")
    faces = decided["event"]["attempts"][0][0]["faces"]
    faces[0] = 1 if faces[0] != 1 else 2          # one die of the first roll, changed
    decided["event"]["attempts"][0][0]["total"] = sum(faces)
    tampered = json.dumps(data)
    part = section(read_file(tampered, "en").html())
    assert "✗ The dice do not verify: roll" in part and "die 1" in part
    assert "✓" not in part


def test_a_revealed_seed_that_is_not_the_committed_one_fails():
    room, gm = committed_room()
    data = json.loads(room.export_json())
    reveal = next(e for e in data["events"] if e.get("type") == "contest"
                  and e["event"]["type"] == "dice_revealed")
    seed = reveal["event"]["seed"]
    reveal["event"]["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]   # one seed byte changed
    part = section(read_file(json.dumps(data), "en").html())
    assert "✗ The dice do not verify: the revealed seed does not match its commitment" in part


def test_a_notebook_contest_on_committed_dice_and_one_on_other_dice():
    duel = Contest("Duel", Character("Ann", {"Fencer": 3}), Character("Bo", {"Brute": 3}), dice=CommittedDice())
    duel.roll_round()
    duel.end("Both walk away.")
    assert "✓ Verified when this report was made" in section(report(duel, "en").html())
    scripted = Contest("Duel", Character("Ann", {"Fencer": 1}), Character("Bo", {"Brute": 1}),
                       dice=ScriptedDice([[6], [1]]))
    scripted.roll_round()
    html = report(scripted, "en").html()
    assert section(html) == "<section class=verification>" and "Dice anyone can check" not in html
