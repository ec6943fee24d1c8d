"""The reader service and the check on Ray: wire format, fallback, size limit,
the extras; then, on one local Ray shared by the module, the service's reads
equal to the in-process reader's, a replica killed mid-request, and the Ray
check's rows byte for byte the local check's (a worker killed mid-check too)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from okey_vision.cli import main
from okey_vision.vision import wire
from okey_vision.vision.service import RemoteReader, service_url

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "okey_vision" / "data" / "sample_rack.jpg"
#: The test service's request limit (small, so a request over it is cheap to make).
LIMIT = 16 * 2**20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sample_image():
    pytest.importorskip("cv2")
    from okey_vision.vision.io import load_photo

    return load_photo(SAMPLE).image


def every_field(reads) -> list[dict]:
    """Each read's fields, the ones equality skips included."""
    return [wire.read_to_dict(r) for r in reads]


# ------------------------------------------------------------------ without Ray ---

def test_the_wire_carries_pixels_and_every_field_of_the_reads():
    np = pytest.importorskip("numpy")
    from okey_vision.vision.reader import default_reader

    image = sample_image()
    reads = default_reader().read(image, indicator="r3")
    back = wire.reads_from_json(wire.reads_to_json(reads))
    assert back == reads and every_field(back) == every_field(reads)
    assert all(a.turn == b.turn and a.quad == b.quad and a.along == b.along and a.flagged == b.flagged
               and a.detection == b.detection for a, b in zip(back, reads, strict=True))
    assert all(r.detection is not None for r in reads)  # the flag rule's box evidence travels too
    request = wire.decode_request(wire.encode_request(wire.ReadRequest(image, reads[0].tile, False)))
    assert np.array_equal(request.image, image) and request.indicator == reads[0].tile and not request.consistent


@pytest.mark.parametrize("body, needle", [
    (b"GET / HTTP/1.1", "does not start with OKV1"),
    (wire.MAGIC + b"\x00\x00\x00\x05{bad}", "its header"),
    (wire.MAGIC + b"\x00\x00\x00\x2a" + b'{"shape": [2, 2, 3], "indicator": null}    ' + b"\x00" * 5,
     r"bytes of pixels for a shape \(2, 2, 3\)"),
    (wire.MAGIC + b"\x00\x00\x00\x1f" + b'{"shape": [1, 1, 3], "indicator": "x9"}', "its header"),
])
def test_a_malformed_request_is_one_sentence(body, needle):
    pytest.importorskip("numpy")
    with pytest.raises(wire.ServiceError, match=needle) as caught:
        wire.decode_request(body)
    assert "\n" not in str(caught.value) and str(caught.value).startswith("The request is not a photo")


def test_a_request_over_the_size_limit_is_refused_before_it_is_sent():
    np = pytest.importorskip("numpy")
    image = np.zeros((1200, 1000, 3), np.uint8)  # 3.4 MiB of pixels
    with pytest.raises(wire.RequestTooLarge) as caught:
        wire.encode_request(wire.ReadRequest(image), limit=2**20)
    said = str(caught.value)
    assert said == "The photo's request is 3.4 MB, over the reader service's limit of 1.0 MB: send a smaller photo"
    sent = []
    reader = RemoteReader("http://127.0.0.1:9", limit=2**20, say=sent.append, local=lambda: pytest.fail("read"))
    with pytest.raises(wire.RequestTooLarge):
        reader.read(image)
    assert not sent and not reader.gone  # refused here: not sent, no fallback


class CountingReader:
    """The in-process reader of a fallback: the shipped one, counting its reads."""

    def __init__(self) -> None:
        from okey_vision.vision.reader import default_reader

        self.reader, self.reads = default_reader(), 0

    def read(self, image, **kw):
        self.reads += 1
        return self.reader.read(image, **kw)


