"""Who may do what: every command against every role, table-driven, checked in the room itself.

Roles: the GM; Alice, who owns the Knight and the Squire ("owner"); Bob, who owns the Viking but
nothing in play ("other"); and a spectator. A denied command raises PermissionDenied and changes
nothing; an allowed one is applied. ``RoomSession.can`` gives the same answer before trying.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest

from raisus_panel.room import Actor, PermissionDenied, RoomSession
from raisus_panel.rules import RuleError

from .conftest import Table

GM, OWNER, OTHER = "gm", "owner", "other"
ROLES = [GM, OWNER, OTHER, "spectator"]


def base(t: Table) -> None:
    t.k = t.char("Knight", t.alice, Knight=4, Rider=2)
    t.s = t.char("Squire", t.alice, Squire=2)
    t.v = t.char("Viking", t.bob, Viking=3)
    t.o = t.char("Ogre", None, Ogre=8)
    t.r = t.char("Rat", None, Rat=1)


def duel(t: Table, **options) -> None:
    base(t)
    t.act(t.gm, "start_contest", name="Fight", side_a=[t.k], side_b=[t.o], **options)
    t.act(t.gm, "choose", unit=t.k, cliche="Knight")


def duel_open(t: Table) -> None:
    duel(t)
    t.act(t.gm, "open_round")
    t.dice.extend([[1, 1, 1, 1], [2] * 8])


def inappropriate(t: Table) -> None:
    duel(t)
    t.act(t.alice, "choose", unit=t.k, cliche="Rider", appropriate=False)


def melee(t: Table) -> None:
    base(t)
    t.act(t.gm, "start_contest", name="Melee", side_a=[t.k, t.s], side_b=[t.o, t.r])
    t.act(t.gm, "choose", unit=t.k, cliche="Knight")


def melee_open(t: Table) -> None:
    melee(t)
    t.act(t.gm, "open_round")
    t.dice.extend([[6, 6, 6, 6], [1] * 8])


def melee_exchanged(t: Table) -> None:
    melee_open(t)
    t.dice.extend([[6, 6, 6, 6], [1] * 8])
    t.act(t.gm, "exchange", attacker=t.k, target=t.o)


def team(t: Table, **profile) -> None:
    base(t)
    t.act(t.gm, "start_contest", name="Siege", side_b=[t.o], profile=profile or None,
          teams=[{"side": 0, "members": [[t.k, "Knight", True], [t.s, "Squire", True]]}])
    t.team = t.room.contest.sides[0][0].uid


def team_lost(t: Table, **profile) -> None:
    team(t, **profile)
    t.dice.extend([[1] * 5, [2] * 8])
    t.act(t.gm, "roll_round")


def won(t: Table) -> None:
    base(t)
    t.act(t.gm, "start_contest", name="Chase", side_a=[t.k], side_b=[t.r])
    t.act(t.gm, "choose", unit=t.k, cliche="Knight")
    t.dice.extend([[1, 1, 1, 1], [6], [6, 6, 6], [1]])
    t.act(t.gm, "roll_round")  # Knight 3
    t.act(t.gm, "roll_round")  # Rat 0: the Knight's side wins and decides the Rat's fate


def fated(t: Table) -> None:
    won(t)
    t.act(t.gm, "decide_fate", character=t.r, text="Flees into the sewers")


def spent(t: Table) -> None:
    base(t)
    t.act(t.gm, "update_character", uid=t.k, cliches=[{"name": "Knight", "rating": 4, "current": 1},
                                                      {"name": "Rider", "rating": 2}])


def with_dice(rolls):
    def setup(t: Table) -> None:
        base(t)
        t.dice.extend(rolls)
    return setup


def checked(t: Table) -> None:
    base(t)
    t.act(t.gm, "action_check", character=t.k, cliche="Knight", tn=10)


def campaign(t: Table) -> None:
    """The campaign options on; the Knight bought 3 lucky shots."""
    base(t)
    t.act(t.gm, "set_rules", profile={"pumps": True, "lucky_shots": True, "advancement": "rolls"})
    t.act(t.gm, "update_character", uid=t.k, lucky_shots=3, lucky_left=3)


def campaign_duel(t: Table) -> None:
    campaign(t)
    t.act(t.gm, "start_contest", name="Fight", side_a=[t.k], side_b=[t.o])
    t.act(t.gm, "choose", unit=t.k, cliche="Knight")


def session_over(t: Table) -> None:
    """The Knight rolled a check this session, and the GM ended it: an advancement roll is owed."""
    campaign(t)
    t.dice.extend([[3, 3, 3, 3]])
    t.act(t.gm, "action_check", character=t.k, cliche="Knight", tn=10)
    t.act(t.gm, "end_session")
    t.dice.extend([[2, 4, 6, 6]])


def session_over_points(t: Table) -> None:
    base(t)
    t.act(t.gm, "set_rules", profile={"advancement": "points"})
    t.act(t.gm, "end_session")


@dataclass
class Case:
    id: str
    setup: Callable[[Table], None]
    command: str
    args: Callable[[Table], dict]
    allowed: set
    committed: bool = False  # the room rolls its default, committed dice


CASES = [
    Case("set_title", base, "set_title", lambda t: {"title": "The Inn"}, {GM}),
    Case("create_character", base, "create_character",
         lambda t: {"name": "Mage", "cliches": [{"name": "Mage", "rating": 3}]}, {GM, OWNER, OTHER}),
    Case("create_character_for_alice", base, "create_character",
         lambda t: {"name": "Mage", "owner": t.alice.player_id, "cliches": [{"name": "Mage", "rating": 3}]},
         {GM, OWNER}),
    Case("save_character_new", base, "save_character",
         lambda t: {"data": {"name": "Bard", "cliches": [{"name": "Bard", "rating": 2}]}}, {GM, OWNER, OTHER}),
    Case("update_character", base, "update_character", lambda t: {"uid": t.k, "description": "Tall"},
         {GM, OWNER}),
    Case("save_character_known", base, "save_character",
         lambda t: {"data": {**next(c for c in t.room.characters if c.uid == t.k).to_dict(), "name": "Sir K"}},
         {GM, OWNER}),
    Case("update_character_give_away", base, "update_character",
         lambda t: {"uid": t.k, "owner": t.bob.player_id}, {GM}),
    Case("update_npc", base, "update_character", lambda t: {"uid": t.o, "description": "Big"}, {GM}),
    Case("remove_character", base, "remove_character", lambda t: {"uid": t.k}, {GM, OWNER}),
    Case("action_check", with_dice([[3, 3, 3, 3]]), "action_check",
         lambda t: {"character": t.k, "cliche": "Knight", "tn": 10}, {GM, OWNER}),
    Case("action_check_private", with_dice([[3, 3, 3, 3]]), "action_check",
         lambda t: {"character": t.k, "cliche": "Knight", "tn": 10, "private": True}, {GM}),
    Case("action_check_automatic", base, "action_check",
         lambda t: {"character": t.k, "cliche": "Knight", "tn": 10, "automatic": True}, {GM}),
    Case("action_check_adjusted", with_dice([[3, 3, 3, 3]]), "action_check",
         lambda t: {"character": t.k, "cliche": "Knight", "tn": 10, "adjustment": -2}, {GM}),
    Case("start_contest", base, "start_contest",
         lambda t: {"name": "Duel", "side_a": [t.s], "side_b": [t.r]}, {GM}),
    Case("open_round", duel, "open_round", lambda t: {}, {GM}),
    Case("choose", duel, "choose", lambda t: {"unit": t.k, "cliche": "Rider"}, {GM, OWNER}),
    Case("choose_npc", duel, "choose", lambda t: {"unit": t.o, "cliche": "Ogre"}, {GM}),
    Case("choose_inappropriate", duel, "choose",
         lambda t: {"unit": t.k, "cliche": "Rider", "appropriate": False}, {GM, OWNER}),
    Case("choose_self_approved", duel, "choose",
         lambda t: {"unit": t.k, "cliche": "Rider", "appropriate": False, "approved": True}, {GM}),
    Case("approve", inappropriate, "approve", lambda t: {"unit": t.k}, {GM}),
    Case("give_tickets", duel, "give_tickets", lambda t: {"name": "Pie Eating"}, {GM}),
    Case("roll_round_not_open", lambda t: (duel(t), t.dice.extend([[1] * 4, [2] * 8])), "roll_round",
         lambda t: {}, {GM}),
    Case("roll_round_open", duel_open, "roll_round", lambda t: {}, {GM, OWNER}),
    Case("exchange_open", melee_open, "exchange", lambda t: {"attacker": t.k, "target": t.o}, {GM, OWNER}),
    Case("end_round", melee_exchanged, "end_round", lambda t: {}, {GM}),
    Case("volunteer", team_lost, "volunteer", lambda t: {"member": t.s}, {GM, OWNER}),
    Case("assign_loss", lambda t: team_lost(t, team_loss="leader_assigns"), "assign_loss",
         lambda t: {"member": t.s}, {GM, OWNER}),
    Case("drop_out", team, "drop_out", lambda t: {"member": t.s}, {GM, OWNER}),
    Case("form_team", melee, "form_team",
         lambda t: {"members": [[t.k, "Knight", True], {"character": t.s, "cliche": "Squire"}]}, {GM, OWNER}),
    Case("form_team_npcs", melee, "form_team", lambda t: {"members": [[t.o, "Ogre"], [t.r, "Rat"]]}, {GM}),
    Case("disband", team, "disband", lambda t: {"team": t.team}, {GM, OWNER}),
    Case("end_contest", duel, "end_contest", lambda t: {"outcome": "A truce", "winner": None}, {GM}),
    Case("end_alias", duel, "end", lambda t: {"outcome": "A truce"}, {GM}),
    Case("decide_fate", won, "decide_fate", lambda t: {"character": t.r, "text": "Flees"}, {GM, OWNER}),
    Case("veto_fate", fated, "veto_fate", lambda t: {"character": t.r}, {GM}),
    Case("recover_after_contest", won, "recover", lambda t: {"character": t.k}, {GM}),
    Case("recover_between_contests", spent, "recover", lambda t: {"character": t.k, "amount": 2}, {GM}),
    Case("close_contest", won, "close_contest", lambda t: {}, {GM}),
    Case("undo", base, "undo", lambda t: {}, {GM}),
    Case("set_client_seed", duel, "set_client_seed", lambda t: {"seed": "three crows"}, {GM, OWNER, OTHER},
         committed=True),
    Case("reveal_dice", duel, "reveal_dice", lambda t: {}, {GM}, committed=True),
    Case("reveal_checks", checked, "reveal_checks", lambda t: {}, {GM}, committed=True),
    Case("pump", campaign_duel, "pump", lambda t: {"unit": t.k, "amount": 2}, {GM, OWNER}),
    Case("pump_npc", campaign_duel, "pump", lambda t: {"unit": t.o, "amount": 2}, {GM}),
    Case("spend_lucky", campaign_duel, "spend_lucky", lambda t: {"character": t.k, "amount": 1}, {GM, OWNER}),
    Case("action_check_lucky", lambda t: (campaign(t), t.dice.extend([[3] * 5])), "action_check",
         lambda t: {"character": t.k, "cliche": "Knight", "tn": 10, "lucky": 1}, {GM, OWNER}),
    Case("set_rules", base, "set_rules", lambda t: {"profile": {"pumps": True}}, {GM}),
    Case("new_session", base, "new_session", lambda t: {}, {GM}),
    Case("end_session", base, "end_session", lambda t: {}, {GM}),
    Case("roll_advancement", session_over, "roll_advancement", lambda t: {"character": t.k, "cliche": "Knight"},
         {GM, OWNER}),
    Case("invest_advancement", session_over_points, "invest_advancement",
         lambda t: {"character": t.k, "cliche": "Knight"}, {GM, OWNER}),
    Case("accept_hook", lambda t: (base(t), t.act(t.gm, "update_character", uid=t.k, hook="Afraid of the dark")),
         "update_character", lambda t: {"uid": t.k, "accepted": ["hook"]}, {GM}),
]


def _actor(t: Table, role: str) -> Actor:
    return {GM: t.gm, OWNER: t.alice, OTHER: t.bob, "spectator": t.spectator}[role]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_permission_table(case: Case, role: str):
    t = Table(committed=case.committed)
    case.setup(t)
    args = case.args(t)
    actor = _actor(t, role)
    session = RoomSession(t.room, actor)
    before, seq, stored = t.snapshot(), t.room.seq, len(t.store.read(t.room.room_id))
    if role in case.allowed:
        assert session.why_not(case.command, **args) is None
        events = t.room.apply(actor, case.command, args)
        assert events and t.room.seq == seq + len(events)
        assert all(e["actor"] == actor.to_dict() for e in events)
    else:
        assert not session.can(case.command, **args)
        with pytest.raises(PermissionDenied):
            t.room.apply(actor, case.command, args)
        assert t.snapshot() == before and t.room.seq == seq
        assert len(t.store.read(t.room.room_id)) == stored


def test_every_command_is_in_the_table():
    from raisus_panel.room.commands import ARGUMENTS

    assert set(ARGUMENTS) - {"join"} <= {c.command for c in CASES}


@pytest.mark.parametrize("message, case_id, role", [
    ("Only the GM can start a contest", "start_contest", OWNER),
    ("You can act only for your own characters: Knight belongs to another player", "update_character", OTHER),
    ("You can act only for your own characters: Ogre belongs to the GM", "choose_npc", OWNER),
    ("Spectators watch; they cannot act", "choose", "spectator"),
    ("Wait for the GM to open the round", "roll_round_not_open", OWNER),
    ("Only players with a character in this contest can roll", "roll_round_open", OTHER),
    ("Only the winners decide fates", "decide_fate", OTHER),
    ("Only the GM can roll in secret", "action_check_private", OWNER),
])
def test_refusals_say_who_may(message, case_id, role):
    case = next(c for c in CASES if c.id == case_id)
    t = Table()
    case.setup(t)
    with pytest.raises(PermissionDenied, match=message):
        t.room.apply(_actor(t, role), case.command, case.args(t))


def test_join_players_and_spectators():
    t = Table()
    newcomer = t.room.apply(Actor.player(""), "join", {"name": "Cleo"})[0]["player"]
    assert t.room.players[newcomer["player_id"]] == "Cleo"
    gm_added = t.room.apply(t.gm, "join", {"name": "Dan", "player_id": "dan"})[0]["player"]
    assert gm_added == {"player_id": "dan", "name": "Dan"}
    with pytest.raises(RuleError, match="already joined"):
        t.room.apply(t.alice, "join", {"name": "Alice again"})
    with pytest.raises(PermissionDenied, match="Spectators watch"):
        t.room.apply(t.spectator, "join", {"name": "Sam"})


def test_a_player_who_has_not_joined_cannot_act():
    t = Table()
    base(t)
    stranger = Actor.player("nobody", "Eve")
    with pytest.raises(PermissionDenied, match="Join the room first"):
        t.room.apply(stranger, "create_character", {"name": "Eve", "cliches": [{"name": "Thief", "rating": 3}]})


def test_a_players_character_is_theirs_whatever_owner_they_send():
    t = Table()
    uid = t.act(t.bob, "create_character", name="Loki", owner="", cliches=[{"name": "Trickster", "rating": 3}])
    assert t.room.characters[-1].owner == t.bob.player_id
    assert uid[0]["character"]["owner"] == t.bob.player_id


def test_the_round_closes_when_it_is_decided():
    t = Table()
    duel_open(t)
    t.act(t.alice, "roll_round")
    assert not t.room.round_open
    t.dice.extend([[1] * 4, [2] * 8])
    with pytest.raises(PermissionDenied, match="open the round"):
        t.act(t.alice, "roll_round")
