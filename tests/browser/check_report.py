"""The organiser's report in a real browser (run by ``.ci/run``, not
collected by pytest).

Writes the rendered racks with known hands (``okey_vision/eval/racks.py``) and a
damaged photo into a folder, runs ``okey-vision check FOLDER --json --html
report.html``, opens the report from the file in headless Chromium (the
system browser through Playwright) with every request outside the file
refused and counted, and fails unless: it shows one card a photo, its
summary's counts are the JSON rows' counts, every photo shows, every
summary link leads to its card, nothing was fetched and no script ran.
Saves a screenshot (``docs/check_report.png`` by default). Then the app's
"Check hands" page (``streamlit run app.py``, ``?page=check``) takes the
same photos in one upload and must show the same counts, a card a photo
and the report's download button.

    .venv/bin/python tests/browser/check_report.py [--out PNG] [--port N]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from check_app import ARGS, CHROMIUM, shrink_png, wait_port  # the app's browser check, beside this file

ROOT = Path(__file__).resolve().parents[2]
PORT = 8598


def set_port(port: int) -> None:
    """The app's port (another check may hold the default)."""
    global PORT
    PORT = port


def make_report(folder: Path, report: Path) -> tuple[list[dict], int]:
    """The racks and a damaged photo checked by the command line: (JSON rows, exit code)."""
    from okey_vision.eval import racks

    racks.write(folder)
    (folder / "zz-damaged.jpg").write_bytes((folder / "win15.jpg").read_bytes()[:500])
    env = dict(os.environ, YOLO_OFFLINE="1", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "okey_vision.cli", "check", str(folder), "--json",
                           "--html", str(report)], env=env, capture_output=True, text=True, check=False)
    print(done.stderr.strip())
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()], done.returncode


def expected(rows: list[dict]) -> dict[str, int]:
    """The counts the summary must show, from the JSON rows."""
    errors = sum(r["error"] is not None for r in rows)
    yes = sum(r["can_declare"] for r in rows)
    return {"yes": yes, "no": len(rows) - yes - errors, "error": errors}


def look(report: Path, shot: Path, want: dict[str, int], photos: int) -> list[str]:
    """Open the report in Chromium; what is wrong with it (nothing: [])."""
    from playwright.sync_api import sync_playwright

    failures, fetched = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 1400})

        def guard(route):
            url = route.request.url
            if url.startswith(("file:", "data:")):
                route.continue_()
            else:
                fetched.append(url)
                route.abort()

        page.route("**/*", guard)
        page.goto(report.as_uri(), wait_until="load")
        page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=30_000)
        cards = page.locator("section.card").count()
        shown = {k: int(page.locator(f"#count-{k}").get_attribute("data-count") or -1) for k in want}
        broken = page.evaluate("Array.from(document.images).filter(i => !i.naturalWidth).length")
        images = page.evaluate("document.images.length")
        dangling = page.evaluate("Array.from(document.querySelectorAll('a[href^=\"#\"]'))"
                                 ".filter(a => !document.getElementById(a.getAttribute('href').slice(1))).length")
        scripts = page.locator("script").count()
        print(f"report: {cards} cards for {photos} photos; summary {shown}, JSON {want}; {images} photos shown, "
              f"{broken} broken; {dangling} dangling links; {len(fetched)} requests outside the file")
        if cards != photos:
            failures.append(f"{cards} cards for {photos} photos")
        if shown != want:
            failures.append(f"summary counts {shown} differ from the JSON's {want}")
        if broken or images != photos - want["error"]:
            failures.append(f"{images} photos shown ({broken} broken) for {photos - want['error']} read")
        if dangling:
            failures.append(f"{dangling} summary links lead nowhere")
        if fetched or scripts:
            failures.append(f"fetched {fetched[:3]} / {scripts} scripts: the report must stand alone")
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.set_viewport_size({"width": 900, "height": 1100})
        page.screenshot(path=str(shot.with_suffix(".full.png")))
        shrink_png(shot.with_suffix(".full.png"), shot, 250_000)
        shot.with_suffix(".full.png").unlink()
        print(f"screenshot: {shot}")
        browser.close()
    return failures


def app_page(photos: list[Path], want: dict[str, int], shot: Path, timeout: float) -> list[str]:
    """The app's check page given the same photos: its counts and cards."""
    from playwright.sync_api import sync_playwright

    from okey_vision.check import text as words

    env = dict(os.environ, YOLO_OFFLINE="1", STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    log = tempfile.TemporaryFile()  # noqa: SIM115 - the server writes to it until the finally below closes it
    server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless",
                               "true", "--server.port", str(PORT), "--browser.gatherUsageStats", "false"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    failures: list[str] = []
    summary = words.summary(len(photos), want["yes"], want["no"], want["error"])
    try:
        if not wait_port(PORT, 60):
            return ["the app did not start"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 1400})
            page.goto(f"http://127.0.0.1:{PORT}/?page=check&lang=en", wait_until="domcontentloaded")
            t0 = time.time()
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files([str(p) for p in photos])
            end = time.time() + timeout
            cards = download = 0
            while time.time() < end:  # until the page says the summary and has drawn every card
                cards = page.locator('[class*="st-key-check_card_"]').count()
                download = page.get_by_text(words.say("label.download")).count()
                idle = not page.locator('[data-testid="stStatusWidget"]').count()
                if idle and summary in page.inner_text("body") and cards == len(photos) and download:
                    break
                time.sleep(0.5)
            print(f"app page: {cards} cards for {len(photos)} photos after {time.time() - t0:.1f} s; "
                  f"summary shown: {summary in page.inner_text('body')}; download button: {download}")
            if summary not in page.inner_text("body"):
                failures.append(f"the app's check page never said {summary!r}")
            if cards != len(photos) or not download:
                failures.append(f"the app's check page shows {cards} cards and {download} download buttons")
            page.set_viewport_size({"width": 900, "height": 1100})
            page.screenshot(path=str(shot.with_suffix(".full.png")))
            shrink_png(shot.with_suffix(".full.png"), shot.with_name(shot.stem + "_app.png"), 250_000)
            shot.with_suffix(".full.png").unlink()
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.seek(0)
        print("--- app log (tail) ---\n" + "\n".join(log.read().decode(errors="replace").splitlines()[-8:]))
        log.close()
    return failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "check_report.png")
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--port", type=int, default=PORT, help="the app's port (default 8598)")
    args = ap.parse_args(argv)
    set_port(args.port)
    tmp = Path(tempfile.mkdtemp(prefix="okey-check-"))
    report = tmp / "report.html"
    rows, code = make_report(tmp / "hands", report)
    failures = []
    if code != 1 or not rows:  # two racks cannot be declared and one photo is damaged: 1
        failures.append(f"okey-vision check exited {code} with {len(rows)} rows")
    if report.exists():
        failures += look(report, args.out, expected(rows), len(rows))
    else:
        failures.append("no report written")
    photos = sorted(p for p in (tmp / "hands").iterdir() if p.suffix == ".jpg")
    # the page has no sidecars: the rack whose indicator lies in no photo is an error row there
    page_rows = [r for r in rows if not Path(r["photo"]).with_suffix(".txt").exists()]
    want = expected(page_rows)
    want["error"] += len(rows) - len(page_rows)
    failures += app_page(photos, want, args.out, args.timeout)
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
