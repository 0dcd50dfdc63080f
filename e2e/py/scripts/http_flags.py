"""The HTTP flags of scripts/mcp_server.py (issue 33 contract §5): where to
listen and the security options of serve_http. The same flags as
e2e/go/cmd/linkhub-mcp and e2e/ts/src/mcp-server.ts."""

from __future__ import annotations

import argparse
import socket
from typing import Any

from ai_tools_runtime.mcp import JwtAuth


def add_http_flags(parser: argparse.ArgumentParser) -> None:
    """Add the HTTP flags to ``parser``."""
    parser.add_argument("--http", help="serve HTTP on [HOST:]PORT (port 0: a free one)")
    parser.add_argument("--host", help="the address to bind (default 127.0.0.1)")
    parser.add_argument("--public-url", help="the URL clients use (the tokens' audience)")
    parser.add_argument("--auth-issuer", help="accept JWTs of this issuer")
    parser.add_argument("--auth-jwks-url", help="the issuer's key set")
    parser.add_argument("--auth-scopes", help="scopes every request needs: a,b")
    parser.add_argument(
        "--allow-unauthenticated",
        action="store_true",
        help="serve a non-loopback address without authorization",
    )
    parser.add_argument("--allowed-origin", action="append", help="an allowed Origin (repeatable)")
    parser.add_argument("--allowed-host", action="append", help="an allowed Host (repeatable)")
    parser.add_argument("--max-body-bytes", type=int, help="the largest request body")
    parser.add_argument("--shutdown-grace-ms", type=int, help="the SIGTERM drain's grace")


def http_address(args: argparse.Namespace) -> tuple[str, int]:
    """The bind address of ``--http [HOST:]PORT`` and ``--host`` (which wins)."""
    host, _, port = str(args.http).rpartition(":")
    if not port.isdigit():
        raise SystemExit(f'--http: "{args.http}" is not a port or HOST:PORT')
    return args.host or host.strip("[]") or "127.0.0.1", int(port)


def http_options(args: argparse.Namespace) -> dict[str, Any]:
    """The create_mcp_http_app keyword arguments of the flags."""
    options: dict[str, Any] = {
        "public_url": args.public_url,
        "allow_unauthenticated": args.allow_unauthenticated,
        "allowed_origins": args.allowed_origin,
        "allowed_hosts": args.allowed_host,
    }
    if args.auth_issuer is not None:
        scopes = tuple(s for s in (args.auth_scopes or "").split(",") if s)
        options["auth"] = JwtAuth(
            issuer=args.auth_issuer, jwks_url=args.auth_jwks_url, scopes=scopes
        )
    if args.max_body_bytes is not None:
        options["max_body_bytes"] = args.max_body_bytes
    return options


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening (a client that connects
    at once waits in the backlog until uvicorn accepts, instead of being
    refused)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


def listening_url(sock: socket.socket) -> str:
    """``http://host:port/mcp`` of ``sock``."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/mcp"
