"""ai_tools_runtime.redis against a real redis-server (Debian's 7.0),
started on a free port by the tests: the layout vectors (the hash after
each case), the refusals, EVALSHA's fallback, the idle TTL, registrations
from several OS processes at once, and faults (the server killed, or
restarted without its data, mid-run and mid-call)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import grpc
import grpc.aio
import pytest
import redis.asyncio
from conftest import REPO, Servers, load_vectors
from redis_server import RedisServer, running_redis
from test_conversation_store import refused
from toolset import ALIASES, METHODS, create_json

from ai_tools_runtime import (
    AliasManager,
    AsyncExecutor,
    ConversationExecutor,
    ConversationExpiredError,
    ToolError,
)
from ai_tools_runtime._conversation_executor import StoredConversation
from ai_tools_runtime.redis import SCRIPTS, RedisConversationStore

LAYOUT: dict[str, Any] = load_vectors("store")[0]
# The scripts' one committed copy; setup.py copies it into the package.
CANONICAL = REPO / "runtimes" / "go" / "redisstore"


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    with running_redis() as server:
        yield server


@pytest.fixture
async def client(redis_server: RedisServer) -> AsyncIterator[redis.asyncio.Redis]:
    c = redis.asyncio.Redis.from_url(redis_server.url, socket_connect_timeout=1, socket_timeout=2)
    await c.flushall()
    yield c
    await c.aclose()


def test_the_scripts_are_the_canonical_ones() -> None:
    assert [s.name for s in SCRIPTS] == sorted(LAYOUT["scripts"])
    for script in SCRIPTS:
        canonical = (CANONICAL / script.name).read_bytes()
        assert script.text.encode("utf-8") == canonical, (
            f"{script.name} differs from runtimes/go/redisstore: run bash scripts/python-env.sh"
        )
        assert script.sha1 == hashlib.sha1(canonical).hexdigest() == LAYOUT["scripts"][script.name]


@pytest.mark.parametrize("case", LAYOUT["cases"], ids=[c["name"] for c in LAYOUT["cases"]])
async def test_layout_case(client: redis.asyncio.Redis, case: dict[str, Any]) -> None:
    store = RedisConversationStore(client, key_prefix=case["keyPrefix"])
    assert store.key(case["handle"]) == case["key"]
    create = SCRIPTS[0]
    assert await client.eval(create.text, 1, case["key"], 60_000, case["epoch"]) == 1
    assert await client.eval(create.text, 1, case["key"], 60_000, case["epoch"]) == 0  # taken
    for step in case["steps"]:
        pairs = [(p, u) for p, u in step["register"]]
        assert await store.register(case["handle"], case["epoch"], pairs) == step["state"]
        assert await store.load(case["handle"]) == (case["epoch"], step["state"])
    stored = await client.hgetall(case["key"])
    assert {k.decode(): v.decode() for k, v in stored.items()} == case["hash"]
    assert 0 < await client.pttl(case["key"]) <= 30 * 60 * 1000


REFUSALS: list[dict[str, Any]] = LAYOUT["refusals"]


@pytest.mark.parametrize("refusal", REFUSALS, ids=[r.get("name", "v2") for r in REFUSALS])
async def test_layout_refusal(client: redis.asyncio.Redis, refusal: dict[str, Any]) -> None:
    store = RedisConversationStore(client)
    handle = "AAAAAAAAAAAAAAAAAAAAAA"
    if refusal["setup"] is not None:
        await client.hset(store.key(handle), mapping=refusal["setup"])
    before = await client.hgetall(store.key(handle))
    await refused(store, handle, refusal)
    assert await client.hgetall(store.key(handle)) == before  # nothing written


async def test_a_key_of_another_type_is_corrupt(client: redis.asyncio.Redis) -> None:
    store = RedisConversationStore(client)
    handle = "BBBBBBBBBBBBBBBBBBBBBB"
    await client.set(store.key(handle), "not a hash")
    with pytest.raises(ToolError) as caught:
        await StoredConversation.load(store, handle, ALIASES)
    assert caught.value.reason == "conversation-corrupt"
    assert caught.value.code == grpc.StatusCode.DATA_LOSS
    assert str(caught.value).startswith(f'conversation "{handle}" cannot be read: WRONGTYPE ')
    conversation = StoredConversation(store, handle, "0" * 32, AliasManager(ALIASES))
    with pytest.raises(ToolError) as caught:
        created = {"account": {"id": "0b6f0001-0000-4000-8000-000000000001"}}
        await conversation.confirm("accounts_create", [created])
    assert caught.value.reason == "conversation-corrupt"
    assert await client.get(store.key(handle)) == b"not a hash"


@pytest.mark.parametrize("decode", [False, True])
async def test_create_load_register_delete(redis_server: RedisServer, decode: bool) -> None:
    c = redis.asyncio.Redis.from_url(redis_server.url, decode_responses=decode)
    try:
        store = RedisConversationStore(c, key_prefix="t:", idle_ttl_seconds=60)
        assert store.client is c
        handle = await store.create()
        assert len(handle) == 22 and await c.exists(f"t:conv:{{{handle}}}") == 1
        epoch, state = await store.load(handle)
        assert len(epoch) == 32 and state == '{"aliases":{},"counters":{},"version":1}'
        u = str(uuid.uuid4())
        state = await store.register(handle, epoch, [("acct", u), ("user", u)])
        assert json.loads(state)["aliases"] == {"acct-1": u}
        with pytest.raises(ConversationExpiredError):
            await store.register(handle, "0" * 32, [("acct", u)])
        await store.delete(handle)
        await store.delete(handle)
        with pytest.raises(ConversationExpiredError):
            await store.load(handle)
        with pytest.raises(ConversationExpiredError):
            await store.register(handle, epoch, [])
    finally:
        await c.aclose()
    with pytest.raises(ValueError, match="idle_ttl_seconds must be positive"):
        RedisConversationStore(c, idle_ttl_seconds=0)


async def test_an_operation_name_is_stored_and_restored(client: redis.asyncio.Redis) -> None:
    # Not a UUID: the value of a field that takes any name (Operation.name).
    store = RedisConversationStore(client)
    handle = await store.create()
    epoch, _ = await store.load(handle)
    name = "workspaces/w1/operations/7"
    await store.register(handle, epoch, [("operation", name), ("operation", name)])
    _, state = await store.load(handle)
    assert json.loads(state)["aliases"] == {"operation-1": name}
    manager = AliasManager()
    manager.restore_state(state)
    assert manager.resolve_alias("operation-1") == name
    assert manager.aliasify_json(f'{{"name":"{name}"}}') == '{"name":"operation-1"}'


async def test_evalsha_falls_back_to_eval(client: redis.asyncio.Redis) -> None:
    store = RedisConversationStore(client)
    await client.script_flush()
    assert await client.script_exists(*(s.sha1 for s in SCRIPTS)) == [False] * 3
    handle = await store.create()
    epoch, _ = await store.load(handle)
    await store.register(handle, epoch, [("acct", str(uuid.uuid4()))])
    assert await client.script_exists(*(s.sha1 for s in SCRIPTS)) == [True] * 3


async def test_the_idle_ttl_is_renewed_by_load_and_register(client: redis.asyncio.Redis) -> None:
    store = RedisConversationStore(client, idle_ttl_seconds=0.6)
    a, b = await store.create(), await store.create()
    epoch, _ = await store.load(a)
    for _ in range(3):
        await asyncio.sleep(0.3)
        await store.register(a, epoch, [])
    with pytest.raises(ConversationExpiredError):
        await store.load(b)  # idle for 0.9 s
    assert (await store.load(a))[0] == epoch
    assert 0 < await client.pttl(store.key(a)) <= 600


# -- several OS processes in one conversation ----------------------------------------------

WORKER = """
import asyncio, json, random, sys
import redis.asyncio
from ai_tools_runtime.redis import RedisConversationStore

