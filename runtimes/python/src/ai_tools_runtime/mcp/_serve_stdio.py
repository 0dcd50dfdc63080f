"""Serving the tools over stdio (docs/mcp.md, "Transports")."""

from __future__ import annotations

from mcp.server.stdio import stdio_server

from ._tool_server import McpToolServer

__all__ = ["serve_stdio"]


async def serve_stdio(server: McpToolServer) -> None:
    """Serve the tools to one client over this process's stdin and stdout
    until it closes them, both protocol revisions: the connection is one
    conversation (no handle)."""
    sdk = server.sdk_server
    async with stdio_server() as (read, write):
        await sdk.run(read, write, sdk.create_initialization_options())
