"""The HTTP gate's pure parts: loopback addresses, the Host and Origin
allow-lists and their defaults, the protected resource metadata URLs, and
the tools a JSON-RPC body calls."""

from __future__ import annotations

import json

import pytest

from ai_tools_runtime.mcp._called_tools import called_tools
from ai_tools_runtime.mcp._http_hosts import HostRules, is_loopback
from ai_tools_runtime.mcp._http_refusal import bearer_challenge
from ai_tools_runtime.mcp._protected_resource import metadata_paths, metadata_url


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.9.8.7", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.0.0.1", False),
        ("example.com", False),
        ("localhost.example.com", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_default_lists_on_a_non_loopback_host() -> None:
    rules = HostRules.create("0.0.0.0", "https://tools.example.com/mcp", None, None)
    for host in ("tools.example.com", "tools.example.com:443", "localhost:8000", "[::1]:1"):
        assert rules.host_allowed(host), host
    for host in ("evil.example.com", "", None, "tools.example.com.evil.test"):
        assert not rules.host_allowed(host), host
    assert rules.origin_allowed("https://tools.example.com")
    assert rules.origin_allowed("HTTPS://TOOLS.EXAMPLE.COM")
    for origin in ("http://localhost:5173", "null", "https://tools.example.com:8443"):
        assert not rules.origin_allowed(origin), origin


def test_the_default_origin_drops_default_ports() -> None:
    for url, origin in (
        ("https://tools.example.com:443/mcp", "https://tools.example.com"),
        ("http://tools.example.com:80/mcp", "http://tools.example.com"),
    ):
        rules = HostRules.create("0.0.0.0", url, None, None)
        assert rules.origin_allowed(origin), url
    rules = HostRules.create("0.0.0.0", "https://tools.example.com:8443/mcp", None, None)
    assert rules.origin_allowed("https://tools.example.com:8443")
    assert not rules.origin_allowed("https://tools.example.com")


def test_default_lists_on_a_specific_address() -> None:
    rules = HostRules.create("10.1.2.3", None, None, None)
    assert rules.host_allowed("10.1.2.3:8000")
    assert not rules.host_allowed("10.1.2.4:8000")
    v6 = HostRules.create("fd00::1", None, None, None)
    assert v6.host_allowed("[fd00::1]:8000")


def test_default_lists_on_loopback() -> None:
    rules = HostRules.create("127.0.0.1", None, None, None)
    assert rules.host_allowed("127.0.0.1:9")
    assert not rules.host_allowed("mcp.example.test")
    for origin in ("http://localhost:5173", "https://127.0.0.1", "http://[::1]:3000"):
        assert rules.origin_allowed(origin), origin
    for origin in ("null", "http://localhost.evil.test", "file://localhost", "https://example.com"):
        assert not rules.origin_allowed(origin), origin


def test_given_lists_replace_the_defaults() -> None:
    rules = HostRules.create(
        "127.0.0.1", None, ["api.internal:8443", "tools.internal"], ["https://app.example.com/x"]
    )
    assert rules.host_allowed("api.internal:8443")
    assert not rules.host_allowed("api.internal:9")
    assert rules.host_allowed("tools.internal:9")
    assert not rules.host_allowed("localhost")
    assert rules.origin_allowed("https://app.example.com")
    assert not rules.origin_allowed("http://localhost:5173")


def test_metadata_urls() -> None:
    assert metadata_url("https://a.example/mcp") == (
        "https://a.example/.well-known/oauth-protected-resource/mcp"
    )
    assert metadata_url("https://a.example:8443/") == (
        "https://a.example:8443/.well-known/oauth-protected-resource"
    )
    assert metadata_paths("https://a.example/public/mcp", "/mcp") == {
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/public/mcp",
        "/.well-known/oauth-protected-resource/mcp",
    }


def call(name: object, method: str = "tools/call") -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"name": name}}


def test_called_tools() -> None:
    assert called_tools(json.dumps(call("a")).encode()) == ["a"]
    batch = [call("a"), call("x", "tools/list"), call("b"), "junk", call(3)]
    assert called_tools(json.dumps(batch).encode()) == ["a", "b"]
    # JSON escapes are read as JSON: no way around the check.
    escaped = b'{"method": "tools\\/call", "params": {"name": "\\u0061"}}'
    assert called_tools(escaped) == ["a"]
    assert called_tools(b"not json") == []
    # A search-first server's call_tool: the tool it names.
    inner = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    named = {**inner, "params": {"name": "call_tool", "arguments": {"name": "a"}}}
    unnamed = {**inner, "params": {"name": "call_tool", "arguments": {"name": 7}}}
    assert called_tools(json.dumps([named, unnamed]).encode(), "call_tool") == ["a"]
    assert called_tools(json.dumps(named).encode()) == ["call_tool"]
    assert called_tools(b'{"method": "tools/call", "params": []}') == []
    # Too deep for json (RecursionError): not read, the SDK answers it.
    assert called_tools(b"[" * 100_000) == []
    # Keys are exact: a differently cased key is not the method or the name.
    cased = b'{"method": "tools/call", "params": {"name": "a", "NAME": "b"}, "Method": "x"}'
    assert called_tools(cased) == ["a"]


def test_challenge_values_are_escaped() -> None:
    assert bearer_challenge(error_description='a "b" \\ c\r\nd\u00e9') == (
        'Bearer error_description="a \\"b\\" \\\\ c  d "'
    )
