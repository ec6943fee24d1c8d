"""Joining a Ray cluster, or starting a one-machine Ray in this process."""

from __future__ import annotations

import logging

#: Where a process finds a running cluster when no address is given (Ray's own variable).
ADDRESS_ENV = "RAY_ADDRESS"


def connect(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Join the Ray cluster at ``address`` ('auto': the one this machine
    belongs to; ``ray://HOST:10001``: a remote one), or with None start a
    one-machine Ray here with ``num_cpus`` cores (default: all). True when
    this call started Ray (the caller shuts it down), False when it was
    running or joined."""
    import ray

    if ray.is_initialized():
        return False
    if address:
        try:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:  # nobody there, or not a Ray address
            from okey_vision.errors import clip
            from okey_vision.vision.wire import ServiceError

            raise ServiceError.of("no_cluster", address=clip(address), why=clip(" ".join(str(exc).split()), 120)) \
                from None
        return False
    # A one-machine Ray: its workers are started from this process's environment (its Python, its import path).
    ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, logging_level=logging.WARNING,
             log_to_driver=False)
    return True


def cluster_cpus() -> int:
    """The cluster's cores (Ray's count of CPU resources), at least 1."""
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call, unused-ignore]  # typed in strict mode only


def shutdown() -> None:
    """Stop the one-machine Ray this process started (its workers and service with it)."""
    import ray

    ray.shutdown()


__all__ = ["ADDRESS_ENV", "cluster_cpus", "connect", "shutdown"]
