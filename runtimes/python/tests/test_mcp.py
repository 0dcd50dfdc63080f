"""ai_tools_runtime.mcp: an McpToolServer of the vectors' tools against the
in-process gRPC server (real socket), driven by the official mcp client:
in memory (both protocol revisions: one conversation per connection) and
over streamable HTTP on a real socket (2025-11-25 sessions, 2026-07-28
handles)."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import socket
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import fields
from typing import Any

import anyio
import grpc
import grpc.aio
import mcp_types
import pytest
from aitest.v1 import vectors_pb2_grpc
from conftest import (
    AccountServer,
    Servers,
    StatusInjector,
    bad_request,
    load_vectors,
    status_bin,
    wait_for_port,
)
from google.protobuf import any_pb2, descriptor_pb2, struct_pb2, wrappers_pb2
from mcp import Client
from mcp.shared.exceptions import MCPError
from toolset import ALIASES, METHODS, create_args

from ai_tools_runtime import AliasConfig, ResponseAliases, ResponseAliasTool, ToolMethod
from ai_tools_runtime._proto_json import es_number, message_json, shortest_float32
from ai_tools_runtime.mcp import (
    CONVERSATION_ARGUMENT_DESCRIPTION,
    CONVERSATION_META_KEY,
    ExtraProperty,
    McpCall,
    McpToolMethod,
    McpToolServer,
    MemoryConversationStore,
    current_call,
    serve_http,
)
from ai_tools_runtime.mcp import _call_conversations as call_conversations
from ai_tools_runtime.mcp._call_result import success_result

UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
MODERN = "2026-07-28"
OBJECT = {"type": "object"}


# The hints of a few tools: all four (as generated), two, none (hand-written).
HINTS: dict[str, dict[str, bool]] = {
    "accounts_list": {
        "read_only_hint": True,
        "destructive_hint": False,
        "idempotent_hint": True,
        "open_world_hint": False,
    },
    "accounts_merge": {"destructive_hint": True, "idempotent_hint": True},
}


def mcp_tools() -> list[McpToolMethod]:
    return [
        McpToolMethod(
            **{f.name: getattr(m, f.name) for f in fields(ToolMethod)},
            output_schema=OBJECT,
            **HINTS.get(m.tool.name, {}),
            output_wrap_key="messages" if m.server_streaming else "",
        )
        for m in METHODS
    ]


def text_of(result: mcp_types.CallToolResult, i: int = 0) -> str:
    block = result.content[i]
    assert isinstance(block, mcp_types.TextContent)
    return block.text


async def call(client: Client, name: str, args: dict[str, Any], **kw: Any) -> Any:
    result = await client.call_tool(name, args, **kw)
    assert not result.is_error, text_of(result)
    value = json.loads(text_of(result))
    assert result.structured_content == value
    return value


async def error_text(client: Client, name: str, args: dict[str, Any], **kw: Any) -> str:
    result = await client.call_tool(name, args, **kw)
    assert result.is_error
    assert len(result.content) == 1
    return text_of(result)


@pytest.fixture
async def aio_channel(servers: Servers) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(servers.target) as ch:
        yield ch


@pytest.fixture
def tool_server(aio_channel: grpc.aio.Channel) -> McpToolServer:
    server = McpToolServer(name="vectors")
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    return server


# -- tools/list ----------------------------------------------------------------


async def test_list_tools(tool_server: McpToolServer) -> None:
    async with Client(tool_server.sdk_server) as client:
        tools = (await client.list_tools()).tools
    names = [t.name for t in tools]
    assert names == sorted(m.tool.name for m in METHODS)
    by_name = {t.name: t for t in tools}
    for m in METHODS:
        listed = by_name[m.tool.name]
        assert listed.description == m.tool.description
        assert listed.input_schema == m.tool.schema()
        assert listed.output_schema == OBJECT
    # Every hint a method sets, false ones too, in MCP's order; none: no annotations.
    assert _hints(by_name["accounts_list"]) == [
        ("readOnlyHint", True),
        ("destructiveHint", False),
        ("idempotentHint", True),
        ("openWorldHint", False),
    ]
    assert _hints(by_name["accounts_merge"]) == [
        ("destructiveHint", True),
        ("idempotentHint", True),
    ]
    assert by_name["accounts_create"].annotations is None


def _hints(tool: mcp_types.Tool) -> list[tuple[str, Any]]:
    """The annotations as the listing's JSON writes them, in order."""
    assert tool.annotations is not None
    return list(tool.annotations.model_dump(by_alias=True, exclude_none=True).items())


