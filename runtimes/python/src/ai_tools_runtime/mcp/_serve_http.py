"""Serving the tools over streamable HTTP (docs/mcp.md, "Transports")."""

from __future__ import annotations

import socket

from starlette.applications import Starlette

from ._tool_server import McpToolServer

__all__ = ["create_mcp_http_app", "serve_http"]


def create_mcp_http_app(
    server: McpToolServer, *, path: str = "/mcp", host: str = "127.0.0.1"
) -> Starlette:
    """An ASGI app serving the tools over streamable HTTP at ``path``, both
    protocol revisions: 2026-07-28 requests (no session; the conversation is
    the handle a call passes back) and 2025-11-25 sessions (one conversation
    per ``Mcp-Session-Id``, closed after the idle TTL). ``host`` is where it
    is served: on a loopback address only loopback ``Host`` and ``Origin``
    headers are accepted. Create one app per server."""
    return server.sdk_server.streamable_http_app(
        streamable_http_path=path,
        host=host,
        session_idle_timeout=server.idle_ttl_seconds,
    )


async def serve_http(
    server: McpToolServer,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    sock: socket.socket | None = None,
) -> None:
    """Serve :func:`create_mcp_http_app` with uvicorn on ``host:port`` (or on
    ``sock``, a socket already bound, e.g. to port 0) until cancelled."""
    import uvicorn

    app = create_mcp_http_app(server, path=path, host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve(sockets=[sock] if sock is not None else None)
