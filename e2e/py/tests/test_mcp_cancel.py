"""Cancellation through the generated MCP server of the test API
(scripts/mcp_server.py over stdio, forwarding to the real test server): a
client that gives up on a call (notifications/cancelled) or goes away
mid-call cancels the gRPC call, and the test server sees it
(TestControlService.HoldNext holds the call until then; GetHeld tells)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable

import anyio
import grpc
from helpers import control, new_uuid, reset_server
from mcp import Client, StdioServerParameters
from test_mcp import SCRIPT, env

from linkhub.v1 import control_pb2

LIST_LINKS = "linkhub.v1.LinkService/ListLinks"


def held(channel: grpc.Channel) -> control_pb2.GetHeldResponse:
    response: control_pb2.GetHeldResponse = control(channel).GetHeld(control_pb2.GetHeldRequest())
    return response


async def until(what: str, done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 20
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        await anyio.sleep(0.02)


def hold_list_links(channel: grpc.Channel) -> dict[str, object]:
    """Hold the next ListLinks; the arguments of a links_list call."""
    reset_server(channel)
    control(channel).HoldNext(control_pb2.HoldNextRequest(procedure=LIST_LINKS))
    return {"workspace_id": new_uuid(), "page_theme_id": None}


async def test_a_call_given_up_is_cancelled_on_the_server(
    server_addr: str, channel: grpc.Channel
) -> None:
    args = hold_list_links(channel)
    params = StdioServerParameters(
        command=sys.executable, args=[SCRIPT, "--grpc", server_addr], env=env()
    )
    async with Client(params) as client:
        async with anyio.create_task_group() as tg:
            tg.start_soon(client.call_tool, "links_list", args)
            await until("the call is held", lambda: held(channel).holding == 1)
            tg.cancel_scope.cancel()  # the client sends notifications/cancelled
        await until("the server saw it cancelled", lambda: held(channel).cancelled == [LIST_LINKS])


async def test_a_client_gone_mid_call_is_cancelled_on_the_server(
    server_addr: str, channel: grpc.Channel
) -> None:
    args = hold_list_links(channel)
    process = subprocess.Popen(
        [sys.executable, SCRIPT, "--grpc", server_addr],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env(),
    )
    assert process.stdin is not None and process.stdout is not None
    initialize = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    }
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "links_list", "arguments": args},
        },
    ]
    try:
        process.stdin.write(json.dumps(lines[0]).encode() + b"\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1
        for line in lines[1:]:
            process.stdin.write(json.dumps(line).encode() + b"\n")
        process.stdin.flush()
        await until("the call is held", lambda: held(channel).holding == 1)
        process.stdin.close()  # the client is gone, without a word
        await until("the server saw it cancelled", lambda: held(channel).cancelled == [LIST_LINKS])
    finally:
        process.kill()
        process.wait()