def test_extra_and_handle_properties_in_every_schema(aio_channel: grpc.aio.Channel) -> None:
    server = McpToolServer(
        name="vectors",
        extra_properties=[
            ExtraProperty("tenant", "The tenant.", required=True),
            ExtraProperty("reason", "Why."),
        ],
        handle_argument=True,
    )
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    nullable = [{"type": "string"}, {"type": "null"}]
    for tool in server.list_tools():
        method = next(m for m in METHODS if m.tool.name == tool.name)
        want = method.tool.schema()
        props = tool.input_schema["properties"]
        assert props["tenant"] == {"anyOf": nullable, "description": "The tenant."}
        assert props["reason"] == {"anyOf": nullable, "description": "Why."}
        assert props["conversation"] == {
            "anyOf": nullable,
            "description": CONVERSATION_ARGUMENT_DESCRIPTION,
        }
        own = list(want.get("required", []))
        if method.tool.strict:
            assert tool.input_schema["required"] == [*own, "tenant", "reason", "conversation"]
            assert tool.input_schema["additionalProperties"] is False
        else:
            assert tool.input_schema["required"] == [*own, "tenant"]
        assert {k: v for k, v in props.items() if k in want["properties"]} == want["properties"]


def test_a_property_that_clashes_is_refused(aio_channel: grpc.aio.Channel) -> None:
    server = McpToolServer(name="vectors", extra_properties=[ExtraProperty("source_id", "x")])
    with pytest.raises(
        ValueError,
        match='tool "accounts_merge" already has a property "source_id"',
    ):
        server.add_tools(mcp_tools(), ALIASES, aio_channel)
    with pytest.raises(ValueError, match="declared twice"):
        McpToolServer(name="v", extra_properties=[ExtraProperty("a", ""), ExtraProperty("a", "")])
    with pytest.raises(ValueError, match="added twice"):
        s = McpToolServer(name="v")
        s.add_tools(mcp_tools(), ALIASES, aio_channel)
        s.add_tools(mcp_tools(), ALIASES, aio_channel)


def test_negative_limits_are_refused_when_the_server_is_made() -> None:
    with pytest.raises(ValueError, match=r"max_result_bytes must be 0 \(no limit\) or more"):
        McpToolServer(max_result_bytes=-1)
    with pytest.raises(ValueError, match=r"timeout must be 0 \(no deadline\) or a positive"):
        McpToolServer(timeout=-0.5)
    McpToolServer(max_result_bytes=0, timeout=0)  # no limit, no deadline


# -- calls, in memory: one conversation per connection --------------------------


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_aliases_across_calls(
    tool_server: McpToolServer, servers: Servers, mode: str
) -> None:
    async with Client(tool_server.sdk_server, mode=mode) as client:
        first = await call(client, "accounts_create", {**create_args("A"), "note_count": 0})
        account = first["account"]
        assert account["id"] == "acct-1"
        # the MCP encoding: proto names, fields at their default written
        assert account["owner_id"] == "" and account["notes"] == [] and account["tags"] == {}
        await call(client, "accounts_create", create_args("B"))
        merged = await call(
            client, "accounts_merge", {"source_id": "acct-1", "target_id": "acct-2", "note": ""}
        )
        assert merged["received_source_id"] == "acct-1"
        received = servers.accounts.received[-1]
        assert UUID.fullmatch(received.source_id)
        assert received.source_id == next(iter(servers.accounts.accounts))


async def test_each_connection_has_its_own_aliases(tool_server: McpToolServer) -> None:
    async with Client(tool_server.sdk_server) as one, Client(tool_server.sdk_server) as two:
        await call(one, "accounts_create", create_args("A"))
        await call(two, "accounts_create", create_args("B"))
        await call(two, "accounts_create", create_args("C"))
        text = await error_text(
            one, "accounts_merge", {"source_id": "acct-2", "target_id": "acct-1", "note": ""}
        )
        assert text == (
            "invalid arguments, nothing was sent:\n"
            '- "source_id": unknown alias "acct-2"; valid acct aliases: acct-1'
        )