def test_a_gone_server_falls_back_in_process_with_one_line():
    image = sample_image()
    lines: list[str] = []
    local = CountingReader()
    reader = RemoteReader(f"127.0.0.1:{free_port()}", say=lines.append, local=lambda: local)
    first, second = reader.read(image), reader.read(image)
    assert first == second == local.reader.read(image) and local.reads == 2
    assert len(lines) == 1 and "cannot be reached" in lines[0] and "reading in this process" in lines[0]
    assert reader.backend.startswith("in-process")


def test_a_service_too_busy_to_answer_is_one_sentence_never_a_fallback():
    image = sample_image()
    with socket.socket() as busy:  # takes the connections, answers none
        busy.bind(("127.0.0.1", 0))
        busy.listen(8)
        lines: list[str] = []
        reader = RemoteReader(f"127.0.0.1:{busy.getsockname()[1]}", timeout=0.5, say=lines.append,
                              local=lambda: pytest.fail("read in-process"))
        with pytest.raises(wire.ServiceError, match=r"did not answer within 0\.5 s: it is busy; try again$"):
            reader.read(image)
    assert not lines and not reader.gone and reader.retries == 0


def test_the_read_command_falls_back_with_one_line_and_the_same_output():
    pytest.importorskip("cv2")
    env = dict(os.environ, PYTHONPATH=str(ROOT), OKEY_VISION_SERVER=f"http://127.0.0.1:{free_port()}")
    run = [sys.executable, "-m", "okey_vision.cli", "read", str(SAMPLE), "--json"]
    remote = subprocess.run(run, capture_output=True, text=True, env=env, timeout=300)
    env.pop("OKEY_VISION_SERVER")
    local = subprocess.run(run, capture_output=True, text=True, env=env, timeout=300)
    assert remote.returncode == local.returncode == 0
    assert remote.stdout == local.stdout
    said = [line for line in remote.stderr.splitlines() if line.strip()]
    assert len(said) == 1 and said[0].startswith("The reader service at http://127.0.0.1:") and not local.stderr


def _service_errors() -> list[wire.ServiceError]:
    """One error of each kind the reader service's client meets (the service's own refusal inside one)."""
    refusal = wire.error_to_json(wire.RequestTooLarge.sized(200 * 2**20, 128 * 2**20))
    return [wire.ServiceError.of("malformed", why="a header of 9999 bytes"),
            wire.RequestTooLarge.sized(3 * 2**20, 2**20),
            wire.ServiceError.of("busy", url="http://club:8000", seconds="60"),
            wire.ServiceError.of("failed", why="RuntimeError: out of memory"),
            wire.ServiceError.of("no_cluster", address="ray://club:10001", why="connection refused"),
            wire.error_from_json(refusal, "http://club:8000")]


@pytest.mark.parametrize("error", _service_errors(), ids=lambda e: e.key)
def test_the_services_errors_are_one_sentence_in_each_language(error):
    from okey_vision.lang import Lang, error_message

    english, turkish = error_message(error, Lang.EN), error_message(error, Lang.TR)
    name = error.key.removeprefix("service.")
    assert english == str(error) and "\n" not in turkish and not turkish.endswith(".")
    if name != "refused":
        assert turkish == wire.say(name, Lang.TR, **error.fields).rstrip(".")
    else:  # the service's own reason is said in Turkish too, not quoted in English, and inside the sentence
        assert turkish == ("http://club:8000 adresindeki okuyucu servisi fotoğrafı reddetti: fotoğrafın isteği "
                           "200.0 MB, okuyucu servisinin 128.0 MB sınırını aşıyor: daha küçük bir fotoğraf gönder")
        assert english.startswith("The reader service at http://club:8000 refused the photo: the photo's request is")
    assert not {"service", "photo", "request", "cannot"} & set(turkish.lower().split())


