"""The MCP HTTP gate (docs/production.md): an McpToolServer of the vectors'
tools served by serve_http (uvicorn on a real socket, the in-process gRPC
server behind it), tokens from a local issuer whose JWKS is served over
HTTP; status, headers and JSON bodies checked, and nothing reaching the
gRPC server when a request is refused."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anyio
import grpc.aio
import httpx2
import jwt
import pytest
from conftest import Servers, wait_for_port
from jwt_issuer import ISSUER, PUBLIC_URL, Issuer
from test_mcp import mcp_tools
from test_mcp_search_first import SEARCH
from toolset import ALIASES, create_args

from ai_tools_runtime.mcp import (
    AuditRecord,
    Identity,
    IntrospectionAuth,
    JwtAuth,
    McpToolServer,
    SearchFirst,
    create_mcp_http_app,
    serve_http,
)
from ai_tools_runtime.mcp import _connection_protocol as connection_protocol
from ai_tools_runtime.mcp import _http_gate as http_gate

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
METADATA = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp"
MERGE = {"source_id": "acct-1", "target_id": "", "note": ""}
ACCEPT = "application/json, text/event-stream"


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    with Issuer().serving() as served:
        yield served


@dataclasses.dataclass
class Gated:
    url: str
    port: int
    records: list[AuditRecord]
    client: httpx2.AsyncClient
    finished: anyio.Event
    """Set when serve_http has returned."""

    async def post(
        self,
        message: Any,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        content: bytes | None = None,
    ) -> httpx2.Response:
        """``message`` (a JSON-RPC message or batch) as a 2026-07-28 request."""
        first = message[0] if isinstance(message, list) else message
        sent = {
            "content-type": "application/json",
            "accept": ACCEPT,
            "mcp-protocol-version": MODERN,
            "mcp-method": first["method"],
        }
        if first["method"] == "tools/call":
            sent["mcp-name"] = first["params"]["name"]
        if token is not None:
            sent["authorization"] = f"Bearer {token}"
        sent.update(headers or {})
        body = content if content is not None else json.dumps(message).encode()
        return await self.client.post(self.url, content=body, headers=sent)


def modern(method: str, params: dict[str, Any] | None = None, id: int = 1) -> dict[str, Any]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
    }
    return {
        "jsonrpc": "2.0",
        "id": id,
        "method": method,
        "params": {**(params or {}), "_meta": meta},
    }


def tool_call(name: str, arguments: dict[str, Any], id: int = 1) -> dict[str, Any]:
    return modern("tools/call", {"name": name, "arguments": arguments}, id)


def answer(response: httpx2.Response) -> Any:
    """The JSON-RPC answer, whether sent as JSON or as one SSE event."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        for line in response.text.splitlines():
            if line.startswith("data: ") and line[6:].strip():
                return json.loads(line[6:])
    return response.json()


def challenge(response: httpx2.Response) -> dict[str, str]:
    """The WWW-Authenticate parameters (scheme Bearer checked)."""
    header = response.headers["www-authenticate"]
    assert header.startswith("Bearer ")
    found = re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', header)
    return {k: re.sub(r"\\(.)", r"\1", v) for k, v in found}


