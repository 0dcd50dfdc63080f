"""McpToolServer(search_first=...) driven by the official mcp client: in
memory (2025-11-25: the list grows with a search and the client is told;
2026-07-28: call_tool) and over streamable HTTP on a real socket (a
2025-11-25 session, 2026-07-28 with handles), against the in-process gRPC
server of the vectors' tools."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import grpc.aio
import mcp_types
import pytest
from conftest import Servers
from mcp import Client
from mcp.client.subscriptions import ToolsListChanged
from mcp.shared.exceptions import MCPError
from test_mcp import call, error_text, mcp_tools, serving
from toolset import ALIASES, create_args

from ai_tools_runtime import define_tool_search
from ai_tools_runtime.mcp import CONVERSATION_META_KEY, McpToolServer, SearchFirst

MODERN = "2026-07-28"

# A hand-made index of the vectors' six tools: "account" in four, "fixup" in
# two, one word of its own in each; "combine" means "merge".
SEARCH_DATA: dict[str, Any] = {
    "version": 1,
    "namespaces": [
        {
            "name": "AccountService",
            "description": "Accounts. Functions: CreateAccount, ListAccounts",
            "tools": [
                {"tool": "accounts_create", "function": "CreateAccount"},
                {"tool": "accounts_list", "function": "ListAccounts"},
                {"tool": "accounts_merge", "function": "MergeAccounts"},
                {"tool": "accounts_watch", "function": "WatchAccounts"},
            ],
        },
        {
            "name": "FixupService",
            "description": "Fix-ups.",
            "tools": [
                {"tool": "fixup_loose", "function": "Loose"},
                {"tool": "fixup_strict", "function": "Strict"},
            ],
        },
    ],
    "index": {
        "version": 2,
        "k1": 1.2,
        "b": 0.75,
        "names": [
            "accounts_create",
            "accounts_list",
            "accounts_merge",
            "accounts_watch",
            "fixup_loose",
            "fixup_strict",
        ],
        "norms": [1.2] * 6,
        "idf": {
            "account": 0.1,
            "create": 1.0,
            "list": 1.0,
            "merge": 1.0,
            "watch": 1.0,
            "fixup": 0.5,
            "loose": 1.0,
            "strict": 1.0,
        },
        "postings": {
            "account": [[0, 1], [1, 1], [2, 1], [3, 1]],
            "create": [[0, 1]],
            "list": [[1, 1]],
            "merge": [[2, 1]],
            "watch": [[3, 1]],
            "fixup": [[4, 1], [5, 1]],
            "loose": [[4, 1]],
            "strict": [[5, 1]],
        },
        "stopWords": ["the"],
        "queryTerms": {"accounts": ["account"], "combine": ["merge"]},
    },
}
SEARCH = define_tool_search(json.dumps(SEARCH_DATA))

GROUPS = (
    "\nTool groups:\n- AccountService: Accounts. Functions: CreateAccount, ListAccounts"
    "\n- FixupService: Fix-ups."
)
INTRO = "Find this server's tools by what you want to do, in a few words. "


class Changes:
    """A client message handler counting tools/list_changed."""

    def __init__(self) -> None:
        self.count = 0
        self.event = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, mcp_types.ToolListChangedNotification):
            self.count += 1
            self.event.set()

    async def wait(self) -> None:
        with anyio.fail_after(5):
            await self.event.wait()
        self.event = anyio.Event()


def search_first(**options: Any) -> SearchFirst:
    return SearchFirst(search=SEARCH, **options)


@asynccontextmanager
async def search_server(servers: Servers, **options: Any) -> AsyncIterator[McpToolServer]:
    async with grpc.aio.insecure_channel(servers.target) as channel:
        server = McpToolServer(name="vectors", **options)
        server.add_tools(mcp_tools(), ALIASES, channel)
        yield server


def tools_description(name: str) -> str:
    return next(m.tool.description for m in mcp_tools() if m.tool.name == name)


async def names(client: Client) -> list[str]:
    return [t.name for t in (await client.list_tools()).tools]


async def test_a_connection_lists_what_its_searches_found(servers: Servers) -> None:
    changes = Changes()
    options = {"search_first": search_first(always_loaded=["accounts_watch"])}
    async with (
        search_server(servers, **options) as server,
        Client(server.sdk_server, mode="legacy", message_handler=changes) as client,
        Client(server.sdk_server, mode="legacy") as other,
    ):
        caps = client.server_capabilities.tools
        assert caps is not None and caps.list_changed is True
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["search_tools", "accounts_watch"]
        search = tools[0]
        assert search.description == (
            INTRO
            + "The tools found are added to your tool list: call them as any other tool."
            + GROUPS
        )
        assert search.input_schema["properties"]["limit"]["description"] == (
            "The most tools to find; 5 by default."
        )
        found = await call(client, "search_tools", {"query": "combine the accounts"})
        assert [t["name"] for t in found["tools"]] == [
            "accounts_merge",
            "accounts_create",
            "accounts_list",
            "accounts_watch",
        ]
        assert found["tools"][0] == {
            "name": "accounts_merge",
            "description": "Merge one account into another.",
        }
        await changes.wait()
        assert await names(client) == [
            "search_tools",
            "accounts_watch",
            "accounts_merge",
            "accounts_create",
            "accounts_list",
        ]
        # Found again: nothing joins, nobody is told, nothing reorders.
        await call(client, "search_tools", {"query": "list accounts", "limit": 1})
        assert changes.count == 1
        assert (await names(client))[2] == "accounts_merge"
        # Another connection has its own list; an unlisted tool is still called.
        assert await names(other) == ["search_tools", "accounts_watch"]
        created = await call(other, "accounts_create", create_args("A"))
        assert created["account"]["id"] == "acct-1"


async def test_a_2026_connection_that_does_not_listen_gets_call_tool(servers: Servers) -> None:
    """A 2026-07-28 connection that does not listen cannot be told its list
    grew: it gets call_tool and the found tools' schemas, and nothing joins
    its list."""
    async with (
        search_server(servers, search_first=search_first()) as server,
        Client(server.sdk_server) as client,
    ):
        assert client.protocol_version == MODERN
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["search_tools", "call_tool"]
        assert tools[0].description == (
            INTRO + "Each tool found comes with its input schema: call it with call_tool." + GROUPS
        )
        found = await call(client, "search_tools", {"query": "create accounts", "limit": 1})
        listed = {t.name: t for t in server.list_tools()}
        assert found == {
            "tools": [
                {
                    "name": "accounts_create",
                    "description": tools_description("accounts_create"),
                    "inputSchema": listed["accounts_create"].input_schema,
                }
            ]
        }
        assert await names(client) == ["search_tools", "call_tool"]
        created = await call(
            client, "call_tool", {"name": "accounts_create", "arguments": create_args("A")}
        )
        assert created["account"]["id"] == "acct-1"
        merged = await call(
            client,
            "call_tool",
            {
                "name": "accounts_merge",
                "arguments": {"source_id": "acct-1", "target_id": "", "note": ""},
            },
        )
        assert merged["received_source_id"] == "acct-1"


async def test_a_2026_connection_that_listens_is_told(servers: Servers) -> None:
    options = {"search_first": search_first(always_loaded=["accounts_watch"])}
    async with (
        search_server(servers, **options) as server,
        Client(server.sdk_server) as client,
    ):
        assert client.protocol_version == MODERN
        async with client.listen(tools_list_changed=True) as listen:
            assert listen.honored.tools_list_changed is True
            assert await names(client) == ["search_tools", "accounts_watch"]
            await call(client, "search_tools", {"query": "list accounts", "limit": 1})
            with anyio.fail_after(5):
                event = await anext(aiter(listen))
            assert isinstance(event, ToolsListChanged)
            assert await names(client) == ["search_tools", "accounts_watch", "accounts_list"]


async def test_http_session_is_told_of_its_list(servers: Servers) -> None:
    changes = Changes()
    server = McpToolServer(name="vectors", search_first=search_first(limit=1))
    async with (
        serving(server, servers.target) as url,
        Client(url, mode="legacy", message_handler=changes) as client,
        Client(url, mode="legacy") as other,
    ):
        assert client.protocol_version == "2025-11-25"
        assert await names(client) == ["search_tools"]
        found = await call(client, "search_tools", {"query": "watch accounts"})
        assert [t["name"] for t in found["tools"]] == ["accounts_watch"]
        await changes.wait()
        await call(client, "search_tools", {"query": "fixup", "limit": 2})
        await changes.wait()
        assert await names(client) == [
            "search_tools",
            "accounts_watch",
            "fixup_loose",
            "fixup_strict",
        ]
        assert await names(other) == ["search_tools"]


async def test_http_2026_call_tool_resolves_aliases(servers: Servers) -> None:
    server = McpToolServer(name="vectors", search_first=search_first(), handle_argument=True)
    async with serving(server, servers.target) as url, Client(url, mode=MODERN) as client:
        assert await names(client) == ["search_tools", "call_tool"]
        # A stateless request has no list of its own: its listen honors nothing.
        async with client.listen(tools_list_changed=True) as listen:
            assert listen.honored.tools_list_changed is None
        found = await call(client, "search_tools", {"query": "merge"})
        assert "conversation" in found["tools"][0]["inputSchema"]["properties"]
        first = await client.call_tool(
            "call_tool", {"name": "accounts_create", "arguments": create_args("A")}
        )
        assert not first.is_error
        assert first.meta is not None
        handle = first.meta[CONVERSATION_META_KEY]
        merged = await call(
            client,
            "call_tool",
            {
                "name": "accounts_merge",
                "arguments": {"source_id": "acct-1", "target_id": "", "note": ""},
            },
            meta={CONVERSATION_META_KEY: handle},
        )
        assert merged["received_source_id"] == "acct-1"
        text = await error_text(
            client,
            "call_tool",
            {
                "name": "accounts_merge",
                "arguments": {
                    "source_id": "acct-9",
                    "target_id": "",
                    "note": "",
                    "conversation": handle,
                },
            },
        )
        assert text.startswith(
            'invalid arguments, nothing was sent:\n- "source_id": unknown alias "acct-9"'
        )
        assert await error_text(
            client, "call_tool", {"name": "accounts_delete", "arguments": {}}
        ) == (
            'unknown tool "accounts_delete": call search_tools to find a tool, '
            "then call_tool with one of the names it gives"
        )


@pytest.mark.parametrize(
    ("tool", "args", "text"),
    [
        ("search_tools", {}, '- "query": missing required field'),
        (
            "search_tools",
            {"query": 3, "limit": 21},
            '- "query": must be a string\n- "limit": must be a whole number from 1 to 20',
        ),
        (
            "search_tools",
            {"query": "x", "limit": 1.5},
            '- "limit": must be a whole number from 1 to 20',
        ),
        (
            "search_tools",
            {"q": "x", "query": None, "Limit": 2},
            '- "q": unknown field; valid fields: query, limit\n'
            '- "Limit": unknown field; valid fields: query, limit\n'
            '- "query": missing required field',
        ),
        ("call_tool", {"arguments": {}}, '- "name": missing required field'),
        (
            "call_tool",
            {"name": "accounts_list", "arguments": []},
            '- "arguments": expected a JSON object, got an array',
        ),
    ],
)
async def test_meta_tool_arguments(
    servers: Servers, tool: str, args: dict[str, Any], text: str
) -> None:
    async with (
        search_server(servers, search_first=search_first()) as server,
        Client(server.sdk_server, mode="legacy") as client,
    ):
        got = await error_text(client, tool, args)
        assert got == "invalid arguments, nothing was sent:\n" + text


async def test_a_query_of_stop_words_finds_nothing(servers: Servers) -> None:
    async with (
        search_server(servers, search_first=search_first()) as server,
        Client(server.sdk_server, mode="legacy") as client,
    ):
        assert await call(client, "search_tools", {"query": "the"}) == {"tools": []}


@pytest.mark.parametrize(
    ("option", "text"),
    [
        (
            {"always_loaded": ["accounts_list", "accounts_list"]},
            'search_first.always_loaded: "accounts_list" is given twice: give each tool once',
        ),
        (
            {"limit": 21},
            "search_first.limit 21 is not a whole number from 1 to 20: leave it out for 5",
        ),
    ],
)
def test_bad_options_are_refused(option: dict[str, Any], text: str) -> None:
    with pytest.raises(ValueError) as refused:
        McpToolServer(search_first=search_first(**option))
    assert str(refused.value) == text


async def test_served_tools_outside_the_data(servers: Servers) -> None:
    """A served tool the data does not name is refused when added, nothing
    added, unless always loaded."""
    fixups_out = {**SEARCH_DATA, "namespaces": SEARCH_DATA["namespaces"][:1]}
    search = define_tool_search(json.dumps(fixups_out))
    async with grpc.aio.insecure_channel(servers.target) as channel:
        refused = McpToolServer(name="vectors", search_first=SearchFirst(search=search))
        with pytest.raises(ValueError) as error:
            refused.add_tools(mcp_tools(), ALIASES, channel)
        assert str(error.value) == (
            'tool "fixup_loose" is served but not in the tool-search data: generate its file '
            "with tool_search=true and pass that file's data, or list it in always_loaded"
        )
        assert refused.list_tools() == []
        option = SearchFirst(search=search, always_loaded=["fixup_loose", "fixup_strict"])
        server = McpToolServer(name="vectors", search_first=option)
        server.add_tools(mcp_tools(), ALIASES, channel)
        async with Client(server.sdk_server, mode="legacy") as client:
            assert await names(client) == ["search_tools", "fixup_loose", "fixup_strict"]


async def test_always_loaded_names_not_served(servers: Servers) -> None:
    """An always-loaded name no served tool has is refused at tools/list and
    search_tools, checked again when tools are added."""
    refusal = (
        'always-loaded tool "accounts_watch" is not served here: check its name '
        "(the generated tool names), or drop it from always_loaded"
    )
    watch = [m for m in mcp_tools() if m.tool.name == "accounts_watch"]
    others = [m for m in mcp_tools() if m.tool.name != "accounts_watch"]
    server = McpToolServer(
        name="vectors", search_first=search_first(always_loaded=["accounts_watch"])
    )
    async with grpc.aio.insecure_channel(servers.target) as channel:
        server.add_tools(others, ALIASES, channel)
        async with Client(server.sdk_server, mode="legacy") as client:
            with pytest.raises(MCPError) as listed:
                await client.list_tools()
            assert listed.value.error.message == refusal
            with pytest.raises(MCPError) as searched:
                await client.call_tool("search_tools", {"query": "merge"})
            assert searched.value.error.message == refusal
            server.add_tools(watch, ALIASES, channel)
            assert await names(client) == ["search_tools", "accounts_watch"]


async def test_off_by_default(servers: Servers) -> None:
    async with (
        search_server(servers) as server,
        Client(server.sdk_server, mode="legacy") as client,
    ):
        caps = client.server_capabilities.tools
        assert caps is not None and not caps.list_changed
        assert await names(client) == [t.name for t in server.list_tools()]
        assert "search_tools" not in await names(client)


async def test_name_prefixes(servers: Servers) -> None:
    """A tool found is every registration of it, by its served name;
    always_loaded names the generated tool, so lists each."""
    server = McpToolServer(
        name="vectors", search_first=search_first(always_loaded=["accounts_watch"])
    )
    async with grpc.aio.insecure_channel(servers.target) as channel:
        server.add_tools(mcp_tools(), ALIASES, channel, name_prefix="east_")
        server.add_tools(mcp_tools(), ALIASES, channel, name_prefix="west_")
        async with Client(server.sdk_server, mode="legacy") as client:
            assert await names(client) == [
                "search_tools",
                "east_accounts_watch",
                "west_accounts_watch",
            ]
            found = await call(client, "search_tools", {"query": "merge", "limit": 3})
            assert [t["name"] for t in found["tools"]] == [
                "east_accounts_merge",
                "west_accounts_merge",
            ]
            assert (await names(client))[3:] == ["east_accounts_merge", "west_accounts_merge"]
