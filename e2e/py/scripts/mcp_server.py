"""The generated MCP server of the test API (gen/ai_tools_mcp_gen.py), every
service forwarded to a linkhub.v1 gRPC server.

    python scripts/mcp_server.py --grpc 127.0.0.1:8080               # stdio
    python scripts/mcp_server.py --grpc 127.0.0.1:8080 --http 8000   # HTTP

With --http, it serves streamable HTTP on 127.0.0.1 (port 0: a free one)
at /mcp, and prints ``listening http://127.0.0.1:<port>/mcp`` when ready.
--handle-argument also takes the conversation handle as a tool argument;
--redis keeps the conversations in Redis (docs/store.md), so that several
instances serve one handle.
"""

from __future__ import annotations

import argparse
import socket

import anyio
import redis.asyncio
from ai_tools_runtime.mcp import ConversationStore, McpToolServer, serve_http, serve_stdio
from ai_tools_runtime.redis import RedisConversationStore
from tool_flags import add_tool_flags, grpc_channel, tool_options

import ai_tools_mcp_gen
from linkhub.v1 import control_pb2

# The message types of the server's error details, known so that they are
# written as JSON (their ids aliased), not as base64.
_DETAIL_TYPES = (control_pb2.ResourceInfo,)

FORWARDS = (
    ai_tools_mcp_gen.forward_to_export_service_client,
    ai_tools_mcp_gen.forward_to_operations_client,
    ai_tools_mcp_gen.forward_to_link_service_client,
    ai_tools_mcp_gen.forward_to_page_theme_service_client,
    ai_tools_mcp_gen.forward_to_sample_service_client,
    ai_tools_mcp_gen.forward_to_workflow_service_client,
)


async def main(args: argparse.Namespace) -> None:
    store: ConversationStore | None = None
    if args.redis is not None:
        store = RedisConversationStore(redis.asyncio.Redis.from_url(args.redis))
    try:
        server = McpToolServer(
            name="linkhub",
            version="1.0.0",
            handle_argument=args.handle_argument,
            conversation_store=store,
            **tool_options(args),
        )
    except ValueError as err:
        raise SystemExit(str(err)) from None
    async with grpc_channel(args) as channel:
        for forward in FORWARDS:
            forward(server, channel)
        if args.http is None:
            await serve_stdio(server)
            return
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", args.http))
        # Listening before "listening" is printed: a client that connects at
        # once waits in the backlog until uvicorn accepts, instead of being
        # refused.
        sock.listen(128)
        print(f"listening http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
        await serve_http(server, sock=sock)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grpc", required=True, help="the gRPC server, host:port")
    parser.add_argument("--http", type=int, help="serve HTTP on this port (0: a free one)")
    parser.add_argument("--handle-argument", action="store_true")
    parser.add_argument("--redis", help="keep the conversations in Redis: redis://host:port/db")
    add_tool_flags(parser)
    anyio.run(main, parser.parse_args())
