"""How the saves beside this file were made: run once, at commit c0a3651, before contest.py was split.

``test_saves.py`` loads them to check that saves written by earlier versions still load into the same
state. Do not regenerate them with newer code (that would only compare the code with itself); add new
fixtures instead. Usage: ``python tests/rules/saves/make_saves.py tests/rules/saves``.
"""
import json
import pathlib
import sys

from raisus_panel.rules import Character, Contest, RulesProfile, ScriptedDice

# The one argument is the folder the saves go to, and it must exist: a stray option ("-q") or a typo
# would otherwise become a new folder of saves wherever the script was run.
if len(sys.argv) != 2 or sys.argv[1].startswith("-") or not pathlib.Path(sys.argv[1]).is_dir():
    sys.exit("usage: python tests/rules/saves/make_saves.py EXISTING_FOLDER")
out = pathlib.Path(sys.argv[1])

def ch(uid, name, cliches):
    return Character(name, cliches, uid=uid)

def state(contest):
    return {
        "scores": [(c.uid, [(cl.name, cl.current, cl.extra, cl.temporary) for cl in c.cliches]) for c in contest.characters()],
        "sides": [[u.uid for u in side] for side in contest.sides],
        "status": contest.status, "round": contest.round, "winner": contest.winner, "outcome": contest.outcome,
        "owed": contest.owed_fates, "fates": contest.fates, "history": contest.history, "series": contest.series,
        "dropped": sorted(c.uid for c in contest.characters() if contest.is_dropped(c)),
    }

# 1. a bridge fight: choose, team, volunteer and revenge, drop out, disband, exchanges, early end, fates, recovery
knight = ch("knight", "Knight", {"Knight": 4, "Cook": 2}); viking = ch("viking", "Viking", {"Viking": 2})
squire = ch("squire", "Squire", {"Squire": 1}); monk = ch("monk", "Monk", {"Monk": 2}); ogre = ch("ogre", "Ogre", {"Ogre": 8})
dice = ScriptedDice([[1] * 7, [2] * 8, [6] * 10, [1] * 8, [6] * 3, [1] * 7])
c = Contest("Bridge fight", [knight, viking, squire, monk], ogre, dice=dice, uid="bridge")
c.choose(knight, "Knight")
c.form_team([(knight, "Knight"), (viking, "Viking"), (squire, "Squire"), (monk, "Monk")], name="Company")
c.roll_round()
c.volunteer(viking)
c.roll_round()
c.drop_out(squire)
c.disband(c.sides[0][0])
c.exchange(knight, ogre)
c.end_round()
c.end("The ogre flees into the river.", winner=0)
c.decide_fate(squire, "Becomes a ferryman.")
c.veto_fate(squire)
c.decide_fate(squire, "Is knighted for fetching help.")
c.recover(knight)
assert dice.remaining == 0
(out / "bridge_fight.json").write_text(c.to_json(), encoding="utf-8")

# 2. pie eating: tickets, an approved inappropriate cliché, the leader assigns the hit, played to the end
a1 = ch("astro", "Astronaut", {"Astronaut": 3}); a2 = ch("acct", "Accountant", {"Accountant": 3})
b1 = ch("clown", "Clown", {"Juggler": 3})
dice2 = ScriptedDice([[1, 1, 1], [6, 6, 6], [6, 6], [1, 1, 1], [6, 6], [1, 1], [6, 6], [1]])
p = Contest("Pie Eating", [a1, a2], b1, profile=RulesProfile(team_loss="leader_assigns"), dice=dice2, uid="pies")
p.give_tickets()
p.form_team([(a1, "Pie Eating"), (a2, "Pie Eating")], leader=a1)
p.choose(b1, "Juggler", appropriate=False)
p.approve(b1)
p.roll_round()
p.assign_loss(a2)
p.roll_round()
p.roll_round()
p.roll_round()
assert dice2.remaining == 0, dice2.remaining
(out / "pie_eating.json").write_text(p.to_json(), encoding="utf-8")

# 3. brevet tickets in a single-roll contest
g = ch("gun", "Gunslinger", {"Gunslinger": 3}); o = ch("outlaw", "Outlaw", {"Outlaw": 3, "Poker": 2})
dice3 = ScriptedDice([[6, 6, 6, 6, 6], [1, 1]])
s = Contest("Showdown", g, o, single_roll=True, profile=RulesProfile(tickets="brevet", single_roll_damage=True),
            dice=dice3, uid="showdown")
s.give_tickets({g: "Gunslinger"})
s.roll_round()
assert dice3.remaining == 0
(out / "showdown.json").write_text(s.to_json(), encoding="utf-8")

for name, contest in [("bridge_fight", c), ("pie_eating", p), ("showdown", s)]:
    (out / f"{name}.state.json").write_text(json.dumps(state(contest), indent=1, sort_keys=True), encoding="utf-8")
    print(name, contest.status, contest.winner, [e["type"] for e in contest.events])
