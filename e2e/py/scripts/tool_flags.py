"""The tool-layer flags of scripts/mcp_server.py (issue 33 contract §5):
approvals, identity to the backend, scopes, limits, audit, and TLS to the
gRPC server. The same flags as e2e/go/cmd/linkhub-mcp and
e2e/ts/src/mcp-server.ts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import grpc
import grpc.aio
from ai_tools_runtime.mcp import (
    ApprovalRequest,
    ForwardIdentity,
    SearchFirst,
    json_lines_audit_writer,
)


def add_tool_flags(parser: argparse.ArgumentParser) -> None:
    """Add the tool-layer flags to ``parser``."""
    parser.add_argument(
        "--approve",
        choices=["allow", "deny"],
        help="install an approval hook answering every approval (default: no hook)",
    )
    parser.add_argument(
        "--approval-secret",
        help="the key sealing the state of approvals asked by elicitation (default: random)",
    )
    parser.add_argument(
        "--forward-claims",
        help="send claims to the gRPC server as metadata: key=claim,... (claim sub: the subject)",
    )
    parser.add_argument(
        "--required-scope",
        action="append",
        default=[],
        help="a scope a tool needs: tool=scope (repeatable)",
    )
    parser.add_argument("--rate-limit", type=int, help="calls per minute per subject")
    parser.add_argument(
        "--max-concurrent-calls", type=int, help="calls at once per conversation (default 16)"
    )
    parser.add_argument(
        "--audit",
        action="store_true",
        help="write an audit record per call to stderr, one JSON object a line",
    )
    parser.add_argument(
        "--grpc-tls-ca", help="call the gRPC server over TLS, trusting this CA (PEM file)"
    )
    parser.add_argument(
        "--search-first",
        action="store_true",
        help="serve the tools search-first: search_tools, the always-loaded tools and those found",
    )
    parser.add_argument(
        "--always-loaded",
        action="append",
        default=[],
        help="with --search-first, a tool listed from the start (repeatable)",
    )


def _pairs(flag: str, text: str, example: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for pair in text.split(","):
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise SystemExit(f"{flag} {text!r}: write key=value pairs, e.g. {example}")
        out.append((key, value))
    return out


def tool_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``McpToolServer`` keyword options the flags ask for. A bad value
    exits with code 1 and the reason on stderr."""
    options: dict[str, Any] = {}
    if args.approve is not None:
        allow: bool = args.approve == "allow"

        def approve(_request: ApprovalRequest) -> bool:
            return allow

        options["approve"] = approve
    if args.approval_secret is not None:
        options["approval_secret"] = args.approval_secret
    if args.forward_claims is not None:
        pairs = _pairs("--forward-claims", args.forward_claims, "x-user-id=sub,x-tenant=tenant")
        options["forward_identity"] = ForwardIdentity(metadata=dict(pairs))
    scopes: dict[str, list[str]] = {}
    for given in args.required_scope:
        for tool, scope in _pairs("--required-scope", given, "links_delete=links.delete"):
            scopes.setdefault(tool, []).append(scope)
    if scopes:
        options["required_scopes"] = scopes
    if args.rate_limit is not None:
        options["rate_limit"] = args.rate_limit
    if args.max_concurrent_calls is not None:
        options["max_concurrent_calls"] = args.max_concurrent_calls
    if args.audit:
        options["audit"] = json_lines_audit_writer(sys.stderr)
    if args.search_first:
        import ai_tools_gen  # gen/, on the path as the MCP module is

        options["search_first"] = SearchFirst(
            search=ai_tools_gen.TOOL_SEARCH, always_loaded=args.always_loaded
        )
    elif args.always_loaded:
        raise SystemExit("--always-loaded needs --search-first")
    return options


def grpc_channel(args: argparse.Namespace) -> grpc.aio.Channel:
    """The channel to ``--grpc``: TLS trusting ``--grpc-tls-ca``, else
    plaintext."""
    if args.grpc_tls_ca is None:
        return grpc.aio.insecure_channel(args.grpc)
    try:
        ca = Path(args.grpc_tls_ca).read_bytes()
    except OSError as err:
        raise SystemExit(f"--grpc-tls-ca {args.grpc_tls_ca!r}: {err.strerror}") from None
    return grpc.aio.secure_channel(args.grpc, grpc.ssl_channel_credentials(root_certificates=ca))
