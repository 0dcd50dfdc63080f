"""Median time of one executor call (links_get through the generated Executor:
alias resolved, fix-up, gRPC call, response aliased) on the local test server,
next to the same GetLink made directly with the grpcio stub."""

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import grpc

from ai_tools_gen import Executor
from linkhub.v1 import control_pb2, control_pb2_grpc, links_pb2, links_pb2_grpc

WARMUP = 200
RUNS = 2000


def medians_us(a: Callable[[], object], b: Callable[[], object]) -> tuple[float, float]:
    """Median µs of one call of a and of b. The calls alternate, after a
    shared warm-up, so that both see the same server and machine state."""
    for _ in range(WARMUP):
        a()
        b()
    times: tuple[list[int], list[int]] = ([], [])
    for _ in range(RUNS):
        for fn, out in ((a, times[0]), (b, times[1])):
            t0 = time.perf_counter_ns()
            fn()
            out.append(time.perf_counter_ns() - t0)
    return statistics.median(times[0]) / 1000, statistics.median(times[1]) / 1000


def main() -> None:
    main_js = os.environ["E2E_SERVER_MAIN"]
    proc = subprocess.Popen(["node", main_js], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    line = proc.stdout.readline().decode().strip()
    if not line.startswith("ready "):
        sys.exit(f"bench: the server printed {line!r}, not its ready line")
    channel = grpc.insecure_channel(line.removeprefix("ready "))
    try:
        control_pb2_grpc.TestControlServiceStub(channel).Reset(control_pb2.ResetRequest())
        e = Executor(channel)
        e.execute(
            "links_create",
            '{"workspace_id":"ws","target_url":"https://example.com/b","slug":null,'
            '"page_theme_id":"","labels":[],"title":"b","expire_after":null}',
        )
        link_id = e.aliases.resolve_alias("link-1")
        stub = links_pb2_grpc.LinkServiceStub(channel)
        via_executor, direct = medians_us(
            lambda: e.execute("links_get", '{"id":"link-1"}'),
            lambda: stub.GetLink(links_pb2.GetLinkRequest(id=link_id)),
        )
        print(f"links_get through Executor: median {via_executor:.1f} µs per call ({RUNS} calls)")
        print(f"GetLink direct (grpcio stub): median {direct:.1f} µs per call ({RUNS} calls)")
        print(f"executor overhead: {via_executor - direct:.1f} µs")
    finally:
        channel.close()
        proc.stdin.close()
        proc.wait(10)


if __name__ == "__main__":
    main()
