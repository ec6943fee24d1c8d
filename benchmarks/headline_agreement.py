"""The move a player can trust: the app's action line, the command line's
headline and the JSON's action agree on random hands
(:func:`okey_vision.eval.headline.check` says how).

    python benchmarks/headline_agreement.py [--hands 1000] [--fifteen 200] [--seed 36] [--lang en tr]

Prints the counts by action and every disagreement; exit status 1 on any.
"""

from __future__ import annotations

import argparse
import sys
import time

from okey_vision.cli import capture
from okey_vision.eval.headline import check
from okey_vision.lang import Lang


def main() -> int:
    """The benchmark: the counts by action and every disagreement printed; 1 on any."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=1000, help="14-tile hands with an offered tile (default 1000)")
    ap.add_argument("--fifteen", type=int, default=200, help="15-tile hands, discard or declare (default 200)")
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--lang", nargs="+", default=["en", "tr"], choices=[x.value for x in Lang])
    args = ap.parse_args()
    t0 = time.perf_counter()
    seen, bad = check(args.hands, args.seed, args.lang, capture, args.fifteen)
    for line in bad:
        print("DISAGREE:", line)
    total = sum(seen.values())
    by = ", ".join(f"{action} ({lang}) {n}" for (action, lang), n in sorted(seen.items()))
    print(f"{args.hands} hands of 14 with an offered tile and {args.fifteen} of 15, seed {args.seed}, "
          f"languages {' '.join(args.lang)}: {total} advices, {total - len(bad)} agree, {len(bad)} disagree "
          f"({by}); {time.perf_counter() - t0:.0f} s")
    return 1 if bad else 0



if __name__ == "__main__":
    sys.exit(main())
