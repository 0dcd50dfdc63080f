"""The generated MCP server of the test API (scripts/mcp_server.py over
gen/ai_tools_mcp_gen.py, forwarding to the real test server), started over
stdio and over streamable HTTP and driven by the official Python MCP client
on both protocol revisions: tools as listed, aliases across calls,
structured content validated against the output schema, isError results,
the unknown tool, two clients at once, stateless clients with a handle; the
four hints of every tool, and an operation followed by its alias."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import grpc
import jsonschema
import mcp_types
import pytest
from google.longrunning import operations_pb2
from helpers import decode_recorded, new_uuid, recorded, reset_server, tools_by_name
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

import ai_tools_mcp_gen

SCRIPT = str(Path(__file__).resolve().parent.parent / "scripts" / "mcp_server.py")
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
META_KEY = "ai-tools/conversation"
MODERN = "2026-07-28"


def link_args(ws: str, i: int) -> dict[str, Any]:
    return {
        "workspace_id": ws,
        "target_url": f"https://example.com/{i}",
        "slug": None,
        "page_theme_id": "",
        "labels": [],
        "title": f"link {i}",
        "expire_after": None,
    }


class Session:
    """One client and the output schemas it listed."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.schemas: dict[str, Any] = {}

    async def list(self) -> list[mcp_types.Tool]:
        tools = (await self.client.list_tools()).tools
        self.schemas = {t.name: t.output_schema for t in tools}
        return tools

    async def call(self, name: str, args: dict[str, Any], **kw: Any) -> Any:
        result = await self.client.call_tool(name, args, **kw)
        block = result.content[0]
        assert isinstance(block, mcp_types.TextContent)
        assert not result.is_error, block.text
        value = json.loads(block.text)
        assert result.structured_content == value
        jsonschema.Draft202012Validator(self.schemas[name]).validate(value)
        return value

    async def error(self, name: str, args: dict[str, Any], **kw: Any) -> str:
        result = await self.client.call_tool(name, args, **kw)
        assert result.is_error and len(result.content) == 1
        block = result.content[0]
        assert isinstance(block, mcp_types.TextContent)
        return block.text


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}


@asynccontextmanager
async def stdio(server_addr: str) -> AsyncIterator[Session]:
    params = StdioServerParameters(
        command=sys.executable, args=[SCRIPT, "--grpc", server_addr], env=env()
    )
    async with Client(params) as client:
        session = Session(client)
        await session.list()
        yield session


