"""Loaded tools on a real redis-server (docs/store.md, "Loaded tools"): the
scripts and their SHA-1, the vectors of e2e/vectors/store/loaded-tools.json
(each step, then HGETALL), their refusals, the TTL, NOSCRIPT, a key of
another type, and clients loading into one conversation at once."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import redis.asyncio
from conftest import REPO
from redis_server import RedisServer, running_redis
from test_loaded_tools import ERRORS, run_step
from test_loaded_tools import LOADED_TOOLS as VECTORS

from ai_tools_runtime._conversation_store import ConversationCorruptError
from ai_tools_runtime.redis import RedisConversationStore
from ai_tools_runtime.redis._scripts import CREATE, LOAD_TOOLS, LOADED_TOOLS

CANONICAL = REPO / "runtimes" / "go" / "redisstore"


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    with running_redis() as server:
        yield server


@pytest.fixture(params=[False, True], ids=["bytes", "decoded"])
async def client(
    redis_server: RedisServer, request: pytest.FixtureRequest
) -> AsyncIterator[redis.asyncio.Redis]:
    c = redis.asyncio.Redis.from_url(redis_server.url, decode_responses=request.param)
    await c.flushall()
    yield c
    await c.aclose()


def test_the_loaded_tools_scripts_are_the_canonical_ones() -> None:
    for script in (LOAD_TOOLS, LOADED_TOOLS):
        canonical = (CANONICAL / script.name).read_bytes()
        assert script.text.encode("utf-8") == canonical, (
            f"{script.name} differs from runtimes/go/redisstore: run bash scripts/python-env.sh"
        )
        sha1 = hashlib.sha1(canonical).hexdigest()
        assert script.sha1 == sha1 == VECTORS["scripts"][script.name]


async def hash_of(client: redis.asyncio.Redis, key: str) -> dict[str, str]:
    stored = await client.hgetall(key)
    text = lambda v: v.decode() if isinstance(v, bytes) else v  # noqa: E731
    return {text(k): text(v) for k, v in stored.items()}


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["name"])
async def test_loaded_tools_case(client: redis.asyncio.Redis, case: dict[str, Any]) -> None:
    store = RedisConversationStore(client, key_prefix=case["keyPrefix"])
    assert await client.eval(CREATE.text, 1, case["key"], 60_000, case["epoch"]) == 1
    assert await store.loaded_tools(case["handle"]) == []
    for step in case["steps"]:
        await run_step(store, case["handle"], case["epoch"], step)
    assert await hash_of(client, case["key"]) == case["hash"]


@pytest.mark.parametrize("refusal", VECTORS["refusals"], ids=lambda r: r["name"])
async def test_loaded_tools_refusal(client: redis.asyncio.Redis, refusal: dict[str, Any]) -> None:
    store = RedisConversationStore(client)
    handle = "AAAAAAAAAAAAAAAAAAAAAA"
    if refusal["setup"] is not None:
        await client.hset(store.key(handle), mapping=refusal["setup"])
    with pytest.raises(ERRORS[refusal["error"]]) as err:
        if "loadTools" in refusal:
            call = refusal["loadTools"]
            await store.load_tools(handle, call["epoch"], call["names"])
        else:
            await store.loaded_tools(handle)
    assert getattr(err.value, "handle", None) == handle
    assert await hash_of(client, store.key(handle)) == (refusal["setup"] or {})


async def test_ttl_noscript_names_and_wrongtype(client: redis.asyncio.Redis) -> None:
    store = RedisConversationStore(client, idle_ttl_seconds=60)
    handle = await store.create()
    epoch, _ = await store.load(handle)
    key = store.key(handle)
    await client.script_flush()
    await client.pexpire(key, 1000)
    assert await store.load_tools(handle, epoch, ["links_get"]) == ["links_get"]
    assert await client.pttl(key) > 50_000
    await client.pexpire(key, 1000)
    assert await store.loaded_tools(handle) == ["links_get"]
    assert await client.pttl(key) > 50_000
    assert await client.script_exists(LOAD_TOOLS.sha1, LOADED_TOOLS.sha1) == [True, True]
    with pytest.raises(ValueError, match='cannot load the tool name "": pass the names of tools'):
        await store.load_tools(handle, epoch, ["links_list", ""])
    assert await store.loaded_tools(handle) == ["links_get"]
    await client.set(key, "not a hash")
    with pytest.raises(ConversationCorruptError, match="WRONGTYPE"):
        await store.loaded_tools(handle)
    with pytest.raises(ConversationCorruptError, match="WRONGTYPE"):
        await store.load_tools(handle, epoch, ["links_list"])


async def test_clients_loading_at_once(redis_server: RedisServer) -> None:
    clients = [redis.asyncio.Redis.from_url(redis_server.url) for _ in range(8)]
    try:
        stores = [RedisConversationStore(c) for c in clients]
        handle = await stores[0].create()
        epoch, _ = await stores[0].load(handle)

        async def load(i: int) -> None:
            for j in range(10):
                await stores[i].load_tools(
                    handle, epoch, [f"tool_{(i + j) % 12}", f"tool_{i * j % 12}"]
                )

        await asyncio.gather(*(load(i) for i in range(8)))
        loaded = await stores[0].loaded_tools(handle)
        assert sorted(loaded) == sorted(f"tool_{i}" for i in range(12))
    finally:
        for c in clients:
            await c.aclose()
