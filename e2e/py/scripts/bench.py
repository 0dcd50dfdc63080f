"""Median time of one executor call (links_get through the generated Executor:
alias resolved, fix-up, gRPC call, response aliased) on the local test server,
next to the same GetLink made directly with the grpcio stub; of one MCP
tools/call of links_get over stdio (the official client and
scripts/mcp_server.py); and of one links_get through AsyncExecutor, next to
the same call through a ConversationExecutor on the in-memory store and on
the Redis store (a redis-server started here; docs/store.md)."""

import asyncio
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import grpc
import redis.asyncio
from ai_tools_runtime import ConversationExecutor, MemoryConversationStore
from ai_tools_runtime.redis import RedisConversationStore
from mcp import Client, StdioServerParameters

from ai_tools_gen import AsyncExecutor, Executor
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


MCP_RUNS = 500


async def mcp_median_us(ready: str) -> float:
    """Median µs of one tools/call over stdio, after a warm-up."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_server.py")
    grpc_addr = ready.removeprefix("ready ")
    params = StdioServerParameters(
        command=sys.executable, args=[script, "--grpc", grpc_addr], env=dict(os.environ)
    )
    async with Client(params) as client:
        await client.list_tools()
        create: dict[str, object] = {"workspace_id": "ws", "target_url": "https://x.test/m"}
        create |= {"slug": None, "page_theme_id": "", "labels": [], "title": "m"}
        create["expire_after"] = None
        await client.call_tool("links_create", create)
        times = []
        for i in range(WARMUP + MCP_RUNS):
            t0 = time.perf_counter_ns()
            result = await client.call_tool("links_get", {"id": "link-1"})
            if i >= WARMUP:
                times.append(time.perf_counter_ns() - t0)
            assert not result.is_error
    return statistics.median(times) / 1000


STORE_RUNS = 1000
CREATE = (
    '{"workspace_id":"ws","target_url":"https://example.com/b","slug":null,'
    '"page_theme_id":"","labels":[],"title":"b","expire_after":null}'
)


async def store_medians_us(grpc_addr: str, redis_url: str) -> list[float]:
    """Median µs of one links_get through AsyncExecutor, through a
    ConversationExecutor on the in-memory store, and on the Redis store;
    the three alternate after a shared warm-up."""
    client = redis.asyncio.Redis.from_url(redis_url)
    async with grpc.aio.insecure_channel(grpc_addr) as channel:
        plain = AsyncExecutor(channel)
        await plain.execute("links_create", CREATE)
        runs = []
        for store in (MemoryConversationStore(), RedisConversationStore(client)):
            executor = ConversationExecutor(AsyncExecutor(channel), store)
            handle = await executor.start()
            await executor.execute(handle, "links_create", CREATE)
            runs.append((executor, handle))

        async def direct() -> object:
            return await plain.execute("links_get", '{"id":"link-1"}')

        def stored(executor: ConversationExecutor, handle: str) -> Callable[[], Awaitable[str]]:
            return lambda: executor.execute(handle, "links_get", '{"id":"link-1"}')

        calls = [direct, *(stored(e, h) for e, h in runs)]
        times: list[list[int]] = [[] for _ in calls]
        for i in range(WARMUP + STORE_RUNS):
            for call, out in zip(calls, times, strict=True):
                t0 = time.perf_counter_ns()
                await call()
                if i >= WARMUP:
                    out.append(time.perf_counter_ns() - t0)
    await client.aclose()
    return [statistics.median(t) / 1000 for t in times]


def running_redis() -> Any:
    """runtimes/python/tests/redis_server.py's running_redis (by path)."""
    path = os.path.join(
        os.environ["E2E_REPO_ROOT"], "runtimes", "python", "tests", "redis_server.py"
    )
    spec = importlib.util.spec_from_file_location("redis_server", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.running_redis()


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
        print(f"links_get over MCP stdio: median {anyio.run(mcp_median_us, line):.1f} µs per call")
        with running_redis() as server:
            grpc_addr = line.removeprefix("ready ")
            plain, memory, on_redis = asyncio.run(store_medians_us(grpc_addr, server.url))
        print(
            f"links_get through AsyncExecutor: median {plain:.1f} µs per call ({STORE_RUNS} calls)"
        )
        for store, median in (("in-memory", memory), ("Redis", on_redis)):
            print(
                f"links_get through ConversationExecutor, {store} store: "
                f"median {median:.1f} µs per call"
            )
    finally:
        channel.close()
        proc.stdin.close()
        proc.wait(10)


if __name__ == "__main__":
    main()
