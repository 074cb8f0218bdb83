"""Rulings and options beyond the worked scenarios: exchanges, lost leaders, options of RulesProfile."""

import pytest

from raisus_panel.rules import CharacterTeam, Contest, GruntMob, RuleError, RulesProfile, ScriptedDice

from .conftest import c, char


def team_of(contest, side=0):
    return next(u for u in contest.sides[side] if isinstance(u, CharacterTeam))


def test_exchanges_apply_damage_at_once_and_round_counts():
    a1, a2 = char("Elf", Elf=3), char("Dwarf", Dwarf=2)
    orc = char("Orc", Orc=4)
    dice = ScriptedDice([[6, 6, 6], [1, 1, 1, 1], [1, 1], [6, 6, 6]])
    contest = Contest("Skirmish", [a1, a2], orc, dice=dice)
    assert contest.needs_exchanges
    with pytest.raises(RuleError, match="exchanges"):
        contest.roll_round()
    contest.exchange(a1, orc)
    assert c(orc) == 3 and contest.round == 0
    contest.exchange(orc, a2)  # the Orc's second exchange uses its new score: 3 dice
    assert c(a2) == 1
    contest.end_round()
    assert contest.round == 1
    with pytest.raises(RuleError, match="No exchange"):
        contest.end_round()
    with pytest.raises(RuleError, match="opposite"):
        contest.exchange(a1, a2)


def test_leader_knocked_to_zero_may_still_be_saved_by_a_volunteer():
    knight, viking = char("Knight", Knight=3), char("Viking", Viking=3)
    team = CharacterTeam([knight, viking], leader=knight)
    contest = Contest("Bridge", team, char("Troll", Troll=6), dice=ScriptedDice())
    # a leader may fall behind its members during a contest; it stays leader until the team re-forms
    knight.cliche("Knight").current = 1
    assert contest.pool(team) == 2
    contest.dice = ScriptedDice([[1, 1], [6] * 6])
    contest.roll_round()
    assert c(knight) == 0 and contest.status == "active", "the team may still volunteer"
    contest.volunteer(viking)
    assert (c(knight), c(viking)) == (1, 1) and team.revenge and contest.pool(team) == 2 * 1 + 1


def test_leader_knocked_to_zero_loses_the_team_when_nobody_volunteers():
    knight, viking, monk = char("Knight", Knight=3), char("Viking", Viking=3), char("Monk", Monk=2)
    contest = Contest("Bridge", CharacterTeam([knight, viking, monk], leader=knight), char("Troll", Troll=6),
                      dice=ScriptedDice())
    knight.cliche("Knight").current = 1
    contest.dice = ScriptedDice([[1, 1, 1], [6] * 6])
    contest.roll_round()
    assert c(knight) == 0
    contest.dice = ScriptedDice([[6, 6], [1] * 6])  # the next roll: lost leader first, then Viking vs Troll
    with pytest.raises(RuleError, match="exchanges"):
        contest.roll_round()  # two survivors now: refused, and the lost leader is rolled back too
    assert c(viking) == 3 and isinstance(contest.sides[0][0], CharacterTeam)
    contest.disband(team_of(contest))  # already broken by its lost leader: one disband, one penalty
    assert (c(viking), c(monk)) == (2, 1)
    assert [e["type"] for e in contest.events[-1:]] == ["team_disbanded"]
    assert not contest.events[-1]["revenge_carry"]


def test_volunteer_refusals():
    knight, viking, squire = char("Knight", Knight=4), char("Viking", Viking=2), char("Squire", Squire=1)
    ogre = char("Ogre", Ogre=8)
    contest = Contest("Ogre", CharacterTeam([knight, viking, squire]), ogre, dice=ScriptedDice([[1] * 6, [2] * 8]))
    with pytest.raises(RuleError, match="right after"):
        contest.volunteer(viking)
    with pytest.raises(RuleError, match="not in a character team"):
        contest.volunteer(ogre)
    contest.roll_round()
    contest.volunteer(squire)  # 2 damage on 1 point: floors at 0
    assert c(squire) == 0 and c(knight) == 4
    with pytest.raises(RuleError):
        contest.volunteer(viking)  # the window closed with the first volunteer


