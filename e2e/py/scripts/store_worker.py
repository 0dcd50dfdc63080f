"""A worker of an agent backend: the generated executor of the test API
(gen/ai_tools_gen.py) running calls in conversations kept in Redis
(docs/store.md), so that any worker, of any language, sharing the Redis
server continues any conversation. It speaks the protocol of the Go
worker (e2e/go/cmd/linkhub-worker), so the two mix:

    python scripts/store_worker.py --grpc 127.0.0.1:8080 --redis 127.0.0.1:6379 \\
        [--key-prefix ai-tools:] [--ttl 30m] [--parallel 1] [--redis-ca ca.crt] \\
        [--redis-cluster] [--store-timeout 5000] [--max-aliases 1000]

--redis is ``host:port`` or a ``redis://``/``rediss://`` URL (user and
password in it for an ACL user); --redis-ca the CA (PEM) of a TLS server;
--redis-cluster makes it a seed node of a Redis Cluster; --store-timeout
the store's budget per operation in ms; --max-aliases the store's alias
limit per conversation.

It reads one JSON request per line from stdin and writes one JSON line per
request to stdout, each with the request's ``id`` (any JSON value):

    {"id": 1, "op": "start"}                       -> {"id": 1, "handle": "…"}
    {"id": 2, "op": "call", "handle": "…", "tool": "links_get", "args": {"id": "link-1"}}
                                                   -> {"id": 2, "result": {…}}
                                                   or {"id": 2, "error": {"reason": "…",
                                                       "code": "NOT_FOUND", "message": "…"}}
    {"id": 3, "op": "end", "handle": "…"}          -> {"id": 3, "ok": true}
    {"id": 4, "op": "loadTools", "handle": "…", "tools": ["links_get"]}
                                                   -> {"id": 4, "loaded": ["links_get"]}
    {"id": 5, "op": "loadedTools", "handle": "…"}  -> {"id": 5, "loaded": ["links_get"]}

``loadTools`` appends the tools not yet loaded to the conversation's loaded
tools (the store's ``load_tools``, with the epoch its ``load`` reads) and
answers the whole list; ``loadedTools`` answers it (docs/store.md, "Loaded
tools").

``args`` is the tool's arguments, an object (or a string holding them);
``result`` is written once the aliases it shows are stored. A request it
cannot read gets ``{"id": …, "error": {"reason": "bad-request", …}}``.
With --parallel N it runs up to N requests at once and answers each as it
finishes. It exits when stdin ends and every answer is written.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "gen"))

import grpc
import redis.asyncio
from ai_tools_runtime import DEFAULT_MAX_ALIASES, ConversationExecutor, ToolError
from ai_tools_runtime._conversation_executor import store_failure
from ai_tools_runtime.redis import RedisClient, RedisConversationStore
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff

from ai_tools_gen import AsyncExecutor

_DURATION = re.compile(r"([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)")
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def duration(text: str) -> float:
    """Seconds of a Go-style duration: ``30m``, ``1h30m``, ``90s``, ``500ms``."""
    parts = _DURATION.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise argparse.ArgumentTypeError(f"invalid duration {text!r}: write 30m, 90s or 500ms")
    return sum(float(n) * _UNITS[u] for n, u in parts)


def bad_request(ident: Any, message: str) -> dict[str, Any]:
    return {"id": ident, "error": {"reason": "bad-request", "message": message}}


async def serve(
    executor: ConversationExecutor, store: RedisConversationStore, line: bytes
) -> dict[str, Any]:
    """The answer to one request line."""
    try:
        request = json.loads(line)
    except ValueError as err:
        return bad_request(None, f"not a JSON request: {err}")
    if not isinstance(request, dict):
        return bad_request(None, "not a JSON request: not an object")
    ident, op, handle = request.get("id"), request.get("op"), request.get("handle", "")
    if op not in ("start", "call", "end", "loadTools", "loadedTools"):
        return bad_request(
            ident, f"unknown op {json.dumps(op)}: use start, call, end, loadTools or loadedTools"
        )
    if not isinstance(handle, str):
        return bad_request(ident, '"handle" must be a string')
    try:
        if op == "start":
            return {"id": ident, "handle": await executor.start()}
        if op == "end":
            await executor.end(handle)
            return {"id": ident, "ok": True}
        if op in ("loadTools", "loadedTools"):
            return {"id": ident, "loaded": await loaded_tools(store, handle, request)}
        tool, args = request.get("tool", ""), request.get("args", {})
        if not isinstance(tool, str):
            return bad_request(ident, '"tool" must be a string')
        text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        return {"id": ident, "result": json.loads(await executor.execute(handle, tool, text))}
    except ToolError as err:
        error = {"reason": err.reason, "code": err.code.name, "message": str(err)}
        return {"id": ident, "error": error}


async def loaded_tools(
    store: RedisConversationStore, handle: str, request: dict[str, Any]
) -> list[str]:
    """The store's loaded tools after a loadTools request (the epoch read by
    its load) or for a loadedTools one (docs/store.md, "Loaded tools"); a
    store failure as the executor's ``ToolError``."""
    try:
        if request["op"] == "loadedTools":
            return await store.loaded_tools(handle)
        epoch, _ = await store.load(handle)
        return await store.load_tools(handle, epoch, [str(t) for t in request.get("tools", [])])
    except Exception as err:
        raise store_failure(handle, err) from err


