"""The real browser test of the app (run by ``.ci/run``; not collected by pytest).

Starts ``streamlit run app.py --server.headless true --server.port 8599``,
opens it in headless Chromium (the system browser, ``/usr/bin/chromium``,
through Playwright), waits for the default sample's advice, uploads a photo
of a rack (rendered by the synthetic renderer, or ``--photo``), waits for
the advice of that photo, saves a screenshot (``docs/app_screenshot.png``
by default) and exits non-zero if the advice is missing or the page shows a
traceback. The Turkish pages (photo, 101, check, 101's check, live, scores) must show no
English word of the interface and no tile in the Latin notation, counting
what a player sees: the visible text, the texts CSS puts on Streamlit's own
widgets, and placeholders (``tests/browser/turkish.py`` holds the words).
Run with the default ``--out``, it makes the README's screenshots afresh
(``docs/app_*.png``).

    .venv/bin/python tests/browser/check_app.py [--photo PATH] [--out PNG] [--port N] [--turkish-only]
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
    from okey_vision.synth.sample import render_test_rack

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
        idle = not page.locator('[data-testid="stStatusWidget"]').count()
        if idle and (not must_see or must_see in page.inner_text("body")):
            text = advice_text(page)  # read once the page is idle and shows the photo (not a text from before)
            if any(m in text for m in ADVICE_MARKERS) and not page.locator('[data-testid="stStatusWidget"]').count():
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
    ap.add_argument("--port", type=int, default=PORT, help="the app's port (default 8599)")
    ap.add_argument("--turkish-only", action="store_true",
                    help="only the Turkish pages' words (photo, 101, check, 101's check, live, scores) and the "
                         "Turkish 101 page on a phone")
    args = ap.parse_args(argv)
    set_port(args.port)
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="okey-browser-"))
    if args.photo:
        photo, truth, ind = args.photo, [], ""
    else:
        photo, truth, ind = render_photo(tmp / "rack.jpg")
    env = dict(os.environ, YOLO_OFFLINE="1", STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    log_path = tmp / "streamlit.log"
    log = open(log_path, "w")  # noqa: SIM115 - the server writes to it until the finally below closes it
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
         "--server.port", str(PORT), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    failures: list[str] = []
    try:
        if not wait_port(PORT, 60):
            print(log_path.read_text(), file=sys.stderr)
            print("FAIL: streamlit did not start", file=sys.stderr)
            return 1
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            if args.turkish_only:
                failures += turkish_pages(browser, args.timeout, photo)
                failures += phone_check(browser, "tr", args.timeout, args.out.parent, game="101")
                browser.close()
                return report(failures)
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
                from okey_vision.report.analysis import analyse

                want = analyse(truth, ind).headline()
                print("true hand:", " ".join(truth), "indicator", ind, "->", want,
                      "| advice matches the truth:", want in text)
            for lang in ("en", "tr"):
                failures += phone_check(browser, lang, args.timeout, args.out.parent)
            failures += phone_check(browser, "tr", args.timeout, args.out.parent, game="101")
            failures += tap_check(browser, args.timeout, args.out.parent)
            failures += turkish_pages(browser, args.timeout, photo)
            browser.close()
            failures += live_check(p, tmp, args.timeout, args.out.parent)
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(f"http://127.0.0.1:{PORT}/", wait_until="domcontentloaded")
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(photo))
            wait_advice(page, args.timeout, must_see=f"{photo.name} (" if reader else photo.name)
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
        log.close()
        print("--- app log (tail) ---")
        lines = log_path.read_text(errors="replace").splitlines()
        # the live view's lines (connection, first frame, hand) tell why a live check failed
        live = [ln for ln in lines[:-15] if "live:" in ln or "WARNING" in ln or "ERROR" in ln]
        print("\n".join(live[-25:] + lines[-15:]))
    return report(failures)


def report(failures: list[str]) -> int:
    """Print each failure; the exit status."""
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


def set_port(port: int) -> None:
    """The app's port for every page this check opens (another check may hold the default)."""
    global PORT
    PORT = port