def refusal(response: httpx2.Response, status: int, code: str) -> str:
    """Checks the contract's error body; returns its description."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error", "error_description"}
    assert body["error"] == code
    return str(body["error_description"])


def jwt_auth(issuer: Issuer, **changes: Any) -> JwtAuth:
    return JwtAuth(issuer=ISSUER, jwks_url=issuer.jwks_url, scopes=("vectors.read",), **changes)


@asynccontextmanager
async def gated(
    servers: Servers, search_first: SearchFirst | None = None, **options: Any
) -> AsyncIterator[Gated]:
    """serve_http of the vectors' tools (accounts_merge's annotation needs
    accounts.merge; the option adds accounts.write to accounts_create)."""
    records: list[AuditRecord] = []
    server = McpToolServer(
        name="vectors",
        required_scopes={"accounts_create": ["accounts.write"]},
        audit=records.append,
        search_first=search_first,
    )
    tools = [
        dataclasses.replace(m, required_scopes=("accounts.merge",))
        if m.tool.name == "accounts_merge"
        else m
        for m in mcp_tools()
    ]
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    options = {"public_url": PUBLIC_URL, **options}
    async with grpc.aio.insecure_channel(servers.target) as channel:
        server.add_tools(tools, ALIASES, channel)
        finished = anyio.Event()

        async def serve() -> None:
            await serve_http(server, port=port, sock=sock, **options)
            finished.set()

        async with anyio.create_task_group() as tg, httpx2.AsyncClient() as client:
            tg.start_soon(serve)
            await wait_for_port(port)
            yield Gated(f"http://127.0.0.1:{port}/mcp", port, records, client, finished)
            tg.cancel_scope.cancel()
    sock.close()


# -- start-up refusals -------------------------------------------------------------------


def test_start_up_refusals() -> None:
    server = McpToolServer(name="vectors")
    for host in ("0.0.0.0", "::", "10.1.2.3"):
        with pytest.raises(ValueError) as refused:
            create_mcp_http_app(server, host=host)
        assert str(refused.value) == (
            f'refusing to serve MCP over HTTP on "{host}" without authorization: set auth, '
            "or set allowUnauthenticated (allow_unauthenticated / AllowUnauthenticated) "
            "to serve anyone who can reach the port"
        )
    with pytest.raises(ValueError) as refused:
        create_mcp_http_app(server, host="0.0.0.0", auth=JwtAuth(issuer=ISSUER))
    assert str(refused.value) == (
        "auth needs publicUrl (public_url / PublicURL): the URL clients use, "
        'e.g. "https://tools.example.com/mcp"'
    )
    create_mcp_http_app(McpToolServer(), host="0.0.0.0", allow_unauthenticated=True)
    for host in ("localhost", "127.0.0.2", "::1"):
        create_mcp_http_app(McpToolServer(), host=host)


async def test_serve_http_refuses_before_listening() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    with pytest.raises(ValueError, match="without authorization"):
        await serve_http(McpToolServer(), host="0.0.0.0")
    with pytest.raises(ValueError) as refused:
        await serve_http(McpToolServer(), host="0.0.0.0", sock=sock)
    assert str(refused.value) == (
        'host "0.0.0.0" is not the address sock is bound to ("127.0.0.1"): '
        "leave host out when giving sock"
    )
    sock.close()


async def test_serve_http_goes_by_the_address_of_sock() -> None:
    # A socket on every interface without auth is refused, whatever host
    # defaults to (SEC-6/D7).
    sock = socket.socket()
    sock.bind(("0.0.0.0", 0))
    with pytest.raises(ValueError) as refused:
        await serve_http(McpToolServer(), sock=sock)
    assert str(refused.value).startswith(
        'refusing to serve MCP over HTTP on "0.0.0.0" without authorization'
    )
    sock.close()


@pytest.mark.parametrize("scope", ["links write", 'a"b', "a\\b", "a\r", "é", ""])
def test_auth_scopes_are_scope_tokens(scope: str) -> None:
    text = (
        f"auth scopes: scope {json.dumps(scope)} is not a valid scope token "
        "(RFC 6749: printable ASCII, no space, quote or backslash)"
    )
    with pytest.raises(ValueError) as refused:
        JwtAuth(issuer=ISSUER, scopes=(scope,))
    assert str(refused.value) == text
    with pytest.raises(ValueError) as refused:
        IntrospectionAuth(lambda _t: None, ("https://as.example.test",), scopes=(scope,))
    assert str(refused.value) == text


@pytest.mark.parametrize("alg", ["none", "HS256", "hs512"])
def test_jwt_auth_refuses_unsafe_algorithms(alg: str) -> None:
    with pytest.raises(ValueError, match=f'auth algorithms: "{alg}" is not allowed'):
        JwtAuth(issuer=ISSUER, algorithms=(alg,))


# -- tokens ------------------------------------------------------------------------------


async def test_no_token(servers: Servers, issuer: Issuer) -> None:
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        for message in (modern("tools/list"), tool_call("accounts_create", create_args())):
            response = await g.post(message)
            assert refusal(response, 401, "invalid_token") == "no bearer token"
            assert challenge(response) == {"resource_metadata": METADATA, "scope": "vectors.read"}
        response = await g.post(modern("tools/list"), headers={"authorization": "Basic eDp5"})
        assert refusal(response, 401, "invalid_token") == "no bearer token"
    assert servers.received() == 0


def bad_tokens(issuer: Issuer) -> list[tuple[str, str, str]]:
    """(case, token, error_description)."""
    claims = issuer.claims()
    return [
        (
            "expired",
            issuer.token(exp=claims["iat"] - 120, iat=claims["iat"] - 600),
            "token expired",
        ),
        (
            "nbf ahead",
            issuer.token(nbf=claims["iat"] + 120),
            "token not valid yet",
        ),
        ("no exp", issuer.token(exp=None), "token has no exp claim"),
        ("no sub", issuer.token(sub=None), "token has no sub claim"),
        ("sub a number", issuer.token(sub=123), "token has no sub claim"),
        ("sub empty", issuer.token(sub=""), "token has no sub claim"),
        ("wrong aud", issuer.token(aud="https://other.example.test/mcp"), "wrong audience"),
        ("aud with /", issuer.token(aud=PUBLIC_URL + "/"), "wrong audience"),
        ("wrong iss", issuer.token(iss="https://evil.example.test"), "wrong issuer"),
        ("bad signature", issuer.token(key=issuer.other_ec), "bad signature"),
        ("bad RS256 signature", issuer.token("RS256", key=rsa_key()), "bad signature"),
        (
            "alg none",
            jwt.encode(claims, None, algorithm="none", headers={"kid": "ec-1"}),
            'algorithm "none" is not allowed',
        ),
        (
            "HS256",
            jwt.encode(claims, "k" * 32, algorithm="HS256", headers={"kid": "ec-1"}),
            'algorithm "HS256" is not allowed',
        ),
        (
            "unknown kid",
            issuer.token(kid="not-in-the-jwks", key=issuer.other_ec),
            "unknown signing key",
        ),
        (
            "no kid, signed by a key not in the set",
            jwt.encode(claims, issuer.other_ec, algorithm="ES256"),
            "bad signature",
        ),
        ("malformed", "not.a-jwt", "malformed token"),
        (
            "ES256 header, RSA kid",
            issuer.token(kid="rsa-1"),
            "bad signature",
        ),
    ]


def rsa_key() -> Any:
    from cryptography.hazmat.primitives.asymmetric import rsa

    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


async def test_invalid_tokens(servers: Servers, issuer: Issuer) -> None:
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        for case, token, description in bad_tokens(issuer):
            response = await g.post(tool_call("accounts_merge", MERGE), token)
            assert refusal(response, 401, "invalid_token") == description, case
            assert challenge(response) == {
                "error": "invalid_token",
                "error_description": description,
                "resource_metadata": METADATA,
            }, case
            assert token not in response.text
    assert servers.received() == 0


async def test_valid_tokens(servers: Servers, issuer: Issuer) -> None:
    fetches = issuer.fetches
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        iat = issuer.claims()["iat"]
        for token in (
            issuer.token(),
            issuer.token("RS256"),
            issuer.token(aud=["https://other.example.test/mcp", PUBLIC_URL]),
            issuer.token(exp=iat - 5),  # within the 30 s leeway
            issuer.token(scope=None, scp=["vectors.read"]),
            # No kid: the one key of the set that fits the algorithm.
            jwt.encode(issuer.claims(), issuer.ec, algorithm="ES256"),
            jwt.encode(issuer.claims(), issuer.rsa, algorithm="RS256"),
        ):
            response = await g.post(modern("tools/list"), token)
            assert response.status_code == 200, response.text
            assert len(answer(response)["result"]["tools"]) > 0
        response = await g.post(tool_call("accounts_create", create_args()), issuer.token())
        assert response.status_code == 200
        assert servers.received() == 1
    assert g.records[-1].subject == "alice"
    assert issuer.fetches - fetches <= 1  # the key set is cached (none: already cached)


class NoAlgIssuer(Issuer):
    """An issuer whose key set names no ``alg`` (kty and crv only)."""

    def jwks(self) -> dict[str, Any]:
        keys = super().jwks()["keys"]
        return {"keys": [{k: v for k, v in key.items() if k != "alg"} for key in keys]}


async def test_keys_that_name_no_algorithm(servers: Servers) -> None:
    # A key without alg fits by its type: RSA for RS256 and PS256, EC P-256
    # for ES256 (with or without kid); ES256 with the RSA key's kid does not.
    with NoAlgIssuer().serving() as issuer:
        auth = jwt_auth(issuer, algorithms=("RS256", "PS256", "ES256"))
        async with gated(servers, auth=auth) as g:
            claims = issuer.claims()
            for token in (
                issuer.token("PS256", kid="rsa-1", key=issuer.rsa),
                issuer.token("RS256"),
                issuer.token(),
                jwt.encode(claims, issuer.rsa, algorithm="PS256"),
            ):
                response = await g.post(modern("tools/list"), token)
                assert response.status_code == 200, response.text
            response = await g.post(modern("tools/list"), issuer.token(kid="rsa-1"))
            assert refusal(response, 401, "invalid_token") == "bad signature"


async def test_a_custom_audience(servers: Servers, issuer: Issuer) -> None:
    auth = jwt_auth(issuer, audience="api://tools")
    async with gated(servers, auth=auth) as g:
        assert (
            await g.post(modern("tools/list"), issuer.token(aud="api://tools"))
        ).status_code == 200
        response = await g.post(modern("tools/list"), issuer.token())
        assert refusal(response, 401, "invalid_token") == "wrong audience"


async def test_the_key_set_found_in_the_issuer_metadata(servers: Servers, issuer: Issuer) -> None:
    # No jwks_url: jwks_uri of <issuer>/.well-known/oauth-authorization-server.
    async with gated(servers, auth=JwtAuth(issuer=issuer.url)) as g:
        response = await g.post(modern("tools/list"), issuer.token(iss=issuer.url))
        assert response.status_code == 200, response.text


@pytest.mark.parametrize("where", ["jwks_uri", "JWKS URL", "URL"])
async def test_keys_over_http_beyond_loopback(servers: Servers, issuer: Issuer, where: str) -> None:
    # The loopback issuer's metadata names a JWKS over clear HTTP on
    # another host; a configured JWKS URL and an issuer likewise.
    clear = "http://10.0.0.8/jwks"
    jwks_url, issuer.jwks_url = issuer.jwks_url, clear
    auth, url = {
        "jwks_uri": (JwtAuth(issuer=issuer.url), clear),
        "JWKS URL": (JwtAuth(issuer=ISSUER, jwks_url=clear), clear),
        "URL": (JwtAuth(issuer="http://10.0.0.8"), "http://10.0.0.8"),
    }[where]
    text = (
        f'issuer "{auth.issuer}": its {where} "{url}" must be https (http only on a loopback host)'
    )
    try:
        async with gated(servers, auth=auth) as g:
            for _ in range(2):  # the second from the remembered refusal
                response = await g.post(modern("tools/list"), issuer.token(iss=auth.issuer))
                assert refusal(response, 401, "invalid_token") == text
    finally:
        issuer.jwks_url = jwks_url


async def test_an_unreachable_key_set(servers: Servers, issuer: Issuer) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{closed.getsockname()[1]}/jwks.json"
    closed.close()
    async with gated(servers, auth=JwtAuth(issuer=ISSUER, jwks_url=url)) as g:
        response = await g.post(modern("tools/list"), issuer.token())
        text = refusal(response, 401, "invalid_token")
        assert text == "could not get the issuer's signing keys"


@contextmanager
def failing_issuer() -> Iterator[list[str]]:
    """An issuer whose every URL answers 500; yields the paths asked."""
    asked: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    asked.append(f"http://127.0.0.1:{server.server_address[1]}")
    try:
        yield asked
    finally:
        server.shutdown()
        server.server_close()


async def test_a_failed_key_fetch_is_remembered(servers: Servers, issuer: Issuer) -> None:
    # Metadata discovery failing: the next tokens are refused for 30 s
    # without asking the issuer again.
    with failing_issuer() as asked:
        url = asked.pop()
        async with gated(servers, auth=JwtAuth(issuer=url)) as g:
            for _ in range(5):
                response = await g.post(modern("tools/list"), issuer.token(iss=url))
                text = refusal(response, 401, "invalid_token")
                assert text == "could not get the issuer's signing keys"
        assert len(asked) == 2  # the two metadata documents, once


async def test_unknown_key_ids_fetch_the_key_set_boundedly(
    servers: Servers, issuer: Issuer
) -> None:
    # 20 distinct unknown kids: PyJWKClient's cooldown (PyJWT >= 2.14)
    # refetches at most once per 30 s.
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        assert (await g.post(modern("tools/list"), issuer.token())).status_code == 200
        fetches = issuer.fetches
        for n in range(20):
            token = issuer.token(kid=f"unknown-{n}", key=issuer.other_ec)
            response = await g.post(modern("tools/list"), token)
            assert refusal(response, 401, "invalid_token") == "unknown signing key"
        assert issuer.fetches - fetches <= 1


async def test_leeway(servers: Servers, issuer: Issuer) -> None:
    for bad in (-1, 301):
        with pytest.raises(ValueError, match=r"auth leeway_seconds: .* is not 0 to 300 seconds"):
            JwtAuth(issuer=ISSUER, leeway_seconds=bad)
    async with gated(servers, auth=jwt_auth(issuer, leeway_seconds=0)) as g:
        token = issuer.token(exp=issuer.claims()["iat"] - 2)
        response = await g.post(modern("tools/list"), token)
        assert refusal(response, 401, "invalid_token") == "token expired"


# -- scopes ------------------------------------------------------------------------------


async def test_server_wide_scope(servers: Servers, issuer: Issuer) -> None:
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        response = await g.post(modern("tools/list"), issuer.token(scope="accounts.merge"))
        assert (
            refusal(response, 403, "insufficient_scope") == 'the token lacks scope "vectors.read"'
        )
        assert challenge(response) == {
            "error": "insufficient_scope",
            "scope": "vectors.read",
            "resource_metadata": METADATA,
        }
    assert servers.received() == 0


async def test_per_tool_scopes(servers: Servers, issuer: Issuer) -> None:
    read_only = issuer.token(scope="vectors.read")
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        cases = [
            (tool_call("accounts_merge", MERGE), "accounts_merge", "accounts.merge"),
            (tool_call("accounts_create", create_args()), "accounts_create", "accounts.write"),
            (
                [modern("tools/list", id=1), tool_call("accounts_create", create_args(), id=2)],
                "accounts_create",
                "accounts.write",
            ),
        ]
        for message, tool, scope in cases:
            response = await g.post(message, read_only)
            text = refusal(response, 403, "insufficient_scope")
            assert text == f'the call of "{tool}" needs scope "{scope}"'
            assert challenge(response) == {
                "error": "insufficient_scope",
                "scope": " ".join(sorted({"vectors.read", scope})),
                "resource_metadata": METADATA,
            }
        assert servers.received() == 0
        response = await g.post(tool_call("accounts_create", create_args()), issuer.token())
        assert response.status_code == 200
        assert answer(response)["result"].get("isError") is not True
        assert servers.received() == 1


async def test_call_tool_needs_the_called_tools_scopes(servers: Servers, issuer: Issuer) -> None:
    """A search-first server's call_tool is the call of the tool it names."""
    search = SearchFirst(search=SEARCH)
    async with gated(servers, search_first=search, auth=jwt_auth(issuer)) as g:
        called = {"name": "accounts_create", "arguments": create_args()}
        response = await g.post(tool_call("call_tool", called), issuer.token(scope="vectors.read"))
        text = refusal(response, 403, "insufficient_scope")
        assert text == 'the call of "accounts_create" needs scope "accounts.write"'
        assert servers.received() == 0