async def main(url, handle, epoch, uuids, seed):
    client = redis.asyncio.Redis.from_url(url)
    store = RedisConversationStore(client)
    rng = random.Random(seed)
    order = list(uuids)
    rng.shuffle(order)
    batches = [order[i:i + 3] for i in range(0, len(order), 3)]
    states = await asyncio.gather(
        *(store.register(handle, epoch, [("acct", u) for u in b]) for b in batches)
    )
    for state in states:
        print(state)
    await client.aclose()

url, handle, epoch, seed = sys.argv[1:5]
asyncio.run(main(url, handle, epoch, json.loads(sys.stdin.read()), int(seed)))
"""


async def test_processes_registering_at_once_never_disagree(
    redis_server: RedisServer, client: redis.asyncio.Redis
) -> None:
    store = RedisConversationStore(client)
    handle = await store.create()
    epoch, _ = await store.load(handle)
    uuids = [str(uuid.uuid4()) for _ in range(120)]
    workers = []
    for seed in range(3):
        # each process registers 90 of the 120 UUIDs, overlapping the others
        mine = uuids[seed * 15 : seed * 15 + 90]
        proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, redis_server.url, handle, epoch, str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        workers.append((proc, mine))
    for proc, mine in workers:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(mine).encode())
        proc.stdin.close()
    outputs = []
    for proc, _ in workers:
        assert proc.stdout is not None
        outputs.append(proc.stdout.read().decode())
        assert proc.wait(60) == 0
    final = json.loads((await store.load(handle))[1])
    assert set(final["aliases"].values()) == set(uuids)  # one alias each, no UUID twice
    assert sorted(final["aliases"]) == sorted(f"acct-{n}" for n in range(1, 121))  # no gap
    assert final["counters"] == {"acct": 120}
    for out in outputs:
        for line in out.splitlines():
            seen = json.loads(line)["aliases"]
            assert all(final["aliases"][a] == u for a, u in seen.items())  # never another UUID


async def test_many_clients_registering_at_once(redis_server: RedisServer) -> None:
    clients = [redis.asyncio.Redis.from_url(redis_server.url) for _ in range(8)]
    try:
        stores = [RedisConversationStore(c) for c in clients]
        handle = await stores[0].create()
        epoch, _ = await stores[0].load(handle)
        uuids = [str(uuid.uuid4()) for _ in range(64)]
        states = await asyncio.gather(
            *(
                stores[i % 8].register(handle, epoch, [("acct", uuids[i]), ("acct", uuids[-i])])
                for i in range(64)
            )
        )
        final = json.loads((await stores[1].load(handle))[1])
        assert sorted(final["aliases"]) == sorted(f"acct-{n}" for n in range(1, 65))
        assert set(final["aliases"].values()) == set(uuids)
        for state in states:
            assert all(final["aliases"][a] == u for a, u in json.loads(state)["aliases"].items())
    finally:
        for c in clients:
            await c.aclose()


# -- faults -------------------------------------------------------------------------------


class Faulty:
    """A redis-server of its own, and a ConversationExecutor using it."""

    def __init__(self, server: RedisServer, executor: ConversationExecutor) -> None:
        self.server = server
        self.executor = executor


@pytest.fixture
async def faulty(servers: Servers) -> AsyncIterator[Faulty]:
    with running_redis() as server:
        c = redis.asyncio.Redis.from_url(server.url, socket_connect_timeout=1, socket_timeout=2)
        async with grpc.aio.insecure_channel(servers.target) as channel:
            store = RedisConversationStore(c)
            yield Faulty(
                server, ConversationExecutor(AsyncExecutor(channel, METHODS, ALIASES), store)
            )
        await c.aclose()


async def test_redis_killed_then_restarted(faulty: Faulty) -> None:
    executor, server = faulty.executor, faulty.server
    handle = await executor.start()
    out = await executor.execute(handle, "accounts_create", create_json("A"))
    assert json.loads(out)["account"]["id"] == "acct-1"
    server.kill()
    for call in (
        executor.execute(handle, "accounts_create", create_json("B")),
        executor.execute(
            handle, "accounts_merge", '{"source_id":"acct-1","target_id":"acct-1","note":""}'
        ),
        executor.start(),
    ):
        with pytest.raises(ToolError) as caught:
            await call
        assert caught.value.reason == "store-unavailable"
        assert caught.value.code == grpc.StatusCode.UNAVAILABLE
        assert str(caught.value).startswith("conversation store unavailable: ")
        assert "\n" not in str(caught.value)
    server.start()  # without its data
    with pytest.raises(ToolError) as caught:
        await executor.execute(
            handle, "accounts_merge", '{"source_id":"acct-1","target_id":"acct-1","note":""}'
        )
    assert caught.value.reason == "conversation-expired"
    fresh = await executor.start()
    out = await executor.execute(fresh, "accounts_create", create_json("C"))
    assert json.loads(out)["account"]["id"] == "acct-1"


async def test_redis_timing_out_then_answering_again(faulty: Faulty) -> None:
    executor, server = faulty.executor, faulty.server
    handle = await executor.start()
    await executor.execute(handle, "accounts_create", create_json("A"))
    server.pause()
    try:
        started = time.monotonic()
        with pytest.raises(ToolError) as caught:
            await executor.execute(
                handle, "accounts_merge", '{"source_id":"acct-1","target_id":"acct-1","note":""}'
            )
        assert caught.value.reason == "store-unavailable"
        assert caught.value.code == grpc.StatusCode.UNAVAILABLE
        assert "Timeout" in str(caught.value), str(caught.value)
        assert time.monotonic() - started < 30  # the client's timeout, with its retries
    finally:
        server.resume()
    # the same conversation, its data intact
    out = await executor.execute(handle, "accounts_create", create_json("B"))
    assert json.loads(out)["account"]["id"] == "acct-2"


async def test_redis_restarted_mid_call_shows_nothing(faulty: Faulty, servers: Servers) -> None:
    executor, server = faulty.executor, faulty.server
    handle = await executor.start()
    await executor.execute(handle, "accounts_create", create_json("A"))
    # "slow" takes 0.5 s on the server: Redis restarts, empty, meanwhile
    call = asyncio.create_task(executor.execute(handle, "accounts_create", create_json("slow")))
    await asyncio.sleep(0.15)
    server.kill()
    server.start()
    with pytest.raises(ToolError) as caught:
        await call
    # the pooled connection died with the server (a client that retries
    # would find the conversation gone): nothing is shown
    assert caught.value.reason in ("store-unavailable", "conversation-expired")
    assert servers.accounts.received[-1].name == "slow"  # the call was made
    with pytest.raises(ToolError) as caught:
        await executor.execute(handle, "accounts_create", create_json("B"))
    assert caught.value.reason == "conversation-expired"
    # a conversation started now numbers from 1 again, in a new epoch
    fresh = await executor.start()
    out = await executor.execute(fresh, "accounts_create", create_json("C"))
    assert json.loads(out)["account"]["id"] == "acct-1"


async def test_a_handle_made_with_a_suffix(client: redis.asyncio.Redis) -> None:
    # The MCP servers bind a handle to its caller: the conversation lives
    # under the minted handle followed by the subject's suffix.
    store = RedisConversationStore(client)
    handle = await store.create(".K9gGyX8OAK8aH8Myj6djqS")
    minted, _, suffix = handle.partition(".")
    assert len(minted) == 22 and suffix == "K9gGyX8OAK8aH8Myj6djqS"
    assert await client.exists(store.key(handle)) == 1
    await store.load(handle)
    with pytest.raises(ConversationExpiredError):
        await store.load(minted)
