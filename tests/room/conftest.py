"""Shared helpers for the room tests: a table with a GM, two players, a spectator and characters."""

from __future__ import annotations

import pytest

from raisus_panel.room import Actor, MemoryStore, Room
from raisus_panel.rules import ScriptedDice

from ..rules.keyed_errors import english_catalog_agrees  # noqa: F401 - autouse: refusals read the same in en.json


class Table:
    """A room with a GM, Alice and Bob (joined players) and Sam (a spectator).

    ``char(...)`` creates characters as the GM and returns their uid; ``act(actor, name, **args)``
    runs a command. ``committed=True`` gives the room its default, committed dice (no script).
    """

    def __init__(self, rolls=(), store=None, dice=None, committed=False):
        self.store = store or MemoryStore()
        self.dice = None if committed else dice or ScriptedDice(rolls)
        self.room = Room.create(self.store, "Table", dice=self.dice)
        self.gm = Actor.gm()
        self.alice = self.join("Alice")
        self.bob = self.join("Bob")
        self.spectator = Actor.spectator("Sam")

    def join(self, name: str) -> Actor:
        player = self.room.apply(Actor.player(""), "join", {"name": name})[0]["player"]
        return Actor.player(player["player_id"], player["name"])

    def char(self, name: str, owner: Actor | None = None, /, kind: str = "character", **cliches) -> str:
        data = {"name": name, "kind": kind, "owner": owner.player_id if owner else "",
                "cliches": [{"name": k.replace("_", " "), "rating": v} for k, v in cliches.items()]}
        return self.act(self.gm, "create_character", **data)[0]["character"]["uid"]

    def act(self, actor: Actor, command: str, /, **args) -> list[dict]:
        return self.room.apply(actor, command, args)

    def score(self, uid: str, cliche: str | None = None) -> int:
        char = next(c for c in self.room.characters if c.uid == uid)
        return (char.cliche(cliche) if cliche else char.cliches[0]).current

    def snapshot(self, actor: Actor | None = None) -> dict:
        return self.room.snapshot(actor or self.gm)

    def reloaded(self) -> Room:
        return Room.load(self.store, self.room.room_id)


@pytest.fixture
def table():
    return Table()


@pytest.fixture
def stores(redis_url):
    """Two Redis stores on one redis-server: what two server processes open (each its own connections
    and listener thread)."""
    from raisus_panel.room.redis_store import RedisStore

    made = [RedisStore(redis_url), RedisStore(redis_url)]
    yield made
    for store in made:
        store.close()


@pytest.fixture
def relay(redis_server):
    """A TCP relay to the test's redis-server that can hold its answers (a network stall)."""
    from .test_outcome_unknown import StallingRelay

    made = StallingRelay(redis_server.port)
    yield made
    made.stalled.clear()
    made.close()