# -- protected resource metadata ---------------------------------------------------------


async def test_protected_resource_metadata(servers: Servers, issuer: Issuer) -> None:
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        base = f"http://127.0.0.1:{g.port}"
        for path, host in (
            ("/.well-known/oauth-protected-resource/mcp", None),
            ("/.well-known/oauth-protected-resource", None),
            ("/.well-known/oauth-protected-resource/mcp", "localhost:4444"),
        ):
            headers = {"host": host} if host else {}
            response = await g.client.get(base + path, headers=headers)
            assert response.status_code == 200
            assert response.headers["cache-control"] == "max-age=3600"
            assert response.json() == {
                "resource": PUBLIC_URL,
                "authorization_servers": [ISSUER],
                "bearer_methods_supported": ["header"],
                "scopes_supported": ["accounts.merge", "accounts.write", "vectors.read"],
            }


async def test_metadata_head(servers: Servers, issuer: Issuer) -> None:
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        response = await g.client.head(
            f"http://127.0.0.1:{g.port}/.well-known/oauth-protected-resource"
        )
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/json"
        assert response.content == b""


async def test_metadata_other_methods(servers: Servers, issuer: Issuer) -> None:
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        for path in (
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-protected-resource/mcp",
        ):
            response = await g.client.post(f"http://127.0.0.1:{g.port}{path}", content=b"{}")
            text = refusal(response, 405, "method_not_allowed")
            assert text == 'the protected resource metadata answers GET and HEAD, not "POST"'
            assert response.headers["allow"] == "GET, HEAD"