def test_drop_out_of_the_leader_is_a_lost_leader():
    knight, viking, squire = char("Knight", Knight=4), char("Viking", Viking=2), char("Squire", Squire=2)
    team = CharacterTeam([knight, viking, squire])
    contest = Contest("Ambush", team, char("Bandits", Bandits=5), dice=ScriptedDice())
    contest.drop_out(knight)
    assert c(knight) == 0 and (c(viking), c(squire)) == (1, 1)
    assert [e["type"] for e in contest.events[-2:]] == ["dropped_out", "team_disbanded"]
    assert all(not isinstance(u, CharacterTeam) for u in contest.sides[0])


def test_disband_loses_a_pending_revenge_bonus():
    knight, viking, squire = char("Knight", Knight=4), char("Viking", Viking=3), char("Squire", Squire=2)
    contest = Contest("Ogre", CharacterTeam([knight, viking, squire]), char("Ogre", Ogre=8),
                      dice=ScriptedDice([[1] * 6, [2] * 8]))
    contest.roll_round()
    contest.volunteer(viking)
    contest.disband(team_of(contest))
    contest.form_team([knight, squire])
    assert not team_of(contest).revenge


def test_inappropriate_damage_option_vs_appropriate():
    profile = RulesProfile(inappropriate_damage="vs_appropriate")
    cook, monk = char("Cook", Cook=3), char("Monk", Monk=3)
    contest = Contest("Bout", cook, monk, profile=profile, dice=ScriptedDice([[6] * 3, [1] * 3]))
    contest.choose(cook, "Cook", appropriate=False, approved=True)
    contest.choose(monk, "Monk", appropriate=False, approved=True)
    contest.roll_round()
    assert c(monk) == 2, "inappropriate against inappropriate deals only 1 under this option"


def test_team_counts_as_inappropriate_only_if_every_member_is():
    cook, baker, ogre = char("Cook", Cook=3), char("Baker", Baker=2), char("Ogre", Ogre=4)
    team = CharacterTeam([(cook, "Cook", False), (baker, "Baker", False)])
    assert team.inappropriate and team.pool == 3  # inappropriate members add no dice
    contest = Contest("Wrestling", team, ogre, dice=ScriptedDice([[6, 6, 6], [1] * 4]))
    with pytest.raises(RuleError, match="approve"):
        contest.roll_round()
    contest.approve(team)
    contest.roll_round()
    assert c(ogre) == 1
    mixed = CharacterTeam([(char("A", A=3), "A", False), (char("B", B=2), "B", True)])
    assert not mixed.inappropriate


def test_member_sixes_option():
    knight, viking, squire = char("Knight", Knight=3), char("Viking", Viking=2), char("Squire", Squire=1)
    ogre = char("Ogre", Ogre=4)
    profile = RulesProfile(team_dice="member_sixes")
    dice = ScriptedDice([[1, 1, 1], [6, 1], [6], [3, 3, 3, 3]])
    contest = Contest("Ogre", CharacterTeam([knight, viking, squire]), ogre, profile=profile, dice=dice)
    [event] = contest.roll_round()
    assert event["attempts"][0][0]["total"] == 3 + 12
    assert c(ogre) == 3


def test_roll_off_option_picks_the_lowest():
    knight, viking, squire = char("Knight", Knight=3), char("Viking", Viking=2), char("Squire", Squire=1)
    profile = RulesProfile(team_loss="roll_off")
    dice = ScriptedDice([[1] * 5, [6] * 4, [3], [2], [2], [5], [1]])  # Viking and Squire tie low, re-roll
    contest = Contest("Ogre", CharacterTeam([knight, viking, squire]), char("Ogre", Ogre=4), profile=profile, dice=dice)
    contest.roll_round()
    assert (c(knight), c(viking), c(squire)) == (3, 2, 0)
    assert dice.remaining == 0


def test_leader_assigns_option():
    knight, viking = char("Knight", Knight=3), char("Viking", Viking=2)
    contest = Contest("Ogre", CharacterTeam([knight, viking]), char("Ogre", Ogre=4),
                      dice=ScriptedDice([[1] * 4, [6] * 4]))
    contest.roll_round()
    with pytest.raises(RuleError, match="leader assigns"):
        contest.assign_loss(viking)
    contest2 = Contest("Ogre", CharacterTeam([k := char("Knight", Knight=3), v := char("Viking", Viking=2)]),
                       char("Ogre", Ogre=4), profile=RulesProfile(team_loss="leader_assigns"),
                       dice=ScriptedDice([[1] * 4, [6] * 4]))
    contest2.roll_round()
    contest2.assign_loss(v)
    assert (c(k), c(v)) == (3, 1) and not team_of(contest2).revenge


