"""Shared test setup. The helpers in this folder (``drawn``, ``app_fakes``)
import as plain modules: pytest puts this folder, holding no ``__init__.py``,
on the path itself (its default "prepend" import mode)."""

import os

import pytest

# Tests never reach the network: ultralytics must not try to.
os.environ.setdefault("YOLO_OFFLINE", "1")
# The player's corrections and calibration live in their data
# folder; the tests keep theirs in a folder of their own, so a calibration on
# this machine never changes what the tests read (and nothing is left behind).
import tempfile

os.environ["OKEY_VISION_DATA"] = tempfile.mkdtemp(prefix="okey-vision-data-")


@pytest.fixture(scope="session")
def reader():
    """The shipped reader, its networks loaded once for every module that
    reads photos with it (a module needing other settings defines its own)."""
    from okey_vision.vision.reader import RackReader

    r = RackReader()
    if not r.has_net("detector"):
        pytest.skip("no detector weights")
    return r.load()
