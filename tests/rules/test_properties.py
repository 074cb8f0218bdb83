"""Invariants of contests under random play (hypothesis).

Random rosters play random sequences of commands, legal or not. After every command:
scores are never negative; the contest has ended exactly when a side has no active unit (or a
single-roll contest was decided, or the GM ended it); a refused command changed nothing; and
replaying the event log gives the same state as the live game. Undo takes back exactly one command.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raisus_panel.rules import Character, CharacterTeam, Cliche, Contest, GruntMob, RuleError, RulesProfile, SeededDice

profiles = st.builds(
    RulesProfile,
    inappropriate_damage=st.sampled_from(["always", "vs_appropriate"]),
    team_dice=st.sampled_from(["member_dice", "member_sixes"]),
    team_loss=st.sampled_from(["leader", "leader_assigns", "roll_off"]),
    disband_penalty=st.sampled_from([0, 1]),
    single_roll_damage=st.booleans(),
    pumps=st.booleans(),
    lucky_shots=st.booleans(),
)

rosters = st.fixed_dictionaries({
    "a": st.lists(st.integers(1, 5), min_size=1, max_size=4),
    "b": st.lists(st.integers(1, 5), min_size=1, max_size=2),
    "team_a": st.booleans(),
    "mob_b": st.booleans(),
    "single": st.booleans(),
    "seed": st.integers(0, 10**6),
})

commands = st.lists(st.tuples(
    st.sampled_from(["roll_round"] * 8 + ["exchange"] * 4 + ["volunteer"] * 4 + [
        "end_round", "disband", "drop_out", "form_team", "form_team", "choose", "assign_loss", "tickets",
        "approve", "end", "undo", "pump", "pump", "spend_lucky", "spend_lucky"]),
    st.integers(0, 7), st.integers(0, 7), st.booleans()), min_size=1, max_size=25)


def build(roster, profile):
    side_a = [Character(f"A{i}", [(f"Hero{i}", r), Cliche(f"Alt{i}", max(1, r - 1), double_pump=i % 2 == 1)],
                        lucky_shots=i + 1) for i, r in enumerate(roster["a"])]
    side_b = [Character(f"B{i}", {f"Foe{i}": r}) for i, r in enumerate(roster["b"])]
    if roster["mob_b"]:
        side_b[0] = GruntMob("Mob", rating=roster["b"][0] + 2)
    units_a = side_a
    if roster["team_a"] and len(side_a) >= 2:
        best = max(roster["a"])
        leader = next(c for c, r in zip(side_a, roster["a"]) if r == best)
        units_a = [CharacterTeam([(c, c.cliches[0].name) for c in side_a], leader=leader)]
    contest = Contest("Fray", units_a, side_b, single_roll=roster["single"], profile=profile,
                      dice=SeededDice(roster["seed"]))
    for ch in side_a:
        if not roster["team_a"] or len(side_a) < 2:
            contest.choose(ch, ch.cliches[0].name)
    return contest


def pick(seq, i):
    return seq[i % len(seq)] if seq else None


def plan(contest, name, i, j, flag):
    """The command ``name`` with arguments picked from the contest: (method, args, kwargs)."""
    chars = contest.characters()
    units = [u for side in contest.sides for u in side]
    teams = [u for u in units if isinstance(u, CharacterTeam)]
    if name == "exchange":
        return name, (pick(contest.sides[0], i), pick(contest.sides[1], j)), {}
    if name in ("volunteer", "assign_loss", "drop_out"):
        return name, (pick(chars, i),), {}
    if name == "disband":
        return name, (pick(teams, i) or pick(units, i),), {}
    if name == "form_team":
        side = contest.sides[i % 2]
        members = [u for u in side if isinstance(u, Character) and not isinstance(u, GruntMob)]
        picked = members[: 2 + j % 2]
        return name, ([(m, contest.chosen(m).name if contest.chosen(m) else m.cliches[0].name)
                       for m in picked],), {"leader": picked[0] if flag and picked else None}
    if name == "choose":
        unit = pick(units, i)
        cliches = getattr(unit, "cliches", None)
        return name, (unit, pick(cliches, j).name if cliches else "x"), {
            "appropriate": not flag, "approved": flag and j % 2 == 0}
    if name == "approve":
        return name, (pick(units, i),), {}
    if name == "pump":
        return name, (pick(units, i), j % 4), {}
    if name == "spend_lucky":
        return name, (pick(chars, i), j % 3), {}
    if name == "tickets":
        return "give_tickets", (), {}
    if name == "end":
        # rare: an early end stops the rest of the script
        return (name, ("Called off.",), {"winner": pick([None, 0, 1], j)}) if i == 0 else None
    return name, (), {}


def run(contest, name, i, j, flag):
    """Give the command; also check that ``can`` predicted whether it would be refused."""
    step = plan(contest, name, i, j, flag)
    if step is None:
        raise RuleError("not this time")
    method, args, kwargs = step
    predicted = contest.why_not(method, *args, **kwargs)
    try:
        getattr(contest, method)(*args, **kwargs)
    except RuleError as exc:
        assert predicted == str(exc), f"can({method}) said {predicted!r} but the command said {exc}"
        raise
    assert predicted is None, f"can({method}) refused ({predicted}) what the command allowed"


def state(contest):
    return json.dumps({
        "scores": [(ch.uid, ch.lucky_left, [(c.name, c.current, c.extra, c.temporary) for c in ch.cliches])
                   for ch in contest.characters()],
        "sides": [[u.uid for u in side] for side in contest.sides],
        "status": contest.status, "round": contest.round, "winner": contest.winner,
        "history": contest.history, "owed": contest.owed_fates, "fates": contest.fates,
        "teams": [(u.uid, u.leader.uid, u.revenge, u.dropped) for side in contest.sides for u in side
                  if isinstance(u, CharacterTeam)],
        "standing": [([contest.is_active(u) for u in side], [contest.is_defeated(ch) for ch in contest.characters(i)])
                     for i, side in enumerate(contest.sides)],
    }, sort_keys=True)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roster=rosters, profile=profiles, script=commands)
def test_invariants_under_random_play(roster, profile, script):
    contest = build(roster, profile)
    for name, i, j, flag in script:
        before, log_before = state(contest), contest.to_json()
        try:
            run(contest, name, i, j, flag)
        except RuleError:
            assert state(contest) == before and contest.to_json() == log_before, f"refused {name} changed state"
            continue
        for ch in contest.characters():
            assert all(c.current >= 0 and c.extra >= 0 for c in ch.cliches) and ch.lucky_left >= 0
        if contest.status == "active":
            assert all(contest.active_units(s) for s in (0, 1)), "a side has no active unit but the contest goes on"
        elif contest.events[-1]["type"] == "contest_ended" and not contest.events[-1]["early"]:
            # judged on the ended contest itself: the end removes tickets, not the standing they left
            fallen = not all(contest.active_units(s) for s in (0, 1))
            assert fallen or contest.single_roll, "the contest ended while both sides stand"
        replayed = Contest.from_json(contest.to_json())
        assert state(replayed).replace(replayed.uid, "") == state(contest).replace(contest.uid, "")


@settings(max_examples=300, deadline=None)
@given(roster=rosters, profile=profiles, script=commands)
def test_undo_restores_the_state_before_the_command(roster, profile, script):
    contest = build(roster, profile)
    for name, i, j, flag in script:
        if name == "undo":
            continue
        before = state(contest)
        try:
            run(contest, name, i, j, flag)
        except RuleError:
            continue
        contest.undo()
        assert state(contest) == before
        try:  # and play on from there
            run(contest, name, i, j, flag)
        except RuleError:
            pass