@contextmanager
def http_process(server_addr: str, *flags: str) -> Iterator[str]:
    """scripts/mcp_server.py over HTTP on a free port with ``flags``; its URL."""
    proc = subprocess.Popen(
        [sys.executable, SCRIPT, "--grpc", server_addr, "--http", "0", *flags],
        stdout=subprocess.PIPE,
        env=env(),
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line.startswith("listening "), line
    yield line.removeprefix("listening ")
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def http_url(server_addr: str) -> Iterator[str]:
    with http_process(server_addr, "--handle-argument") as url:
        yield url


@asynccontextmanager
async def http(url: str, mode: str) -> AsyncIterator[Session]:
    async with Client(url, mode=mode) as client:
        session = Session(client)
        await session.list()
        yield session


async def test_tools_as_listed(server_addr: str) -> None:
    gen = tools_by_name()
    async with stdio(server_addr) as s:
        tools = await s.list()
    assert [t.name for t in tools] == sorted(gen)
    for t in tools:
        assert t.description == gen[t.name].description
        assert t.input_schema == gen[t.name].schema()
        assert t.output_schema is not None and t.output_schema["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(t.output_schema)


async def conversation(s: Session, channel: grpc.Channel, **kw: Any) -> None:
    """Aliases across calls, errors as results, in one conversation."""
    ws = new_uuid()
    one = await s.call("links_create", link_args(ws, 1), **kw)
    two = await s.call("links_create", link_args(ws, 2), **kw)
    assert (one["link"]["id"], two["link"]["id"]) == ("link-1", "link-2")
    assert one["link"]["workspace_id"] == ws  # proto names, raw ids kept
    got = await s.call("links_get", {"id": "link-2"}, **kw)
    assert got["link"]["target_url"] == "https://example.com/2"
    listed = await s.call("links_list", {"workspace_id": ws, "page_theme_id": None}, **kw)
    assert sorted(link["id"] for link in listed["links"]) == ["link-1", "link-2"]
    # errors: an unknown alias, bad arguments, a server error
    text = await s.error("links_get", {"id": "link-7"}, **kw)
    assert (
        text == "invalid arguments, nothing was sent:\n"
        '- "id": unknown alias "link-7"; valid link aliases: link-1, link-2'
    )
    text = await s.error("links_get", {"id": 7}, **kw)
    assert text.startswith("invalid arguments, nothing was sent:\n- ")
    await s.call("links_delete", {"id": "link-2"}, **kw)
    text = await s.error("links_get", {"id": "link-2"}, **kw)
    # byte for byte what the Go server writes
    assert text == 'rpc error: code = NotFound desc = link "link-2" not found'
    with pytest.raises(MCPError) as err:
        await s.client.call_tool("links_nope", {}, **kw)
    assert err.value.code == mcp_types.INVALID_PARAMS


async def test_stdio(server_addr: str, channel: grpc.Channel) -> None:
    reset_server(channel)
    async with stdio(server_addr) as s:
        await conversation(s, channel)


async def test_stdio_two_clients_have_their_own_aliases(server_addr: str) -> None:
    ws = new_uuid()
    async with stdio(server_addr) as a, stdio(server_addr) as b:
        await a.call("links_create", link_args(ws, 1))
        text = await b.error("links_get", {"id": "link-1"})
        assert text.startswith(
            'invalid arguments, nothing was sent:\n- "id": unknown alias "link-1"'
        )


async def test_http_sessions(http_url: str, channel: grpc.Channel) -> None:
    async with http(http_url, "legacy") as a, http(http_url, "legacy") as b:
        assert a.client.protocol_version == "2025-11-25"
        await conversation(a, channel)
        text = await b.error("links_get", {"id": "link-1"})
        assert text.startswith(
            'invalid arguments, nothing was sent:\n- "id": unknown alias "link-1"'
        )


async def test_http_stateless_handle_in_meta(http_url: str, channel: grpc.Channel) -> None:
    async with http(http_url, MODERN) as s:
        assert s.client.protocol_version == MODERN
        first = await s.client.call_tool("links_create", link_args(new_uuid(), 1))
        assert first.meta is not None
        handle = first.meta[META_KEY]
        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", handle)
        block = first.content[1]
        assert isinstance(block, mcp_types.TextContent)
        assert block.text == f"conversation: {handle}"
        got = await s.call("links_get", {"id": "link-1"}, meta={META_KEY: handle})
        assert got["link"]["id"] == "link-1"
        await conversation(s, channel, meta={META_KEY: await new_handle(s)})
        text = await s.error("links_get", {"id": "link-1"}, meta={META_KEY: "nope"})
        assert text.startswith('unknown or expired conversation "nope"')


async def new_handle(s: Session) -> str:
    result = await s.client.call_tool("ping", {})
    assert result.meta is not None
    handle: str = result.meta[META_KEY]
    return handle


async def test_http_stateless_handle_as_argument(http_url: str) -> None:
    async with http(http_url, MODERN) as s, http(http_url, MODERN) as other:
        tools = await s.list()
        assert all("conversation" in t.input_schema["properties"] for t in tools)
        first = await s.client.call_tool(
            "links_create", {**link_args(new_uuid(), 1), "conversation": None}
        )
        assert first.meta is not None
        handle = first.meta[META_KEY]
        got = await s.call("links_get", {"id": "link-1", "conversation": handle})
        assert got["link"]["id"] == "link-1"
        # another client, without the handle: its own conversation
        text = await other.error("links_get", {"id": "link-1", "conversation": None})
        assert text.startswith(
            'invalid arguments, nothing was sent:\n- "id": unknown alias "link-1"'
        )


SAMPLE: dict[str, Any] = {
    "at": "2024-01-02T03:04:05.500Z",
    "ttl": "1.500s",
    "mask": "maybe_text, by_name.k",
    "meta": {"k": [1, "x", None], "b": True, "a": {"z": 2}},
    "value": {"b": 1.0, "a": 0.5},
    "list": [1, "a", 100.0, 1e21, 1e-7, 123456789012345680000.0, 0.00001],
    "maybe_text": "t",
    "maybe_count": "5",
    "maybe_flag": False,
    "maybe_blob": "AAE=",
    "maybe_ratio": 0.25,
    "maybe_port": 80,
    "blob": "AQID",
    "big": "-9007199254740993",
    "ubig": "18446744073709551615",
    "sbig": "-5",
    "fbig": "7",
    "color": "COLOR_RED",
    "note": "",
    "by_name": {"b": {"name": "x", "rank": 1}, "a": {"name": "y", "rank": 0}},
    "by_num": {"10": "ten", "-2": "m", "3": "three"},
    "by_flag": {"true": 1, "false": 0},
    "attrs": {"z": 1e21, "y": 1e-7, "x": 100.0, "w": 1e16, "v": -0.0},
    "items": [{"name": "i", "rank": 2}],
    "times": ["2024-01-01T00:00:00Z"],
    "inner": {"name": "n", "rank": 0},
    "score": 0.1,
    "maybe_level": -3,
    "maybe_total": "12",
    "nothing_at_all": "NULL_VALUE",  # a strict tool: null would be a missing field
}

# What the Go server of the test API (e2e/go, protojson) answers for SAMPLE,
# byte for byte: fields in declaration order, map and Struct keys sorted,
# numbers as ECMAScript prints them, -0 kept. (The Any field "extension" is
# no property of the schema: an unknown field the executors refuse.)
SAMPLE_TEXT = (
    '{"at":"2024-01-02T03:04:05.500Z",'
    '"ttl":"1.500s",'
    '"mask":"maybeText,byName.k",'
    '"meta":{"a":{"z":2},"b":true,"k":[1,"x",null]},'
    '"value":{"a":0.5,"b":1},'
    '"list":[1,"a",100,1e+21,1e-7,123456789012345680000,0.00001],'
    '"maybe_text":"t",'
    '"maybe_count":"5",'
    '"maybe_flag":false,'
    '"maybe_blob":"AAE=",'
    '"maybe_ratio":0.25,'
    '"maybe_port":80,'
    '"blob":"AQID",'
    '"big":"-9007199254740993",'
    '"ubig":"18446744073709551615",'
    '"sbig":"-5",'
    '"fbig":"7",'
    '"color":"COLOR_RED",'
    '"note":"",'
    '"by_name":{"a":{"name":"y","rank":0},"b":{"name":"x","rank":1}},'
    '"by_num":{"-2":"m","3":"three","10":"ten"},'
    '"by_flag":{"false":0,"true":1},'
    '"attrs":{"v":-0,"w":10000000000000000,"x":100,"y":1e-7,"z":1e+21},'
    '"items":[{"name":"i","rank":2}],'
    '"times":["2024-01-01T00:00:00Z"],'
    '"inner":{"name":"n","rank":0},'
    '"score":0.1,'
    '"maybe_level":-3,'
    '"maybe_total":"12",'
    '"nothing_at_all":null}'
)


async def test_result_text_is_what_go_writes(server_addr: str) -> None:
    async with stdio(server_addr) as s:
        for tool in ("samples_echo_loose", "samples_echo_strict"):
            assert await s.call(tool, SAMPLE) == json.loads(SAMPLE_TEXT)
            result = await s.client.call_tool(tool, SAMPLE)
            block = result.content[0]
            assert isinstance(block, mcp_types.TextContent)
            assert block.text == SAMPLE_TEXT


# What issue 31 makes each kind of method: a Get or List reads, a Create only
# adds, an Update or Delete may destroy, an IDEMPOTENT Delete is idempotent,
# anything else (ExportLinks, Ping) may destroy; the world is closed.
HINTS = {
    "links_get": (True, False, True, False),
    "links_list": (True, False, True, False),
    "links_create": (False, False, False, False),
    "links_update": (False, True, False, False),
    "links_delete": (False, True, True, False),
    "links_export": (False, True, False, False),
    "google_longrunning_Operations_GetOperation": (True, False, True, False),
}
HINT_NAMES = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def generated_hints() -> dict[str, tuple[bool | None, ...]]:
    """Each tool's four hints as the generated MCP file sets them."""
    out: dict[str, tuple[bool | None, ...]] = {}
    for name in ai_tools_mcp_gen.__all__:
        if name.endswith("_TOOLS"):
            for m in getattr(ai_tools_mcp_gen, name):
                hints = (m.read_only_hint, m.destructive_hint, m.idempotent_hint, m.open_world_hint)
                out[m.tool.name] = hints
    return out


async def test_every_tool_lists_its_four_hints(server_addr: str) -> None:
    generated = generated_hints()
    async with stdio(server_addr) as s:
        tools = await s.list()
    assert len(tools) == len(generated)
    for t in tools:
        assert t.annotations is not None, t.name
        listed = t.annotations.model_dump(by_alias=True, exclude_none=True)
        assert list(listed) == list(HINT_NAMES), t.name  # all four, in MCP's order
        assert tuple(listed.values()) == generated[t.name], t.name
    for name, hints in HINTS.items():
        assert generated[name] == hints, name


async def test_an_operation_is_followed_over_mcp(server_addr: str, channel: grpc.Channel) -> None:
    reset_server(channel)
    ws = new_uuid()
    async with stdio(server_addr) as s:
        started = await s.call("links_export", {"workspace_id": ws})
        assert started["name"] == "operation-1" and started["done"] is False, started
        done = await s.call("google_longrunning_Operations_GetOperation", {"name": "operation-1"})
        assert done["name"] == "operation-1" and done["done"] is True, done
    got = [r for r in recorded(channel) if r.procedure.endswith("/GetOperation")]
    assert [decode_recorded(r) for r in got] == [
        operations_pb2.GetOperationRequest(name=f"workspaces/{ws}/operations/1")
    ]
