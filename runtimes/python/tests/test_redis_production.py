"""ai_tools_runtime.redis as production runs it (docs/production.md,
"Redis in production"), each against real redis-server processes: a hung
server fails within the store's timeout whatever the client's retries, a
dropped connection is taken again, TLS with the least-privilege ACL user,
and a Redis Cluster of three primaries."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import grpc
import grpc.aio
import pytest
import redis.asyncio
from conftest import Servers
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoPermissionError
from redis_cluster import running_cluster
from redis_server import running_redis
from toolset import ALIASES, METHODS, create_json

from ai_tools_runtime import AsyncExecutor, ConversationExecutor, ToolError
from ai_tools_runtime.redis import SCRIPTS, RedisClient, RedisConversationStore, _redis_store

MERGE = '{"source_id":"acct-1","target_id":"acct-2","note":""}'


@pytest.fixture
async def aio_channel(servers: Servers) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(servers.target) as ch:
        yield ch


def executor_on(
    channel: grpc.aio.Channel, client: RedisClient, **options: float
) -> ConversationExecutor:
    store = RedisConversationStore(client, **options)
    return ConversationExecutor(AsyncExecutor(channel, METHODS, ALIASES), store)


def account_id(out: str) -> str:
    return str(json.loads(out)["account"]["id"])


async def test_a_hung_redis_fails_within_the_store_timeout(
    aio_channel: grpc.aio.Channel,
) -> None:
    with running_redis() as server:
        # The client's defaults (10 retries): alone, it gives a hung server a minute.
        client = redis.asyncio.Redis(port=server.port)
        executor = executor_on(aio_channel, client, timeout=0.4)
        handle = await executor.start()
        assert account_id(await executor.execute(handle, "accounts_create", create_json("A"))) == (
            "acct-1"
        )
        # "slow" takes 0.5 s on the gRPC server: Redis hangs meanwhile, the
        # load done, so the registration is what hangs.
        slow = asyncio.create_task(executor.execute(handle, "accounts_create", create_json("slow")))
        await asyncio.sleep(0.15)
        server.pause()
        try:
            started = time.monotonic()
            calls = [
                slow,
                executor.execute(handle, "accounts_merge", MERGE),  # load
                executor.start(),  # create
                executor.end(handle),  # delete
            ]
            for call in calls:
                with pytest.raises(ToolError) as caught:
                    await call
                assert str(caught.value) == (
                    "conversation store unavailable: redis did not answer within 400 ms"
                )
                assert caught.value.reason == "store-unavailable"
                assert caught.value.code == grpc.StatusCode.UNAVAILABLE
            # four timeouts of 0.4 s, not the client's minute
            assert time.monotonic() - started < 10
        finally:
            server.resume()
        # the same client and conversation, intact: "slow" was never shown
        out = await executor.execute(handle, "accounts_create", create_json("B"))
        assert account_id(out) == "acct-3"
        await client.aclose()


@pytest.mark.parametrize("timeout", [0, -1.0, float("nan")])
def test_the_timeout_must_be_positive(timeout: float) -> None:
    with pytest.raises(ValueError) as caught:
        RedisConversationStore(redis.asyncio.Redis(), timeout=timeout)
    assert str(caught.value) == (f"timeout must be a positive number of seconds, got {timeout!r}")


class _SlowLink(redis.asyncio.Redis):
    """A client 0.15 s away from its server (each script call)."""

    async def evalsha(self, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.15)
        return await super().evalsha(*args, **kwargs)


async def test_the_tries_of_a_create_share_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every handle minted is taken (a broken random source): 8 tries of
    # 0.15 s each would take 1.2 s; the store gives them 0.5 s in all.
    with running_redis() as server:
        client = _SlowLink(port=server.port)
        store = RedisConversationStore(client, timeout=0.5)
        taken = await store.create()
        monkeypatch.setattr(_redis_store, "mint_conversation_handle", lambda: taken)
        started = time.monotonic()
        with pytest.raises(TimeoutError) as caught:
            await store.create()
        assert str(caught.value) == "redis did not answer within 500 ms"
        assert time.monotonic() - started < 1.0
        await client.aclose()


async def test_a_dropped_connection_is_taken_again(aio_channel: grpc.aio.Channel) -> None:
    with running_redis() as server:
        # Redis(...) retries a command whose connection dropped (10 times by
        # default); from_url's client does not unless given retry=: the call
        # on the dropped connection fails, the next one connects again.
        retrying = redis.asyncio.Redis(port=server.port)
        once = redis.asyncio.Redis.from_url(server.url)
        executors = [executor_on(aio_channel, c) for c in (retrying, once)]
        handles = [await e.start() for e in executors]
        for executor, handle in zip(executors, handles, strict=True):
            await executor.execute(handle, "accounts_create", create_json("A"))
        async with redis.asyncio.Redis.from_url(server.url) as admin:
            assert await admin.client_kill_filter(_type="normal", skipme=True) == 2
        out = await executors[0].execute(handles[0], "accounts_create", create_json("B"))
        assert account_id(out) == "acct-2"
        with pytest.raises(ToolError) as caught:
            await executors[1].execute(handles[1], "accounts_create", create_json("B"))
        assert str(caught.value) == "conversation store unavailable: Connection closed by server."
        out = await executors[1].execute(handles[1], "accounts_create", create_json("C"))
        assert account_id(out) == "acct-2"
        for c in (retrying, once):
            await c.aclose()


async def test_tls_and_the_least_privilege_acl_user(aio_channel: grpc.aio.Channel) -> None:
    with running_redis(tls=True, acl_password="s3cret-pw") as server:
        assert server.user_url.startswith("rediss://ai-tools:s3cret-pw@localhost:")
        client = redis.asyncio.Redis.from_url(server.user_url, ssl_ca_certs=server.ca_file)
        executor = executor_on(aio_channel, client)
        # A new server: EVALSHA answers NOSCRIPT, EVAL loads each script.
        handle = await executor.start()
        await executor.execute(handle, "accounts_create", create_json("A"))
        await executor.execute(handle, "accounts_create", create_json("B"))
        merged = json.loads(await executor.execute(handle, "accounts_merge", MERGE))
        assert merged["received_source_id"] == "acct-1"
        await executor.end(handle)
        with pytest.raises(ToolError) as caught:
            await executor.execute(handle, "accounts_merge", MERGE)
        assert caught.value.reason == "conversation-expired"
        # the user cannot do more than the store does
        with pytest.raises(NoPermissionError):
            await client.flushall()
        outside = executor_on(aio_channel, client, key_prefix="other:")
        with pytest.raises(ToolError) as caught:
            await outside.start()
        assert caught.value.reason == "store-unavailable"
        assert "no permissions to access one of the keys" in str(caught.value)
        async with redis.asyncio.Redis.from_url(server.url, ssl_ca_certs=server.ca_file) as admin:
            assert await admin.script_exists(*(s.sha1 for s in SCRIPTS)) == [True] * 3
        # no plain connection
        async with redis.asyncio.Redis.from_url(f"redis://127.0.0.1:{server.port}") as plain:
            with pytest.raises(redis.exceptions.ConnectionError):
                await plain.ping()
        await client.aclose()


async def test_a_conversation_in_a_cluster(aio_channel: grpc.aio.Channel) -> None:
    with running_cluster() as ports:
        # one client per node it starts from; each follows the slots
        clients = [RedisCluster(host="127.0.0.1", port=p) for p in ports]
        executors = [executor_on(aio_channel, c) for c in clients]
        for first in range(3):
            handle = await executors[first].start()
            for i in range(3):
                executor = executors[(first + i) % 3]
                out = await executor.execute(handle, "accounts_create", create_json(f"n{i}"))
                assert account_id(out) == f"acct-{i + 1}"
            # the conversation is one key on the one node owning its slot
            slot = clients[0].keyslot(RedisConversationStore(clients[0]).key(handle))
            held = []
            for port in ports:
                async with redis.asyncio.Redis(port=port) as node:
                    held.append(await node.execute_command("CLUSTER COUNTKEYSINSLOT", slot))
            assert sorted(held) == [0, 0, 1]
        for c in clients:
            await c.aclose()