def test_brevet_tickets():
    profile = RulesProfile(tickets="brevet")
    chef, lawyer = char("Chef", Chef=3), char("Lawyer", Lawyer=3)
    dice = ScriptedDice([[6] * 5, [1, 1]])
    contest = Contest("Pie Eating", chef, lawyer, profile=profile, dice=dice)
    contest.give_tickets({chef: "Chef"})
    assert chef.cliche("Chef").pool == 5 and lawyer.cliche("Pie Eating").current == 2
    contest.roll_round()
    contest.dice = ScriptedDice([[1] * 5, [6]])
    contest.roll_round()
    assert chef.cliche("Chef").extra == 1 and chef.cliche("Chef").current == 3, "extra dice absorb damage first"
    contest.end("The pies ran out.")
    assert chef.cliche("Chef").extra == 0 and not lawyer.has_cliche("Pie Eating")


def test_tickets_refusals():
    a, b = char("A", A=3), char("B", B=3)
    contest = Contest("Pie Eating", a, b, dice=ScriptedDice([[6] * 3, [1] * 3]))
    with pytest.raises(RuleError, match="brevet"):
        contest.give_tickets({a: "A"})
    contest.roll_round()
    with pytest.raises(RuleError, match="about to start"):
        contest.give_tickets()


def test_grunt_mob_cannot_join_a_team_and_rating_limits():
    rats = GruntMob("Rats", rating=7)
    with pytest.raises(RuleError, match="grunt mob"):
        CharacterTeam([rats, char("Knight", Knight=3)])
    with pytest.raises(RuleError):
        GruntMob("Ogres", rating=5, member_rating=3)
    with pytest.raises(RuleError):
        GruntMob("Nobody", rating=0)
    with pytest.raises(RuleError, match="one cliché"):
        rats.add_cliche("Swim", 2)


def test_end_early_and_fates_veto():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=1)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6] * 4, [1]]))
    with pytest.raises(RuleError, match="over"):
        contest.decide_fate(pirate, "Sunk.")
    with pytest.raises(RuleError, match="empty"):
        contest.end("  ")
    contest.roll_round()
    with pytest.raises(RuleError, match="No fate is owed"):
        contest.decide_fate(viking, "Knighted.")
    with pytest.raises(RuleError, match="empty"):
        contest.decide_fate(pirate, "")
    contest.decide_fate(pirate, "Tap-dances off the plank.")
    contest.veto_fate(pirate)
    assert contest.fates == {}
    contest.decide_fate(pirate, "Swims home.")
    assert contest.fates[pirate.uid] == "Swims home."


def test_end_early_without_winner_owes_no_fate():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice())
    contest.end("The city watch breaks it up.")
    assert contest.status == "ended" and contest.winner is None and contest.outcome
    assert contest.owed_fates == []


def test_undo_takes_back_a_whole_command():
    knight, viking, squire = char("Knight", Knight=2), char("Viking", Viking=2), char("Squire", Squire=1)
    team = CharacterTeam([knight, viking, squire], leader=knight)
    contest = Contest("Troll", team, char("Troll", Troll=6), dice=ScriptedDice([[1] * 4, [2] * 6]))
    contest.roll_round()
    before = contest.to_json()
    scores = [c(knight), c(viking), c(squire)]
    contest.volunteer(knight)  # volunteered + team_disbanded: one command
    assert contest.events[-1]["type"] == "team_disbanded"
    removed = contest.undo()
    assert [e["type"] for e in removed] == ["volunteered", "team_disbanded"]
    assert contest.to_json() == before and [c(knight), c(viking), c(squire)] == scores
    assert contest.sides[0][0] is team, "undo restores the same team object the views watch"
    contest.undo()
    contest.undo() if len(contest.events) > 1 else None
    with pytest.raises(RuleError, match="Nothing to undo"):
        contest.undo()
    assert (c(knight), c(viking), c(squire)) == (2, 2, 1)


def test_a_character_cannot_be_on_both_sides():
    viking = char("Viking", Viking=4)
    with pytest.raises(RuleError, match="only once"):
        Contest("Mirror", viking, viking)
    with pytest.raises(RuleError, match="at least one"):
        Contest("Alone", viking, [])