class Clock:
    """A store clock that a test moves on."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# The model never saw the handle of its connection's or session's conversation.
EXPIRED = "this conversation expired or was lost: start a new conversation"
MERGE_ACCT_1 = {"source_id": "acct-1", "target_id": "", "note": ""}


async def expires_once(client: Client, clock: Clock) -> None:
    """A conversation that expired fails the next call once, rather than
    renumbering under the aliases the model holds (issue 12 point 4); the
    call after starts a new conversation, numbering from 1."""
    await call(client, "accounts_create", create_args("A"))
    await call(client, "accounts_create", create_args("B"))
    clock.now += 120
    assert await error_text(client, "accounts_merge", MERGE_ACCT_1) == EXPIRED
    created = await call(client, "accounts_create", create_args("C"))
    assert created["account"]["id"] == "acct-1"
    merged = await call(client, "accounts_merge", MERGE_ACCT_1)
    assert merged["received_source_id"] == "acct-1"


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_a_connection_whose_conversation_expired_is_told_once(
    aio_channel: grpc.aio.Channel, mode: str
) -> None:
    clock = Clock()
    store = MemoryConversationStore(idle_ttl_seconds=60, clock=clock)
    server = McpToolServer(name="vectors", conversation_store=store)
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    async with Client(server.sdk_server, mode=mode) as client:
        await expires_once(client, clock)
        assert len(store) == 1
    # the connection's conversation ends with it
    assert len(store) == 0


async def test_a_session_whose_conversation_expired_is_told_once(servers: Servers) -> None:
    clock = Clock()
    store = MemoryConversationStore(idle_ttl_seconds=60, clock=clock)
    async with (
        serving_http(servers.target, conversation_store=store) as url,
        Client(url, mode="legacy") as client,
    ):
        await expires_once(client, clock)


class LossyStore(MemoryConversationStore):
    """A memory store that loses its conversations at ``lose`` ("load" or
    "register") once it is set."""

    lose = ""

    async def load(self, handle: str) -> tuple[str, str]:
        if self.lose == "load":
            await self.delete(handle)
        return await super().load(handle)

    async def register(self, handle: str, epoch: str, pairs: Sequence[tuple[str, str]]) -> str:
        if self.lose == "register":
            await self.delete(handle)
        return await super().register(handle, epoch, pairs)


@pytest.mark.parametrize("lose", ["load", "register"])
async def test_a_session_whose_conversation_was_lost_names_no_handle(
    servers: Servers, lose: str
) -> None:
    # A 2025-11-25 HTTP session's conversation deleted from the store before
    # the call reads it, or while it runs (its ids' registration).
    store = LossyStore()
    async with (
        serving_http(servers.target, conversation_store=store) as url,
        Client(url, mode="legacy") as client,
    ):
        await call(client, "accounts_create", create_args("A"))
        store.lose = lose
        assert await error_text(client, "accounts_create", create_args("B")) == EXPIRED
        store.lose = ""
        created = await call(client, "accounts_create", create_args("C"))
        assert created["account"]["id"] == "acct-1"


async def test_a_handle_conversation_lost_in_a_call_is_named_as_the_model_knows_it(
    servers: Servers,
) -> None:
    # Stateless HTTP (2026-07-28): one made for the call was never shown (the
    # call failed); a passed handle gets the unknown-handle text, not the key.
    store = LossyStore()
    async with (
        serving_http(servers.target, conversation_store=store) as url,
        Client(url, mode=MODERN) as client,
    ):
        store.lose = "register"
        assert await error_text(client, "accounts_create", create_args("A")) == EXPIRED
        store.lose = ""
        first = await client.call_tool("accounts_create", create_args("B"))
        assert first.meta is not None
        handle = first.meta[CONVERSATION_META_KEY]
        store.lose = "register"
        text = await error_text(
            client, "accounts_create", create_args("C"), meta={CONVERSATION_META_KEY: handle}
        )
        assert text == (
            f'unknown or expired conversation "{handle}"; '
            'call again without "conversation" to start a new one'
        )


async def test_a_session_dropped_from_the_list_keeps_its_conversation(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(call_conversations, "MAX_SESSIONS", 1)
    async with (
        serving_http(servers.target) as url,
        Client(url, mode="legacy") as one,
        Client(url, mode="legacy") as two,
    ):
        await call(one, "accounts_create", create_args("A"))
        await call(two, "accounts_create", create_args("B"))
        merged = await call(one, "accounts_merge", MERGE_ACCT_1)
        assert merged["received_source_id"] == "acct-1"


async def test_errors_are_results(tool_server: McpToolServer, servers: Servers) -> None:
    async with Client(tool_server.sdk_server) as client:
        await call(client, "accounts_create", create_args("A"))
        # an unknown alias: nothing sent
        before = servers.received()
        text = await error_text(
            client, "accounts_merge", {"source_id": "acct-9", "target_id": "acct-1", "note": ""}
        )
        assert 'unknown alias "acct-9"' in text
        # bad arguments
        text = await error_text(client, "accounts_create", {**create_args(), "name": 5})
        assert text == 'invalid arguments, nothing was sent:\n- "name": expected a string, got 5'
        assert servers.received() == before
        # a server error: the executors' text, aliasified
        servers.accounts.accounts.clear()
        text = await error_text(
            client, "accounts_merge", {"source_id": "acct-1", "target_id": "acct-1", "note": ""}
        )
        assert text == 'rpc error: code = NotFound desc = account "acct-1" not found'
        assert UUID.search(text) is None
        # an unknown tool is the one protocol error
        with pytest.raises(MCPError) as err:
            await client.call_tool("accounts_nope", {})
        assert err.value.code == mcp_types.INVALID_PARAMS
        assert 'unknown tool "accounts_nope"' in err.value.message


async def test_server_error_field_violations_as_lines(
    tool_server: McpToolServer, servers: Servers
) -> None:
    # The executors' text: the status line, then one line per field
    # violation of a google.rpc.BadRequest (other details are not shown).
    from google.protobuf import duration_pb2

    duration = any_pb2.Any()
    duration.Pack(duration_pb2.Duration(seconds=3))
    details = [duration, bad_request([("name", "too short"), ("", "not today")])]
    servers.inject.fail_next(
        grpc.StatusCode.INVALID_ARGUMENT,
        "bad",
        (("grpc-status-details-bin", status_bin(3, "bad", details)),),
    )
    async with Client(tool_server.sdk_server) as client:
        text = await error_text(client, "accounts_create", create_args("A"))
    assert text == (
        'rpc error: code = InvalidArgument desc = bad\n- "name": too short\n- not today'
    )


async def test_server_streaming_is_wrapped(tool_server: McpToolServer) -> None:
    async with Client(tool_server.sdk_server) as client:
        value = await call(client, "accounts_watch", {"count": 3})
    assert [m["id"] for m in value["messages"]] == ["acct-1", "acct-2", "acct-3"]


async def test_a_failing_handler_is_an_error_result(servers: Servers) -> None:
    server = McpToolServer(name="vectors")
    # a closed grpc.aio channel raises grpc's own UsageError, not a ToolError
    channel = grpc.aio.insecure_channel(servers.target)
    await channel.close()
    server.add_tools(mcp_tools(), ALIASES, channel)
    async with Client(server.sdk_server) as client:
        text = await error_text(client, "accounts_create", create_args("A"))
    assert text == "Channel is closed."


# -- extras, metadata, context --------------------------------------------------


async def test_extras_go_to_the_call_not_the_request(
    servers: Servers, aio_channel: grpc.aio.Channel
) -> None:
    seen: list[McpCall | None] = []

    def metadata(c: McpCall) -> list[tuple[str, str | bytes]]:
        seen.append(current_call())
        return [("x-tenant", c.extras.get("tenant", ""))]

    server = McpToolServer(
        name="vectors",
        extra_properties=[ExtraProperty("tenant", "The tenant.", required=True)],
        metadata=metadata,
    )
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    async with Client(server.sdk_server) as client:
        await call(client, "accounts_create", {**create_args("A"), "tenant": "t-1"})
        text = await error_text(client, "accounts_create", {**create_args("A"), "tenant": 5})
        assert text == 'invalid arguments, nothing was sent:\n- "tenant": must be a string'
        text = await error_text(client, "accounts_create", {**create_args("A"), "tenant": None})
        assert text == 'invalid arguments, nothing was sent:\n- "tenant": missing required field'
    assert seen == [McpCall("accounts_create", {"tenant": "t-1"}, None)]
    assert ("x-tenant", "t-1") in servers.accounts.metadata[0]
    assert current_call() is None


# -- in process -------------------------------------------------------------------


async def test_in_process_servicer() -> None:
    accounts = AccountServer(StatusInjector())
    server = McpToolServer(name="vectors")
    server.add_in_process_tools(
        [t for t in mcp_tools() if t.tool.name.startswith("accounts_")],
        ALIASES,
        lambda s: vectors_pb2_grpc.add_AccountServiceServicer_to_server(accounts, s),
    )
    for mode in ("legacy", MODERN):
        async with Client(server.sdk_server, mode=mode) as client:
            value = await call(client, "accounts_create", create_args("A"))
            assert value["account"]["id"] == "acct-1"
            merged = await call(
                client, "accounts_merge", {"source_id": "acct-1", "target_id": "", "note": ""}
            )
            assert merged["received_source_id"] == "acct-1"
    assert len(accounts.received) == 4


def test_alias_configurations_are_merged(aio_channel: grpc.aio.Channel) -> None:
    server = McpToolServer(name="vectors")
    tools = mcp_tools()
    server.add_tools(tools[:1], ALIASES, aio_channel)
    other = type(ALIASES)(frozenset({"extra"}), ResponseAliases())
    server.add_tools(tools[1:2], other, aio_channel)
    merged = server.create_alias_manager().config
    assert merged.known_alias_prefixes == ALIASES.known_alias_prefixes | {"extra"}
    assert merged.response_aliases.tools == ALIASES.response_aliases.tools
    clash = ResponseAliases(tools={"accounts_create": ResponseAliasTool(message="other")})
    with pytest.raises(ValueError, match="registers its response ids differently"):
        server.add_tools(tools[2:3], type(ALIASES)(frozenset(), clash), aio_channel)


def test_name_prefix(aio_channel: grpc.aio.Channel) -> None:
    server = McpToolServer(name="vectors")
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    server.add_tools(mcp_tools(), ALIASES, aio_channel, name_prefix="b_")
    names = [t.name for t in server.list_tools()]
    assert "b_accounts_create" in names and "accounts_create" in names
    with pytest.raises(ValueError, match="shorten the name prefix"):
        server.add_tools(mcp_tools(), ALIASES, aio_channel, name_prefix="x" * 60)


def test_a_sync_channel_is_accepted(channel: grpc.Channel) -> None:
    server = McpToolServer(name="vectors")
    server.add_tools(mcp_tools(), ALIASES, channel)

    async def main() -> None:
        async with Client(server.sdk_server) as client:
            value = await call(client, "accounts_create", create_args("A"))
            assert value["account"]["id"] == "acct-1"

    anyio.run(main)


# -- streamable HTTP on a real socket ---------------------------------------------------


@asynccontextmanager
async def serving_http(target: str, **options: Any) -> AsyncIterator[str]:
    """An McpToolServer of the vectors' tools on streamable HTTP (uvicorn on a
    free port); yields its URL."""
    async with serving(McpToolServer(name="vectors", **options), target) as url:
        yield url


@asynccontextmanager
async def serving(
    server: McpToolServer, target: str, aliases: AliasConfig = ALIASES
) -> AsyncIterator[str]:
    """``server`` with the vectors' tools added (with ``aliases``), on
    streamable HTTP (uvicorn on a free port); yields its URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    async with grpc.aio.insecure_channel(target) as channel:
        server.add_tools(mcp_tools(), aliases, channel)
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: serve_http(server, port=port, sock=sock))
            await wait_for_port(port)
            yield f"http://127.0.0.1:{port}/mcp"
            tg.cancel_scope.cancel()
    sock.close()


