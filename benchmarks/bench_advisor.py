"""Benchmark: the odds advisor, cold, for issue 25's table.

A four-member team against a rating-10 unit, clichés up to 6 dice, two clichés each: the team
(M0..M3 fighting with their first clichés, rated 6, 5, 4, 3; each has a second cliché rated 6) against
an Ogre (Ogre 10, Brute 6). Three moments are measured, each computing every choice's two exact
numbers (``as_is`` and ``best``) from cold caches (``advisor.clear_cache()``, which clears the odds
engine's too):

* **team, before a roll**: keep, disband and re-form, each member dropping out;
* **team, volunteer window**: right after a lost round: nobody, each member volunteering;
* **the Ogre, before a roll**: each cliché, appropriate or inappropriate.

Run from the repository root::

    .venv/bin/python benchmarks/bench_advisor.py          # --runs N for more repetitions

Prints a table (median and fastest of the runs, in ms, against the 50 ms target) and exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Runnable as a plain script from a checkout: make the package importable without installing it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from raisus_panel.rules import Character, CharacterTeam, Contest, ScriptedDice, advise, advisor  # noqa: E402

TARGET_MS = 50.0


def table(window: bool) -> tuple[Contest, CharacterTeam, Character]:
    members = [Character(f"M{i}", {f"Fighter{i}": 6 - i, f"Other{i}": 6}) for i in range(4)]
    ogre = Character("Ogre", {"Ogre": 10, "Brute": 6})
    team = CharacterTeam([(m, m.cliches[0].name) for m in members])
    dice = ScriptedDice([[1] * 9, [2] * 10]) if window else ScriptedDice()
    contest = Contest("Fight", [team], ogre, dice=dice)
    contest.choose(ogre, "Ogre")
    if window:
        contest.roll_round()  # lost: the volunteer window is open
    return contest, team, ogre


def measure(label: str, window: bool, who: str, runs: int) -> tuple[str, int, float, float]:
    times = []
    count = 0
    for _ in range(runs):
        contest, team, ogre = table(window)
        advisor.clear_cache()
        start = time.perf_counter()
        advice = advise(contest, team if who == "team" else ogre)
        times.append((time.perf_counter() - start) * 1000)
        count = len(advice.choices)
    return label, count, statistics.median(times), min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold runs per moment (default 5)")
    runs = parser.parse_args().runs
    rows = [measure("team, before a roll", False, "team", runs),
            measure("team, volunteer window", True, "team", runs),
            measure("the Ogre, before a roll", False, "ogre", runs)]
    print(f"{'moment':<26} {'choices':>7} {'median ms':>10} {'fastest ms':>10}  target {TARGET_MS:.0f} ms")
    for label, count, median, fastest in rows:
        mark = "ok" if median < TARGET_MS else "over"
        print(f"{label:<26} {count:>7} {median:>10.1f} {fastest:>10.1f}  {mark}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
