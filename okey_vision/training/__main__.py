"""``python -m okey_vision.training``: train, export or mix the reader's models."""

import sys

from okey_vision.training.cli import main

if __name__ == "__main__":
    sys.exit(main())
