"""``okey-vision serve``: the reader as a service on Ray Serve (the serve extra).

Starts a one-machine Ray here (or joins the cluster at ``--address``), runs
the reader service on it (:mod:`okey_vision.serve.deployment`: the ONNX
reader in ``--replicas`` replicas, requests batched) and waits until Ctrl-C.
Apps and commands started with ``OKEY_VISION_SERVER=http://HOST:PORT`` read
through it; without that variable they read in their own process.
"""

from __future__ import annotations

import argparse

from okey_vision.cli.common import add_lang

DESCRIPTION = """\
Serve the tile reader to many tables: a one-machine Ray is started here (or
the Ray cluster at --address is joined), the reader is loaded in each replica
and answers at http://HOST:PORT. Point the apps and commands at it:

  okey-vision serve                                   # this machine, one replica a core, port 8000
  OKEY_VISION_SERVER=http://127.0.0.1:8000 streamlit run app.py
  OKEY_VISION_SERVER=http://127.0.0.1:8000 okey-vision read PHOTO

  ray start --head                                    # a cluster: the head machine...
  ray start --address HEAD:6379                       # ...and each other machine
  okey-vision serve --address auto --host 0.0.0.0     # replicas over every machine's cores

An app whose service is gone says so in one line and reads in its own process.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` subcommand's options."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = DESCRIPTION
    parser.add_argument("--address", metavar="ADDRESS",
                        help="join this Ray cluster ('auto': the one this machine belongs to); "
                             "default: start a one-machine Ray here")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to answer on (0.0.0.0: every network; default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="the port to answer on (default 8000)")
    parser.add_argument("--replicas", type=int, metavar="N",
                        help="replicas of the reader, one core each (default: the cluster's cores)")
    parser.add_argument("--max-batch", type=int, default=8, metavar="N",
                        help="requests read as one batch at most (default 8)")
    parser.add_argument("--limit-mb", type=float, default=128.0, metavar="MB",
                        help="the largest request taken, in MB (default 128: a 6000x6000 photo)")
    add_lang(parser, "what is printed")


def run(args: argparse.Namespace) -> int:
    """Start the service and wait until Ctrl-C."""
    import signal
    import threading
    from contextlib import suppress

    from okey_vision.cli.common import CliError
    from okey_vision.errors import require
    from okey_vision.lang import Lang, count

    for module in ("numpy", "cv2"):
        require(module, "vision", "serving the reader")
    require("ray", "serve", "serving the reader")
    for name, value in (("--replicas", args.replicas), ("--max-batch", args.max_batch)):
        if value is not None and value < 1:
            raise CliError.of("at_least_1", option=name, value=value)
    if not 0 < args.limit_mb <= 4096:
        raise CliError.of("limit_mb", value=args.limit_mb)
    if not 0 < args.port < 65536:
        raise CliError.of("port", value=args.port)
    from okey_vision.serve import cluster, deployment
    from okey_vision.vision.wire import say

    lang = Lang.of(getattr(args, "lang", Lang.EN))
    started = cluster.connect(args.address)
    try:
        replicas = args.replicas or cluster.cluster_cpus()
        url = deployment.start_service(replicas, args.host, args.port, int(args.limit_mb * 2**20), args.max_batch)
        print(say("serving", lang, url=url, replicas=count(replicas, "replica", lang)), flush=True)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())  # a service manager's stop: as Ctrl-C
        with suppress(KeyboardInterrupt):  # Ctrl-C: stop serving
            stop.wait()
        deployment.stop_service()
        print(say("stopped", lang), flush=True)
    finally:
        if started:
            cluster.shutdown()
    return 0
