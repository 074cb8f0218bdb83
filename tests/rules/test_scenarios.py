"""Every worked scenario of RULES.md section 10, in order.

Dice are scripted: ScriptedDice fails when the pool size asked for differs from the next scripted roll,
so each scenario also checks every pool size. Each test ends by checking the script was used up.
"""

import json

import pytest

from raisus_panel.rules import CharacterTeam, Contest, GruntMob, RuleError, RulesProfile, ScriptedDice, action_check

from .conftest import c, char


def used_up(dice):
    assert dice.remaining == 0, "the scenario left scripted rolls unused"


# -- action checks ---------------------------------------------------------------------------------
def test_01_success_at_the_tn():
    dice = ScriptedDice([[1, 2, 3, 4]])
    result = action_check(char("Viking", Viking=4).cliche("Viking"), 10, dice=dice)
    assert (result.total, result.tn, result.success) == (10, 10, True)
    used_up(dice)


def test_02_failure():
    dice = ScriptedDice([[1, 1, 2, 5]])
    result = action_check(char("Viking", Viking=4).cliche("Viking"), 10, dice=dice)
    assert (result.total, result.success) == (9, False)
    used_up(dice)


def test_03_unsuitable_adds_five():
    dice = ScriptedDice([[4, 3, 3]])
    result = action_check(char("Soldier", Soldier=3).cliche("Soldier"), 5, suitability="unsuitable", dice=dice)
    assert (result.tn, result.total, result.success) == (10, 10, True)
    used_up(dice)


def test_04_very_unsuitable_adds_ten():
    dice = ScriptedDice([[4, 3, 3]])
    result = action_check(char("Cop", Cop=3).cliche("Cop"), 5, suitability="very unsuitable", dice=dice)
    assert (result.tn, result.success) == (15, False)
    used_up(dice)


def test_05_automatic_rolls_nothing():
    dice = ScriptedDice([])
    result = action_check(char("Swashbuckler", Swashbuckler=3).cliche("Swashbuckler"), 10,
                          automatic=True, dice=dice)
    assert result.success and result.automatic and result.faces == ()


def test_06_no_tickets_for_checks():
    dice = ScriptedDice([[6, 6, 6]])
    viking = char("Viking", Viking=3)
    with pytest.raises(RuleError, match="Tickets"):
        action_check(viking.cliche("Viking"), 10, ticket=True, dice=dice)
    assert dice.remaining == 1 and c(viking) == 3


# -- contests --------------------------------------------------------------------------------------
def test_07_a_round():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    dice = ScriptedDice([[6, 5, 1, 1], [4, 4, 4]])
    contest = Contest("Brawl", viking, pirate, dice=dice)
    contest.roll_round()
    assert (c(viking), c(pirate), contest.round) == (4, 2, 1)
    used_up(dice)


def test_08_tie_is_rerolled_in_the_same_round():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=3)
    dice = ScriptedDice([[3, 3, 3, 3], [4, 4, 4], [1, 1, 1, 1], [2, 2, 2]])
    contest = Contest("Brawl", viking, pirate, dice=dice)
    [event] = contest.roll_round()
    assert (c(viking), c(pirate), contest.round) == (3, 3, 1)
    assert len(event["attempts"]) == 2
    assert [p["x"] for p in contest.history if p["kind"] == "round"] == [1.0]
    used_up(dice)


def test_09_end_at_zero_and_fate_owed():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=1)
    dice = ScriptedDice([[1, 1, 1, 2], [6], [6, 6, 6], [1]])
    contest = Contest("Brawl", viking, pirate, dice=dice)
    contest.roll_round()
    assert c(viking) == 3 and contest.status == "active"
    contest.roll_round()
    assert c(pirate) == 0
    assert contest.status == "ended" and contest.winner == 0
    assert contest.owed_fates == [pirate.uid]
    contest.decide_fate(pirate, "The Pirate swims home in disgrace.")
    assert contest.fates == {pirate.uid: "The Pirate swims home in disgrace."}
    with pytest.raises(RuleError):
        contest.roll_round()
    used_up(dice)


