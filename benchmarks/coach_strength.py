"""Coach strength: seeded 4-player rounds, each seat's win share with a 95 %
(Wilson) interval, its average countdown points per round and its average
turns to win.

    python -u benchmarks/coach_strength.py [--rounds 2000] [--seed 2027] [--jobs 2]
        [--matchups greedy,baseline,peer,head,peers] [--rules take_margin=2,safety=0] [--save FILE]

Match-ups (``--matchups``, any subset, comma-separated):

- ``greedy``: coach + 3 greedy bots;
- ``baseline``: coach + 3 baseline coaches: the coach before its decision rules
  (commit b9e9903, taken from git history: ``okey_vision/eval/baseline.py``);
- ``peer``: peer-library bot + 3 greedy;
- ``head``: coach + peer + 2 greedy;
- ``peers``: coach + 2 peers + 1 greedy;
- ``base``: the baseline + 3 greedy (the same deals as ``greedy``: a
  paired reference).

Round i of a match-up uses ``random.Random(seed * 1_000_003 + i)`` and the
starter rotates. Honest measurement: every tuning choice of the coach was
made on seeds 11 and 12 (``TUNING_SEEDS``; 13 for the lookahead and the
re-test of the held copies) and confirmed on seed 23 (14 for the lookahead);
the default seed 2027 was used by no tuning. ``--rules`` overrides the coach's
:class:`~okey_vision.coach.Rules` (as tuning does). Points per round: the
seat's score change under countdown scoring (the winner 0, the others -2,
-4 or -8; the indicator's twin -1 to the others), averaged over all rounds;
net: that change less the other seats' average (the lead gained per round).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from okey_vision.coach import RULES, Rules
from okey_vision.game import CoachPolicy, GreedyPolicy, RandomPolicy, play_round
from okey_vision.scoring import COUNTDOWN, SCHEMES

#: The seeds every tuning choice was made on (13: the lookahead, the held
#: copies re-tested); 23 confirmed them (14: the lookahead).
TUNING_SEEDS = (11, 12, 13)
CONFIRM_SEEDS = (23, 14)
#: The default: a seed no tuning used.
FRESH_SEED = 2027

MATCHUPS = {
    "greedy": ["coach", "greedy", "greedy", "greedy"],
    "baseline": ["coach", "baseline", "baseline", "baseline"],
    "peer": ["peer", "greedy", "greedy", "greedy"],
    "head": ["coach", "peer", "greedy", "greedy"],
    "peers": ["coach", "peer", "peer", "greedy"],
    "base": ["baseline", "greedy", "greedy", "greedy"],
    "random": ["coach", "random", "random", "random"],
}


def parse_rules(text: str) -> Rules:
    """``key=value,...`` over the coach's default :data:`RULES`."""
    if not text:
        return RULES
    fields = {f.name: f.type for f in dataclasses.fields(Rules)}
    changes = {}
    for item in text.split(","):
        key, _, value = item.partition("=")
        key = key.strip()
        if key not in fields:
            raise SystemExit(f"unknown rule {key!r}; rules: {', '.join(fields)}")
        kind = str(fields[key])
        changes[key] = (value.strip().lower() in ("1", "true", "yes")) if "bool" in kind else \
            int(value) if "int" in kind else float(value)
    return dataclasses.replace(RULES, **changes)


def _policy(name: str, rules: Rules):
    if name == "coach":
        return CoachPolicy(rules=rules)
    if name == "greedy":
        return GreedyPolicy()
    if name == "random":
        return RandomPolicy()
    if name == "baseline":
        from okey_vision.eval.baseline import BaselineCoachPolicy
        return BaselineCoachPolicy()
    from peer import PeerPolicy
    return PeerPolicy()


def _chunk(args):
    names, seed, lo, hi, rules, scheme = args
    pols = [_policy(n, rules) for n in names]
    out = []
    for i in range(lo, hi):
        r = play_round(pols, random.Random(seed * 1_000_003 + i), starter=i % len(pols), scheme=scheme)
        out.append((r.winner, r.turns, r.delta))
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return mid - half, mid + half


def run(names: list[str], rounds: int, seed: int, jobs: int, rules: Rules = RULES, scheme: str = COUNTDOWN) -> list:
    """Play and print one match-up; returns each round's (winner, turns, deltas)."""
    t0 = time.time()
    step = max(1, rounds // (jobs * 4))
    tasks = [(names, seed, lo, min(rounds, lo + step), rules, scheme) for lo in range(0, rounds, step)]
    if jobs == 1:
        results = [r for task in tasks for r in _chunk(task)]
    else:
        with ProcessPoolExecutor(jobs) as ex:
            results = [r for part in ex.map(_chunk, tasks) for r in part]
    stalls = sum(w is None for w, _, _ in results)
    print(f"\n{' + '.join(names)}: {rounds} rounds, seed {seed}, {stalls} stalls, {time.time() - t0:.0f} s")
    for seat, name in enumerate(names):
        won = [t for w, t, _ in results if w == seat]
        lo, hi = wilson(len(won), rounds)
        points = sum(d[seat] for _, _, d in results) / rounds
        # Net: the seat's score change less the others' average (the lead it gains per round).
        net = sum(d[seat] - (sum(d) - d[seat]) / (len(d) - 1) for _, _, d in results) / rounds
        avg = sum(won) / len(won) if won else float("nan")
        print(f"  seat {seat} {name:<8} win share {len(won) / rounds:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]  "
              f"{scheme} points/round {points:+.2f} (net {net:+.2f})  avg turns to win {avg:.1f}", flush=True)
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=FRESH_SEED, help=f"default {FRESH_SEED}: used by no tuning")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--matchups", default="greedy,baseline,peer,head,peers",
                    help=f"comma-separated, of: {', '.join(MATCHUPS)}")
    ap.add_argument("--rules", default="", help="override the coach's rules, e.g. safety=0,take_margin=2")
    ap.add_argument("--scheme", choices=SCHEMES, default=COUNTDOWN,
                    help="scoring of the points per round (penalty: lower is better)")
    ap.add_argument("--save", metavar="FILE", help="write each round's winner per match-up as JSON")
    ap.add_argument("--no-peer", action="store_true", help="skip the match-ups with the peer bot")
    args = ap.parse_args()
    rules = parse_rules(args.rules)
    chosen = [m.strip() for m in args.matchups.split(",") if m.strip()]
    for m in chosen:
        if m not in MATCHUPS:
            ap.error(f"unknown match-up {m!r}; choose from {', '.join(MATCHUPS)}")
    if any("peer" in MATCHUPS[m] for m in chosen) and not args.no_peer:
        try:
            from peer import load_peer
            load_peer()
        except Exception as exc:  # noqa: BLE001 - the benchmark still runs without the peer bot, whatever failed
            args.no_peer = True
            print(f"peer bot unavailable ({type(exc).__name__}: {exc}); running without it")
    if args.no_peer:
        chosen = [m for m in chosen if "peer" not in MATCHUPS[m]]
    print(f"coach rules: {rules}")
    saved = {}
    for m in chosen:
        results = run(MATCHUPS[m], args.rounds, args.seed, args.jobs, rules, args.scheme)
        saved[m] = [w for w, _, _ in results]
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"seed": args.seed, "rules": dataclasses.asdict(rules), "winners": saved}, f)


if __name__ == "__main__":
    main()
