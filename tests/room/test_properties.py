"""Random play by several actors (hypothesis): refusals change nothing, replay equals the live room.

The GM, two players and a spectator send random commands with arguments drawn from the room's
state -- many of them refused by the permissions or the rules. After every command: a refused one
changed neither the state nor the store; an applied one numbered its events right after the last.
At the end, replaying the store gives exactly the live state, and no private event reached a
player.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raisus_panel.room import MemoryStore
from raisus_panel.rules import CharacterTeam, RuleError, SeededDice

from .conftest import Table

WEIGHTS = {
    "roll_round": 10, "choose": 5, "open_round": 3, "exchange": 3, "start_contest": 3, "undo": 3,
    "action_check": 3, "volunteer": 2, "form_team": 2, "disband": 2, "drop_out": 1, "assign_loss": 1,
    "end_round": 2, "approve": 2, "give_tickets": 1, "end_contest": 1, "decide_fate": 2, "veto_fate": 1,
    "recover": 2, "close_contest": 2, "create_character": 1, "update_character": 1,
    "remove_character": 1, "set_title": 1,
}
NAMES = [n for n, w in WEIGHTS.items() for _ in range(w)]


def _units(t: Table) -> list:
    contest = t.room.contest
    return [u for side in contest.sides for u in side] if contest else []


def _members(t: Table) -> list:
    contest = t.room.contest
    return contest.characters() if contest else []


def draw_command(data, t: Table) -> tuple[str, dict]:
    name = data.draw(st.sampled_from(NAMES))
    chars = list(t.room.characters)
    pick = lambda seq: data.draw(st.sampled_from(seq)) if seq else None  # noqa: E731
    uid = lambda seq: getattr(pick(seq), "uid", "nobody")  # noqa: E731
    if name in ("roll_round", "open_round", "end_round", "close_contest", "undo"):
        return name, {}
    if name == "choose":
        unit = pick(_units(t))
        cliches = [c.name for c in getattr(unit, "cliches", [])] or ["x"]
        return name, {"unit": getattr(unit, "uid", "nobody"), "cliche": pick(cliches),
                      "appropriate": data.draw(st.booleans()), "approved": data.draw(st.booleans())}
    if name == "exchange":
        return name, {"attacker": uid(_units(t)), "target": uid(_units(t))}
    if name in ("approve",):
        return name, {"unit": uid(_units(t))}
    if name == "disband":
        return name, {"team": uid([u for u in _units(t) if isinstance(u, CharacterTeam)] or _units(t))}
    if name in ("volunteer", "drop_out", "assign_loss"):
        return name, {"member": uid(_members(t))}
    if name == "form_team":
        contest = t.room.contest
        members = contest.characters(data.draw(st.sampled_from([0, 1]))) if contest else []
        chosen = data.draw(st.lists(st.sampled_from(members), min_size=2, max_size=3, unique_by=lambda c: c.uid)) \
            if len(members) >= 2 else []
        return name, {"members": [[c.uid, c.cliches[0].name, True] for c in chosen if c.cliches] or ["nobody"]}
    if name == "give_tickets":
        return name, {"name": "Pie Eating"}
    if name == "end_contest":
        return name, {"outcome": "The GM calls it", "winner": data.draw(st.sampled_from([None, 0, 1]))}
    if name in ("decide_fate", "veto_fate"):
        args = {"character": uid(_members(t))}
        return name, {**args, "text": "Banished"} if name == "decide_fate" else args
    if name == "recover":
        return name, {"character": uid(chars), "amount": data.draw(st.sampled_from([None, 1]))}
    if name == "action_check":
        char = pick(chars)
        return name, {"character": getattr(char, "uid", "nobody"),
                      "cliche": char.cliches[0].name if char and char.cliches else "x",
                      "tn": data.draw(st.integers(1, 20)), "private": data.draw(st.booleans()),
                      "automatic": data.draw(st.booleans())}
    if name == "start_contest":
        pool = data.draw(st.permutations(chars)) if chars else []
        cut = data.draw(st.integers(0, len(pool)))
        side_a, side_b = pool[:cut][:3], pool[cut:][:3]
        teams = []
        if len(side_a) >= 2 and data.draw(st.booleans()):
            teams = [{"side": 0, "members": [[c.uid, c.cliches[0].name, True] for c in side_a[:2]],
                      "leader": side_a[0].uid}]
            side_a = side_a[2:]
        return name, {"name": "Fray", "side_a": [c.uid for c in side_a], "side_b": [c.uid for c in side_b],
                      "teams": teams, "single_roll": data.draw(st.booleans()),
                      "profile": {"team_loss": data.draw(st.sampled_from(["leader", "leader_assigns"]))}}
    if name == "create_character":
        return name, {"name": data.draw(st.sampled_from(["Cy", "<b>Dee</b>", "용사"])),
                      "cliches": [{"name": "Hero", "rating": data.draw(st.integers(1, 4))}]}
    if name == "update_character":
        return name, {"uid": uid(chars), "description": data.draw(st.sampled_from(["tall", "short"]))}
    if name == "remove_character":
        return name, {"uid": uid(chars)}
    return name, {"title": data.draw(st.sampled_from(["Inn", "Cave"]))}  # set_title


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_play_by_several_actors(data):
    store = MemoryStore()
    t = Table(store=store, dice=SeededDice(data.draw(st.integers(0, 10_000))))
    k = t.char("Knight", t.alice, Knight=3, Rider=2)
    s = t.char("Squire", t.alice, Squire=2)
    v = t.char("Viking", t.bob, Viking=3)
    o = t.char("Ogre", None, Ogre=4)
    r = t.char("Rats", None, kind="grunt_mob", Rats=3)
    setups = [  # most runs start inside a contest, so rounds, teams and fates get played
        None,
        {"side_a": [k], "side_b": [o]},
        {"side_a": [v], "side_b": [r], "single_roll": True},
        {"side_a": [k, s], "side_b": [o, r]},
        {"side_a": [], "side_b": [o], "teams": [{"side": 0, "members": [[k, "Knight"], [s, "Squire"]]}]},
        {"side_a": [v], "side_b": [o], "teams": [{"side": 0, "members": [[k, "Knight"], [s, "Squire"]]}]},
    ]
    setup = data.draw(st.sampled_from(setups))
    if setup:
        profile = {"team_loss": data.draw(st.sampled_from(["leader", "leader_assigns"])),
                   "disband_penalty": data.draw(st.sampled_from([0, 1]))}
        t.act(t.gm, "start_contest", name="Fray", profile=profile, **setup)
        if k in setup["side_a"]:
            t.act(t.gm, "choose", unit=k, cliche="Knight")
        if data.draw(st.booleans()):
            t.act(t.gm, "open_round")
    actors = [t.gm, t.gm, t.gm, t.alice, t.alice, t.bob, t.spectator]
    applied = 0
    for _ in range(data.draw(st.integers(5, 40))):
        actor = data.draw(st.sampled_from(actors))
        name, args = draw_command(data, t)
        before, seq, stored = t.snapshot(), t.room.seq, len(store.read(t.room.room_id))
        try:
            events = t.room.apply(actor, name, args)
        except RuleError:
            assert t.snapshot() == before, (name, args)
            assert t.room.seq == seq and len(store.read(t.room.room_id)) == stored
        else:
            applied += 1
            assert [e["seq"] for e in events] == list(range(seq + 1, seq + 1 + len(events)))
    events = store.read(t.room.room_id)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert t.reloaded().snapshot(t.gm) == t.snapshot()
    for actor in (t.alice, t.bob, t.spectator):
        assert not any(e["private"] for e in t.room.visible_events(actor))
        assert t.reloaded().snapshot(actor)["checks"] == t.snapshot(actor)["checks"]
