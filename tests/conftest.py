"""Shared test setup: the helpers in this folder import as plain modules."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
# Tests never reach the network: ultralytics must not try to.
os.environ.setdefault("YOLO_OFFLINE", "1")
# Issue 28: the player's corrections and calibration live in their data
# folder; the tests keep theirs in a folder of their own, so a calibration on
# this machine never changes what the tests read (and nothing is left behind).
import tempfile

os.environ["OKEY_VISION_DATA"] = tempfile.mkdtemp(prefix="okey-vision-data-")
