"""scripts/mcp_server.py --search-first (McpToolServer(search_first=...)
over the generated TOOL_SEARCH), a real process against the real test
server, driven by the official Python MCP client: over stdio and a
2025-11-25 HTTP session the list grows with a search and the client is
told; over 2026-07-28 call_tool calls the found tools, link-1 resolved to
the link's UUID (the server answers that link)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any, cast

import anyio
import mcp_types
import pytest
from helpers import new_uuid
from mcp import Client, StdioServerParameters
from test_mcp import META_KEY, MODERN, SCRIPT, UUID, env, http_process, link_args


class Changes:
    """A client message handler noting tools/list_changed."""

    def __init__(self) -> None:
        self.event = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, mcp_types.ToolListChangedNotification):
            self.event.set()

    async def wait(self) -> None:
        with anyio.fail_after(10):
            await self.event.wait()
        self.event = anyio.Event()


async def names(client: Client) -> list[str]:
    return [t.name for t in (await client.list_tools()).tools]


async def found(client: Client, args: dict[str, Any]) -> list[dict[str, Any]]:
    result = await client.call_tool("search_tools", args)
    block = result.content[0]
    assert isinstance(block, mcp_types.TextContent)
    assert not result.is_error, block.text
    value = json.loads(block.text)
    assert result.structured_content == value
    tools: list[dict[str, Any]] = value["tools"]
    return tools


def in_conversation(handle: str) -> mcp_types.RequestParamsMeta:
    """The ``_meta`` passing the conversation handle back."""
    return cast(mcp_types.RequestParamsMeta, {META_KEY: handle})


def text_of(result: mcp_types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mcp_types.TextContent)
    return block.text


async def test_stdio_lists_what_a_search_found(server_addr: str) -> None:
    changes = Changes()
    params = StdioServerParameters(
        command=sys.executable,
        args=[SCRIPT, "--grpc", server_addr, "--search-first", "--always-loaded", "ping"],
        env=env(),
    )
    async with Client(params, mode="legacy", message_handler=changes) as client:
        assert await names(client) == ["search_tools", "ping"]
        tools = await found(client, {"query": "create a short link", "limit": 1})
        assert [t["name"] for t in tools] == ["links_create"]
        assert "inputSchema" not in tools[0]
        await changes.wait()
        assert await names(client) == ["search_tools", "ping", "links_create"]
        ws = new_uuid()
        assert not (await client.call_tool("links_create", link_args(ws, 1))).is_error
        # A tool not listed is still called directly.
        got = await client.call_tool("links_get", {"id": "link-1"})
        assert '"target_url":"https://example.com/1"' in text_of(got)


@pytest.fixture(scope="module")
def search_first_url(server_addr: str) -> Iterator[str]:
    with http_process(server_addr, "--search-first") as url:
        yield url


async def test_http_session_is_told(search_first_url: str) -> None:
    changes = Changes()
    async with Client(search_first_url, mode="legacy", message_handler=changes) as client:
        assert await names(client) == ["search_tools"]
        await found(client, {"query": "get a link", "limit": 2})
        await changes.wait()
        listed = await names(client)
        assert listed[:2] == ["search_tools", "links_get"] and len(listed) == 3


async def test_http_2026_call_tool_reaches_the_server(search_first_url: str) -> None:
    ws = new_uuid()
    async with Client(search_first_url, mode=MODERN) as client:
        assert await names(client) == ["search_tools", "call_tool"]
        [tool] = await found(client, {"query": "get a link", "limit": 1})
        assert tool["name"] == "links_get" and "id" in tool["inputSchema"]["properties"]
        first = await client.call_tool(
            "call_tool", {"name": "links_create", "arguments": link_args(ws, 2)}
        )
        assert not first.is_error, text_of(first)
        assert first.meta is not None
        handle = first.meta[META_KEY]
        got = await client.call_tool(
            "call_tool",
            {"name": "links_get", "arguments": {"id": "link-1"}},
            meta=in_conversation(handle),
        )
        assert not got.is_error, text_of(got)
        text = text_of(got)
        assert '"target_url":"https://example.com/2"' in text
        assert UUID.search(text.replace(ws, "")) is None
        unknown = await client.call_tool(
            "call_tool",
            {"name": "links_get", "arguments": {"id": "link-7"}},
            meta=in_conversation(handle),
        )
        assert unknown.is_error and 'unknown alias "link-7"' in text_of(unknown)
        nope = await client.call_tool("call_tool", {"name": "links_purge", "arguments": {}})
        assert nope.is_error and text_of(nope) == (
            'unknown tool "links_purge": call search_tools to find a tool, '
            "then call_tool with one of the names it gives"
        )
        direct = await client.call_tool("links_get", {"id": "link-1"}, meta=in_conversation(handle))
        assert not direct.is_error, text_of(direct)
