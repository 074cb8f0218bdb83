"""Shared builders for the UI tests: characters, contests on scripted dice, and adapters."""

from __future__ import annotations

import gc

import pytest
from panel.io.state import set_curdoc

from raisus_panel import i18n
from raisus_panel.rules import Character, CharacterTeam, Contest, GruntMob, ScriptedDice
from raisus_panel.ui import Actions

from ..rules.keyed_errors import english_catalog_agrees  # noqa: F401 - autouse: refusals read the same in en.json
from .drivers import ServedDoc, click, confirm  # noqa: F401 - the tests' one way to press and to answer Yes


@pytest.fixture(autouse=True)
def _korean_by_default():
    """Every test starts from the default language and leaves it so."""
    before = i18n.settings.lang
    if before != "ko":
        gc.collect()  # components of earlier tests must not refresh on the switch
        i18n.settings.lang = "ko"
    yield
    if i18n.settings.lang != before:
        gc.collect()
        i18n.settings.lang = before


@pytest.fixture
def served():
    """A served page's document, current while the test runs: what it makes redraws on its ticks."""
    doc = ServedDoc()
    with set_curdoc(doc):
        yield doc


def watcher_count(obj) -> int:
    """How many watchers are on a Parameterized object."""
    return sum(len(ws) for what in obj.param.watchers.values() for ws in what.values())


def settle() -> None:
    """Collect earlier tests' components and let their weak watchers on the language setting go, so
    that counting watchers sees only the test's own."""
    gc.collect()
    lang = i18n.settings.lang
    i18n.settings.lang = "en" if lang != "en" else "ko"
    i18n.settings.lang = lang


def duel(a=("Viking", 4), b=("Pirate", 3), rolls=(), **kwargs):
    """Two individuals, one cliché each, on scripted dice: (contest, actions, a, b)."""
    ca = Character(a[0], {a[0]: a[1]})
    cb = Character(b[0], {b[0]: b[1]})
    contest = Contest(kwargs.pop("name", "Brawl"), ca, cb, dice=ScriptedDice(rolls), **kwargs)
    return contest, Actions.local(contest), ca, cb


def team_vs_ogre(rolls=(), ogre=8, **kwargs):
    """Knight(4), Viking(2), Squire(1) as a team against an Ogre (RULES.md scenarios 19, 20)."""
    knight = Character("Knight", {"Knight": 4})
    viking = Character("Viking", {"Viking": 2})
    squire = Character("Squire", {"Squire": 1})
    ogre_char = Character("Ogre", {"Ogre": ogre})
    team = CharacterTeam([knight, viking, squire])
    contest = Contest("Fight", team, ogre_char, dice=ScriptedDice(rolls), **kwargs)
    return contest, Actions.local(contest), team, (knight, viking, squire, ogre_char)


def free_trio_vs_ogre(rolls=()):
    """Knight, Viking, Squire as separate units against an Ogre: exchanges until they team up."""
    knight = Character("Knight", {"Knight": 4})
    viking = Character("Viking", {"Viking": 2})
    squire = Character("Squire", {"Squire": 1})
    ogre = Character("Ogre", {"Ogre": 8})
    contest = Contest("Fight", [knight, viking, squire], ogre, dice=ScriptedDice(rolls))
    return contest, Actions.local(contest), (knight, viking, squire, ogre)


def room_for_two(rolls=(), *, committed: bool = False):
    """A local room with a player, Ann ("p1"), who owns Olaf (Viking 4); the GM has Spy (Spy 3).

    On ``rolls`` (scripted dice), or with ``committed=True`` on the rooms' default committed dice.
    Returns the GM's session, Ann's session, Olaf and Spy.
    """
    from raisus_panel.room import Actor, Room, RoomSession

    gm = Room.local("Tavern", dice=None if committed else ScriptedDice(rolls))
    ann = RoomSession(gm.room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    gm.act("save_character", data={"name": "Olaf", "owner": "p1", "cliches": [{"name": "Viking", "rating": 4}]})
    gm.act("save_character", data={"name": "Spy", "cliches": [{"name": "Spy", "rating": 3}]})
    olaf, spy = gm.room.characters
    return gm, ann, olaf, spy


def brawl_in_room(rolls=()):
    """A local room on scripted dice where Ann ("p1") plays Olaf (Viking 4) against the GM's Pirate
    (Pirate 3) in the contest "Brawl", started. Returns the GM's session, Ann's, the room, Olaf, Pirate."""
    from raisus_panel.room import Actor, Room, RoomSession

    gm = Room.local("Tavern", dice=ScriptedDice(rolls))
    room = gm.room
    ann = RoomSession(room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    gm.act("save_character", data={"name": "Olaf", "owner": "p1", "cliches": [{"name": "Viking", "rating": 4}]})
    gm.act("save_character", data={"name": "Pirate", "cliches": [{"name": "Pirate", "rating": 3}]})
    olaf, pirate = room.characters
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[pirate.uid])
    return gm, ann, room, olaf, pirate


def rats():
    return GruntMob("700 Skeletal Rats", rating=7)