async def test_no_metadata_without_auth(servers: Servers) -> None:
    async with gated(servers) as g:
        response = await g.client.get(
            f"http://127.0.0.1:{g.port}/.well-known/oauth-protected-resource"
        )
        assert response.status_code == 404


# -- Host, Origin, body ------------------------------------------------------------------


async def test_host_and_origin(servers: Servers, issuer: Issuer) -> None:
    token = issuer.token()
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        for host in ("evil.example.test", "evil.example.test:8080"):
            response = await g.post(modern("tools/list"), headers={"host": host})
            text = refusal(response, 403, "forbidden_host")  # before the token
            assert text == f'host "{host}" is not allowed: add it to allowed_hosts'
        for origin in ("https://evil.example.test", "null", "http://localhost.evil.test"):
            response = await g.post(modern("tools/list"), token, headers={"origin": origin})
            text = refusal(response, 403, "forbidden_origin")
            assert text == f'origin "{origin}" is not allowed: add it to allowed_origins'
        for headers in (
            {"host": "localhost:9"},
            {"host": "mcp.example.test"},
            {"origin": "https://mcp.example.test"},
            {"origin": "http://localhost:5173"},
            {"origin": "http://[::1]:3000"},
        ):
            response = await g.post(modern("tools/list"), token, headers=headers)
            assert response.status_code == 200, headers
    assert servers.received() == 0


