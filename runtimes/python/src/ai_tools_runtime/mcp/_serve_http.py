"""Serving the tools over streamable HTTP (docs/mcp.md, "Transports";
docs/production.md): the SDK's app behind the runtime's HTTP gate."""

from __future__ import annotations

import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette

from ._http_auth import HttpAuth, JwtAuth
from ._http_gate import GateAuth, GateState, HttpGate
from ._http_hosts import HostRules, is_loopback
from ._search_first_tools import CALL_TOOL
from ._token_verifier import create_token_verifier
from ._tool_server import McpToolServer

__all__ = ["DEFAULT_MAX_BODY_BYTES", "create_mcp_http_app", "serve_http"]

DEFAULT_MAX_BODY_BYTES: Final = 4 * 1024 * 1024
"""The default body limit, 4 MiB (the three MCP SDKs' default)."""

_KEEP_ALIVE_SECONDS: Final = 5


@dataclass(frozen=True)
class _Options:
    path: str
    host: str
    public_url: str | None
    auth: HttpAuth | None
    allow_unauthenticated: bool
    allowed_hosts: Iterable[str] | None
    allowed_origins: Iterable[str] | None
    max_body_bytes: int

    def __post_init__(self) -> None:
        # The lists as given (any iterable), kept as tuples.
        for name in ("allowed_hosts", "allowed_origins"):
            given = getattr(self, name)
            if given is not None:
                object.__setattr__(self, name, tuple(given))


