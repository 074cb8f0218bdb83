"""Benchmark: the exact 10x10 contest table, our odds engine against icepool.

The question, asked of both: for every start (a, b) with a, b in 1..10 (appropriate clichés, each
lost round costs 1, ties re-rolled), the exact P(A wins), P(A loses), expected decided rounds and
expected roll-offs including ties. Every run starts cold: our caches are cleared, and icepool gets
a fresh d6 (icepool memoises ``n @ die`` sums on the die object, so reusing ``icepool.d6`` would
hand it warm caches after the first run).

icepool is measured two ways, both reasonable uses of it:

* **icepool rounds + Fraction DP**: icepool gives each round's odds (``x @ d6 - y @ d6``), and a
  plain dynamic programme over the scores in ``Fraction`` arithmetic combines them.
* **icepool Markov chain**: icepool answers alone. The contest is an absorbing Markov chain over
  the scores; ``icepool.map(step, start, repeat='inf')`` gives the final scores and
  ``icepool.mean_time_to_absorb`` the expected rounds (ties re-rolled with ``icepool.Reroll``) and
  expected roll-offs (ties as a self-loop). Transitions are memoised within a run.

Both must give exactly our numbers, or the script fails. Run from the repository root::

    .venv/bin/python benchmarks/bench_odds.py          # add --help for the repetition counts

Requires the ``bench`` extra (icepool). Prints a table and exits 0.
"""

from __future__ import annotations

import argparse
import functools
import math
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

# Runnable as a plain script from a checkout: make the package importable without installing it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import icepool  # noqa: E402  (benchmark-only dependency)

from raisus_panel.rules import odds  # noqa: E402

N = 10  # scores 1..N for both sides


# -- ours -------------------------------------------------------------------------------------------


def ours() -> dict:
    odds.clear_cache()
    table = odds.contest_table(N, N, exact=True)
    return {k: (o.p_win, o.p_lose, o.expected_rounds, o.expected_rolls) for k, o in table.items()}


# -- icepool: round odds from icepool, contest by a Fraction DP --------------------------------------


def icepool_rounds_dp() -> dict:
    d6 = icepool.Die([1, 2, 3, 4, 5, 6])  # fresh die: no sums cached from an earlier run
    pools = {n: n @ d6 for n in range(1, N + 1)}
    rounds = {}
    for x in range(1, N + 1):
        for y in range(1, N + 1):
            diff = pools[x] - pools[y]
            win = diff.probability(">", 0)
            lose = diff.probability("<", 0)
            decided = win + lose
            rounds[x, y] = (win / decided, lose / decided, 1 / decided)

    one, zero = Fraction(1), Fraction(0)
    state = {}  # (x, y) -> (p_win, expected rounds, expected rolls)
    for x in range(N + 1):
        for y in range(N + 1):
            if y == 0:
                state[x, y] = (one, zero, zero)
            elif x == 0:
                state[x, y] = (zero, zero, zero)
            else:
                p, q, rolls = rounds[x, y]
                w, l = state[x, y - 1], state[x - 1, y]
                state[x, y] = (p * w[0] + q * l[0], 1 + p * w[1] + q * l[1], rolls + p * w[2] + q * l[2])
    return {
        (x, y): (s[0], 1 - s[0], s[1], s[2])
        for (x, y), s in state.items()
        if x and y
    }


# -- icepool: the contest as an absorbing Markov chain ---------------------------------------------


def icepool_markov() -> dict:
    d6 = icepool.Die([1, 2, 3, 4, 5, 6])

    def make_step(on_tie):
        @functools.cache
        def step(x, y):
            if x == 0 or y == 0:
                return x, y  # absorbing: the contest is over
            tie = (x, y) if on_tie is None else on_tie
            return icepool.map(
                lambda s, t: (x, y - 1) if s > t else (x - 1, y) if t > s else tie,
                x @ d6,
                y @ d6,
            )

        return step

    per_round = make_step(icepool.Reroll)  # a tie is re-rolled within the round
    per_roll = make_step(None)  # a tie is one more roll-off from the same scores
    result = {}
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            final = icepool.map(per_round, (a, b), star=True, repeat="inf")
            den = final.denominator()
            won = sum(q for (x, y), q in final.items() if y == 0)
            lost = sum(q for (x, y), q in final.items() if x == 0)
            result[a, b] = (
                Fraction(won, den),
                Fraction(lost, den),
                icepool.mean_time_to_absorb(per_round, (a, b), star=True),
                icepool.mean_time_to_absorb(per_roll, (a, b), star=True),
            )
    return result


# -- harness ----------------------------------------------------------------------------------------


def measure(fn, runs: int) -> tuple[list[float], dict]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def p90(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=31, help="runs of our engine (default 31)")
    parser.add_argument("--dp-runs", type=int, default=15, help="runs of icepool rounds + DP (default 15)")
    parser.add_argument(
        "--markov-runs",
        type=int,
        default=3,
        help="runs of the icepool Markov chain, ~10 s each (default 3; 0 skips it)",
    )
    args = parser.parse_args(argv)

    rows = []
    ours_times, expected = measure(ours, args.runs)
    rows.append(("raisus_panel odds.contest_table", ours_times))
    contenders = [("icepool rounds + Fraction DP", icepool_rounds_dp, args.dp_runs)]
    if args.markov_runs > 0:
        contenders.append(("icepool Markov chain", icepool_markov, args.markov_runs))
    for name, fn, runs in contenders:
        times, got = measure(fn, runs)
        if got != expected:
            wrong = sorted(k for k in expected if got.get(k) != expected[k])
            print(f"MISMATCH: {name} disagrees with our engine at {wrong[:5]} ...", file=sys.stderr)
            return 1
        rows.append((name, times))

    ours_median = statistics.median(ours_times)
    print(f"Exact {N}x{N} contest table (P(win), P(lose), E[rounds], E[rolls]), cold caches,")
    print(f"Python {sys.version.split()[0]}, icepool {icepool.__version__}; all methods agree exactly.\n")
    print(f"{'method':<34}{'runs':>5}{'median ms':>12}{'p90 ms':>10}{'x ours':>10}")
    for name, times in rows:
        median = statistics.median(times)
        ratio = median / ours_median
        print(f"{name:<34}{len(times):>5}{median * 1e3:>12.2f}{p90(times) * 1e3:>10.2f}{ratio:>10.1f}")
    verdicts = "; ".join(
        f"{name} {statistics.median(times) / ours_median:.0f}x "
        f"({'yes' if statistics.median(times) >= 50 * ours_median else 'no'})"
        for name, times in rows[1:]
    )
    print(f"\nTargets (issue): ours under 25 ms: {'yes' if ours_median < 0.025 else 'no'} "
          f"({ours_median * 1e3:.2f} ms).")
    print(f">= 50x faster than icepool: {verdicts}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
