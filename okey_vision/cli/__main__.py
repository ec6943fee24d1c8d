"""``python -m okey_vision.cli``: the ``okey-vision`` command line."""

import sys

from okey_vision.cli import main

if __name__ == "__main__":
    sys.exit(main())
