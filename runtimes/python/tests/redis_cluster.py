"""A real Redis Cluster of three primaries (no replicas) for the tests:
three :class:`RedisServer` processes in cluster mode, their slots split in
three and introduced to one another, ready once every node says
``cluster_state:ok``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import redis
from redis_server import _free_port, running_redis

__all__ = ["running_cluster"]

_SLOTS = 16384
_CLUSTER_ARGS = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]


@contextmanager
def running_cluster(primaries: int = 3) -> Iterator[list[int]]:
    """The ports of a started cluster's primaries, stopped on exit."""
    with ExitStack() as stack:
        # The bus port (port + 10000 by default) could be past 65535.
        buses = [_free_port() for _ in range(primaries)]
        servers = [
            stack.enter_context(running_redis(args=[*_CLUSTER_ARGS, "--cluster-port", str(bus)]))
            for bus in buses
        ]
        clients = [stack.enter_context(redis.Redis(port=s.port)) for s in servers]
        for i, client in enumerate(clients):
            first, last = i * _SLOTS // primaries, (i + 1) * _SLOTS // primaries - 1
            client.execute_command("CLUSTER ADDSLOTSRANGE", first, last)
        for server, bus in zip(servers[1:], buses[1:], strict=True):
            clients[0].execute_command("CLUSTER MEET", "127.0.0.1", server.port, bus)
        deadline = time.monotonic() + 20
        while not all(_ready(c, primaries) for c in clients):
            if time.monotonic() > deadline:
                raise RuntimeError("the redis cluster did not reach cluster_state:ok in 20 s")
            time.sleep(0.05)
        yield [s.port for s in servers]


def _ready(client: redis.Redis, primaries: int) -> bool:
    info = client.cluster("INFO")  # parsed by redis-py
    return bool(info["cluster_state"] == "ok" and int(info["cluster_known_nodes"]) == primaries)