async def test_http_sessions_hold_the_conversation(servers: Servers) -> None:
    async with (
        serving_http(servers.target) as url,
        Client(url, mode="legacy") as one,
        Client(url, mode="legacy") as two,
    ):
        assert one.protocol_version == "2025-11-25"
        result = await one.call_tool("accounts_create", create_args("A"))
        assert len(result.content) == 1
        assert CONVERSATION_META_KEY not in (result.meta or {})
        merged = await call(
            one, "accounts_merge", {"source_id": "acct-1", "target_id": "", "note": ""}
        )
        assert merged["received_source_id"] == "acct-1"
        text = await error_text(
            two, "accounts_merge", {"source_id": "acct-1", "target_id": "", "note": ""}
        )
        assert 'unknown alias "acct-1"' in text


async def test_http_handles_in_meta(servers: Servers) -> None:
    async with serving_http(servers.target) as url, Client(url, mode=MODERN) as client:
        assert client.protocol_version == MODERN
        tools = (await client.list_tools()).tools
        assert "conversation" not in tools[0].input_schema["properties"]
        first = await client.call_tool("accounts_create", create_args("A"))
        assert first.meta is not None
        handle = first.meta[CONVERSATION_META_KEY]
        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", handle)
        assert text_of(first, 1) == f"conversation: {handle}"
        # without the handle: a new conversation, which knows no acct-1
        text = await error_text(
            client, "accounts_merge", {"source_id": "acct-1", "target_id": "", "note": ""}
        )
        assert 'unknown alias "acct-1"' in text
        again = await client.call_tool(
            "accounts_merge",
            {"source_id": "acct-1", "target_id": "", "note": ""},
            meta={CONVERSATION_META_KEY: handle},
        )
        assert not again.is_error, text_of(again)
        assert json.loads(text_of(again))["received_source_id"] == "acct-1"
        assert again.meta is not None and again.meta[CONVERSATION_META_KEY] == handle
        text = await error_text(
            client, "accounts_create", create_args("A"), meta={CONVERSATION_META_KEY: "nope"}
        )
        assert text == (
            'unknown or expired conversation "nope"; '
            'call again without "conversation" to start a new one'
        )


