"""Install size of each extra, and how long the installed CLI takes to load the reader.

For each extra, a fresh virtual environment gets ``pip install .[EXTRA]``
(not editable: what a user gets); the script prints its size on disk, whether
torch came with it, and for the extras that can read photos the time the
installed ``okey-vision read`` takes to import and load the three models,
then to read the shipped sample photo.

    python benchmarks/install_size.py                   # '', vision, app
    python benchmarks/install_size.py --extras vision app all
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LOAD = ("import time; t = time.perf_counter(); "
        "from okey_vision.vision.reader import RackReader; r = RackReader().load(); "
        "print(round(time.perf_counter() - t, 3), r.backend)")


def du_mb(path: Path) -> float:
    """Disk use of a folder in MB (``du -sk``)."""
    out = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0]) / 1024


def measure(extra: str, work: Path) -> dict:
    """Install ``.[extra]`` into a new venv under ``work`` and measure it."""
    env = work / (extra or "core")
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    spec = f"{ROOT}[{extra}]" if extra else str(ROOT)
    t = time.perf_counter()
    subprocess.run([str(env / "bin/pip"), "install", "-q", spec], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    row = {"extra": extra or "(none)", "install_s": round(time.perf_counter() - t),
           "size_mb": round(du_mb(env))}
    py = str(env / "bin/python")
    row["torch"] = subprocess.run([py, "-c", "import torch"], capture_output=True).returncode == 0
    if extra:
        out = subprocess.run([py, "-c", LOAD], capture_output=True, text=True, cwd=work)
        if out.returncode == 0:
            row["load_s"], row["backend"] = out.stdout.split()
        sample = ROOT / "okey_vision" / "data" / "sample_rack.jpg"
        t = time.perf_counter()
        out = subprocess.run([str(env / "bin/okey-vision"), "read", str(sample)], capture_output=True,
                             text=True, cwd=work)
        row["read_cli_s"] = round(time.perf_counter() - t, 2) if out.returncode == 0 else "failed"
    return row


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--extras", nargs="+", default=["", "vision", "app"])
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for extra in args.extras:
            r = measure(extra, Path(tmp))
            line = (f"okey-vision[{extra}]" if extra else "okey-vision") + \
                f": {r['size_mb']} MB installed in {r['install_s']} s, torch {'yes' if r['torch'] else 'no'}"
            if "load_s" in r:
                line += f"; models load in {r['load_s']} s ({r['backend']})"
            if "read_cli_s" in r:
                line += f"; `okey-vision read SAMPLE` {r['read_cli_s']} s end to end"
            print(line, flush=True)


if __name__ == "__main__":
    main()
