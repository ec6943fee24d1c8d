#!/usr/bin/env bash
# The weights travel with the package. Build a wheel, install it with
# the light `vision` extra into a fresh virtual environment (no checkout on the
# path, no torch), and read the shipped sample photo from another folder.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
py="${PYTHON:-python3}"
case "$py" in */*) case "$py" in /*) ;; *) py="$PWD/$py" ;; esac ;; esac  # absolute: the script changes folder
"$py" -m pip wheel -q --no-deps -w "$work/dist" "$repo"
wheel="$(ls "$work"/dist/okey_vision-*.whl)"
"$py" -m venv "$work/env"
"$work/env/bin/pip" install -q "${wheel}[vision]"
cd "$work"  # away from the checkout: only the installed package can answer
if "$work/env/bin/python" -c "import torch" 2>/dev/null; then
  echo "check_wheel: FAIL: the vision extra installed torch"; exit 1
fi
photo="$("$work/env/bin/python" -c 'from importlib import resources; print(resources.files("okey_vision") / "data" / "sample_rack.jpg")')"
out="$("$work/env/bin/okey-vision" read "$photo" --json)"
echo "$out" | "$work/env/bin/python" -c '
import json, sys
from importlib import resources
got = json.load(sys.stdin)
truth = json.loads((resources.files("okey_vision") / "data" / "sample_rack.json").read_text())
hand = [t["tile"] for t in got["tiles"] if t["row"] != -1]
names = " ".join(hand)
print(f"check_wheel: read {len(hand)} rack tiles from the installed wheel: {names}")
assert len(hand) >= 10, "the installed reader read almost nothing"
'
# The organiser's check from the installed wheel, no app installed (the sample is one exchange
# from declaring: exit 1), its report written
set +e
"$work/env/bin/okey-vision" check "$photo" --json --html "$work/report.html" > "$work/check.json"; code=$?
set -e
echo "check_wheel: okey-vision check: exit $code: $(cut -c1-160 "$work/check.json")"
[ "$code" = 1 ] && grep -q '"can_declare": false' "$work/check.json" && grep -q 'class="card' "$work/report.html"
# The calibration's guard judges from the installed wheel exactly as from the checkout (the
# same views of the same shared real photos, found through $OKEY_VISION_REAL_PIXELS)
real="${OKEY_VISION_REAL_PIXELS:-$repo/../shared/datasets}"
if [ -d "$real" ]; then
  judge='import hashlib, json
from okey_vision.calibrate.guard import cases
name, found = cases()
print(json.dumps([name] + [[list(i.shape), hashlib.sha256(i.tobytes()).hexdigest()[:16], list(s([]))] for i, s in found]))'
  there="$(OKEY_VISION_REAL_PIXELS="$real" "$work/env/bin/python" -c "$judge")"
  here="$(cd "$repo" && OKEY_VISION_REAL_PIXELS="$real" "$py" -c "$judge")"
  echo "check_wheel: the guard's judge from the wheel: $(echo "$there" | cut -c1-100)..."
  [ "$there" = "$here" ] || { echo "check_wheel: FAIL: the wheel's guard judges otherwise than the checkout's"; exit 1; }
fi
# a missing extra is one line, not a traceback
"$py" -m venv "$work/bare"
"$work/bare/bin/pip" install -q "$wheel"
set +e
err="$("$work/bare/bin/okey-vision" read "$photo" 2>&1)"; code=$?
set -e
echo "check_wheel: without the extra: exit $code: $err"
[ "$code" = 2 ] && [ "$(echo "$err" | wc -l)" = 1 ] && echo "$err" | grep -q "okey-vision\[vision\]"
du -sh "$work/env" "$work/bare" | sed 's/^/check_wheel: install size /'
echo "check_wheel: ok"
