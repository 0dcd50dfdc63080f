"""provider= of McpToolServer.add_tools (docs/mcp.md, "Serving a provider's
form"): a registration lists each tool's generated form for the provider,
and a call with that form's arguments reaches the real gRPC server (conftest's
servers, on a socket) as the same request the default form's arguments make.
The tools are the generated module's (tests/gen/ai_tools_gen.py): fixup_strict
is a strict tool on the Item cycle, whose openai and anthropic forms are the
recursive variant and whose parameters the stop variant (docs/compat.md,
"Provider forms")."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from typing import Any

import grpc.aio
import pytest
from conftest import Servers
from google.protobuf import json_format
from mcp import Client
from test_mcp import mcp_tools
from toolset import ALIASES, FIXUP_STRICT

from ai_tools_runtime import AgentTool
from ai_tools_runtime._agent_tool import _thaw
from ai_tools_runtime.mcp import McpProvider, McpToolMethod, McpToolServer


def fixup_strict() -> list[McpToolMethod]:
    return [m for m in mcp_tools() if m.tool.name == "fixup_strict"]


@pytest.fixture
async def aio_channel(servers: Servers) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(servers.target) as ch:
        yield ch


def generated_form(key: str) -> dict[str, Any]:
    """The form the generator wrote under key (the test data, read once)."""
    assert FIXUP_STRICT.forms is not None
    form: dict[str, Any] = _thaw(FIXUP_STRICT.forms[key])
    return form


def test_the_test_tool_has_distinct_forms() -> None:
    # Otherwise the listings below could not tell the forms apart.
    assert generated_form("openai") != FIXUP_STRICT.schema()
    assert FIXUP_STRICT.forms is not None and "gemini" not in FIXUP_STRICT.forms


@pytest.mark.parametrize(
    ("provider", "key"),
    [(None, None), ("openai", "openai"), ("anthropic", "anthropic"), ("gemini", None)],
)
async def test_lists_the_generated_form(
    aio_channel: grpc.aio.Channel, provider: McpProvider | None, key: str | None
) -> None:
    server = McpToolServer(name="vectors")
    server.add_tools(fixup_strict(), ALIASES, aio_channel, provider=provider)
    async with Client(server.sdk_server) as client:
        tools = (await client.list_tools()).tools
    # No gemini key: the generator wrote none, the form is the parameters.
    want = FIXUP_STRICT.schema() if key is None else generated_form(key)
    assert json.loads(json.dumps(tools[0].input_schema)) == {**want, "type": "object"}


def test_an_unknown_provider_is_refused(aio_channel: grpc.aio.Channel) -> None:
    server = McpToolServer(name="vectors")
    with pytest.raises(ValueError) as raised:
        server.add_tools(fixup_strict(), ALIASES, aio_channel, provider="mistral")  # type: ignore[arg-type]
    assert str(raised.value) == 'unknown provider "mistral": use "openai", "anthropic" or "gemini"'
    assert server.list_tools() == []


def test_a_tool_without_generated_forms_is_refused_adding_none(
    aio_channel: grpc.aio.Channel,
) -> None:
    # fixup_strict has its forms; by_hand, written by hand, has none.
    tool = FIXUP_STRICT
    by_hand = dataclasses.replace(
        fixup_strict()[0],
        tool=AgentTool("by_hand", tool.description, tool.strict, tool.schema()),
    )
    server = McpToolServer(name="vectors")
    with pytest.raises(ValueError) as raised:
        server.add_tools(
            [*fixup_strict(), by_hand], ALIASES, aio_channel, name_prefix="p_", provider="openai"
        )
    assert str(raised.value) == (
        'provider "openai": tool "by_hand" has no generated "openai" form; '
        "generate with providers=openai (or without providers=), "
        "or register a tool written by hand without a provider"
    )
    assert server.list_tools() == []


# Every field of FixupRequest but the nullable ones (the optional note and
# level, the oneof kind), as the default form's arguments may give it.
GIVEN: dict[str, Any] = {
    "labels": [{"key": "k", "value": "v"}],
    "items_by_num": [],
    "flags": [],
    "attrs": [],
    "extra": '"x"',
    "list": [],
    "item": {"name": "a", "counts": [], "payload": "1", "children": [], "owner_id": ""},
    "items": [],
    "values": [],
    "value_map": [],
    "display_name": "d",
    "count": 2,
    "enabled": True,
    "timeout": "1s",
    "data": "",
    "levels": [],
}
# The OpenAI form's: every property present, the optional ones null.
OPENAI: dict[str, Any] = {
    **GIVEN,
    **dict.fromkeys(["note", "level", "text", "number", "nested", "other_text"]),
}


async def echoed(
    servers: Servers,
    channel: grpc.aio.Channel,
    provider: McpProvider | None,
    args: dict[str, Any],
) -> Any:
    server = McpToolServer(name="vectors")
    server.add_tools(fixup_strict(), ALIASES, channel, provider=provider)
    before = len(servers.fixup.received)
    async with Client(server.sdk_server) as client:
        result = await client.call_tool("fixup_strict", args)
    assert not result.is_error, result.content
    assert len(servers.fixup.received) == before + 1
    return servers.fixup.received[-1]


async def test_openai_arguments_reach_the_server_as_the_default_ones(
    servers: Servers, aio_channel: grpc.aio.Channel
) -> None:
    by_default = await echoed(servers, aio_channel, None, GIVEN)
    by_openai = await echoed(servers, aio_channel, "openai", OPENAI)
    assert json_format.MessageToDict(by_openai) == json_format.MessageToDict(by_default)
    assert by_openai == by_default
    assert by_default.display_name == "d" and by_default.item.name == "a"


async def test_the_recursion_only_the_openai_form_lists_is_sent(
    servers: Servers, aio_channel: grpc.aio.Channel
) -> None:
    child = {"name": "b", "counts": [], "payload": "2", "children": [], "owner_id": ""}
    args = {**OPENAI, "item": {**OPENAI["item"], "children": [child]}}
    request = await echoed(servers, aio_channel, "openai", args)
    assert [c.name for c in request.item.children] == ["b"]