def redis_url(address: str) -> str:
    """``host:port`` (the Go worker's form) or a ``redis://`` URL."""
    return address if "://" in address else f"redis://{address}/0"


def redis_client(args: argparse.Namespace) -> RedisClient:
    """The client of --redis: a connection dropped under a command is
    retried (from_url's client does not retry unless told), and the
    store's timeout bounds each operation, retries included."""
    options: dict[str, Any] = {"socket_connect_timeout": 1, "socket_timeout": 2}
    if args.redis_ca is not None:
        options["ssl_ca_certs"] = args.redis_ca
    if args.redis_cluster:
        return RedisCluster.from_url(redis_url(args.redis), **options)
    retry = Retry(ExponentialWithJitterBackoff(cap=0.5, base=0.01), 3)
    return redis.asyncio.Redis.from_url(redis_url(args.redis), retry=retry, **options)


async def main(args: argparse.Namespace) -> None:
    client = redis_client(args)
    store = RedisConversationStore(
        client,
        key_prefix=args.key_prefix,
        idle_ttl_seconds=args.ttl,
        timeout=args.store_timeout / 1000,
        max_aliases=args.max_aliases,
    )
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    slots = asyncio.Semaphore(args.parallel)
    tasks: set[asyncio.Task[None]] = set()
    async with grpc.aio.insecure_channel(args.grpc) as channel:
        executor = ConversationExecutor(AsyncExecutor(channel), store)

        async def run(line: bytes) -> None:
            try:
                answer = await serve(executor, store, line)
            finally:
                slots.release()
            sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
            sys.stdout.flush()

        while line := await reader.readline():
            if line.strip():
                await slots.acquire()
                task = asyncio.create_task(run(line))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        while tasks:
            await asyncio.gather(*tasks)
    await client.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grpc", required=True, help="the linkhub.v1 gRPC server, host:port")
    parser.add_argument("--redis", required=True, help="the Redis server, host:port or a URL")
    parser.add_argument("--key-prefix", default="ai-tools:", help="the prefix of every Redis key")
    parser.add_argument(
        "--ttl", type=duration, default=30 * 60.0, help="how long an idle conversation lives (30m)"
    )
    parser.add_argument("--parallel", type=int, default=1, help="how many requests run at once")
    parser.add_argument("--redis-ca", help="the CA certificate (PEM) of a TLS Redis server")
    parser.add_argument(
        "--redis-cluster", action="store_true", help="--redis is a seed node of a Redis Cluster"
    )
    parser.add_argument(
        "--store-timeout", type=float, default=5000, help="ms per store operation (5000)"
    )
    parser.add_argument(
        "--max-aliases",
        type=int,
        default=DEFAULT_MAX_ALIASES,
        help=f"aliases a conversation holds before its calls are refused ({DEFAULT_MAX_ALIASES})",
    )
    options = parser.parse_args()
    if options.parallel < 1:
        parser.error("--parallel must be at least 1")
    if not options.store_timeout > 0:
        parser.error("--store-timeout must be a positive number of milliseconds")
    if options.max_aliases < 1:
        parser.error("--max-aliases must be at least 1")
    asyncio.run(main(options))