async def test_allow_lists_given(servers: Servers) -> None:
    async with gated(
        servers,
        allowed_hosts=["tools.internal:8443"],
        allowed_origins=["https://app.example.com"],
    ) as g:
        ok = {"host": "tools.internal:8443", "origin": "https://app.example.com"}
        assert (await g.post(modern("tools/list"), headers=ok)).status_code == 200
        for headers in (
            {"host": "tools.internal:9"},
            {"host": "127.0.0.1"},
        ):
            refusal(await g.post(modern("tools/list"), headers=headers), 403, "forbidden_host")
        bad = {**ok, "origin": "http://localhost:5173"}
        refusal(await g.post(modern("tools/list"), headers=bad), 403, "forbidden_origin")


async def test_body_limit(servers: Servers, issuer: Issuer) -> None:
    token = issuer.token()
    async with gated(servers, auth=jwt_auth(issuer), max_body_bytes=65536) as g:
        message = tool_call("accounts_create", create_args())
        exact = json.dumps(message).encode()
        exact += b" " * (65536 - len(exact))
        response = await g.post(message, token, content=exact)
        assert response.status_code == 200
        assert servers.received() == 1
        over = exact + b" "
        response = await g.post(message, content=over)  # before the token
        text = refusal(response, 413, "request_too_large")
        assert text == "the request body is over 65536 bytes"

        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(20):
                yield b" " * 10_000

        headers = {
            "content-type": "application/json",
            "accept": ACCEPT,
            "authorization": f"Bearer {token}",
        }
        response = await g.client.post(g.url, content=chunks(), headers=headers)
        assert "content-length" not in response.request.headers
        refusal(response, 413, "request_too_large")
    assert servers.received() == 1