def bout(dice, cook_approved=True):
    cook, demon = char("Cook", Cook=3), char("Demon King", **{"Demon King": 4})
    contest = Contest("Martial-arts bout", cook, demon, dice=dice)
    contest.choose(cook, "Cook", appropriate=False, approved=cook_approved)
    return cook, demon, contest


def test_10_inappropriate_win_deals_three():
    dice = ScriptedDice([[6, 6, 5], [3, 3, 3, 3]])
    cook, demon, contest = bout(dice)
    contest.roll_round()
    assert (c(demon), c(cook)) == (1, 3)
    used_up(dice)


def test_11_inappropriate_loss_costs_one():
    dice = ScriptedDice([[1, 1, 2], [2, 2, 2, 2]])
    cook, demon, contest = bout(dice)
    contest.roll_round()
    assert (c(cook), c(demon)) == (2, 4)
    used_up(dice)


def test_12_no_approval_no_roll():
    dice = ScriptedDice([[6, 6, 6], [1, 1, 1, 1]])
    cook, demon, contest = bout(dice, cook_approved=False)
    before = contest.to_json()
    with pytest.raises(RuleError, match="approval"):
        contest.roll_round()
    assert dice.remaining == 2, "no die may be rolled before the refusal"
    assert contest.to_json() == before and (c(cook), c(demon)) == (3, 4)
    contest.approve(cook)
    contest.roll_round()
    assert c(demon) == 1


def play_13():
    a = char("A", Viking=4, Swashbuckler=2)
    guard = char("Guard", Guard=5)
    dice = ScriptedDice([[1, 1, 1, 1], [2] * 5, [1, 2], [1] * 5, [1], [1] * 5])
    contest = Contest("Sword fight", a, guard, dice=dice)
    contest.choose(a, "Viking")
    contest.roll_round()
    assert c(a, "Viking") == 3
    contest.choose(a, "Swashbuckler")
    contest.roll_round()
    assert c(a, "Swashbuckler") == 1
    contest.roll_round()
    assert c(a, "Swashbuckler") == 0 and c(a, "Viking") == 3
    assert contest.is_defeated(a) and contest.status == "ended" and contest.winner == 1
    used_up(dice)
    return a, contest


def test_13_switching_and_defeat_with_cliches_left():
    a, contest = play_13()
    assert contest.owed_fates == [a.uid]


def test_14_recovery_is_capped():
    a, contest = play_13()
    contest.recover(a)
    assert (c(a, "Viking"), c(a, "Swashbuckler")) == (4, 2)
    a2, contest2 = play_13()
    contest2.recover(a2, "Viking", 1)
    contest2.recover(a2, "Swashbuckler", 1)
    assert (c(a2, "Viking"), c(a2, "Swashbuckler")) == (4, 1)
    with pytest.raises(RuleError, match="nothing to recover"):
        contest.recover(a)


def test_15_single_roll_contest():
    gun, outlaw = char("Gunslinger", Gunslinger=3), char("Outlaw", Outlaw=3)
    dice = ScriptedDice([[5, 4, 2], [6, 3, 1]])
    contest = Contest("Showdown", gun, outlaw, single_roll=True, dice=dice)
    contest.roll_round()
    assert contest.status == "ended" and contest.winner == 0
    assert (c(gun), c(outlaw)) == (3, 3)
    used_up(dice)


def test_15b_single_roll_with_damage_option():
    gun, outlaw = char("Gunslinger", Gunslinger=3), char("Outlaw", Outlaw=3)
    dice = ScriptedDice([[5, 4, 2], [6, 3, 1]])
    contest = Contest("Showdown", gun, outlaw, single_roll=True, dice=dice,
                      profile=RulesProfile(single_roll_damage=True))
    contest.roll_round()
    assert contest.status == "ended" and (c(gun), c(outlaw)) == (3, 2)


def test_16_grunt_mob():
    knight = char("Knight", Knight=4)
    rats = GruntMob("700 Skeletal Rats", rating=7)
    dice = ScriptedDice([[6] * 4, [1] * 7, [1] * 4, [6] * 6])
    contest = Contest("Rat swarm", knight, rats, dice=dice)
    contest.roll_round()
    assert c(rats) == 6
    contest.roll_round()
    assert c(knight) == 3
    used_up(dice)