#: What a player sees on the page: the visible text (not the texts Streamlit's
#: widgets hide under the CSS that shows the page's words, nor icons' names),
#: the texts CSS draws (::before, ::after) and the placeholders.
VISIBLE_TEXT = """() => {
  const out = [];
  const seen = (e) => {
    const cs = getComputedStyle(e);
    return cs.fontSize !== '0px' && cs.visibility !== 'hidden' && cs.display !== 'none'
      && !e.closest('[aria-hidden=true], script, style, noscript')
      && e.getBoundingClientRect().width > 2 && e.getBoundingClientRect().height > 2;  // not for screen readers alone
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode, e = n.parentElement;
    if (e && n.textContent.trim() && seen(e)) out.push(n.textContent);
  }
  for (const e of document.body.querySelectorAll('*')) {
    for (const pseudo of ['::before', '::after']) {
      const c = getComputedStyle(e, pseudo).content;
      if (c && c.startsWith('"')) out.push(JSON.parse(c));
    }
    if (e.getAttribute('placeholder') && seen(e)) out.push(e.getAttribute('placeholder'));
  }
  return out.join('\\n');
}"""


def visible_text(page) -> str:
    """What a player sees on ``page`` (:data:`VISIBLE_TEXT`)."""
    return page.evaluate(VISIBLE_TEXT)


def wait_idle(page, timeout: float, must_see: str = "", settle: float = 1.5) -> bool:
    """Wait until the app is idle (no running widget) and shows ``must_see``; then a moment more."""
    end = time.time() + timeout
    while time.time() < end:
        idle = not page.locator('[data-testid="stStatusWidget"]').count()
        if idle and (not must_see or must_see in page.inner_text("body")):
            time.sleep(settle)
            if not page.locator('[data-testid="stStatusWidget"]').count():
                return True
        time.sleep(0.5)
    return False


def turkish_words(text: str, where: str) -> list[str]:
    """What a Turkish page says in English or in the Latin notation (failures; nothing: [])."""
    from turkish import english_words, latin_tiles

    english, latin = sorted(set(english_words(text))), sorted(set(latin_tiles(text)))
    print(f"turkish ({where}): {len(text.split())} words seen; English words: {english or 'none'}; "
          f"tiles in the Latin notation: {latin or 'none'}")
    out = []
    if english:
        out.append(f"turkish ({where}): English words of the interface: {english}")
    if latin:
        out.append(f"turkish ({where}): tiles written in the Latin notation: {latin}")
    return out


