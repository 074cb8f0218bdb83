"""Two defects, each reproduced before it was fixed.

1. A character defeated on a ticket's temporary cliché was reported as not defeated (and still active)
   once the contest ended, because the end removes temporary clichés and defeat was read from the
   clichés a character still has (RULES.md section 8: defeat rules apply to tickets).
2. A command given while another command of the same contest was still running -- from the dice
   source, the ``event_sink`` or a param watcher the running command set off -- ran inside it and
   tangled both. It is refused with ``error.contest.busy`` and changes nothing; the running command
   completes (or fails) exactly as it would have alone.
"""

import pytest

from raisus_panel.rules import Character, CharacterTeam, Contest, RuleError, RulesProfile, ScriptedDice

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


# -- 2. one command at a time ----------------------------------------------------------------------
def ogre_fight(dice, *, event_sink=None):
    """RULES.md scenario 19's team against the Ogre, with fixed uids."""
    knight, viking = named("Knight", "knight", Knight=4), named("Viking", "viking", Viking=2)
    squire, ogre = named("Squire", "squire", Squire=1), named("Ogre", "ogre", Ogre=8)
    team = CharacterTeam([knight, viking, squire], uid="team")
    contest = Contest("Ogre fight", team, ogre, dice=dice, uid="fight", event_sink=event_sink)
    return contest, team, (knight, viking, squire, ogre)


LOST_ROUND = [[1] * 6, [2] * 8]


class MeddlingDice(ScriptedDice):
    """Scripted dice that call ``meddle`` each time they are asked for a roll."""

    meddle = staticmethod(lambda: None)

    def _faces(self, n):
        self.meddle()
        return super()._faces(n)


def played_alone():
    """The lost round, with nobody meddling: what every intruded round must still give."""
    contest, team, chars = ogre_fight(ScriptedDice(LOST_ROUND))
    events = contest.roll_round()
    return events, contest


def assert_like_alone(contest, events):
    alone_events, alone = played_alone()
    assert events == alone_events and contest.events == alone.events
    assert scores(contest) == scores(alone) and contest.history == alone.history


def assert_busy(refusals, count):
    assert len(refusals) == count and all(r is not None and r.key == "error.contest.busy" for r in refusals)


def test_a_command_from_the_dice_source_is_refused_and_the_round_completes():
    dice = MeddlingDice(LOST_ROUND)
    contest, team, _ = ogre_fight(dice)
    refusals = []
    dice.meddle = lambda: refusals.append(attempt(contest.disband, team))
    events = contest.roll_round()
    assert_busy(refusals, 2)  # one per roll drawn: the team's and the Ogre's
    assert contest.sides[0] == [team]
    assert_like_alone(contest, events)


#: Arguments for each command, as a player might give them in the middle of the Ogre fight.
ARGUMENTS = {
    "choose": lambda t, k, v, s, o: (o, "Ogre"), "approve": lambda t, k, v, s, o: (o,),
    "pump": lambda t, k, v, s, o: (o, 1), "spend_lucky": lambda t, k, v, s, o: (k, 1),
    "exchange": lambda t, k, v, s, o: (t, o), "volunteer": lambda t, k, v, s, o: (v,),
    "assign_loss": lambda t, k, v, s, o: (v,), "form_team": lambda t, k, v, s, o: ([k, v],),
    "disband": lambda t, k, v, s, o: (t,), "drop_out": lambda t, k, v, s, o: (s,),
    "end": lambda t, k, v, s, o: ("Stop.",), "decide_fate": lambda t, k, v, s, o: (s, "Runs home."),
    "veto_fate": lambda t, k, v, s, o: (s,), "recover": lambda t, k, v, s, o: (k,),
    "set_client_seed": lambda t, k, v, s, o: ("knight's player", "my own luck"),
}