async def test_a_conversation_minted_for_a_failed_call_is_deleted(servers: Servers) -> None:
    server = McpToolServer(name="vectors")
    async with serving(server, servers.target) as url, Client(url, mode=MODERN) as client:
        store = server.conversation_store
        assert isinstance(store, MemoryConversationStore)
        first = await client.call_tool("accounts_create", create_args("A"))
        assert first.meta is not None and len(store) == 1
        # no handle: a new conversation, which knows no acct-1, and is dropped
        text = await error_text(
            client, "accounts_merge", {"source_id": "acct-1", "target_id": "", "note": ""}
        )
        assert text.startswith('invalid arguments, nothing was sent:\n- "source_id": unknown alias')
        assert len(store) == 1
        # a failed call in a known conversation keeps it
        meta = {CONVERSATION_META_KEY: first.meta[CONVERSATION_META_KEY]}
        text = await error_text(
            client,
            "accounts_merge",
            {"source_id": "acct-9", "target_id": "", "note": ""},
            meta=meta,
        )
        assert text.startswith('invalid arguments, nothing was sent:\n- "source_id": unknown alias')
        assert len(store) == 1


async def test_no_conversation_without_alias_prefixes(servers: Servers) -> None:
    # Tools whose file declares no alias prefix remember nothing between
    # calls: no handle is minted, shown, listed or read (as the Go file
    # without aliases has no conversations), and nothing is stored.
    server = McpToolServer(name="vectors", handle_argument=True)
    async with (
        serving(server, servers.target, AliasConfig()) as url,
        Client(url, mode=MODERN) as client,
    ):
        tools = (await client.list_tools()).tools
        assert all("conversation" not in t.input_schema["properties"] for t in tools)
        first = await client.call_tool(
            "accounts_create", create_args("A"), meta={CONVERSATION_META_KEY: "nope"}
        )
        assert not first.is_error, text_of(first)
        assert len(first.content) == 1
        assert CONVERSATION_META_KEY not in (first.meta or {})
        account = json.loads(text_of(first))["account"]
        assert UUID.fullmatch(account["id"])
        store = server.conversation_store
        assert isinstance(store, MemoryConversationStore) and len(store) == 0