class _Refusing(threading.Thread):
    """A reader service that refuses every photo, as the service refuses one it cannot read (400, its sentence)."""

    def __init__(self) -> None:
        import http.server

        refusal = wire.error_to_json(wire.ServiceError.of("malformed", why="a header of 9999 bytes"))

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._answer(200, json.dumps({"limit": LIMIT}).encode())

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["content-length"]))
                self._answer(400, refusal)

            def _answer(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        super().__init__(target=self.server.serve_forever, daemon=True)


def test_the_read_command_says_the_services_refusal_in_turkish(monkeypatch, capsys):
    pytest.importorskip("cv2")
    refusing = _Refusing()
    refusing.start()
    try:
        monkeypatch.setenv("OKEY_VISION_SERVER", f"http://127.0.0.1:{refusing.server.server_address[1]}")
        code = main(["read", str(SAMPLE), "--lang", "tr"])
    finally:
        refusing.server.shutdown()
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "adresindeki okuyucu servisi fotoğrafı reddetti: istek okuyucu servisi için bir fotoğraf değil" in err
    assert "refused" not in err and "request" not in err


def _extras() -> dict[str, list[str]]:
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def _pulled(extra: str, extras: dict[str, list[str]]) -> set[str]:
    """The packages an extra pulls in, its own extras' followed."""
    out: set[str] = set()
    for req in extras[extra]:
        name = req.split(";")[0].split("[")[0].split("<")[0].split(">")[0].split("=")[0].split("~")[0].strip()
        if name == "okey-vision":
            for inner in req[req.index("[") + 1:req.index("]")].split(","):
                out |= _pulled(inner.strip(), extras)
        else:
            out.add(name.lower())
    return out


def test_the_app_extra_pulls_in_no_ray_and_all_has_the_serve_extra():
    extras = _extras()
    assert "ray" not in _pulled("app", extras) and "ray" not in _pulled("vision", extras)
    assert "ray" in _pulled("serve", extras) and "ray" in _pulled("all", extras)
    assert any(r.startswith("ray[serve]") for r in extras["serve"])
    # and the app's and the reader's code import no Ray either
    code = ("import sys, okey_vision.vision.service, okey_vision.vision.wire, okey_vision.check.photos, "
            "okey_vision.cli; assert 'ray' not in sys.modules, 'ray imported'")
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)