# -- character teams -------------------------------------------------------------------------------
def test_17_team_pool():
    knight, viking = char("Knight", Knight=4), char("Viking", Viking=2)
    squire, hair = char("Squire", Squire=1), char("Hairdresser", Hairdresser=3)
    team = CharacterTeam([knight, viking, squire, (hair, "Hairdresser", False)])
    assert team.leader is knight and team.pool == 6
    assert team.pool_text() == "Knight 4 + Viking + Squire = 6"


def test_18_leader_tie_must_be_named():
    knight, samurai = char("Knight", Knight=3), char("Samurai", Samurai=3)
    with pytest.raises(RuleError, match="name the leader"):
        CharacterTeam([knight, samurai])
    team = CharacterTeam([knight, samurai], leader=samurai)
    assert team.leader is samurai and team.pool == 4


def ogre_fight(rolls):
    knight, viking, squire = char("Knight", Knight=4), char("Viking", Viking=2), char("Squire", Squire=1)
    ogre = char("Ogre", Ogre=8)
    dice = ScriptedDice(rolls)
    team = CharacterTeam([knight, viking, squire])
    return knight, viking, squire, ogre, team, dice, Contest("Ogre fight", team, ogre, dice=dice)


def test_19_leader_takes_the_loss():
    knight, viking, squire, ogre, team, dice, contest = ogre_fight([[1] * 6, [2] * 8])
    contest.roll_round()
    assert (c(knight), c(viking), c(squire)) == (3, 2, 1)
    assert contest.pool(team) == 5
    used_up(dice)


