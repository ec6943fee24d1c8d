"""The real browser test of the app (run by ``.ci/run``; not collected by pytest).

Starts ``streamlit run app.py --server.headless true --server.port 8599``,
opens it in headless Chromium (the system browser, ``/usr/bin/chromium``,
through Playwright), waits for the default sample's advice, uploads a photo
of a rack (rendered by the synthetic renderer, or ``--photo``), waits for
the advice of that photo, saves a screenshot (``docs/app_screenshot.png``
by default) and exits non-zero if the advice is missing or the page shows a
traceback.

    .venv/bin/python tests/browser/check_app.py [--photo PATH] [--out PNG]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PORT = 8599
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-default-apps", "--disable-extensions"]
#: Text that only the advice panel shows once a hand is advised.
ADVICE_MARKERS = ("Discard ", "Declare", "Draw:")


def wait_port(port: int, timeout: float) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.3)
    return False


def render_photo(path: Path) -> tuple[Path, list[str], str]:
    """A rack photo (a clean sample-style render of a finished hand, seed 26)
    and its true hand."""
    from okey_vision.ui.sample import render_test_rack

    data, scene = render_test_rack(26)
    path.write_bytes(data)
    return path, [t.name for t in scene.hand], scene.indicator.name if scene.indicator else ""


def advice_text(page) -> str:
    """The visible alert texts (success/info boxes) of the page."""
    return "\n".join(page.locator('[data-testid="stAlert"]').all_inner_texts())


def wait_advice(page, timeout: float, must_see: str = "") -> str:
    """The advice text once the app is idle, shows an advice line and (if
    given) ``must_see`` somewhere on the page; '' on timeout."""
    end = time.time() + timeout
    while time.time() < end:
        text = advice_text(page)
        idle = not page.locator('[data-testid="stStatusWidget"]').count()
        if idle and any(m in text for m in ADVICE_MARKERS) and (
                not must_see or must_see in page.inner_text("body")):
            return text
        time.sleep(0.5)
    return ""


def have_models() -> bool:
    folder = Path(os.environ.get("OKEY_VISION_MODELS", ROOT / "models"))
    return all(any((folder / f"{m}{e}").exists() for e in (".pt", ".onnx"))
               for m in ("detector", "number", "color"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--photo", type=Path, help="photo to upload (default: a rendered rack)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "app_screenshot.png")
    ap.add_argument("--timeout", type=float, default=180.0)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="okey-browser-"))
    if args.photo:
        photo, truth, ind = args.photo, [], ""
    else:
        photo, truth, ind = render_photo(tmp / "rack.jpg")
    env = dict(os.environ, YOLO_OFFLINE="1", STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    log_path = tmp / "streamlit.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
         "--server.port", str(PORT), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=open(log_path, "w"), stderr=subprocess.STDOUT, start_new_session=True)
    failures: list[str] = []
    try:
        if not wait_port(PORT, 60):
            print(log_path.read_text(), file=sys.stderr)
            print("FAIL: streamlit did not start", file=sys.stderr)
            return 1
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            t0 = time.time()
            page.goto(f"http://127.0.0.1:{PORT}/", wait_until="domcontentloaded")
            first = wait_advice(page, args.timeout)
            print(f"sample advice after {time.time() - t0:.1f} s: {first!r}")
            if not first:
                failures.append("no advice for the default sample photo")
            t1 = time.time()
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(photo))
            time.sleep(1.0)  # let the rerun start
            reader = have_models() or bool(os.environ.get("OKEY_VISION_APP_READER"))
            # the photo's section names it; with a reader it also counts the tiles read
            must = f"{photo.name} (" if reader else photo.name
            text = wait_advice(page, args.timeout, must_see=must)
            print(f"uploaded photo advice after {time.time() - t1:.1f} s: {text!r}")
            if not text:
                failures.append("no advice after uploading the photo")
            if not reader:
                print("NOTE: no reader weights in models/: the upload is shown but not read")
            if truth:
                from okey_vision.ui.advice import analyse

                want = analyse(truth, ind).headline()
                print("true hand:", " ".join(truth), "indicator", ind, "->", want,
                      "| advice matches the truth:", want in text)
            for lang in ("en", "tr"):
                failures += phone_check(browser, lang, args.timeout, args.out.parent)
            body = page.inner_text("body")
            if "Traceback" in body or page.locator('[data-testid="stException"]').count():
                failures.append("the page shows a traceback")
            # the photo is fetched after the page updates: wait for every image to load
            page.wait_for_load_state("networkidle")
            page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)",
                                   timeout=30_000)
            time.sleep(1.0)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(tmp / "full.png"), full_page=False)
            shrink_png(tmp / "full.png", args.out)
            print(f"screenshot: {args.out} ({args.out.stat().st_size} bytes)")
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        print("--- app log (tail) ---")
        print("\n".join(log_path.read_text(errors="replace").splitlines()[-15:]))
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


#: A phone's screen (CSS pixels): the action line must be on the first screen.
PHONE = {"width": 390, "height": 844}


def phone_check(browser, lang: str, timeout: float, folder: Path) -> list[str]:
    """Open the app at phone size in ``lang`` on the sample photo: the move
    (the action box) must sit inside the first 844 px; saves
    ``app_phone_<lang>.png`` beside the main screenshot."""
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.goto(f"http://127.0.0.1:{PORT}/?lang={lang}", wait_until="domcontentloaded")
    end = time.time() + timeout
    box = None
    while time.time() < end:
        action = page.locator(".st-key-action [data-testid='stAlert']")
        idle = not page.locator('[data-testid="stStatusWidget"]').count()
        if idle and action.count():
            box = action.first.bounding_box()
            if box:
                break
        time.sleep(0.5)
    failures = []
    if box is None:
        failures.append(f"phone ({lang}): no action line")
    else:
        text = page.locator(".st-key-action").first.inner_text().splitlines()[0]
        print(f"phone ({lang}): action line {text!r} at y {box['y']:.0f}-{box['y'] + box['height']:.0f} px")
        if box["y"] + box["height"] > PHONE["height"]:
            failures.append(f"phone ({lang}): the action line ends at {box['y'] + box['height']:.0f} px, "
                            f"below the first {PHONE['height']} px")
    time.sleep(1.0)
    shot = folder / f"app_phone_{lang}.png"
    page.screenshot(path=str(shot), full_page=False)
    shrink_png(shot, shot, 250_000)
    page.close()
    return failures


def shrink_png(src: Path, dst: Path, max_bytes: int = 400_000) -> None:
    """Copy a PNG screenshot, scaled down until it is under ``max_bytes``."""
    import cv2

    img = cv2.imread(str(src))
    scale = 1.0
    while True:
        out = img if scale == 1.0 else cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".png", out, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if len(buf) <= max_bytes or scale < 0.3:
            dst.write_bytes(buf.tobytes())
            return
        scale *= 0.85


if __name__ == "__main__":
    sys.exit(main())
