"""The alias limit of a conversation (docs/store.md, "Alias cap"), in
both stores (Redis: a real redis-server): a call in a conversation holding
the store's ``max_aliases`` aliases is refused with ``conversation-full``
and sends nothing, through the executor and the MCP server; the call let
through registers all its ids (the limit is soft); a store without
``max_aliases`` gets the default."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

import grpc
import grpc.aio
import pytest
import redis.asyncio
from conftest import Servers
from mcp import Client
from redis_server import RedisServer, running_redis
from test_mcp import MODERN, error_text, mcp_tools
from test_mcp_security import client_as, serving
from toolset import ALIASES, METHODS, create_args, create_json

from ai_tools_runtime import (
    DEFAULT_MAX_ALIASES,
    AsyncExecutor,
    ConversationExecutor,
    ConversationStore,
    MemoryConversationStore,
    ToolError,
)
from ai_tools_runtime.mcp import CONVERSATION_META_KEY, McpToolServer, conversation_key
from ai_tools_runtime.redis import RedisConversationStore

MakeStore = Callable[[int], ConversationStore]


def full_text(handle: str | None, count: int) -> str:
    """The text of conversation-full; ``handle`` None: the model holds none."""
    named = "this conversation" if handle is None else f'conversation "{handle}"'
    return (
        f"{named} holds {count} aliases, its limit: "
        "start a new conversation (this call was not sent)"
    )


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    with running_redis() as server:
        yield server


@pytest.fixture(params=["memory", "redis"])
async def make_store(
    request: pytest.FixtureRequest, redis_server: RedisServer
) -> AsyncIterator[MakeStore]:
    if request.param == "memory":
        yield lambda limit: MemoryConversationStore(max_aliases=limit)
        return
    client = redis.asyncio.Redis.from_url(redis_server.url)
    yield lambda limit: RedisConversationStore(client, max_aliases=limit)
    await client.aclose()


@pytest.fixture
async def aio_channel(servers: Servers) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(servers.target) as ch:
        yield ch


async def test_a_full_conversation_sends_nothing(
    make_store: MakeStore, aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    store = make_store(1)
    assert getattr(store, "max_aliases", None) == 1
    executor = ConversationExecutor(AsyncExecutor(aio_channel, METHODS, ALIASES), store)
    handle = await executor.start()
    # The call let through registers every id of its result: 3 accounts, 3 contacts.
    items = json.loads(await executor.execute(handle, "accounts_watch", '{"count":3}'))
    assert [i["id"] for i in items] == ["acct-1", "acct-2", "acct-3"]
    sent = servers.received()
    with pytest.raises(ToolError) as caught:
        await executor.execute(handle, "accounts_create", create_json("B"))
    assert str(caught.value) == full_text(handle, 6)
    assert caught.value.reason == "conversation-full"
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert servers.received() == sent
    # a new conversation has room
    fresh = await executor.start()
    out = json.loads(await executor.execute(fresh, "accounts_create", create_json("C")))
    assert out["account"]["id"] == "acct-1"


class PlainStore:
    """A store of an application, written without ``max_aliases``."""

    def __init__(self) -> None:
        self.inner = MemoryConversationStore(max_aliases=10 * DEFAULT_MAX_ALIASES)

    async def create(self, suffix: str = "") -> str:
        return await self.inner.create(suffix)

    async def load(self, handle: str) -> tuple[str, str]:
        return await self.inner.load(handle)

    async def register(self, handle: str, epoch: str, pairs: Sequence[tuple[str, str]]) -> str:
        return await self.inner.register(handle, epoch, pairs)

    async def delete(self, handle: str) -> None:
        await self.inner.delete(handle)


async def test_a_store_without_max_aliases_has_the_default(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    assert DEFAULT_MAX_ALIASES == 1000
    store = PlainStore()
    executor = ConversationExecutor(AsyncExecutor(aio_channel, METHODS, ALIASES), store)
    handle = await executor.start()
    epoch, _ = await store.load(handle)
    pairs = [("acct", f"00000000-0000-4000-8000-{i:012d}") for i in range(DEFAULT_MAX_ALIASES - 1)]
    await store.register(handle, epoch, pairs)
    out = json.loads(await executor.execute(handle, "accounts_create", create_json("A")))
    assert out["account"]["id"] == f"acct-{DEFAULT_MAX_ALIASES}"
    sent = servers.received()
    with pytest.raises(ToolError) as caught:
        await executor.execute(handle, "accounts_create", create_json("B"))
    assert str(caught.value) == full_text(handle, DEFAULT_MAX_ALIASES)
    assert servers.received() == sent


@pytest.mark.parametrize("limit", [0, -1, 1.5, True, "10"])
def test_max_aliases_must_be_a_positive_integer(limit: Any) -> None:
    text = f"max_aliases must be a positive integer, got {limit!r}"
    with pytest.raises(ValueError) as caught:
        MemoryConversationStore(max_aliases=limit)
    assert str(caught.value) == text
    with pytest.raises(ValueError) as caught:
        RedisConversationStore(redis.asyncio.Redis(), max_aliases=limit)
    assert str(caught.value) == text


@pytest.mark.parametrize("mode", ["legacy", MODERN, "session"])
async def test_a_full_conversation_over_mcp(
    make_store: MakeStore, aio_channel: grpc.aio.Channel, servers: Servers, mode: str
) -> None:
    # In memory (as stdio) and in a 2025-11-25 HTTP session the conversation
    # is the connection's: the model holds no handle of it, the text names none.
    store = make_store(1)
    server = McpToolServer(name="vectors", conversation_store=store)
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    async with serving(server) as url:
        connect = (
            client_as(url, None, "legacy")
            if mode == "session"
            else Client(server.sdk_server, mode=mode)
        )
        async with connect as client:
            first = await client.call_tool("accounts_create", create_args("A"))
            assert not first.is_error and CONVERSATION_META_KEY not in (first.meta or {})
            sent = servers.received()
            text = await error_text(client, "accounts_create", create_args("B"))
    assert text == full_text(None, 1)
    assert servers.received() == sent


async def test_a_full_conversation_names_the_handle_the_model_passed(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    # Over stateless HTTP the stored handle of an authorized caller ends with
    # its subject's suffix; the message names the handle the model knows.
    store = MemoryConversationStore(max_aliases=1)
    server = McpToolServer(name="vectors", conversation_store=store)
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    async with serving(server) as url, client_as(url, "alice", MODERN) as client:
        first = await client.call_tool("accounts_create", create_args("A"))
        assert first.meta is not None
        handle = first.meta[CONVERSATION_META_KEY]
        sent = servers.received()
        text = await error_text(
            client, "accounts_create", create_args("B"), meta={CONVERSATION_META_KEY: handle}
        )
        count = len(json.loads((await store.load(conversation_key(handle, "alice")))[1])["aliases"])
        assert text == full_text(handle, count)
        assert servers.received() == sent