@pytest.mark.parametrize("name", Contest.COMMANDS)
def test_every_command_and_its_dry_run_is_busy_while_the_dice_are_drawn(name):
    dice = MeddlingDice(LOST_ROUND)
    contest, team, chars = ogre_fight(dice)
    args = ARGUMENTS.get(name, lambda *_: ())(team, *chars)
    refusals, answers = [], []

    def meddle():
        answers.append(contest.why_not_error(name, *args))
        refusals.append(attempt(getattr(contest, name), *args))

    dice.meddle = meddle
    events = contest.roll_round()
    assert_busy(refusals, 2)
    assert_busy(answers, 2)
    assert_like_alone(contest, events)


def test_a_command_from_the_event_sink_is_refused_and_the_round_completes():
    given = []
    contest, team, (knight, viking, squire, ogre) = ogre_fight(ScriptedDice(LOST_ROUND))
    refusals = []

    def sink(events):
        given.append(events)
        refusals.append(attempt(contest.volunteer, viking))
        refusals.append(attempt(contest.undo))

    contest.event_sink = sink
    events = contest.roll_round()
    assert_busy(refusals, 2)
    assert given == [events]
    assert_like_alone(contest, events)


def test_a_command_from_a_watcher_is_refused_and_the_round_completes():
    contest, team, (knight, viking, squire, ogre) = ogre_fight(ScriptedDice(LOST_ROUND + [[6] * 9]))
    refusals = []
    knight.cliche("Knight").param.watch(lambda e: refusals.append(attempt(contest.roll_round)), "current")
    events = contest.roll_round()
    assert_busy(refusals, 1)
    assert contest.dice.remaining == 1  # the intruder rolled nothing
    assert_like_alone(contest, events)


def test_an_uncaught_intruder_fails_the_command_and_changes_nothing():
    dice = MeddlingDice(LOST_ROUND)
    contest, team, (knight, *_rest) = ogre_fight(dice)
    before = (scores(contest), contest.to_json(), contest.history)
    dice.meddle = lambda: contest.disband(team)
    with pytest.raises(RuleError) as caught:
        contest.roll_round()
    assert caught.value.key == "error.contest.busy"
    assert (scores(contest), contest.to_json(), contest.history) == before
    dice.meddle = lambda: None  # and the contest plays on: the refusal left nothing running
    contest.roll_round()
    assert c(knight) == 3


def test_a_refused_intruder_during_a_failing_command_changes_nothing():
    contest, team, (knight, viking, squire, ogre) = ogre_fight(ScriptedDice(LOST_ROUND))
    before = (scores(contest), contest.to_json())
    refusals = []

    def sink(events):
        refusals.append(attempt(contest.drop_out, squire))
        raise OSError("disk full")

    contest.event_sink = sink
    with pytest.raises(OSError):
        contest.roll_round()
    assert_busy(refusals, 1)
    assert (scores(contest), contest.to_json()) == before and not contest.is_dropped(squire)


def test_dry_runs_answer_busy_while_a_command_changes_the_contest():
    contest, team, (knight, viking, squire, ogre) = ogre_fight(ScriptedDice(LOST_ROUND))
    answers = []
    knight.cliche("Knight").param.watch(
        lambda e: answers.append((contest.why_not_error("disband", team), contest.can("roll_round"))), "current")
    contest.roll_round()
    [(refusal, can_roll)] = answers
    assert refusal.key == "error.contest.busy" and can_roll is False


def test_watchers_of_the_published_state_get_real_answers_but_cannot_command():
    contest, team, (knight, viking, squire, ogre) = ogre_fight(ScriptedDice(LOST_ROUND + [[6] * 9, [1] * 8]))
    seen = []

    def on_round(event):
        seen.append({"volunteer": contest.why_not("volunteer", viking), "roll": contest.can("roll_round"),
                     "knight": contest.why_not("volunteer", knight), "undo": contest.can("undo"),
                     "given": attempt(contest.volunteer, viking)})

    contest.param.watch(on_round, "round")
    contest.roll_round()
    [answers] = seen
    assert answers["volunteer"] is None and answers["roll"] and answers["undo"] and answers["knight"] is None
    assert answers["given"].key == "error.contest.busy"
    assert c(viking) == 2 and c(knight) == 3  # the watcher's volunteer changed nothing
    contest.volunteer(viking)  # once the round has returned, it is taken
    assert c(viking) == 0 and c(knight) == 4 and team.revenge