def turkish_pages(browser, timeout: float, photo: Path) -> list[str]:
    """The Turkish pages in Chromium: the photo page (the sample advised, a photo
    uploaded), the check page (two photos checked), the live page (its camera widget too) and
    the scores (the table started): no English word of the interface, no Latin tile."""
    failures: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        page.goto(f"http://127.0.0.1:{PORT}/?lang=tr", wait_until="domcontentloaded")
        wait_advice(page, timeout)
        wait_idle(page, timeout)
        failures += turkish_words(visible_text(page), "photo page, the sample")
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(photo))
        time.sleep(1.0)
        wait_idle(page, timeout, must_see=photo.name)
        failures += turkish_words(visible_text(page), "photo page, a photo uploaded")
        page.get_by_text("Puanlar", exact=True).first.click()  # the scores: open, start the table
        page.get_by_role("button", name="Puan tablosunu başlat").click()
        wait_idle(page, timeout, must_see="Eli kaydet")
        failures += turkish_words(visible_text(page), "scores")
        failures += turkish_101(page, timeout, photo.with_name("yuzbir.jpg"))
        page.goto(f"http://127.0.0.1:{PORT}/?lang=tr&page=check", wait_until="domcontentloaded")
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.wait_for(state="attached",
                                                                                  timeout=timeout * 1000)
        copy = photo.with_name("ikinci.jpg")
        copy.write_bytes(photo.read_bytes() + b"\0")
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files([str(photo), str(copy)])
        time.sleep(1.0)
        if not wait_idle(page, timeout, must_see="2 fotoğraf:"):
            failures.append("turkish (check page): the two photos were not checked")
        failures += turkish_words(visible_text(page), "check page, two photos")
        rack101 = photo.with_name("yuzbir.jpg")  # written by turkish_101: a 22-tile rack
        page.goto(f"http://127.0.0.1:{PORT}/?lang=tr&page=check&game=101", wait_until="domcontentloaded")
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.wait_for(state="attached",
                                                                                  timeout=timeout * 1000)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(rack101))
        time.sleep(1.0)
        if not wait_idle(page, timeout, must_see="1 el açar"):
            failures.append("turkish (101 check page): the 22-tile rack was not judged by its opening")
        failures += turkish_words(visible_text(page), "101 check page, a 22-tile rack")
        page.goto(f"http://127.0.0.1:{PORT}/?lang=tr&live=1", wait_until="domcontentloaded")
        frame = page.frame_locator("iframe[title*='webrtc']")
        frame.get_by_role("button", name="BAŞLAT").wait_for(timeout=timeout * 1000)
        wait_idle(page, timeout)
        failures += turkish_words(visible_text(page) + "\n" + frame.locator("body").inner_text(), "live page")
    except Exception as exc:  # noqa: BLE001 - report, do not crash the whole check
        failures.append(f"turkish pages: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        page.close()
    return failures


def turkish_101(page, timeout: float, path: Path) -> list[str]:
    """The Turkish 101 page (?game=101): a 22-tile rack photo uploaded gives
    the opening first; the table's melds typed; the penalty scores started.
    No English word of the interface, no Latin tile (failures; nothing: [])."""
    from okey_vision.synth.sample import render_101_rack

    data, _scene = render_101_rack()
    path.write_bytes(data)
    failures: list[str] = []
    page.goto(f"http://127.0.0.1:{PORT}/?lang=tr&game=101", wait_until="domcontentloaded")
    if not wait_idle(page, timeout, must_see="167 puanla el aç"):  # its own sample, 22 tiles
        failures.append("turkish (101 page): the 101 sample's opening (167 points) was not said")
    failures += turkish_words(visible_text(page), "101 page, its sample")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    time.sleep(1.0)
    wait_idle(page, timeout, must_see=path.name)
    first = advice_text(page).splitlines()[0] if advice_text(page) else ""
    if "167 puanla el aç" not in first:
        failures.append(f"turkish (101 page): the uploaded 22-tile rack's opening (167 points) was not said: {first!r}")
    print(f"101 page, a 22-tile rack: {first!r}")
    failures += turkish_words(visible_text(page), "101 page, a 22-tile rack uploaded")
    box = page.get_by_role("textbox", name="Yere açılmış perler")
    box.fill("kırmızı 7 kırmızı 8 kırmızı 9, siyah 5 mavi 5 sarı 5")
    box.press("Enter")
    if not wait_idle(page, timeout, must_see="Yerdeki perler (2)"):
        failures.append("turkish (101 page): the typed melds were not laid on the table")
    page.get_by_text("Puanlar", exact=True).first.click()
    page.get_by_role("button", name="Puan tablosunu başlat").click()
    wait_idle(page, timeout, must_see="Elin göstergesi")
    page.get_by_text("101'in terimleri", exact=True).first.click()
    wait_idle(page, timeout, must_see="işlek taş")
    failures += turkish_words(visible_text(page), "101 page, melds on the table, scores, the words of 101")
    return failures


def sample_view():
    """The sample photo's reads as the app shows them (the shipped reader's,
    or the recorded truth without weights: rack order, the tiles apart last),
    and the zoomed view the app draws them on (:func:`okey_vision.report.zoom.rack_view`)."""
    from okey_vision.eval.racks import reads_from_truth
    from okey_vision.report.photo import decode_photo
    from okey_vision.report.zoom import rack_view
    from okey_vision.synth.sample import sample_bytes, sample_truth
    from okey_vision.vision.reads import rack_order

    img = decode_photo(sample_bytes(), "sample photo")
    if have_models():
        from okey_vision.vision.reader import RackReader

        reads = rack_order(RackReader().read(img))
    else:
        reads = rack_order(reads_from_truth(sample_truth()))
    h, w = img.shape[:2]
    return reads, rack_view([r.box for r in reads], [r.row for r in reads], (w, h))


def tap_check(browser, timeout: float, folder: Path) -> list[str]:
    """On a phone-size page with the sample photo: open the photo (zoomed to
    the rack: every tile at least 40 px wide), tap the last rack tile (k6,
    really r12 in this test), pick r12 in the picker the tap opens, and the
    advice must change to declaring."""
    from okey_vision.vision.reads import APART

    reads, view = sample_view()
    rack = [i for i, r in enumerate(reads) if r.row != APART]
    target = rack[-1]
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    failures = []
    try:
        page.goto(f"http://127.0.0.1:{PORT}/?lang=en", wait_until="domcontentloaded")
        before = wait_advice(page, timeout)
        section = page.locator("details", has_text="Photo: the sample photo").first
        section.wait_for(timeout=timeout * 1000)
        if section.get_attribute("open") is None:  # the photo is folded: open it
            section.locator("summary").click()
        img = page.frame_locator("iframe[title*='image_coordinates']").locator("img")
        img.wait_for(timeout=timeout * 1000)
        import re

        picker = page.get_by_label(re.compile(r"Tile #\d+ you tapped: "))
        x1, y1, x2, y2 = view.box(target, reads[target].box)
        box = img.bounding_box()
        shown = box["width"] / view.width
        narrowest = min(view.tile_width(i, r.box) for i, r in enumerate(reads)) * shown
        print(f"tap: the photo zoomed to the rack, {box['width']:.0f} px wide on the phone: the narrowest "
              f"tile {narrowest:.0f} px")
        if narrowest < 40:
            failures.append(f"tap: a tile is {narrowest:.0f} px wide on the phone (at least 40 wanted)")
        for _attempt in range(6):  # the component binds its click handler after the image loads
            box = img.bounding_box()
            img.click(position={"x": (x1 + x2) / 2 * box["width"] / view.width,
                                "y": (y1 + y2) / 2 * box["height"] / view.height})
            try:
                picker.wait_for(timeout=10_000)
                break
            except Exception:  # noqa: BLE001 - not registered yet: tap again
                continue
        picker.wait_for(timeout=timeout * 1000)
        picker.click()
        page.keyboard.type("r12")
        page.keyboard.press("Enter")
        end = time.time() + timeout
        after = before
        while time.time() < end and after == before:
            time.sleep(0.5)
            after = advice_text(page)
        print(f"tap correction: {reads[target].tile.name} -> r12: advice {before.splitlines()[0]!r} -> "
              f"{after.splitlines()[0] if after else ''!r}")
        if not after.startswith("Declare"):
            failures.append(f"tap correction: the advice did not change to declaring ({after!r})")
        time.sleep(1.0)
        page.screenshot(path=str(folder / "app_tap.png"), full_page=False)
        shrink_png(folder / "app_tap.png", folder / "app_tap.png", 250_000)
    except Exception as exc:  # noqa: BLE001 - report, do not crash the whole check
        failures.append(f"tap correction: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        page.close()
    return failures


def write_y4m(path: Path, seed: int = 26, frames: int = 20, size: tuple[int, int] = (960, 720)):
    """A Y4M video of a rendered rack (Chromium's fake camera plays it in a
    loop); returns the rack's hand in the order a player reads it, the frame
    (BGR), the rack tiles' boxes in it (the same order) and the indicator."""
    import cv2

    from okey_vision.synth import SynthConfig, render_scene

    scene = render_scene(seed, SynthConfig(long_side=(size[0], size[0]), aspects=(size[0] / size[1],),
                                           p_flat=0.0, p_typical_hand=1.0, effects=False, p_hand=0.0,
                                           p_objects=0.0, p_other_rack=0.0, p_discards=0.0, p_indicator=1.0,
                                           max_tilt=8.0, max_roll=2.0, tile_height=(70.0, 90.0)))
    img = cv2.resize(scene.image, size, interpolation=cv2.INTER_AREA)
    yuv = cv2.cvtColor(img, cv2.COLOR_BGR2YUV_I420).tobytes()
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{size[0]} H{size[1]} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            f.write(b"FRAME\n" + yuv)
    rack = sorted((t for t in scene.tiles if t.on_rack), key=lambda t: (t.row, (t.box[0] + t.box[2]) / 2))
    sx, sy = size[0] / scene.image.shape[1], size[1] / scene.image.shape[0]
    boxes = [(t.box[0] * sx, t.box[1] * sy, t.box[2] * sx, t.box[3] * sy) for t in rack]
    return [t.tile.name for t in rack], img, boxes, scene.indicator.name


def ring_on_video(shot: bytes, frame, box) -> tuple[int, int]:
    """How many pixels of the video's screenshot are the ring's red where the
    rendered frame has none: near the tile to throw (``box``, frame px), and
    elsewhere."""
    import cv2
    import numpy as np

    img = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_COLOR)
    h, w = img.shape[:2]
    fh, fw = frame.shape[:2]
    s = min(w / fw, h / fh)  # the video is shown whole (object-fit: contain)
    ox, oy = (w - fw * s) / 2, (h - fh * s) / 2
    expected = np.zeros_like(img)
    ew, eh = round(fw * s), round(fh * s)
    expected[round(oy):round(oy) + eh, round(ox):round(ox) + ew] = cv2.resize(frame, (ew, eh))[:h, :w]

    def red(im):
        b, g, r = (im[:, :, k].astype(int) for k in range(3))
        return (r > 160) & (g < 110) & (b < 110) & (r - g > 80)

    ring = red(img) & ~cv2.dilate(red(expected).astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    near = np.zeros_like(ring)
    top, bottom = max(0, int(oy + (y1 - bh) * s)), int(oy + (y2 + bh) * s)
    left, right = max(0, int(ox + (x1 - bw) * s)), int(ox + (x2 + bw) * s)
    near[top:bottom, left:right] = True
    return int((ring & near).sum()), int((ring & ~near).sum())


def live_check(p, tmp: Path, timeout: float, folder: Path) -> list[str]:
    """?live=1 with Chromium's fake camera playing a rendered rack: the live
    view must show that rack's hand in the project's notation within 35 s
    of pressing START (three tries)."""
    from okey_vision.report.analysis import Analysis, analyse, move_on_rack

    video = tmp / "rack.y4m"
    names, picture, boxes, indicator = write_y4m(video)
    hand = " ".join(names)
    advice = analyse(names, indicator)
    move = move_on_rack(advice, names) if isinstance(advice, Analysis) else None
    browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS + [
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={video}",
        # loopback ICE without mDNS names, which the server side cannot resolve
        "--disable-features=WebRtcHideLocalIpsWithMdns"])
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    failures = []
    try:
        page.goto(f"http://127.0.0.1:{PORT}/?live=1&lang=en", wait_until="domcontentloaded")
        frame = page.frame_locator("iframe[title*='webrtc']")
        t0 = time.time()
        seen = ""
        # A player whose camera does not connect presses STOP (if it shows)
        # and START again; so does this check (a WebRTC connection on a loaded machine can fail
        # to start), three times at most, saying so.
        for attempt in range(1, 4):
            frame.get_by_role("button", name="START").click(timeout=timeout * 1000)
            t1 = time.time()
            while time.time() - t1 < 35:
                body = page.inner_text("body")
                if hand in body:
                    seen = hand
                    break
                time.sleep(0.5)
            if seen:
                break
            widget = " | ".join(ln for ln in frame.locator("body").inner_text().splitlines() if ln.strip())
            print(f"live: attempt {attempt}: no hand after 35 s (camera widget: {widget!r})")
            # a connection that failed has already fallen back to START: no STOP to press
            stop = frame.get_by_role("button", name="STOP")
            if stop.count():
                stop.click(timeout=10_000)
            time.sleep(2.0)
        print(f"live: rack {hand!r} "
              f"{f'shown after {time.time() - t0:.1f} s (attempt {attempt})' if seen else 'NOT shown'}")
        time.sleep(1.5)
        if seen and move is not None and move.discard is not None:  # the tile to throw ringed on the video
            near, away = ring_on_video(frame.locator("video").first.screenshot(), picture, boxes[move.discard])
            print(f"live: the ring on the video around {names[move.discard]}: {near} red pixels near it, "
                  f"{away} elsewhere")
            if near < 40 or away > near:
                failures.append(f"live: the tile to throw ({names[move.discard]}) is not ringed on the video "
                                f"({near} ring pixels near it, {away} elsewhere)")
        page.screenshot(path=str(folder / "app_live.png"), full_page=False)
        shrink_png(folder / "app_live.png", folder / "app_live.png", 250_000)
        if not seen:
            last = [ln for ln in page.inner_text("body").splitlines() if ln.strip()][-8:]
            failures.append(f"live: the rack's hand was not shown in 3 tries of 35 s (page ends: {last})")
    except Exception as exc:  # noqa: BLE001 - report, do not crash the whole check
        failures.append(f"live: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        browser.close()
    return failures


#: A phone's screen (CSS pixels): the action line must be on the first screen.
PHONE = {"width": 390, "height": 844}


def phone_check(browser, lang: str, timeout: float, folder: Path, game: str = "okey") -> list[str]:
    """Open the app at phone size in ``lang`` on the sample photo (of
    ``game``: the 101 page opens on a 22-tile rack): the move (the action
    box: for 101 the opening, or how far it is) must sit inside the first
    844 px; saves ``app_phone_<lang>.png`` (``app_phone_101_<lang>.png``)
    beside the main screenshot."""
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.goto(f"http://127.0.0.1:{PORT}/?lang={lang}&game={game}", wait_until="domcontentloaded")
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
        failures.append(f"phone ({game}, {lang}): no action line")
    else:
        text = page.locator(".st-key-action").first.inner_text().splitlines()[0]
        print(f"phone ({game}, {lang}): action line {text!r} at y {box['y']:.0f}-{box['y'] + box['height']:.0f} px")
        if box["y"] + box["height"] > PHONE["height"]:
            failures.append(f"phone ({game}, {lang}): the action line ends at {box['y'] + box['height']:.0f} px, "
                            f"below the first {PHONE['height']} px")
    if lang == "tr":  # No tile in the Latin notation; the uploader in Turkish
        from turkish import latin_tiles

        latin = sorted(set(latin_tiles(visible_text(page))))
        upload: list[str] = []
        until = time.time() + 15.0  # the uploader can still be drawing after a rerun: wait for its texts
        while time.time() < until:
            upload = page.evaluate("""() => [...document.querySelectorAll(
                '[data-testid=stFileUploaderDropzone] button p, [data-testid=stFileUploaderDropzoneInstructions] span')]
                .map(e => getComputedStyle(e, '::after').content + '|' + getComputedStyle(e).fontSize)""")
            if any("Fotoğraf seç" in u for u in upload) and any("Dosya başına" in u for u in upload):
                break
            time.sleep(0.5)
        print(f"phone (tr): tiles in Latin notation on the page: {latin or 'none'}; the uploader says {upload}")
        if latin:
            failures.append(f"phone (tr): tiles written in the Latin notation: {latin}")
        if not any("Fotoğraf seç" in u for u in upload) or not any("Dosya başına" in u for u in upload):
            failures.append(f"phone (tr): the uploader's texts are not Turkish ({upload})")
    time.sleep(1.0)
    shot = folder / (f"app_phone_{lang}.png" if game == "okey" else f"app_phone_{game}_{lang}.png")
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
        _, buf = cv2.imencode(".png", out, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if len(buf) <= max_bytes or scale < 0.3:
            dst.write_bytes(buf.tobytes())
            return
        scale *= 0.85


if __name__ == "__main__":
    sys.exit(main())
