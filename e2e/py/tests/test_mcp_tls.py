"""The generated MCP server's tools over TLS (issue 33 §2): the test server
serves TLS with the committed test CA's certificate
(e2e/server/testdata/tls); forward_to_link_service_client takes a channel
with TLS and per-call credentials, whose metadata reaches the server
(TestControlService.GetRecorded is the evidence), as does the forwarded
identity; and scripts/mcp_server.py reaches it with --grpc-tls-ca, its
approval hook refusing links_archive before anything is sent."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import grpc.aio
import pytest
from ai_tools_runtime.mcp import ForwardIdentity, Identity, McpToolServer
from conftest import running_test_server
from helpers import new_uuid, recorded, repo_root, reset_server
from mcp import Client, StdioServerParameters
from test_mcp import SCRIPT, env, link_args

import ai_tools_mcp_gen

TLS = Path(repo_root()) / "e2e" / "server" / "testdata" / "tls"
CA = TLS / "ca.pem"
LIST_LINKS = "linkhub.v1.LinkService/ListLinks"


def api_key(_context: Any, callback: Any) -> None:
    """Per-call credentials (a grpc.AuthMetadataPlugin): an API key on
    every call."""
    callback((("x-api-key", "key-1"),), None)


def tls() -> grpc.ChannelCredentials:
    return grpc.ssl_channel_credentials(root_certificates=CA.read_bytes())


@pytest.fixture(scope="module")
def tls_addr() -> Iterator[str]:
    cert, key = str(TLS / "server.pem"), str(TLS / "server-key.pem")
    with running_test_server("--tls-cert", cert, "--tls-key", key) as addr:
        yield addr


@pytest.fixture
def control(tls_addr: str) -> Iterator[grpc.Channel]:
    with grpc.secure_channel(tls_addr, tls()) as channel:
        reset_server(channel)
        yield channel


def list_args() -> dict[str, Any]:
    return {"workspace_id": new_uuid(), "page_theme_id": None}


@pytest.mark.parametrize("kind", ["aio", "sync"])
async def test_forwarded_over_tls_with_per_call_credentials(
    tls_addr: str, control: grpc.Channel, kind: str
) -> None:
    credentials = grpc.composite_channel_credentials(tls(), grpc.metadata_call_credentials(api_key))
    seen: list[Identity | None] = []

    def backend(identity: Identity | None) -> dict[str, str]:
        seen.append(identity)
        return {"x-backend": "app-1"}

    server = McpToolServer(
        name="linkhub", forward_identity=ForwardIdentity(backend_credentials=backend)
    )
    channel: Any = (
        grpc.aio.secure_channel(tls_addr, credentials)
        if kind == "aio"
        else grpc.secure_channel(tls_addr, credentials)
    )
    try:
        ai_tools_mcp_gen.forward_to_link_service_client(server, channel)
        async with Client(server.sdk_server) as client:
            result = await client.call_tool("links_list", list_args())
        assert not result.is_error, result.content
    finally:
        await channel.close() if kind == "aio" else channel.close()
    (request,) = recorded(control)
    assert request.procedure == LIST_LINKS
    assert request.metadata["x-api-key"] == "key-1"
    assert request.metadata["x-backend"] == "app-1"
    assert seen == [None]  # no authorization over stdio / in memory: no identity
    assert "key-1" not in json.dumps(result.model_dump(mode="json"))


async def test_a_plaintext_channel_does_not_reach_a_tls_server(
    tls_addr: str, control: grpc.Channel
) -> None:
    server = McpToolServer(name="linkhub", timeout=5)
    async with grpc.aio.insecure_channel(tls_addr) as channel:
        ai_tools_mcp_gen.forward_to_link_service_client(server, channel)
        async with Client(server.sdk_server) as client:
            result = await client.call_tool("links_list", list_args())
    assert result.is_error
    assert recorded(control) == []


async def test_the_script_over_tls_with_a_denying_hook(
    tls_addr: str, control: grpc.Channel
) -> None:
    flags = ["--grpc", tls_addr, "--grpc-tls-ca", str(CA), "--approve", "deny"]
    params = StdioServerParameters(command=sys.executable, args=[SCRIPT, *flags], env=env())
    async with Client(params) as client:
        created = await client.call_tool("links_create", link_args(new_uuid(), 1))
        assert not created.is_error, created.content
        archived = await client.call_tool("links_archive", {"link_id": "link-1"})
    assert archived.is_error
    block = archived.content[0]
    assert getattr(block, "text", None) == (
        'the call of "links_archive" was not approved; nothing was sent'
    )
    assert [r.procedure for r in recorded(control)] == ["linkhub.v1.LinkService/CreateLink"]