async def test_http_handles_as_an_argument(servers: Servers) -> None:
    async with (
        serving_http(servers.target, handle_argument=True) as url,
        Client(url, mode=MODERN) as client,
    ):
        tools = (await client.list_tools()).tools
        assert all("conversation" in t.input_schema["properties"] for t in tools)
        first = await client.call_tool(
            "accounts_create", {**create_args("A"), "conversation": None}
        )
        assert first.meta is not None
        handle = first.meta[CONVERSATION_META_KEY]
        value = await call(
            client,
            "accounts_merge",
            {"source_id": "acct-1", "target_id": "", "note": "", "conversation": handle},
        )
        assert value["received_source_id"] == "acct-1"
        text = await error_text(
            client, "accounts_create", {**create_args("A"), "conversation": "x"}
        )
        assert text.startswith('unknown or expired conversation "x"')


# -- the shared vectors of e2e/vectors/mcp (format in e2e/vectors/README.md) ------------

CALL_VECTORS = load_vectors("mcp")


def _setups() -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    """The cases of the vectors grouped by server setup: (id, setup, cases);
    the id names the extra properties ("!" when required)."""
    groups: dict[str, tuple[str, dict[str, Any], list[dict[str, Any]]]] = {}
    for vector in CALL_VECTORS:
        assert vector["tool"] == "accounts_watch"
        for case in vector["cases"]:
            key = json.dumps(case["server"], sort_keys=True)
            if key not in groups:
                server = case["server"]
                names = [
                    e["name"] + ("!" if e.get("required") else "")
                    for e in server.get("extraProperties", [])
                ]
                if server.get("handleArgument"):
                    names.append("handle argument")
                groups[key] = (f"{vector['name']}: {', '.join(names) or 'none'}", server, [])
            groups[key][2].append(case)
    return list(groups.values())


def _fill(values: Any, handles: dict[str, str]) -> Any:
    """``values`` with the strings "$h1" and "$h2" replaced by their handles."""
    if not isinstance(values, dict):
        return values
    return {k: handles.get(v, v) if isinstance(v, str) else v for k, v in values.items()}