async def test_a_slow_body_times_out(
    servers: Servers, issuer: Issuer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A body trickled past the deadline: 408, the connection closed, and
    # the server still answers others (SEC-4/D5).
    monkeypatch.setattr(http_gate, "BODY_TIMEOUT_SECONDS", 0.3)
    async with gated(servers) as g:
        slow = socket.create_connection(("127.0.0.1", g.port))
        head = (
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Accept: {ACCEPT}\r\nContent-Length: 65536\r\n\r\n"
        )
        slow.sendall(head.encode() + b"{")
        slow.settimeout(10)

        def read_all() -> bytes:
            out = b""
            while chunk := slow.recv(65536):
                out += chunk
            return out

        raw = await anyio.to_thread.run_sync(read_all)  # ends: the server closed it
        slow.close()
        status, _, rest = raw.partition(b"\r\n")
        assert status == b"HTTP/1.1 408 Request Timeout"
        assert json.loads(rest.partition(b"\r\n\r\n")[2]) == {
            "error": "request_timeout",
            "error_description": "the request body did not arrive within 0.3 s",
        }
        assert (await g.post(modern("tools/list"))).status_code == 200
    assert servers.received() == 0


async def test_an_error_in_the_gate_is_not_echoed(
    servers: Servers, monkeypatch: pytest.MonkeyPatch, issuer: Issuer
) -> None:
    def broken(body: bytes, call_tool: str | None = None) -> list[str]:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(http_gate, "called_tools", broken)
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        response = await g.post(tool_call("accounts_create", create_args()), issuer.token())
        assert refusal(response, 500, "internal_error") == "internal error"
        assert "secret" not in response.text
    assert servers.received() == 0


# -- sessions (2025-11-25) and identity --------------------------------------------------


async def open_session(g: Gated, token: str) -> str:
    headers = {"content-type": "application/json", "accept": ACCEPT}
    headers["authorization"] = f"Bearer {token}"
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    response = await g.client.post(g.url, json=initialize, headers=headers)
    assert response.status_code == 200, response.text
    session = response.headers["mcp-session-id"]
    headers |= {"mcp-session-id": session, "mcp-protocol-version": LEGACY}
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (await g.client.post(g.url, json=done, headers=headers)).status_code == 202
    return session


async def in_session(g: Gated, token: str, session: str, message: Any) -> httpx2.Response:
    headers = {
        "content-type": "application/json",
        "accept": ACCEPT,
        "authorization": f"Bearer {token}",
        "mcp-session-id": session,
        "mcp-protocol-version": LEGACY,
    }
    return await g.client.post(g.url, json=message, headers=headers)


async def test_sessions_are_bound_to_the_subject(servers: Servers, issuer: Issuer) -> None:
    alice, bob = issuer.token(), issuer.token(sub="bob")
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "accounts_create", "arguments": create_args()},
    }
    async with gated(servers, auth=jwt_auth(issuer)) as g:
        session = await open_session(g, alice)
        for token, sid in ((bob, session), (alice, "no-such-session")):
            response = await in_session(g, token, sid, call)
            description = refusal(response, 404, "session_not_found")
            assert description == "session not found: initialize a new one"
        assert servers.received() == 0
        response = await in_session(g, alice, session, call)
        assert response.status_code == 200
        assert answer(response)["result"].get("isError") is not True
        assert servers.received() == 1
    # The identity reached the tool layer inside the session's task.
    assert [(r.subject, r.tool) for r in g.records] == [("alice", "accounts_create")]


