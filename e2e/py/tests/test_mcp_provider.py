"""The generated register/forward functions pass provider= through to the
runtime (docs/mcp.md, "Serving a provider's form"): each tool lists the form
the generator wrote for the provider (its parameters where it wrote none),
and an unknown provider is refused at registration. No server: registration
alone is under test (calls with a form's arguments:
runtimes/python/tests/test_mcp_provider.py)."""

from typing import Any

import grpc
import pytest
from ai_tools_runtime._agent_tool import _thaw
from ai_tools_runtime.mcp import McpProvider, McpToolServer

import ai_tools_mcp_gen
from linkhub.v1 import links_pb2_grpc


def _form(tool: Any, provider: str) -> dict[str, Any]:
    forms = tool.forms or {}
    schema: dict[str, Any] = _thaw(forms[provider]) if provider in forms else tool.schema()
    return schema


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_forward_lists_each_tools_generated_form(provider: McpProvider) -> None:
    server = McpToolServer(name="e2e")
    with grpc.insecure_channel("127.0.0.1:1") as channel:
        ai_tools_mcp_gen.forward_to_link_service_client(server, channel, provider=provider)
    listed = {t.name: t.input_schema for t in server.list_tools()}
    tools = ai_tools_mcp_gen.LINK_SERVICE_TOOLS
    assert len(listed) == len(tools)
    for m in tools:
        assert listed[m.tool.name] == {**_form(m.tool, provider), "type": "object"}


def test_register_and_forward_refuse_an_unknown_provider() -> None:
    text = 'unknown provider "mistral": use "openai", "anthropic" or "gemini"'
    with grpc.insecure_channel("127.0.0.1:1") as channel, pytest.raises(ValueError) as raised:
        ai_tools_mcp_gen.forward_to_link_service_client(
            McpToolServer(name="e2e"),
            channel,
            provider="mistral",  # type: ignore[arg-type]
        )
    assert str(raised.value) == text
    with pytest.raises(ValueError) as raised:
        ai_tools_mcp_gen.register_link_service_handler(
            McpToolServer(name="e2e"),
            links_pb2_grpc.LinkServiceServicer(),  # type: ignore[abstract]
            provider="mistral",  # type: ignore[arg-type]
        )
    assert str(raised.value) == text