async def raw_call_tool(
    client: Client, name: str, arguments: Any, meta: dict[str, Any] | None = None
) -> mcp_types.CallToolResult:
    """A ``tools/call`` with any ``arguments`` (an array, a string…), which
    the SDK's client refuses to send: its request built without validation."""
    import warnings

    params = mcp_types.CallToolRequestParams.model_construct(
        name=name, arguments=arguments, _meta=meta
    )
    request = mcp_types.CallToolRequest.model_construct(method="tools/call", params=params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic: "serialized value may not be as expected"
        return await client.session.send_request(request, mcp_types.CallToolResult)


@pytest.mark.parametrize(
    ("setup", "cases"), [(s, c) for _, s, c in _setups()], ids=[i for i, _, _ in _setups()]
)
async def test_call_argument_vectors(
    servers: Servers, setup: dict[str, Any], cases: list[dict[str, Any]]
) -> None:
    seen: list[McpCall] = []

    def metadata(c: McpCall) -> list[tuple[str, str | bytes]]:
        seen.append(c)
        return []

    extras = [
        ExtraProperty(e["name"], "", required=e.get("required", False))
        for e in setup.get("extraProperties", [])
    ]
    server = McpToolServer(
        name="vectors",
        extra_properties=extras,
        handle_argument=setup.get("handleArgument", False),
        metadata=metadata,
    )
    async with serving(server, servers.target) as url, Client(url, mode=MODERN) as client:
        store = server.conversation_store
        for case in cases:
            seen.clear()
            handles = {"$h1": await store.create(), "$h2": await store.create()}
            meta = _fill(case["meta"], handles) if "meta" in case else None
            arguments = _fill(case["arguments"], handles)
            if isinstance(arguments, dict) or arguments is None:
                result = await client.call_tool("accounts_watch", arguments, meta=meta)
            else:
                result = await raw_call_tool(client, "accounts_watch", arguments, meta)
            name = case["name"]
            if "expectError" in case:
                assert result.is_error, name
                assert len(result.content) == 1, name
                assert text_of(result) == case["expectError"], name
                assert seen == [], name
                continue
            expect = case["expect"]
            assert not result.is_error, f"{name}: {text_of(result)}"
            assert json.loads(text_of(result)) == {"messages": []}, name
            assert [dict(c.extras) for c in seen] == [expect["extras"]], name
            assert result.meta is not None, name
            handle = result.meta[CONVERSATION_META_KEY]
            assert seen[0].conversation == handle, name
            if expect["conversation"] == "new":
                assert re.fullmatch(r"[A-Za-z0-9_-]{22}", handle), name
                assert handle not in handles.values(), name
            else:
                assert handle == handles["$" + expect["conversation"]], name


def test_the_runtime_does_not_import_mcp() -> None:
    import subprocess
    import sys

    code = (
        "import sys, ai_tools_runtime; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_neither_the_runtime_nor_its_mcp_server_import_protovalidate() -> None:
    # The generated module makes the validator, only when a tool needs one;
    # McpToolServer makes one when such a tool is added.
    import subprocess
    import sys

    code = (
        "import sys, ai_tools_runtime, ai_tools_runtime.mcp; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('protovalidate', 'buf')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- the result's JSON, as Go's protojson writes it ------------------------------

# (x, what ECMAScript's JSON.stringify and Go's protojson print; Go keeps -0)
NUMBERS = [
    (0.0, "0"),
    (-0.0, "-0"),
    (1.0, "1"),
    (100.0, "100"),
    (0.1, "0.1"),
    (-2.5, "-2.5"),
    (1 / 3, "0.3333333333333333"),
    (1e20, "100000000000000000000"),
    (123456789012345680000.0, "123456789012345680000"),
    (1e21, "1e+21"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (0.00001, "0.00001"),
    (1e-6, "0.000001"),
    (1e-7, "1e-7"),
    (1.5e-7, "1.5e-7"),
    (5e-324, "5e-324"),
    (float(2**53 + 2), "9007199254740994"),
]


@pytest.mark.parametrize(("x", "text"), NUMBERS)
def test_numbers_as_ecmascript_prints_them(x: float, text: str) -> None:
    assert es_number(x) == text


def test_message_json_is_what_go_protojson_writes() -> None:
    # The expected texts are Go's protojson (google.golang.org/protobuf
    # v1.36.12, white space removed) for the same messages: fields in
    # declaration order (FieldDescriptorProto declares number before
    # extendee), Any's @type first, Struct keys sorted by their bytes.
    field = descriptor_pb2.FieldDescriptorProto(
        name="a",
        number=3,
        extendee=".x.Y",
        json_name="a",
        options=descriptor_pb2.FieldOptions(deprecated=True),
    )
    packed = any_pb2.Any()
    packed.Pack(field)
    struct = struct_pb2.Struct()
    struct.update({"z": 1.0, "a": [1e21, 1e-7, 0.5, 0.0], "é": "x", "B": True})
    option = descriptor_pb2.UninterpretedOption(
        double_value=1e16, positive_int_value=18446744073709551615
    )
    options = (
        '"options":{"deprecated":true,"targets":[],"edition_defaults":[],"uninterpreted_option":[]}'
    )
    fields = '"name":"a","number":3,"extendee":".x.Y"'
    any_type = '"@type":"type.googleapis.com/google.protobuf.FieldDescriptorProto"'
    assert message_json(field) == "{" + fields + ',"json_name":"a",' + options + "}"
    assert (
        message_json(packed) == "{" + any_type + "," + fields + ',"json_name":"a",' + options + "}"
    )
    assert message_json(packed, proto_names=False, defaults=False) == (
        "{" + any_type + "," + fields + ',"jsonName":"a","options":{"deprecated":true}}'
    )
    assert message_json(struct) == '{"B":true,"a":[1e+21,1e-7,0.5,0],"z":1,"é":"x"}'
    assert message_json(option) == (
        '{"name":[],"positive_int_value":"18446744073709551615","double_value":10000000000000000}'
    )


# float (32-bit) values as Go's protojson prints them: the shortest decimal
# that reads back as the same float32 (json_format keeps six digits).
FLOAT32S = [
    (2.802596928649634e-45, 3e-45),  # two steps above zero, a subnormal
    (1.401298464324817e-45, 1e-45),
    (3.4028234663852886e38, 3.4028235e38),
    (0.10000000149011612, 0.1),
    (-2.5, -2.5),
    (16777216.0, 16777216.0),
]


@pytest.mark.parametrize(("x", "shortest"), FLOAT32S)
def test_float32_shortest(x: float, shortest: float) -> None:
    assert shortest_float32(x) == shortest


def test_float_fields_as_go_writes_them() -> None:
    assert message_json(wrappers_pb2.FloatValue(value=2.8026e-45)) == "3e-45"
    assert message_json(wrappers_pb2.FloatValue(value=3.4e38)) == "3.4e+38"
    assert message_json(wrappers_pb2.FloatValue(value=-0.0)) == "-0"
    # A double keeps its own shortest digits.
    assert message_json(wrappers_pb2.DoubleValue(value=2.8026e-45)) == "2.8026e-45"


def test_negative_zero_stays_negative_in_structured_content() -> None:
    result = success_result('{"x":-0,"y":0,"z":[-0]}', "", None)
    content = result.structured_content
    assert content is not None
    assert content["y"] == 0 and isinstance(content["y"], int)
    for value in (content["x"], content["z"][0]):
        assert value == 0 and math.copysign(1.0, value) < 0


# -- issue 30: cancellation, result size, non-object arguments ----------------------

HOLD = {"count": -1}  # the test server holds the call until it is cancelled


async def wait_for(what: str, done: Any) -> None:
    with anyio.fail_after(10, shield=False):
        while not done():
            await anyio.sleep(0.01)
    assert done(), what


@pytest.mark.parametrize("channel_kind", ["aio", "sync"])
async def test_a_cancelled_call_cancels_the_grpc_call(servers: Servers, channel_kind: str) -> None:
    # notifications/cancelled (the SDK client sends it when the caller gives
    # up) cancels the gRPC call: the test server sees the cancellation.
    server = McpToolServer(name="vectors")
    channel: Any = (
        grpc.aio.insecure_channel(servers.target)
        if channel_kind == "aio"
        else grpc.insecure_channel(servers.target)
    )
    server.add_tools(mcp_tools(), ALIASES, channel)
    accounts = servers.accounts
    async with Client(server.sdk_server) as client, anyio.create_task_group() as tg:
        tg.start_soon(client.call_tool, "accounts_watch", HOLD)
        await wait_for("the call held", accounts.holding.is_set)
        tg.cancel_scope.cancel()
    await wait_for("the server saw the cancellation", lambda: accounts.cancelled == 1)
    await channel.close() if channel_kind == "aio" else channel.close()


async def test_a_result_over_the_limit_is_an_error_result(servers: Servers) -> None:
    async with serving_http(servers.target, max_result_bytes=500) as url, Client(url) as client:
        text = await error_text(client, "accounts_list", {"count": 20, "contacts_per_account": 0})
        assert text.startswith("result too large: ")
        assert text.endswith(
            " bytes, over the limit of 500; ask for less (a smaller page size or a filter)"
        )
        text = await error_text(client, "accounts_watch", {"count": 1000})
        assert text == (
            "result too large: more than 500 bytes; ask for less (a smaller page size or a filter)"
        )
    assert servers.accounts.cancelled == 0


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_an_http_call_given_up_cancels_the_grpc_call(servers: Servers, mode: str) -> None:
    # Over streamable HTTP the client's giving up (notifications/cancelled,
    # or its request dropped) cancels the gRPC call too.
    accounts = servers.accounts
    async with serving_http(servers.target) as url, Client(url, mode=mode) as client:
        async with anyio.create_task_group() as tg:
            tg.start_soon(client.call_tool, "accounts_watch", HOLD)
            await wait_for("the call held", accounts.holding.is_set)
            tg.cancel_scope.cancel()
        await wait_for("the server saw the cancellation", lambda: accounts.cancelled == 1)


async def test_an_http_request_dropped_cancels_the_grpc_call(servers: Servers) -> None:
    # A client that closes its connection mid-call, without a word (a raw
    # 2026-07-28 tools/call over a socket): the gRPC call is cancelled.
    accounts = servers.accounts
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
    }
    params = {"name": "accounts_watch", "arguments": HOLD, "_meta": meta}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    async with serving_http(servers.target) as url:
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            f"MCP-Protocol-Version: {MODERN}\r\nMcp-Method: tools/call\r\n"
            f"Mcp-Name: accounts_watch\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", port)) as connection:
            connection.sendall(head.encode() + body.encode())
            await wait_for("the call held", accounts.holding.is_set)
        await wait_for("the server saw the cancellation", lambda: accounts.cancelled == 1)


def test_a_tool_with_rules_needs_protovalidate(aio_channel: grpc.aio.Channel) -> None:
    # Here protovalidate cannot load (no buf.validate module in tests/gen):
    # adding a tool whose request has rules says so, naming the fix.
    tools = [dataclasses.replace(mcp_tools()[0], validate=True)]
    with pytest.raises(ValueError, match=r"need protovalidate \(.*\): pip install"):
        McpToolServer(name="vectors").add_tools(tools, ALIASES, aio_channel)

    class Validator:
        def collect_violations(self, message: object) -> list[object]:
            return []

    server = McpToolServer(name="vectors", validator=Validator())
    server.add_tools(tools, ALIASES, aio_channel)  # a validator given: none made