async def test_introspection(servers: Servers) -> None:
    seen: list[str] = []

    async def introspect(token: str) -> Identity | None:
        seen.append(token)
        if token == "opaque-alice":
            return Identity("alice", ("vectors.read", "accounts.write"))
        if token == "opaque-old":
            return Identity("alice", ("vectors.read",), expires_at=1)
        if token == "opaque-nobody":
            return Identity("", ("vectors.read",))
        if token == "opaque-broken":
            raise RuntimeError("fetch failed for https://introspect.internal/?token=opaque-broken")
        return None

    auth = IntrospectionAuth(
        introspect, authorization_servers=("https://as.example.test",), scopes=("vectors.read",)
    )
    async with gated(servers, auth=auth) as g:
        response = await g.post(tool_call("accounts_create", create_args()), "opaque-alice")
        assert response.status_code == 200
        assert servers.received() == 1
        for token, description in (
            ("opaque-bob", "token not accepted"),
            ("opaque-old", "token not accepted"),
            ("opaque-nobody", "token not accepted"),
            ("opaque-broken", "could not introspect the token"),
        ):
            response = await g.post(modern("tools/list"), token)
            assert refusal(response, 401, "invalid_token") == description
            assert "introspect.internal" not in response.text
        response = await g.client.get(
            f"http://127.0.0.1:{g.port}/.well-known/oauth-protected-resource"
        )
        assert response.json()["authorization_servers"] == ["https://as.example.test"]
    assert seen == ["opaque-alice", "opaque-bob", "opaque-old", "opaque-nobody", "opaque-broken"]
    assert [r.subject for r in g.records] == ["alice"]


