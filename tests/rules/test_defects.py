"""Defects, each reproduced before it was fixed.

1. A character defeated on a ticket's temporary cliché was reported as not defeated (and still active)
   once the contest ended, because the end removes temporary clichés and defeat was read from the
   clichés a character still has (RULES.md section 8: defeat rules apply to tickets).
"""

from raisus_panel.rules import (
    Character, Contest, RuleError, RulesProfile, ScriptedDice,
)

from .conftest import c


def named(name, uid, **cliches):
    """A character with a fixed uid, so two contests played alike write equal events."""
    return Character(name, cliches, uid=uid)


def attempt(command, *args, **kwargs):
    """Give a command and return its refusal (None if it was taken)."""
    try:
        command(*args, **kwargs)
    except RuleError as exc:
        return exc
    return None


def scores(contest):
    return [(ch.uid, [(cl.name, cl.current, cl.extra) for cl in ch.cliches]) for ch in contest.characters()]


# -- 1. defeated on a ticket --------------------------------------------------------------------------
def pie_eating():
    """RULES.md scenario 25, played to its end: the Accountant falls on Pie Eating."""
    astro, accountant = named("Astronaut", "astro", Astronaut=3), named("Accountant", "acct", Accountant=3)
    dice = ScriptedDice([[6, 5], [1, 2], [1, 1], [6], [4], [2]])
    contest = Contest("Pie Eating", astro, accountant, dice=dice, uid="pies")
    contest.give_tickets()
    for _ in range(3):
        contest.roll_round()
    return contest, astro, accountant


def test_defeated_on_a_ticket_stays_defeated_after_the_end():
    contest, astro, accountant = pie_eating()
    assert contest.status == "ended" and contest.winner == 0
    assert not accountant.has_cliche("Pie Eating") and c(accountant, "Accountant") == 3  # the ticket is gone
    assert contest.is_defeated(accountant) and not contest.is_active(accountant)
    assert not contest.is_defeated(astro) and contest.is_active(astro)
    assert contest.active_units(1) == [] and contest.active_units(0) == [astro]
    assert contest.owed_fates == [accountant.uid]
    replayed = Contest.from_json(contest.to_json())  # the same standing after a replay
    fallen = {ch.name for ch in replayed.characters() if replayed.is_defeated(ch)}
    assert fallen == {"Accountant"}


def test_undoing_the_end_brings_the_ticket_back_and_the_live_standing():
    contest, astro, accountant = pie_eating()
    contest.undo()
    assert contest.status == "active" and c(accountant, "Pie Eating") == 1
    assert not contest.is_defeated(accountant) and contest.is_active(accountant)


def test_after_the_end_recovery_does_not_rewrite_who_fell():
    viking, pirate = named("Viking", "viking", Viking=4), named("Pirate", "pirate", Pirate=1)
    contest = Contest("Brawl", viking, pirate, dice=ScriptedDice([[6] * 4, [1]]))
    contest.roll_round()
    contest.recover(pirate)
    assert c(pirate) == 1 and contest.is_defeated(pirate) and not contest.is_active(pirate)


def test_a_team_on_tickets_reports_its_standing_after_the_end():
    knight, viking = named("Knight", "knight", Knight=2), named("Viking", "viking", Viking=2)
    ogre = named("Ogre", "ogre", Ogre=3)
    contest = Contest("Pie", [knight, viking], ogre, dice=ScriptedDice([[1, 1, 1], [6, 6]]))
    contest.give_tickets()
    contest.form_team([(knight, "Pie"), (viking, "Pie")], leader=knight)
    team = contest.sides[0][0]
    contest.roll_round()  # the team loses: Knight's Pie 2 -> 1
    contest.end("The pies ran out.", winner=1)
    assert not knight.has_cliche("Pie")
    assert contest.is_active(team) and contest.active_units(0) == [team]  # the leader stood at the end
    assert not contest.is_defeated(knight) and not contest.is_defeated(viking)


def test_brevet_dice_gone_at_the_end_do_not_defeat_the_winner():
    # The Gunslinger's Quick Draw was spent before; the brevet gives it 2 extra dice for this contest.
    gun = named("Gunslinger", "gun", Gunslinger=3)
    gun.add_cliche("Quick Draw", 2, current=0)
    outlaw = named("Outlaw", "outlaw", Outlaw=2)
    contest = Contest("Showdown", gun, outlaw, profile=RulesProfile(tickets="brevet"),
                      dice=ScriptedDice([[1, 1], [6, 6], [6], [1, 1], [6], [1]]))
    contest.give_tickets({gun: "Quick Draw"})
    contest.roll_round()  # the Gunslinger loses one of its extra dice
    contest.roll_round()
    contest.roll_round()  # the Outlaw's ticket falls to 0
    assert contest.status == "ended" and contest.winner == 0
    assert gun.cliche("Quick Draw").pool == 0  # the brevet dice are gone with the contest
    assert not contest.is_defeated(gun) and contest.is_active(gun)
    assert contest.is_defeated(outlaw)
