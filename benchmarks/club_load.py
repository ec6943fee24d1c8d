"""A club night on one machine: many tables' apps on in-process readers or on the reader service, and the check on Ray.

**Tables.** N tables (``--tables 1 4 8 16``) of 4 players; each table is one
app process (as one Streamlit server a table). Each player's rack changes
every ``--every`` seconds (10), at its own phase (random, seeded); on a
change the app reads the new rack's camera frame (rendered racks of 15
tiles, 960 x 720, camera noise) and works out the advice on the hand read
(:func:`okey_vision.coach.advise`): the time from the change until the
advice is ready is the latency. A player whose previous read is still
running reads its next change late (the latency counts from the change);
changes that come while one read runs are one (the app reads the newest
frame: the others are counted as superseded).
The live view's change test and frames are left out (``live_speed.py``
measures those): this is the reader under many tables.

- ``in-process``: each app holds its own reader (``RackReader``), as the
  embedded default;
- ``ray``: one local Ray (started here) runs the reader service
  (``okey-vision serve``: ``--replicas`` replicas, one core each, requests
  batched); the apps read through it (``OKEY_VISION_SERVER``,
  :class:`~okey_vision.vision.service.RemoteReader`).

Printed side by side per N: change-to-advice p50/p95, reads per second
finished within the measured ``--seconds``, the CPU of every process of the
mode (the apps, and Ray's own processes: this process's whole tree) in cores,
and its memory (RSS summed over the tree, peak). ``--kill-replica`` kills one
replica half way through the largest N through Ray and counts requests lost.

**Check.** ``--photos`` rendered rack photos (camera size, known hands; made
once into ``--folder``) checked by ``okey-vision check FOLDER --json`` in a
child process: locally, and with ``--ray --workers 1`` and ``2`` (a
one-machine Ray started by the command, its start counted in the wall time);
the rows of the three compared byte for byte.

    python benchmarks/club_load.py                                # tables 1 4 8 16, 60 s each; 1,000 photos
    python benchmarks/club_load.py --tables 1 4 --seconds 20 --photos 40
    python benchmarks/club_load.py --skip-check                   # the tables only
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing as mp
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 4
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# ------------------------------------------------------------------ frames ---

def render_frames(count: int, folder: Path) -> list[tuple[Path, str]]:
    """``count`` camera frames of racks holding 15 tiles (saved once as .npy), with their indicators."""
    import numpy as np

    from okey_vision.synth import SynthConfig, render_scene

    cfg = SynthConfig(long_side=(960, 960), aspects=(4 / 3,), p_flat=0.0, p_typical_hand=1.0, effects=False,
                      p_hand=0.0, p_objects=0.0, p_other_rack=0.0, p_discards=0.0, p_indicator=1.0,
                      max_tilt=8.0, max_roll=2.0, tile_height=(70.0, 90.0))
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    out, seed = [], 40
    while len(out) < count:
        path = folder / f"frame-{seed}.npy"
        ind_path = path.with_suffix(".txt")
        if not path.exists():
            scene = render_scene(seed, cfg)
            if sum(t.on_rack for t in scene.tiles) == 15:
                frame = np.clip(scene.image + rng.normal(0, 3.0, scene.image.shape), 0, 255).astype(np.uint8)
                np.save(path, frame)
                ind_path.write_text(scene.indicator.name)
        if path.exists():
            out.append((path, ind_path.read_text()))
        seed += 1
    return out


# ------------------------------------------------------------------ one app (a child process) ---

def app(table: int, url: str | None, frames: list[tuple[Path, str]], every: float, seconds: float, seed: int,
        ready, go, start, results) -> None:
    """One table's app: its reader (own, or the service's), 4 players reading their racks' changes."""
    import numpy as np

    from okey_vision.coach import advise
    from okey_vision.errors import OkeyError
    from okey_vision.vision.reads import hand_from_reads

    if url is None:
        from okey_vision.vision.reader import RackReader

        reader = RackReader().load()
    else:
        from okey_vision.vision.service import RemoteReader

        reader = RemoteReader(url, timeout=600).load()  # the queue's wait is measured, not cut at the app's 60 s
    shots = [(np.load(p), ind) for p, ind in frames]
    ready.put(table)
    go.wait()
    t0 = start.value
    rows: list[tuple[float, float, bool]] = []  # (change, advice ready, advice made)
    skipped: list[int] = []  # changes a later change replaced before they were read
    lost: list[str] = []  # reads that raised (none expected: a lost request is resent or read here)
    lock = threading.Lock()

    def player(k: int) -> None:
        rng = random.Random(seed * 1000 + table * PLAYERS + k)
        phase = rng.uniform(0, every)
        n = 0
        while (due := t0 + phase + n * every) < t0 + seconds:
            time.sleep(max(0.0, due - time.monotonic()))
            image, indicator = shots[(table * PLAYERS + k + n * 7) % len(shots)]
            try:
                reads = reader.read(image)
            except Exception as exc:  # noqa: BLE001 - a read lost is counted, the player goes on
                lost.append(f"{type(exc).__name__}: {exc}")
                reads = None
            try:
                made = reads is not None and bool(advise(hand_from_reads(reads, indicator)))
            except OkeyError:  # a misread hand (three of a tile, 14 tiles): no advice, still a read
                made = False
            done = time.monotonic()
            with lock:
                rows.append((due, done, made))
            n += 1
            # Changes that came while reading are one: the app reads the newest frame (the latency counts from it).
            while t0 + phase + (n + 1) * every <= min(done, t0 + seconds):
                n += 1
                skipped.append(k)

    threads = [threading.Thread(target=player, args=(k,)) for k in range(PLAYERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put((table, rows, getattr(reader, "retries", 0), getattr(reader, "gone", ""), len(skipped), lost))


# ------------------------------------------------------------------ this process's tree ---

def tree(root: int) -> list[int]:
    """``root`` and every process under it (from /proc)."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            kids.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += kids.get(pid, [])
    return out


def cpu_and_rss(pid: int) -> tuple[float, float]:
    """A process's CPU seconds so far and its resident MB (0, 0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2**20
    except (OSError, IndexError, ValueError):
        return 0.0, 0.0
    return (int(fields[11]) + int(fields[12])) / TICK, rss


class TreeMeter:
    """This process's tree, sampled every half second: CPU seconds used since :meth:`begin`, peak RSS."""

    def __init__(self) -> None:
        self.cpu: dict[int, float] = {}
        self.base: dict[int, float] = {}
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        total = 0.0
        for pid in tree(os.getpid()):
            cpu, rss = cpu_and_rss(pid)
            if cpu:
                self.cpu[pid] = cpu
            total += rss
        self.peak = max(self.peak, total)

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self._sample()

    def begin(self) -> None:
        self._sample()
        self.base = dict(self.cpu)
        self.peak = 0.0
        self._sample()

    def used(self) -> float:
        """CPU seconds of the tree since :meth:`begin` (a process that ended counts to its last sample)."""
        self._sample()
        return sum(c - self.base.get(pid, 0.0) for pid, c in self.cpu.items())

    def __enter__(self) -> TreeMeter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, -(-len(s) * q // 100) - 1))] if s else float("nan")


# ------------------------------------------------------------------ one run of N tables ---

def run_tables(n: int, url: str | None, frames, args, kill=None) -> dict:
    """N tables' apps on the in-process readers (``url`` None) or the service; the figures."""
    ctx = mp.get_context("spawn")
    ready, results, go, start = ctx.Queue(), ctx.Queue(), ctx.Event(), ctx.Value("d", 0.0)
    procs = [ctx.Process(target=app, args=(t, url, frames, args.every, args.seconds, args.seed, ready, go, start,
                                           results), daemon=True) for t in range(n)]
    for p in procs:
        p.start()
    for _ in procs:
        ready.get(timeout=600)
    with TreeMeter() as meter:
        start.value = time.monotonic() + 1.0
        meter.begin()
        go.set()
        t0 = start.value
        if kill is not None:
            threading.Timer(1.0 + args.seconds / 2, kill).start()
        time.sleep(max(0.0, t0 + args.seconds - time.monotonic()))
        cpu = meter.used()
        peak = meter.peak
        got = [results.get(timeout=600) for _ in procs]
    for p in procs:
        p.join(60)
    rows = [r for g in got for r in g[1]]
    end = t0 + args.seconds
    lat = [done - due for due, done, _ in rows]
    return {"tables": n, "changes": len(rows), "p50": statistics.median(lat) if lat else float("nan"),
            "p95": percentile(lat, 95), "max": max(lat, default=float("nan")),
            "reads_s": sum(done <= end for _, done, _ in rows) / args.seconds,
            "advised": sum(made for _, _, made in rows), "cores": cpu / args.seconds, "mb": peak,
            "retries": sum(g[2] for g in got), "fell_back": sum(bool(g[3]) for g in got),
            "superseded": sum(g[4] for g in got), "lost": [e for g in got for e in g[5]]}


def tables_part(args) -> None:
    frames = render_frames(args.frames, args.folder / "frames")
    print(f"frames: {len(frames)} racks of 15 tiles, 960x720; {PLAYERS} players a table, a change every "
          f"{args.every:g} s each; {args.seconds:g} s measured a run; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    local = {}
    for n in args.tables:
        local[n] = run_tables(n, None, frames, args)
        print(f"  in-process N={n}: {fmt(local[n])}", flush=True)
    from okey_vision.serve import cluster, deployment

    cluster.connect(num_cpus=os.cpu_count())
    t = time.perf_counter()
    url = deployment.start_service(args.replicas, port=args.port)
    # Ray starts its workers at nice 19: the replicas are set to this process's nice, as the apps are (a fair match).
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    for pid in tree(os.getpid()):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, pid, mine)
    print(f"  the service: {args.replicas} replicas up in {time.perf_counter() - t:.1f} s at {url}", flush=True)
    served = {}
    for n in args.tables:
        kill = None
        if args.kill_replica and n == max(args.tables):
            kill = kill_one_replica
        served[n] = run_tables(n, url, frames, args, kill)
        print(f"  ray N={n}: {fmt(served[n])}", flush=True)
    deployment.stop_service()
    cluster.shutdown()
    print(f"\nchange to advice, {PLAYERS} players a table, a change every {args.every:g} s "
          f"(load average now {os.getloadavg()[0]:.1f}):")
    print(f"{'tables':>6} | {'in-process p50/p95 s':>21} {'reads/s':>8} {'cores':>6} {'MB':>6} | "
          f"{'Ray Serve p50/p95 s':>20} {'reads/s':>8} {'cores':>6} {'MB':>6} | offered/s")
    for n in args.tables:
        a, b = local[n], served[n]
        print(f"{n:>6} | {a['p50']:>9.2f} / {a['p95']:<9.2f} {a['reads_s']:>8.2f} {a['cores']:>6.2f} "
              f"{a['mb']:>6.0f} | {b['p50']:>8.2f} / {b['p95']:<9.2f} {b['reads_s']:>8.2f} {b['cores']:>6.2f} "
              f"{b['mb']:>6.0f} | {n * PLAYERS / args.every:.1f}")
    if args.kill_replica:
        b = served[max(args.tables)]
        print(f"replica killed half way at N={max(args.tables)}: {b['changes']} changes, "
              f"{b['changes'] - len(b['lost'])} answered ({b['retries']} sent again, {b['fell_back']} apps fell "
              f"back in-process){': ' + '; '.join(b['lost'][:3]) if b['lost'] else ''}")


def kill_one_replica() -> None:
    import ray

    from okey_vision.serve.deployment import replica_actors

    name = replica_actors()[0]
    ray.kill(ray.get_actor(name, namespace="serve"), no_restart=True)
    print(f"    killed {name}", flush=True)


def fmt(r: dict) -> str:
    return (f"{r['changes']} changes, p50 {r['p50']:.2f} s, p95 {r['p95']:.2f} s, max {r['max']:.2f} s, "
            f"{r['reads_s']:.2f} reads/s, {r['advised']} advised, {r['cores']:.2f} cores, {r['mb']:.0f} MB, "
            f"{r['superseded']} changes superseded before read, {len(r['lost'])} reads lost, {r['retries']} retries, "
            f"{r['fell_back']} fell back")


# ------------------------------------------------------------------ the check ---

def make_photos(folder: Path, count: int) -> None:
    """``count`` rendered rack photos (camera size) with known hands, made once."""
    from okey_vision.eval import racks

    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        rack = racks.RACKS[i % len(racks.RACKS)]
        path = folder / f"{i:04d}-{rack.name}.jpg"
        if not path.exists():
            path.write_bytes(racks.jpeg(racks.render(rack, 7000 + i).image))
            if not rack.shown:
                path.with_suffix(".txt").write_text(f"indicator {rack.indicator}\n")
    for stale in sorted(folder.glob("*.jpg"))[count:]:
        stale.unlink()
        stale.with_suffix(".txt").unlink(missing_ok=True)


def run_check(folder: Path, extra: list[str]) -> dict:
    """``okey-vision check FOLDER --json`` in a child: wall, rows a second between the first row and the last."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    cmd = [sys.executable, "-m", "okey_vision.cli", "check", str(folder), "--json", *extra]
    with TreeMeter() as meter:
        meter.begin()
        t0 = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        assert child.stdout is not None
        rows, stamps = [], []
        for line in child.stdout:
            rows.append(line)
            stamps.append(time.perf_counter())
        child.wait()
        wall = time.perf_counter() - t0
        cpu, peak = meter.used(), meter.peak
    rate = (len(rows) - 1) / (stamps[-1] - stamps[0]) if len(rows) > 1 else float("nan")
    return {"rows": b"".join(rows), "n": len(rows), "wall": wall, "rate": rate, "cpu": cpu, "mb": peak,
            "exit": child.returncode, "first": stamps[0] - t0 if stamps else float("nan")}


def check_part(args) -> None:
    folder = args.folder / f"photos-{args.photos}"
    t = time.perf_counter()
    make_photos(folder, args.photos)
    print(f"\nthe check: {args.photos} rendered photos in {folder} (made in {time.perf_counter() - t:.0f} s)",
          flush=True)
    runs = {}
    for label, extra in (("local", []), ("ray, 1 worker", ["--ray", "--workers", "1"]),
                         ("ray, 2 workers", ["--ray", "--workers", "2"])):
        runs[label] = r = run_check(folder, extra)
        print(f"  {label:>15}: {r['n']} rows, exit {r['exit']}, wall {r['wall']:.1f} s (first row at "
              f"{r['first']:.1f} s), {r['rate']:.2f} photos/s after the first row, CPU {r['cpu']:.0f} s, "
              f"peak {r['mb']:.0f} MB", flush=True)
    same = len({r["rows"] for r in runs.values()}) == 1
    print(f"  rows byte for byte equal across the three: {'yes' if same else 'NO'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 4, 8, 16])
    ap.add_argument("--seconds", type=float, default=60.0, help="measured seconds a run")
    ap.add_argument("--every", type=float, default=10.0, help="seconds between two changes of a player's rack")
    ap.add_argument("--frames", type=int, default=16, help="distinct racks rendered")
    ap.add_argument("--replicas", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--port", type=int, default=8123)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kill-replica", action="store_true", help="kill a replica half way at the largest N")
    ap.add_argument("--photos", type=int, default=1000)
    ap.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "okey-club-load")
    ap.add_argument("--skip-tables", action="store_true")
    ap.add_argument("--skip-check", action="store_true")
    args = ap.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    if not args.skip_tables:
        tables_part(args)
    if not args.skip_check:
        check_part(args)


if __name__ == "__main__":
    main()