# -- connections and shutdown ------------------------------------------------------------


async def test_idle_connections_are_closed(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    # More idle connections than the cap: each is closed once it has sent
    # no request head for the head timeout, and the server answers again.
    monkeypatch.setattr(connection_protocol, "HEAD_TIMEOUT_SECONDS", 0.3)
    async with gated(servers, max_connections=8) as g:
        idle = [socket.create_connection(("127.0.0.1", g.port)) for _ in range(12)]
        half = idle[0]
        half.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        for connection in idle:
            connection.settimeout(10)
            assert await anyio.to_thread.run_sync(connection.recv, 1) == b""  # closed
            connection.close()
        response = await g.post(modern("tools/list"))
        assert response.status_code == 200


async def test_connections_over_the_cap_are_closed(servers: Servers) -> None:
    # Over max_connections a new connection is closed without an answer
    # (not uvicorn's plain-text 503), and served again once one ends (D22).
    async with gated(servers, max_connections=2) as g:
        await anyio.sleep(0.2)  # the start-up probe's connection is gone
        held = [socket.create_connection(("127.0.0.1", g.port)) for _ in range(2)]
        await anyio.sleep(0.1)
        extra = socket.create_connection(("127.0.0.1", g.port))
        extra.settimeout(10)
        extra.sendall(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            got = await anyio.to_thread.run_sync(extra.recv, 1000)
        except ConnectionResetError:
            got = b""  # closed with the request unread: a reset
        assert got == b""
        extra.close()
        for connection in held:
            connection.close()
        await anyio.sleep(0.1)
        response = await g.post(modern("tools/list"))
        assert response.status_code == 200


async def test_sigterm_drains(servers: Servers, issuer: Issuer) -> None:
    # A call in flight finishes; a request after SIGTERM gets 503
    # shutting_down; serve_http returns (the process would exit 0).
    async with gated(servers, shutdown_grace_seconds=10) as g:
        async with anyio.create_task_group() as tg:
            held: list[httpx2.Response] = []

            async def slow() -> None:
                held.append(await g.post(tool_call("accounts_create", create_args("slow"))))

            tg.start_soon(slow)
            for _ in range(200):
                if servers.accounts.received:
                    break
                await anyio.sleep(0.01)
            assert servers.accounts.received  # the slow call is on the gRPC server
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None)
            os.kill(os.getpid(), signal.SIGTERM)
            await anyio.sleep(0.05)
            async with httpx2.AsyncClient() as fresh:
                response = await fresh.post(
                    g.url,
                    json=modern("tools/list"),
                    headers={"accept": ACCEPT, "mcp-protocol-version": MODERN},
                )
            assert (
                refusal(response, 503, "shutting_down")
                == "the server is shutting down: retry on another instance"
            )
        assert held[0].status_code == 200
        assert answer(held[0])["result"].get("isError") is not True
        with anyio.fail_after(15):
            await g.finished.wait()
