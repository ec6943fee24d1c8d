"""Collection settings for the whole checkout: ``testpaths`` holds the
package too, whose doctests run (``--doctest-modules``).

The Ray modules (``okey_vision/serve``) import Ray and Serve at their top,
and those are the ``serve`` extra's: on an install without it their
doctests are not collected (``tests/test_serve.py`` skips its Ray tests
itself), so the README's test command passes on an install without Ray."""

from __future__ import annotations

import importlib.util


def installed(module: str) -> bool:
    """True when ``module`` can be imported (found, not imported: Ray takes seconds to import)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module without a spec
        return False


#: Paths (from this folder) pytest does not collect: the Ray modules when Ray or Serve's web layer is
#: missing (a glob, so that naming the folder on the command line leaves them out too).
collect_ignore_glob = [] if installed("ray") and installed("starlette") else ["okey_vision/serve/*.py"]