def test_choose_refusals():
    a = char("A", Viking=4, Cook=0)
    contest = Contest("Fight", a, char("B", B=2), dice=ScriptedDice())
    with pytest.raises(RuleError, match="at 0"):
        contest.choose(a, "Cook")
    with pytest.raises(RuleError, match="no cliché called"):
        contest.choose(a, "Wizard")
    with pytest.raises(RuleError, match="No single unit"):
        contest.choose("Nobody", "Viking")


def test_a_cliche_at_zero_before_the_contest_does_not_defeat():
    a = char("A", Viking=4, Cook=0)
    contest = Contest("Fight", a, char("B", B=2), dice=ScriptedDice())
    assert not contest.is_defeated(a) and contest.is_active(a)
    assert contest.chosen(a).name == "Viking"


def test_why_not_answers_like_the_command_without_changing_anything():
    knight, viking, monk = char("Knight", Knight=3), char("Viking", Viking=3), char("Monk", Monk=2)
    team = CharacterTeam([knight, viking, monk], leader=knight)
    contest = Contest("Bridge", team, char("Troll", Troll=6),
                      dice=ScriptedDice([[1] * 5, [6] * 6, [1] * 4, [6] * 6, [1] * 3, [6] * 6]))
    for _ in range(3):
        contest.roll_round()  # the leader takes each loss: 3, 2, 1, 0
    seen = []
    for ch in (knight, viking, monk):
        for cl in ch.cliches:
            cl.param.watch(seen.append, "current")
    dice = ScriptedDice([[6]])
    contest.dice = dice
    assert "exchanges" in contest.why_not("roll_round")  # needs the lost leader applied: on a replica
    assert contest.can("volunteer", viking) and contest.can("volunteer", "Monk")
    assert "won its last round" not in (contest.why_not("volunteer", knight) or "")
    assert contest.can("form_team", [viking, monk])
    assert contest.why_not("end_round") == "No exchange has been played in this round yet."
    assert seen == [] and dice.remaining == 1 and c(knight) == 0
    with pytest.raises(ValueError):
        contest.why_not("explode")


def test_public_state_helpers():
    cook, monk = char("Cook", Cook=3), char("Monk", Monk=3)
    contest = Contest("Bout", cook, monk, dice=ScriptedDice([[6] * 3, [1] * 3]))
    assert not contest.has_rolled and not contest.tickets_given and contest.exchanges_this_round == 0
    contest.choose(cook, "Cook", appropriate=False)
    assert contest.choice(cook) == {"cliche": "Cook", "appropriate": False, "approved": False}
    assert contest.is_inappropriate(cook) and not contest.is_inappropriate(monk)
    contest.approve(cook)
    contest.roll_round()
    assert contest.has_rolled and contest.choice(cook)["approved"]
    knight, viking, monk2 = char("Knight", Knight=2), char("Viking", Viking=2), char("Monk", Monk=2)
    c2 = Contest("Troll", CharacterTeam([knight, viking, monk2], leader=knight), char("Troll", Troll=6),
                 dice=ScriptedDice([[1] * 4, [2] * 6]))
    c2.roll_round()
    c2.volunteer(knight)
    assert c2.pending_revenge(0) and not c2.pending_revenge(1)


def test_fates_are_not_overwritten_without_a_veto():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=1)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6] * 4, [1]]))
    contest.roll_round()
    contest.decide_fate(pirate, "Walks the plank.")
    with pytest.raises(RuleError, match="already written"):
        contest.decide_fate(pirate, "Knighted instead.")


def test_outsiders_are_not_part_of_a_contest():
    viking, pirate, outsider = char("Viking", Viking=4), char("Pirate", Pirate=1), char("Cook", Cook=2)
    contest = Contest.from_events(Contest("Brawl", viking, pirate, dice=ScriptedDice([[6] * 4, [1]])).events,
                                  characters={outsider.uid: outsider})
    contest.end("Stop.", winner=None)
    with pytest.raises(RuleError, match="No single character"):
        contest.recover(outsider)


def test_a_failing_sink_on_the_start_reports_its_own_error():
    def sink(events):
        raise OSError("disk full")
    with pytest.raises(OSError, match="disk full"):
        Contest("Brawl", char("Viking", Viking=4), char("Pirate", Pirate=1), event_sink=sink)
