"""The HTTP gate in front of the SDK's streamable HTTP app (docs/production.md):
every request passes, in order, the ``Host`` and ``Origin`` allow-lists, the
protected resource metadata, the body limit, the bearer token and the
per-tool scopes; a refusal is answered here and nothing reaches the SDK."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from starlette.authentication import AuthCredentials
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ._called_tools import called_tools
from ._http_hosts import HostRules
from ._http_refusal import bearer_challenge, send_json, send_refusal
from ._identity import Identity, access_token_of
from ._protected_resource import metadata_document, metadata_paths, metadata_url
from ._token_verifier import TokenError, TokenVerifier

__all__ = ["BODY_TIMEOUT_SECONDS", "GateAuth", "GateState", "HttpGate"]

logger = logging.getLogger("ai_tools_runtime.mcp")

BODY_TIMEOUT_SECONDS: Final = 30.0
"""How long the whole request body may take to arrive (408 after)."""


@dataclass(frozen=True)
class GateAuth:
    """What the gate checks tokens with: ``scopes`` are required of every
    request, ``tool_scopes`` gives a tool's own (sorted), ``tool_names``
    every tool (for ``scopes_supported``)."""

    verify: TokenVerifier
    public_url: str
    audience: str
    authorization_servers: tuple[str, ...]
    scopes: tuple[str, ...]
    tool_scopes: Callable[[str], Iterable[str]]
    tool_names: Callable[[], Iterable[str]]
    call_tool: str | None = None
    """A search-first server's ``call_tool``: its calls are checked as the
    call of the tool they name."""


@dataclass
class GateState:
    """Shared with the server that drains it: once ``draining``, new
    requests are refused (503 ``shutting_down``); ``in_flight`` counts the
    requests being answered (GET streams aside)."""

    draining: bool = False
    in_flight: int = 0


class _TooLarge(Exception):
    pass


class HttpGate:
    """ASGI middleware: the checks, then the app with the verified caller
    in the request scope (``user``, ``auth``) and the SDK's context variable."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: HostRules,
        max_body_bytes: int,
        mcp_path: str,
        auth: GateAuth | None,
        state: GateState,
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.max_body_bytes = max_body_bytes
        self.auth = auth
        self.state = state
        self.metadata_paths = (
            metadata_paths(auth.public_url, mcp_path) if auth is not None else frozenset()
        )
        self.resource_metadata = metadata_url(auth.public_url) if auth is not None else ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.state.draining:
            headers = {"connection": "close", "retry-after": "1"}
            text = "the server is shutting down: retry on another instance"
            await send_refusal(send, 503, "shutting_down", text, headers)
            return
        counted = scope["method"] != "GET"
        if counted:
            self.state.in_flight += 1
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self._gate(scope, receive, sending)
        except Exception:
            if started:
                raise
            # Logged here; the client gets the fixed text, never the error's.
            logger.exception("the MCP HTTP gate failed")
            await send_refusal(send, 500, "internal_error", "internal error")
        finally:
            if counted:
                self.state.in_flight -= 1

    async def _gate(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if not self.hosts.host_allowed(host):
            text = f'host "{host}" is not allowed: add it to allowed_hosts'
            await send_refusal(send, 403, "forbidden_host", text)
            return
        origin = headers.get("origin")
        if origin is not None and not self.hosts.origin_allowed(origin):
            text = f'origin "{origin}" is not allowed: add it to allowed_origins'
            await send_refusal(send, 403, "forbidden_origin", text)
            return
        if self.auth is not None and scope["path"] in self.metadata_paths:
            await self._metadata(scope["method"], send, self.auth)
            return
        body: bytes | None = None
        if scope["method"] not in ("GET", "HEAD", "DELETE", "OPTIONS"):
            try:
                async with asyncio.timeout(BODY_TIMEOUT_SECONDS):
                    body = await self._read_body(headers, receive)
            except _TooLarge:
                description = f"the request body is over {self.max_body_bytes} bytes"
                await send_refusal(send, 413, "request_too_large", description)
                return
            except TimeoutError:
                seconds = f"{BODY_TIMEOUT_SECONDS:g}"
                description = f"the request body did not arrive within {seconds} s"
                closing = {"connection": "close"}
                await send_refusal(send, 408, "request_timeout", description, closing)
                return
        identity = None
        if self.auth is not None:
            identity = await self._authorize(headers, body, self.auth, send)
            if identity is None:
                return
        await self._forward(scope, receive, send, body, identity, "mcp-session-id" in headers)

    async def _metadata(self, method: str, send: Send, auth: GateAuth) -> None:
        """The protected resource metadata to GET and HEAD (uvicorn sends
        no body to a HEAD), 405 otherwise."""
        if method not in ("GET", "HEAD"):
            text = f"the protected resource metadata answers GET and HEAD, not {json.dumps(method)}"
            allow = {"allow": "GET, HEAD"}
            await send_refusal(send, 405, "method_not_allowed", text, allow)
            return
        scopes = set(auth.scopes)
        for tool in auth.tool_names():
            scopes.update(auth.tool_scopes(tool))
        document = metadata_document(auth.public_url, auth.authorization_servers, scopes)
        await send_json(send, 200, document, {"cache-control": "max-age=3600"})

    async def _read_body(self, headers: dict[str, str], receive: Receive) -> bytes:
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body_bytes:
            raise _TooLarge
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _authorize(
        self, headers: dict[str, str], body: bytes | None, auth: GateAuth, send: Send
    ) -> Identity | None:
        """The verified caller, or ``None`` once refused (401/403 sent)."""
        scheme, _, token = headers.get("authorization", "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            params = {"resource_metadata": self.resource_metadata}
            if auth.scopes:
                params["scope"] = " ".join(auth.scopes)
            challenge = bearer_challenge(**params)
            await send_refusal(
                send, 401, "invalid_token", "no bearer token", {"www-authenticate": challenge}
            )
            return None
        try:
            identity = await auth.verify(token)
        except TokenError as e:
            challenge = bearer_challenge(
                error="invalid_token",
                error_description=str(e),
                resource_metadata=self.resource_metadata,
            )
            await send_refusal(send, 401, "invalid_token", str(e), {"www-authenticate": challenge})
            return None
        held = set(identity.scopes)
        missing = [s for s in auth.scopes if s not in held]
        if missing:
            text = f'the token lacks scope "{" ".join(missing)}"'
            await self._insufficient(send, auth.scopes, text)
            return None
        for tool in called_tools(body, auth.call_tool) if body else []:
            needed = tuple(auth.tool_scopes(tool))
            missing = [s for s in needed if s not in held]
            if missing:
                text = f'the call of "{tool}" needs scope "{" ".join(missing)}"'
                await self._insufficient(send, (*auth.scopes, *needed), text)
                return None
        return identity

    async def _insufficient(self, send: Send, scopes: Iterable[str], text: str) -> None:
        challenge = bearer_challenge(
            error="insufficient_scope",
            scope=" ".join(sorted(set(scopes))),
            resource_metadata=self.resource_metadata,
        )
        await send_refusal(send, 403, "insufficient_scope", text, {"www-authenticate": challenge})

    async def _forward(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        body: bytes | None,
        identity: Identity | None,
        has_session: bool,
    ) -> None:
        if body is not None:
            receive = _replay(body, receive)
        if has_session:
            send = _session_not_found(send)
        if identity is None or self.auth is None:
            await self.app(scope, receive, send)
            return
        user = AuthenticatedUser(access_token_of(identity, self.auth.audience))
        scope = {**scope, "user": user, "auth": AuthCredentials(list(identity.scopes))}
        reset = auth_context_var.set(user)
        try:
            await self.app(scope, receive, send)
        finally:
            auth_context_var.reset(reset)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` that hands out the body already read, then waits on the
    real one (for the client's disconnect)."""
    pending = [body]

    async def replayed() -> Message:
        if pending:
            return {"type": "http.request", "body": pending.pop(), "more_body": False}
        return await receive()

    return replayed


def _session_not_found(send: Send) -> Send:
    """``send`` that turns the SDK's 404 for an ``Mcp-Session-Id`` it does
    not know, or that another subject opened, into the gate's body."""
    replaced = False

    async def sending(message: Message) -> None:
        nonlocal replaced
        if message["type"] == "http.response.start" and message["status"] == 404:
            replaced = True
            description = "session not found: initialize a new one"
            await send_refusal(send, 404, "session_not_found", description)
            return
        if not replaced:
            await send(message)

    return sending
