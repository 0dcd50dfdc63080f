"""Benchmark of the HTTP gate's token verification (issue 33): the same
2026-07-28 ``tools/list`` request to two serve_http servers in one process,
one with ``auth`` (an ES256 JWT checked against a local JWKS, cached after
the first request) and one without, alternating, over keep-alive
connections on real sockets; then the verifier alone (PyJWT, cached key
set). Prints the p50 of each and the difference."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from jwt_issuer import ISSUER, PUBLIC_URL, Issuer  # noqa: E402

from ai_tools_runtime.mcp import JwtAuth, McpToolServer, serve_http  # noqa: E402
from ai_tools_runtime.mcp._token_verifier import create_token_verifier  # noqa: E402

MODERN = "2026-07-28"
LIST = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/list",
    "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
        }
    },
}


def _bound() -> tuple[socket.socket, int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock, sock.getsockname()[1]


async def _timed(send: Callable[[], Awaitable[Any]]) -> float:
    start = time.perf_counter()
    await send()
    return time.perf_counter() - start


class _Connection:
    """A keep-alive HTTP/1.1 connection writing each request in one piece
    and reading a response with a Content-Length (as serve_http answers
    these): the least client-side time around the server's."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, body: bytes, headers: dict[str, str]) -> int:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = ["POST /mcp HTTP/1.1", f"host: 127.0.0.1:{self.port}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        lines.append(f"content-length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        await self.reader.readexactly(length)
        return status


async def _compare(issuer: Issuer, rounds: int) -> None:
    auth = JwtAuth(issuer=ISSUER, jwks_url=issuer.jwks_url)
    (plain_sock, plain_port), (auth_sock, auth_port) = _bound(), _bound()
    headers = {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/list",
    }
    token = {"authorization": f"Bearer {issuer.token()}"}
    body = json.dumps(LIST).encode()
    async with anyio.create_task_group() as tg:
        tg.start_soon(lambda: serve_http(McpToolServer(), sock=plain_sock, port=plain_port))
        tg.start_soon(
            lambda: serve_http(
                McpToolServer(), sock=auth_sock, port=auth_port, public_url=PUBLIC_URL, auth=auth
            )
        )
        await anyio.sleep(0.5)
        plain_connection, auth_connection = _Connection(plain_port), _Connection(auth_port)

        async def plain() -> None:
            status = await plain_connection.post(body, headers)
            assert status == 200, status

        async def authed() -> None:
            status = await auth_connection.post(body, headers | token)
            assert status == 200, status

        for _ in range(50):  # warm-up: connections, JWKS fetched once
            await plain()
            await authed()
        times: dict[str, list[float]] = {"off": [], "on": []}
        for i in range(rounds):
            pair = (("off", plain), ("on", authed)) if i % 2 else (("on", authed), ("off", plain))
            for name, send in pair:
                times[name].append(await _timed(send))
        # Cancelled, uvicorn logs its lifespan's CancelledError: not news here.
        logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)
        tg.cancel_scope.cancel()
    off, on = (statistics.median(times[k]) * 1e6 for k in ("off", "on"))
    print(
        f"bench: MCP HTTP tools/list p50, auth off {off:.0f} µs, auth on {on:.0f} µs "
        f"(+{on - off:.0f} µs; {rounds} each, alternating; JWKS fetches: {issuer.fetches})"
    )
    verify = create_token_verifier(auth, PUBLIC_URL)
    raw = token["authorization"].removeprefix("Bearer ")
    alone = [await _timed(lambda: verify(raw)) for _ in range(rounds)]
    print(
        f"bench: token verification alone p50 {statistics.median(alone) * 1e6:.0f} µs (cached JWKS)"
    )


def compare_auth(rounds: int = 2000) -> None:
    """Print the benchmark's figures."""
    with Issuer().serving() as issuer:
        anyio.run(_compare, issuer, rounds)


if __name__ == "__main__":
    compare_auth(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
