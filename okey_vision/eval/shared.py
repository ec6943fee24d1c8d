"""Where the shared real photos are: one answer for a checkout and an installed wheel.

The real photos are never copied into the project: they lie in the shared
folder beside the checkout (``../shared/datasets``, holding ``okey-real``
and ``rummikub-real``), or wherever ``$OKEY_VISION_REAL_PIXELS`` says.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The environment variable naming the shared ``datasets`` folder.
REAL_ENV = "OKEY_VISION_REAL_PIXELS"
#: The shared folder, relative to the checkout.
BESIDE = Path("..") / "shared" / "datasets"


def real_pixels() -> Path:
    """The shared ``datasets`` folder: ``$OKEY_VISION_REAL_PIXELS`` when set,
    else ``../shared/datasets`` beside the checkout, found from the package's
    own location, else from the current directory (the first that exists;
    the package's when neither does).

    >>> import os; os.environ[REAL_ENV] = "/data/real"; str(real_pixels())
    '/data/real'
    >>> del os.environ[REAL_ENV]
    """
    env = os.environ.get(REAL_ENV)
    if env:
        return Path(env)
    package = Path(__file__).resolve().parents[2] / BESIDE
    for folder in (package.resolve(), Path.cwd() / BESIDE):
        if folder.is_dir():
            return folder
    return package.resolve()


__all__ = ["REAL_ENV", "real_pixels"]
