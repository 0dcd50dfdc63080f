"""The generated MCP server of the test API (gen/ai_tools_mcp_gen.py), every
service forwarded to a linkhub.v1 gRPC server.

    python scripts/mcp_server.py --grpc 127.0.0.1:8080               # stdio
    python scripts/mcp_server.py --grpc 127.0.0.1:8080 --http 8000   # HTTP

With --http [HOST:]PORT, it serves streamable HTTP (on 127.0.0.1 unless
--host; port 0: a free one) at /mcp, and prints
``listening http://<host>:<port>/mcp`` when ready; the HTTP security flags
are in scripts/http_flags.py. A start-up refusal (e.g. --host 0.0.0.0
without auth) exits 1 with its text on stderr; SIGTERM drains the calls in
flight and exits 0.
--handle-argument also takes the conversation handle as a tool argument;
--redis keeps the conversations in Redis (docs/store.md), so that several
instances serve one handle.
"""

from __future__ import annotations

import argparse

import anyio
import redis.asyncio
from ai_tools_runtime.mcp import (
    ConversationStore,
    McpToolServer,
    create_mcp_http_app,
    serve_http,
    serve_stdio,
)
from ai_tools_runtime.redis import RedisConversationStore
from http_flags import (
    add_http_flags,
    http_address,
    http_options,
    listening_socket,
    listening_url,
)
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
        host, port = http_address(args)
        options = http_options(args)
        try:
            create_mcp_http_app(server, host=host, **options)  # the start-up refusals
        except ValueError as err:
            raise SystemExit(str(err)) from None
        sock = listening_socket(host, port)
        print(f"listening {listening_url(sock)}", flush=True)
        grace = args.shutdown_grace_ms
        if grace is not None:
            options["shutdown_grace_seconds"] = grace / 1000
        await serve_http(server, host=host, sock=sock, **options)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grpc", required=True, help="the gRPC server, host:port")
    parser.add_argument("--handle-argument", action="store_true")
    parser.add_argument("--redis", help="keep the conversations in Redis: redis://host:port/db")
    add_tool_flags(parser)
    add_http_flags(parser)
    anyio.run(main, parser.parse_args())
