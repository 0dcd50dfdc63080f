"""Two instances of the generated MCP server (scripts/mcp_server.py, HTTP,
protocol 2026-07-28, conversation handles) behind a round-robin proxy
started here, their conversations in one Redis (issue 12, point 5): one
handle is served by both, whichever takes the call."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import mcp_types
import pytest
from helpers import new_uuid
from mcp import Client

SCRIPT = str(Path(__file__).resolve().parent.parent / "scripts" / "mcp_server.py")
META_KEY = "ai-tools/conversation"
MODERN = "2026-07-28"


class RoundRobin:
    """A TCP proxy on 127.0.0.1 that sends each connection to the next
    upstream, asking it to close the connection after one response
    (``Connection: close``): so each HTTP request goes to the next
    instance."""

    def __init__(self, upstreams: list[tuple[str, int]]) -> None:
        self._next = itertools.cycle(range(len(upstreams)))
        self.upstreams = upstreams
        self.served = [0] * len(upstreams)
        self.server: asyncio.Server | None = None

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        index = next(self._next)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.split(b"\r\n")[:-2]
            kept = [h for h in lines[1:] if not h.lower().startswith(b"connection:")]
            head = b"\r\n".join([lines[0], *kept, b"Connection: close", b"", b""])
            host, port = self.upstreams[index]
            up_reader, up_writer = await asyncio.open_connection(host, port)
            self.served[index] += 1
            up_writer.write(head)
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer, close=True))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
            with suppress(ConnectionError):
                await writer.wait_closed()


async def _pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, close: bool = False
) -> None:
    with suppress(ConnectionError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    if close:
        writer.close()


def start_instance(server_addr: str, redis_url: str) -> tuple[subprocess.Popen[str], int]:
    args = [sys.executable, SCRIPT, "--grpc", server_addr, "--http", "0"]
    args += ["--handle-argument", "--redis", redis_url]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line.startswith("listening http://127.0.0.1:"), line
    return proc, int(line.split(":")[2].split("/")[0])


@pytest.fixture
def instances(
    server_addr: str, redis_url: str
) -> Iterator[list[tuple[subprocess.Popen[str], int]]]:
    started = [start_instance(server_addr, redis_url) for _ in range(2)]
    yield started
    for proc, _ in started:
        proc.terminate()
        proc.wait(10)


@asynccontextmanager
async def proxy(ports: list[int]) -> AsyncIterator[RoundRobin]:
    rr = RoundRobin([("127.0.0.1", p) for p in ports])
    await rr.start()
    try:
        yield rr
    finally:
        await rr.close()


def text_of(result: mcp_types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mcp_types.TextContent)
    return block.text


def meta_of(handle: str) -> Any:
    """A request's ``_meta`` passing a conversation handle back."""
    return {META_KEY: handle}


def link_args(ws: str, i: int) -> dict[str, Any]:
    return {
        "workspace_id": ws,
        "target_url": f"https://example.com/r/{i}",
        "slug": None,
        "page_theme_id": "",
        "labels": [],
        "title": f"replica link {i}",
        "expire_after": None,
    }


async def test_one_handle_served_by_two_instances(
    instances: list[tuple[subprocess.Popen[str], int]],
) -> None:
    ws = new_uuid()
    async with proxy([port for _, port in instances]) as rr:
        url = f"http://127.0.0.1:{rr.port}/mcp"
        async with Client(url, mode=MODERN) as client:
            first = await client.call_tool("links_create", link_args(ws, 1))
            assert not first.is_error, text_of(first)
            assert first.meta is not None
            handle = first.meta[META_KEY]
            assert re.fullmatch(r"[A-Za-z0-9_-]{22}", handle)
            meta = meta_of(handle)
            for i in range(2, 9):
                result = await client.call_tool("links_create", link_args(ws, i), meta=meta)
                assert json.loads(text_of(result))["link"]["id"] == f"link-{i}"
                assert result.meta is not None and result.meta[META_KEY] == handle
            for i in range(1, 9):
                # the handle as the argument, the way a model passes it back
                args = {"id": f"link-{i}", "conversation": handle}
                got = json.loads(text_of(await client.call_tool("links_get", args)))
                assert got["link"]["title"] == f"replica link {i}"
                assert got["link"]["workspace_id"] == ws
            listed = await client.call_tool(
                "links_list", {"workspace_id": ws, "page_theme_id": None}, meta=meta
            )
            ids = sorted(link["id"] for link in json.loads(text_of(listed))["links"])
            assert ids == sorted(f"link-{i}" for i in range(1, 9))
            missing = await client.call_tool("links_get", {"id": "link-9"}, meta=meta)
            assert missing.is_error
            assert text_of(missing) == (
                "invalid arguments, nothing was sent:\n"
                '- "id": unknown alias "link-9"; valid link aliases: '
                + ", ".join(f"link-{i}" for i in range(1, 9))
            )
            unknown = await client.call_tool("links_get", {"id": "link-1"}, meta=meta_of("x"))
            assert unknown.is_error
            assert text_of(unknown).startswith('unknown or expired conversation "x"')
        # both instances took calls of the conversation
        assert min(rr.served) >= 8, rr.served

        # one instance gone: the other one goes on with the same handle
        gone, _ = instances[0]
        gone.terminate()
        gone.wait(10)
        async with proxy([instances[1][1]]) as alone:
            url = f"http://127.0.0.1:{alone.port}/mcp"
            async with Client(url, mode=MODERN) as client:
                result = await client.call_tool("links_create", link_args(ws, 9), meta=meta)
                assert json.loads(text_of(result))["link"]["id"] == "link-9"
                got = await client.call_tool("links_get", {"id": "link-3"}, meta=meta)
                assert json.loads(text_of(got))["link"]["title"] == "replica link 3"
