"""How ``fair_duel.json`` beside this file was made: run once, when committed dice came in.

A duel with committed dice and a known seed: the commitment, a client seed, rounds, an undone round
(its roll numbers stay unused), the end and the reveal. ``test_saves.py`` loads it like the older
fixtures; ``test_verify.py`` verifies it. Do not regenerate it with newer code; add new fixtures.
Usage: ``python tests/rules/saves/make_fair_duel.py tests/rules/saves``.
"""
import json
import pathlib
import sys

from raisus_panel.rules import Character, CommittedDice, Contest


def state(contest):  # the same record as make_saves.py's
    return {
        "scores": [(c.uid, [(cl.name, cl.current, cl.extra, cl.temporary) for cl in c.cliches]) for c in contest.characters()],
        "sides": [[u.uid for u in side] for side in contest.sides],
        "status": contest.status, "round": contest.round, "winner": contest.winner, "outcome": contest.outcome,
        "owed": contest.owed_fates, "fates": contest.fates, "history": contest.history, "series": contest.series,
        "dropped": sorted(c.uid for c in contest.characters() if contest.is_dropped(c)),
    }


# as in make_saves.py: the one argument is an existing folder, never an option taken for a name
if len(sys.argv) != 2 or sys.argv[1].startswith("-") or not pathlib.Path(sys.argv[1]).is_dir():
    sys.exit("usage: python tests/rules/saves/make_fair_duel.py EXISTING_FOLDER")
out = pathlib.Path(sys.argv[1])
ann = Character("Ann", {"Fencer": 4}, uid="ann"); bo = Character("Bo", {"Brute": 3}, uid="bo")
duel = Contest("Fair duel", ann, bo, dice=CommittedDice(bytes(range(32))), uid="fair")
duel.set_client_seed("ann", "three crows at dawn")
duel.roll_round()
duel.roll_round()
duel.undo()
while duel.status == "active":
    duel.roll_round()
(out / "fair_duel.json").write_text(duel.to_json(), encoding="utf-8")
(out / "fair_duel.state.json").write_text(json.dumps(state(duel), indent=1, sort_keys=True), encoding="utf-8")
