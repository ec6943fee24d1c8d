"""Shared test setup: the helpers in this folder import as plain modules."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
# Tests never reach the network: ultralytics must not try to.
os.environ.setdefault("YOLO_OFFLINE", "1")
