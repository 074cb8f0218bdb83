"""A played room to report on: two players, HTML in the names, a closed contest, a second one ended,
an undone command, a GM's secret roll and a player's action check in the open."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from raisus_panel.room import Actor, MemoryStore, Room
from raisus_panel.rules import ScriptedDice

from ..rules.keyed_errors import english_catalog_agrees  # noqa: F401 - autouse: refusals read the same in en.json

EVIL = "<img src=x onerror=alert(1)>"

#: The dice, in the order the room rolls them (the first contest's tie is re-rolled).
ROLLS = [
    [6, 6, 1, 1], [4, 4, 6],      # contest 1, round 1: 14 vs 14, a tie
    [3, 3, 3, 3], [1, 2, 3],      # re-rolled: 12 vs 6, Olaf wins; Jack 3 -> 2
    [2, 5, 5, 2], [3, 5],         # round 2: 14 vs 8; Jack 2 -> 1
    [6, 5, 4, 4], [4],            # an undone roll (the GM takes round 3 back: see played_room)
    [4, 6, 5, 1], [6],            # round 3: 16 vs 6; Jack 1 -> 0, Olaf wins
    [5, 5, 5],                    # the GM's secret action check (Ogre vs TN 10)
    [3, 4],                       # Ann's action check in the open (Olaf's Cook vs TN 5)
    [1, 1], [6, 6, 6],            # contest 2, round 1: Olaf (Cook 2) vs Ogre (3): 2 vs 18
    [2], [5, 5, 1],               # round 2: 2 vs 11: Olaf's Cook 1 -> 0, the Ogre wins
]


@dataclass
class Played:
    """The played room and who is at it."""

    room: Room
    gm: Actor
    ann: Actor
    bob: Actor
    olaf: str
    jack: str
    ogre: str
    rounds: list = field(default_factory=list)  # per contest: [(faces of side A, faces of side B) per attempt]


def played_room() -> Played:
    room = Room.create(MemoryStore(), "<i>Friday</i> table", dice=ScriptedDice(ROLLS))
    gm = Actor.gm()

    def join(name):
        player = room.apply(Actor.player(""), "join", {"name": name})[0]["player"]
        return Actor.player(player["player_id"], player["name"])

    ann, bob = join("<b>Ann</b>"), join("Bob")

    def char(name, owner, **cliches):
        data = {"name": name, "kind": "character", "owner": owner.player_id if owner else "",
                "cliches": [{"name": k, "rating": v} for k, v in cliches.items()]}
        return room.apply(gm, "create_character", data)[0]["character"]["uid"]

    olaf = char(f"Olaf {EVIL}", ann, Viking=4, Cook=2)
    jack = char("Jack", bob, Pirate=3)
    ogre = char("Ogre", None, Ogre=3)
    room.apply(gm, "start_contest", {"name": "Brawl <script>alert(1)</script>", "side_a": [olaf], "side_b": [jack]})
    room.apply(ann, "choose", {"unit": olaf, "cliche": "Viking"})
    room.apply(gm, "open_round", {"open": True})
    room.apply(ann, "roll_round")
    room.apply(gm, "open_round", {"open": True})
    room.apply(bob, "roll_round")
    room.apply(gm, "roll_round")
    room.apply(gm, "undo")
    room.apply(gm, "roll_round")
    room.apply(ann, "decide_fate", {"character": jack, "text": "Swims home <with a grin>"})
    room.apply(gm, "action_check", {"character": ogre, "cliche": "Ogre", "tn": 10, "private": True})
    room.apply(ann, "action_check", {"character": olaf, "cliche": "Cook", "tn": 5})
    room.apply(gm, "start_contest", {"name": "Kitchen", "side_a": [olaf], "side_b": [ogre]})  # closes the first
    room.apply(ann, "choose", {"unit": olaf, "cliche": "Cook"})
    room.apply(gm, "roll_round")
    room.apply(gm, "roll_round")
    rounds = [[[([6, 6, 1, 1], [4, 4, 6]), ([3, 3, 3, 3], [1, 2, 3])], [([2, 5, 5, 2], [3, 5])],
               [([4, 6, 5, 1], [6])]],
              [[([1, 1], [6, 6, 6])], [([2], [5, 5, 1])]]]
    return Played(room, gm, ann, bob, olaf, jack, ogre, rounds)


@pytest.fixture
def played():
    return played_room()
