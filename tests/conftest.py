"""Shared test setup. The helpers in this folder (``drawn``, ``app_fakes``)
import as plain modules: pytest puts this folder, holding no ``__init__.py``,
on the path itself (its default "prepend" import mode)."""

import os

# Tests never reach the network: ultralytics must not try to.
os.environ.setdefault("YOLO_OFFLINE", "1")
# The player's corrections and calibration live in their data
# folder; the tests keep theirs in a folder of their own, so a calibration on
# this machine never changes what the tests read (and nothing is left behind).
import tempfile

os.environ["OKEY_VISION_DATA"] = tempfile.mkdtemp(prefix="okey-vision-data-")
