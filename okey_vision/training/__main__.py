"""``python -m okey_vision.training``: train, export or mix the reader's models."""

import sys

from okey_vision.cli.train import main  # the entry point: `okey-vision train` on its own

if __name__ == "__main__":
    sys.exit(main())