def test_20_volunteer_and_revenge():
    knight, viking, squire, ogre, team, dice, contest = ogre_fight(
        [[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8, [1] * 5, [6] * 7])
    contest.roll_round()
    contest.volunteer(viking)
    assert (c(viking), c(knight)) == (0, 4)
    assert viking in team.down_members and team.revenge
    assert contest.pool(team) == 9
    contest.roll_round()
    assert c(ogre) == 7 and not team.revenge
    assert contest.pool(team) == 5
    with pytest.raises(RuleError, match="won its last round"):
        contest.volunteer(squire)
    contest.roll_round()  # R3: pool 4 + 1 = 5 vs the Ogre's 7
    assert c(knight) == 3
    used_up(dice)


def test_21_leader_volunteers_lost_leader_revenge_passes_on():
    knight, viking, monk = char("Knight", Knight=2), char("Viking", Viking=2), char("Monk", Monk=2)
    squire, troll = char("Squire", Squire=1), char("Troll", Troll=6)
    dice = ScriptedDice([[1] * 5, [2] * 6, [6, 6, 6], [1] * 6])
    team = CharacterTeam([knight, viking, monk, squire], leader=knight)
    assert team.pool == 5
    contest = Contest("Troll bridge", team, troll, dice=dice)
    contest.roll_round()
    contest.volunteer(knight)
    assert (c(knight), c(viking), c(monk), c(squire)) == (0, 1, 1, 0)
    assert contest.is_defeated(squire) and contest.is_defeated(knight)
    assert [u.name for u in contest.active_units(0)] == ["Viking", "Monk"]
    contest.form_team([viking, monk], leader=viking)
    new_team = next(u for u in contest.sides[0] if isinstance(u, CharacterTeam))
    assert new_team.revenge and contest.pool(new_team) == 3
    contest.roll_round()
    assert c(troll) == 5 and not new_team.revenge
    used_up(dice)


def test_22_disband():
    knight, viking, squire = char("Knight", Knight=3), char("Viking", Viking=2), char("Squire", Squire=1)
    team = CharacterTeam([knight, viking, squire])
    contest = Contest("Melee", team, char("Bandit", Bandit=5), dice=ScriptedDice())
    contest.disband(team)
    assert (c(knight), c(viking), c(squire)) == (2, 1, 0)
    assert contest.is_defeated(squire)
    contest.form_team([knight, viking])
    new_team = next(u for u in contest.sides[0] if isinstance(u, CharacterTeam))
    assert new_team.leader is knight and contest.pool(new_team) == 3


def test_23_drop_out():
    knight, viking, squire = char("Knight", Knight=4), char("Viking", Viking=2), char("Squire", Squire=1)
    bandits = char("Bandits", Bandits=5)
    team = CharacterTeam([knight, viking, squire])
    dice = ScriptedDice([r for k in range(5, 0, -1) for r in ([6] * 5, [1] * k)])
    contest = Contest("Ambush", team, bandits, dice=dice)
    contest.drop_out(squire)
    assert c(squire) == 0 and contest.is_dropped(squire) and contest.pool(team) == 5
    for _ in range(5):
        contest.roll_round()
    assert contest.status == "ended" and contest.winner == 0
    assert squire.uid in contest.owed_fates and bandits.uid in contest.owed_fates
    contest.decide_fate(squire, "The Squire is knighted for running for help.")
    used_up(dice)


def test_24_team_of_one():
    with pytest.raises(RuleError, match="at least two"):
        CharacterTeam([char("Knight", Knight=4)])
    knight = char("Knight", Knight=4)
    contest = Contest("Duel", knight, char("Ogre", Ogre=3), dice=ScriptedDice())
    with pytest.raises(RuleError, match="at least two"):
        contest.form_team([knight])


def test_25_tickets():
    astro = char("Astronaut", Astronaut=3)
    accountant = char("Accountant", Accountant=3)
    dice = ScriptedDice([[6, 5], [1, 2], [1, 1], [6], [4], [2]])
    contest = Contest("Pie Eating", astro, accountant, dice=dice)
    contest.give_tickets()
    assert c(astro, "Pie Eating") == 2 and c(accountant, "Pie Eating") == 2
    contest.roll_round()
    assert c(accountant, "Pie Eating") == 1
    contest.roll_round()
    assert c(astro, "Pie Eating") == 1
    contest.roll_round()
    assert contest.status == "ended" and contest.winner == 0
    assert not astro.has_cliche("Pie Eating") and not accountant.has_cliche("Pie Eating")
    assert (c(astro, "Astronaut"), c(accountant, "Accountant")) == (3, 3)
    used_up(dice)


def labelled(contest, point):
    return {contest.series[k]: v for k, v in point["scores"].items()}


def test_26_chart_series():
    viking, pirate = char("Viking", Viking=4), char("Pirate", Pirate=1)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[1, 1, 1, 2], [6], [6, 6, 6], [1]]))
    contest.roll_round()
    contest.roll_round()
    assert [(p["round"], labelled(contest, p)) for p in contest.history] == [
        (0, {"Viking": 4, "Pirate": 1}), (1, {"Viking": 3, "Pirate": 1}), (2, {"Viking": 3, "Pirate": 0})]
    # between-round events get their own points inside the round
    knight, viking2, squire, ogre, team, dice, c2 = ogre_fight([[1] * 6, [2] * 8])
    c2.roll_round()
    c2.volunteer(viking2)
    kinds = [(p["kind"], p["x"]) for p in c2.history]
    assert kinds == [("start", 0.0), ("round", 1.0), ("volunteered", 1.5)]


def play_27(seed):
    from raisus_panel.rules import SeededDice
    knight, viking, squire = char("Knight", Knight=4), char("Viking", Viking=2), char("Squire", Squire=1)
    ogre = char("Ogre", Ogre=6)
    for ch in (knight, viking, squire, ogre):  # same roster, same ids
        ch.uid = ch.name.lower()
    team = CharacterTeam([knight, viking, squire], uid="team")
    contest = Contest("Ogre fight", team, ogre, dice=SeededDice(seed), uid="contest")
    while contest.status == "active":
        contest.roll_round()
    return contest


def test_27_replay():
    one, two = play_27(2026), play_27(2026)
    strip = lambda events: [{k: v for k, v in e.items()} for e in events]
    assert strip(one.events) == strip(two.events) and one.history == two.history
    loaded = Contest.from_json(one.to_json())
    assert loaded.history == one.history and loaded.events == one.events
    assert [(ch.name, [cl.current for cl in ch.cliches]) for ch in loaded.characters()] == \
           [(ch.name, [cl.current for cl in ch.cliches]) for ch in one.characters()]
    assert loaded.status == one.status and loaded.winner == one.winner
    json.loads(one.to_json())  # a save is plain JSON