#: A Python that finds no Ray (an install without the serve extra), then runs pytest with its arguments.
WITHOUT_RAY = """
import sys

class NoRay:
    def find_spec(self, name, path=None, target=None):
        if name == "ray" or name.startswith("ray."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoRay())
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


def test_without_ray_the_doctests_leave_the_ray_modules_out():
    run = [sys.executable, "-c", WITHOUT_RAY, "--collect-only", "-q", "-p", "no:cacheprovider",
           "okey_vision/serve", "okey_vision/vision/wire.py"]
    done = subprocess.run(run, capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "okey_vision/vision/wire.py" in said, said  # the rest is collected
    assert "okey_vision/serve" not in said and "No module named 'ray'" not in said, said


# ------------------------------------------------------------------ on one local Ray ---

@pytest.fixture(scope="module")
def service():
    """One local Ray for the module (4 logical cores: the service's 2 replicas and the check's 2 workers),
    the reader service on it; its URL."""
    pytest.importorskip("ray")
    pytest.importorskip("cv2")
    from okey_vision.serve import cluster, deployment

    started = cluster.connect(num_cpus=4)
    url = deployment.start_service(2, port=free_port(), limit=LIMIT)
    yield url
    deployment.stop_service()
    if started:
        cluster.shutdown()


def test_the_service_reads_as_the_in_process_reader(service):
    from okey_vision.vision.reader import default_reader

    image = sample_image()
    for indicator in (None, "r3"):
        remote = RemoteReader(service).load().read(image, indicator=indicator)
        assert every_field(remote) == every_field(default_reader().read(image, indicator=indicator))
    about = json.loads(urllib.request.urlopen(service_url(service) + "/").read())
    assert about["service"] == "okey-vision reader" and about["limit"] == LIMIT


def test_a_request_over_the_services_limit_is_refused_in_one_sentence(service):
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(service)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
    conn.putrequest("POST", "/")
    conn.putheader("Content-Length", str(LIMIT + 2**20))
    conn.endheaders()  # the body is never sent: the service answers on the length it is told
    answer = conn.getresponse()
    assert answer.status == 413
    said = json.loads(answer.read())["error"]
    assert said == "The photo's request is 17.0 MB, over the reader service's limit of 16.0 MB: send a smaller photo"
    conn.close()
    np = pytest.importorskip("numpy")
    big = np.zeros((2400, 2400, 3), np.uint8)  # 16.5 MiB: over the service's limit, which the reader learns
    reader = RemoteReader(service, limit=4 * LIMIT, say=lambda line: pytest.fail(line))
    with pytest.raises(wire.RequestTooLarge, match=r"The photo's request is 16\.5 MB, over .* limit of 16\.0 MB"):
        reader.read(big)
    assert not reader.gone and reader.limit == LIMIT


def test_killing_a_replica_mid_request_loses_no_request(service):
    import ray

    from okey_vision.serve.deployment import replica_actors
    from okey_vision.vision.reader import default_reader

    image = sample_image()
    want = every_field(default_reader().read(image))
    reader = RemoteReader(service, say=lambda line: pytest.fail(line))
    answers: list = []
    first = threading.Event()

    def ask() -> None:
        reads = reader.read(image)
        answers.append(every_field(reads))
        first.set()

    before = replica_actors()
    assert len(before) == 2
    threads = [threading.Thread(target=ask) for _ in range(12)]
    for t in threads:
        t.start()
    assert first.wait(120)
    victim = ray.get_actor(before[0], namespace="serve")
    ray.kill(victim, no_restart=True)  # as a crash: the requests it held are lost to it
    for t in threads:
        t.join(180)
    assert len(answers) == 12 and all(a == want for a in answers)
    assert reader.retries >= 1 and not reader.gone  # the lost ones were sent again, to the service
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # Serve starts a new replica in its place
        now = replica_actors()
        if len(now) == 2 and before[0] not in now:
            break
        time.sleep(1)
    assert len(now) == 2 and before[0] not in now


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The rendered racks with known hands (a sidecar too), a damaged photo and an empty one."""
    pytest.importorskip("cv2")
    from okey_vision.eval import racks

    out = tmp_path_factory.mktemp("club")
    racks.write(out)
    (out / "zz-damaged.jpg").write_bytes(SAMPLE.read_bytes()[:5000])
    (out / "zz-empty.png").write_bytes(b"")
    return out


def run_check(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", *args])
    return code, out.getvalue()


@pytest.fixture(scope="module")
def local_rows(folder) -> tuple[int, str]:
    return run_check(str(folder), "--json")


def test_the_ray_check_gives_the_local_checks_rows_byte_for_byte(service, folder, local_rows):
    code, rows = run_check(str(folder), "--json", "--ray", "--workers", "2")
    assert (code, rows) == local_rows
    photos = [json.loads(line)["photo"] for line in rows.splitlines()]
    assert photos == sorted(str(p) for p in folder.glob("*.*") if p.suffix != ".txt")  # every photo, in order
    errors = [json.loads(line)["error"] for line in rows.splitlines()]
    assert sum(e is not None for e in errors) >= 2  # the damaged and the empty photo: rows, the others checked


def test_a_worker_killed_mid_check_loses_no_photo(service, folder, local_rows):
    import ray

    from okey_vision.check.photos import Job, photos_in
    from okey_vision.cli.check import row_json
    from okey_vision.serve.spread import check_on_ray

    jobs = [Job.of_path(p) for p in photos_in([folder])]
    rows, killed = [], []
    for checked in check_on_ray(jobs, 2, window=3):
        rows.append(row_json(checked.verdict))
        if not killed:  # the first row back: a worker still holds photos; kill it as a crash would
            name = next(n for n in ray.util.list_named_actors() if n.startswith("okey-check-"))
            pid = ray.get(ray.get_actor(name).process.remote())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    assert killed and "\n".join(rows) + "\n" == local_rows[1]