def _bound_host(sock: socket.socket, host: str | None) -> str:
    """The address ``sock`` is bound to, which the start-up refusal and the
    default Host list go by; an explicit ``host`` must name the same."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6):
        return "localhost"  # a Unix socket: reachable on this machine only
    bound = str(sock.getsockname()[0])
    same = host is None or host.strip("[]") == bound or (is_loopback(host) and is_loopback(bound))
    if not same:
        raise ValueError(
            f'host "{host}" is not the address sock is bound to ("{bound}"): leave host out '
            "when giving sock"
        )
    return bound


def _check(options: _Options) -> None:
    """The start-up refusals (before anything listens)."""
    if options.auth is not None and not options.public_url:
        raise ValueError(
            'auth needs publicUrl (public_url / PublicURL): the URL clients use, e.g. "https://tools.example.com/mcp"'
        )
    if options.auth is None and not options.allow_unauthenticated and not is_loopback(options.host):
        raise ValueError(
            f'refusing to serve MCP over HTTP on "{options.host}" without authorization: set auth, '
            "or set allowUnauthenticated (allow_unauthenticated / AllowUnauthenticated) to serve "
            "anyone who can reach the port"
        )
    if options.max_body_bytes <= 0:
        raise ValueError(f"max_body_bytes: {options.max_body_bytes} is not a positive size")


def _gate_auth(server: McpToolServer, options: _Options) -> GateAuth | None:
    auth, public_url = options.auth, options.public_url
    if auth is None or public_url is None:
        return None
    if isinstance(auth, JwtAuth):
        audience = auth.audience or public_url
        servers: tuple[str, ...] = (auth.issuer,)
    else:
        audience, servers = public_url, auth.authorization_servers
    return GateAuth(
        verify=create_token_verifier(auth, audience),
        public_url=public_url,
        audience=audience,
        authorization_servers=servers,
        scopes=tuple(sorted(set(auth.scopes))),
        tool_scopes=server.required_scopes,
        tool_names=server.tool_names,
        call_tool=CALL_TOOL if server.search_first is not None else None,
    )


def _build(server: McpToolServer, options: _Options) -> tuple[Starlette, GateState]:
    _check(options)
    app = server.sdk_server.streamable_http_app(
        streamable_http_path=options.path,
        host=options.host,
        session_idle_timeout=server.idle_ttl_seconds,
        max_request_body_size=options.max_body_bytes,
        # Host and Origin are checked by the gate in front (its lists, its
        # 403 bodies); the SDK's own check would only repeat them.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    state = GateState()
    hosts = HostRules.create(
        options.host, options.public_url, options.allowed_hosts, options.allowed_origins
    )
    app.add_middleware(
        HttpGate,
        hosts=hosts,
        max_body_bytes=options.max_body_bytes,
        mcp_path=options.path,
        auth=_gate_auth(server, options),
        state=state,
    )
    return app, state


def create_mcp_http_app(
    server: McpToolServer,
    *,
    path: str = "/mcp",
    host: str = "127.0.0.1",
    public_url: str | None = None,
    auth: HttpAuth | None = None,
    allow_unauthenticated: bool = False,
    allowed_hosts: Iterable[str] | None = None,
    allowed_origins: Iterable[str] | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
) -> Starlette:
    """An ASGI app serving the tools over streamable HTTP at ``path``, both
    protocol revisions: 2026-07-28 requests (no session; the conversation is
    the handle a call passes back) and 2025-11-25 sessions (one conversation
    per ``Mcp-Session-Id``, closed after the idle TTL). Create one app per
    server. Every request first passes the gate (docs/production.md):

    - ``host``: where it is served. A non-loopback host without ``auth``
      is refused (``ValueError``) unless ``allow_unauthenticated``.
    - ``public_url``: the URL clients use (the protected resource
      metadata's ``resource``, the tokens' audience); required with ``auth``.
    - ``auth``: :class:`JwtAuth` or :class:`IntrospectionAuth`; without it
      nobody is asked for a token.
    - ``allowed_hosts`` (``host`` or ``host:port``) and ``allowed_origins``:
      by default the loopback names and the public URL's host; the public
      URL's origin, and on a loopback host any loopback origin. Others: 403.
      A request without ``Origin`` passes.
    - ``max_body_bytes``: larger bodies get 413, unread (default 4 MiB).
    """
    options = _Options(
        path, host, public_url, auth, allow_unauthenticated, allowed_hosts, allowed_origins,
        max_body_bytes,
    )  # fmt: skip
    return _build(server, options)[0]


async def serve_http(
    server: McpToolServer,
    *,
    host: str | None = None,
    port: int = 8000,
    path: str = "/mcp",
    sock: socket.socket | None = None,
    public_url: str | None = None,
    auth: HttpAuth | None = None,
    allow_unauthenticated: bool = False,
    allowed_hosts: Iterable[str] | None = None,
    allowed_origins: Iterable[str] | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    shutdown_grace_seconds: float = 10.0,
    max_connections: int = 1024,
) -> None:
    """Serve :func:`create_mcp_http_app` (same options) with uvicorn on
    ``host:port`` (default ``127.0.0.1``), or on ``sock``, a socket already
    bound (e.g. to port 0): then the start-up refusal and the default Host
    list go by the address it is bound to, and a ``host`` naming another is
    a ``ValueError``. It serves until cancelled, or until SIGTERM/SIGINT: then
    new requests get 503 ``shutting_down``, those in flight have
    ``shutdown_grace_seconds`` to finish, and it returns. At most
    ``max_connections`` connections are served (one more is closed
    unanswered); a connection idle after a
    response is closed after 5 s, one that has not sent a request head
    after 10 s too. Start-up refusals raise ``ValueError`` before anything
    listens."""
    import uvicorn

    from ._connection_protocol import capped_protocol
    from ._draining_server import DrainingServer

    bind = _bound_host(sock, host) if sock is not None else host or "127.0.0.1"
    options = _Options(
        path, bind, public_url, auth, allow_unauthenticated, allowed_hosts, allowed_origins,
        max_body_bytes,
    )  # fmt: skip
    app, state = _build(server, options)
    config = uvicorn.Config(
        app,
        host=bind,
        port=port,
        log_level="warning",
        lifespan="on",
        http=capped_protocol(max_connections),
        timeout_keep_alive=_KEEP_ALIVE_SECONDS,
    )
    drained = DrainingServer(config, state, shutdown_grace_seconds)
    await drained.serve(sockets=[sock] if sock is not None else None)
