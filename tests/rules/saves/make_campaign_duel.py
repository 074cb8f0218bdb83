"""How ``campaign_duel.json`` beside this file was made: run once, when the campaign options came in.

A duel with pumps and lucky shots on (RULES.md section 11): a double-pump cliché pumped, lucky shots
spent through a tie, a pump taken back with 0, an undone round, the end. ``test_saves.py`` loads it like
the older fixtures. Do not regenerate it with newer code; add new fixtures.
Usage: ``python tests/rules/saves/make_campaign_duel.py tests/rules/saves``.
"""
import json
import pathlib
import sys

from raisus_panel.rules import Character, Contest, RulesProfile, ScriptedDice


def state(contest):  # the same record as make_saves.py's, with the lucky shots left
    return {
        "scores": [(c.uid, [(cl.name, cl.current, cl.extra, cl.temporary) for cl in c.cliches]) for c in contest.characters()],
        "sides": [[u.uid for u in side] for side in contest.sides],
        "status": contest.status, "round": contest.round, "winner": contest.winner, "outcome": contest.outcome,
        "owed": contest.owed_fates, "fates": contest.fates, "history": contest.history, "series": contest.series,
        "dropped": sorted(c.uid for c in contest.characters() if contest.is_dropped(c)),
        "lucky_left": {c.uid: c.lucky_left for c in contest.characters()},
    }


if len(sys.argv) != 2 or sys.argv[1].startswith("-") or not pathlib.Path(sys.argv[1]).is_dir():
    sys.exit("usage: python tests/rules/saves/make_campaign_duel.py EXISTING_FOLDER")
out = pathlib.Path(sys.argv[1])
ann = Character("Ann", "[Wizard] (3), Cook (2)", uid="ann", lucky_shots=3)
bo = Character("Bo", {"Brute": 4}, uid="bo")
dice = ScriptedDice([[2, 2, 2, 2, 2, 2], [3, 3, 3, 3], [6, 6, 6, 6, 6, 6], [1, 1, 1, 1],  # pump 1, lucky 1: a tie
                     [1, 1], [6, 6, 6],  # undone
                     [6, 6], [1, 1, 1], [5, 5], [1, 1], [6, 6], [1]])
duel = Contest("Campaign duel", ann, bo, profile=RulesProfile(pumps=True, lucky_shots=True), dice=dice,
               uid="campaign")
duel.choose(ann, "Wizard")
duel.pump(ann, 1)
duel.spend_lucky(ann, 1)
duel.roll_round()
duel.pump(ann, 1)
duel.pump(ann, 0)
duel.roll_round()
duel.undo()
while duel.status == "active":
    duel.roll_round()
(out / "campaign_duel.json").write_text(duel.to_json(), encoding="utf-8")
(out / "campaign_duel.state.json").write_text(json.dumps(state(duel), indent=1, sort_keys=True), encoding="utf-8")
