"""Live mode figures for a table of players sharing one reader: the CPU an
idle rack costs each player, and the time from a rack change to the new
hand and its advice, measured without a browser.

Each of ``--players`` simulated players has a camera offering frames at
``--fps`` to its own :class:`LiveReader` (the app's live worker, with its
change test) and draws the move on every frame as the app's video callback
does (:meth:`LiveReader.annotate`); every frame carries camera noise. All
players share one shipped reader, as the app's players share the server's.
Each player changes its rack now and then (rendered racks, one every
``--change-every`` seconds on average, at random): the time from the change
until that player's voted hand is the new rack's and its advice is worked
out is the latency. Idle CPU is the process's CPU time while no player's
rack has changed in the last ``--quiet`` seconds, per player.

    python benchmarks/live_speed.py [--players 4] [--seconds 120] [--change-every 10] [--fps 15]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time

#: Noisy copies of each rack's frame a camera cycles through (sensor noise, never the same frame twice in a row).
VARIANTS = 4


def racks(seeds: list[int], noise: float = 3.0) -> list[tuple[list, tuple[str, ...], str]]:
    """Rendered racks (noisy frames, true hand, indicator), clean and camera-sized."""
    import numpy as np

    from okey_vision.synth import SynthConfig, render_scene

    cfg = SynthConfig(long_side=(960, 960), aspects=(4 / 3,), p_flat=0.0, p_typical_hand=1.0, effects=False,
                      p_hand=0.0, p_objects=0.0, p_other_rack=0.0, p_discards=0.0, p_indicator=1.0,
                      max_tilt=8.0, max_roll=2.0, tile_height=(70.0, 90.0))
    rng = np.random.default_rng(0)
    out = []
    for seed in seeds:
        scene = render_scene(seed, cfg)
        rack = sorted((t for t in scene.tiles if t.on_rack), key=lambda t: (t.row, (t.box[0] + t.box[2]) / 2))
        frames = [np.clip(scene.image + rng.normal(0, noise, scene.image.shape), 0, 255).astype(np.uint8)
                  for _ in range(VARIANTS)]
        out.append((frames, tuple(t.tile.name for t in rack), scene.indicator.name))
    return out


def readable_racks(reader, players: int, per: int) -> list[list]:
    """``per`` racks for each player: rendered hands of 14 or 15 tiles that the
    reader reads right in every noisy frame (the figures are the live view's,
    not the reader's accuracy), from seed 40 on."""
    from okey_vision.vision.reads import APART

    good: list = []
    seed = 40
    while len(good) < players * per:
        (shot,) = racks([seed])
        seed += 1
        frames, hand, _ind = shot
        if len(hand) in (14, 15) and all(
                tuple(r.tile.name for r in reader.read(f) if r.row != APART) == hand for f in frames):
            good.append(shot)
    print(f"racks: {len(good)} read right in all {VARIANTS} noisy frames, of {seed - 40} rendered", flush=True)
    return [good[k * per:(k + 1) * per] for k in range(players)]


class Player(threading.Thread):
    """One player's camera: offers frames, draws the move on each, changes its rack now and then."""

    def __init__(self, k: int, reader, shots, seconds: float, fps: float, every: float, start: float,
                 quiet: float) -> None:
        super().__init__(name=f"player-{k}", daemon=True)
        from okey_vision.report.analysis import Analysis, Session, move_on_rack
        from okey_vision.report.photo import draw_move
        from okey_vision.vision.live import LiveReader

        self.k, self.shots, self.seconds, self.fps, self.every, self.t0 = k, shots, seconds, fps, every, start
        self.quiet = quiet
        self.live = LiveReader(reader.read, draw=draw_move)
        self.session = Session()
        self.lags: list[float] = []
        self.first: float | None = None
        self.misses = 0
        self.changed_at = 0.0  # when this player's rack last changed (perf_counter)
        self.settled = threading.Event()
        self.rng = random.Random(100 + k)
        self.current = 0

        def advise(hand, _seen_indicator):
            ind = self.shots[self.current][2]  # the indicator the player set
            a = self.session.analyse(list(hand), ind, (), "countdown")
            return a, (move_on_rack(a, hand) if isinstance(a, Analysis) else None)

        self.live.set_advice(advise, key=None)

    def run(self) -> None:
        period = 1.0 / self.fps
        tick = 0
        switch = time.perf_counter()
        next_change = switch + self.every * (0.5 + self.rng.random())
        waiting = True
        end = self.t0 + self.seconds
        while time.perf_counter() < end:
            frames, hand, _ind = self.shots[self.current]
            frame = frames[tick % len(frames)]
            tick += 1
            self.live.offer(frame)
            self.live.annotate(frame)  # the video callback's work: the move drawn on the frame
            now = time.perf_counter()
            if waiting:
                state = self.live.state()
                if state.hand == hand and state.advice is not None:
                    lag = now - switch
                    if self.first is None:
                        self.first = lag
                    else:
                        self.lags.append(lag)
                    waiting = False
                elif now - switch > 15:
                    self.misses += 1  # not read within 15 s: counted, then the next change
                    waiting = False
            if not waiting and now >= next_change:
                self.current = (self.current + 1) % len(self.shots)
                switch = self.changed_at = time.perf_counter()
                next_change = switch + self.every * (0.5 + self.rng.random())
                waiting = True
            time.sleep(max(0.0, period - (time.perf_counter() - now)))
        self.live.stop()


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=1)
    p.add_argument("--seconds", type=float, default=120.0, help="how long the table plays")
    p.add_argument("--change-every", type=float, default=10.0, help="mean seconds between a player's rack changes")
    p.add_argument("--fps", type=float, default=15.0)
    p.add_argument("--racks", type=int, default=4, help="racks each player cycles through")
    p.add_argument("--quiet", type=float, default=3.0,
                   help="seconds after any change before the table counts as idle")
    args = p.parse_args()

    from okey_vision.vision.reader import RackReader

    reader = RackReader().load()
    tables = readable_racks(reader, args.players, args.racks)
    print(f"{args.players} players, one reader, {args.fps:g} fps cameras, a rack change every "
          f"{args.change_every:g} s on average, {args.seconds:g} s", flush=True)
    start = time.perf_counter()
    players = [Player(k, reader, tables[k], args.seconds, args.fps, args.change_every, start, args.quiet)
               for k in range(args.players)]
    cpu0 = time.process_time()
    for pl in players:
        pl.start()
    idle_cpu = idle_wall = 0.0
    last_cpu, last_wall = time.process_time(), time.perf_counter()
    while any(pl.is_alive() for pl in players):
        time.sleep(0.5)
        cpu, wall = time.process_time(), time.perf_counter()
        quiet = all(wall - pl.changed_at > args.quiet and pl.first is not None for pl in players)
        quiet = quiet and wall - start > 5 + args.quiet  # after every first rack was read
        if quiet:
            idle_cpu += cpu - last_cpu
            idle_wall += wall - last_wall
        last_cpu, last_wall = cpu, wall
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu0
    cores = os.cpu_count() or 1
    reads = sum(pl.live.state().reads for pl in players)
    checks = sum(pl.live.state().checks for pl in players)
    print(f"reads: {reads} in {wall:.0f} s ({reads / wall:.2f} a second for the table); change tests: "
          f"{checks} ({checks / wall / args.players:.1f} a second per player)")
    for pl in players:
        lags = pl.lags
        line = (f"player {pl.k + 1}: {len(lags)} changes, change -> new hand and advice: "
                f"median {statistics.median(lags):.2f} s, p95 {pct(lags, 95):.2f} s, max {max(lags):.2f} s"
                if lags else f"player {pl.k + 1}: no change measured")
        print(line + (f" ({pl.misses} not read within 15 s)" if pl.misses else "")
              + f"; first hand after {pl.first:.2f} s" if pl.first is not None else line)
    every = [x for pl in players for x in pl.lags]
    if every:
        print(f"all players: {len(every)} changes, median {statistics.median(every):.2f} s, "
              f"p95 {pct(every, 95):.2f} s, max {max(every):.2f} s")
    if idle_wall:
        per = idle_cpu / idle_wall / args.players * 100
        print(f"idle CPU: {per:.1f} % of one core per player ({idle_cpu / idle_wall * 100:.1f} % for the "
              f"table, over {idle_wall:.0f} s with no rack change in the last {args.quiet:g} s; cameras' "
              f"frames, the move drawn on each, the change tests)")
    print(f"CPU over the whole run: {cpu / wall * 100:.0f} % of one core ({cpu / wall / cores * 100:.0f} % of "
          f"this machine's {cores} cores)")


if __name__ == "__main__":
    main()
