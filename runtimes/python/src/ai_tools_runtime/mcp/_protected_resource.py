"""OAuth 2.0 Protected Resource Metadata (RFC 9728) of an MCP server: its
URLs and its document, whose ``resource`` is the configured public URL
(never the request's ``Host``)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

__all__ = ["WELL_KNOWN", "metadata_document", "metadata_paths", "metadata_url"]

WELL_KNOWN = "/.well-known/oauth-protected-resource"


def _path_of(url: str) -> str:
    path = urlsplit(url).path
    return "" if path in ("", "/") else path


def metadata_url(public_url: str) -> str:
    """Where clients find the metadata (the 401's ``resource_metadata``):
    the well-known prefix inserted before the public URL's path."""
    parts = urlsplit(public_url)
    return f"{parts.scheme}://{parts.netloc}{WELL_KNOWN}{_path_of(public_url)}"


def metadata_paths(public_url: str, mcp_path: str) -> frozenset[str]:
    """The request paths that serve the metadata: path-inserted (for the
    public URL's path and, behind a proxy that rewrites it, for the served
    ``mcp_path``) and at the root."""
    return frozenset(
        {WELL_KNOWN, WELL_KNOWN + _path_of(public_url), WELL_KNOWN + _path_of(mcp_path)}
    )


def metadata_document(
    public_url: str, authorization_servers: Iterable[str], scopes: Iterable[str]
) -> dict[str, object]:
    """The metadata: ``scopes_supported`` sorted and unique."""
    return {
        "resource": public_url,
        "authorization_servers": list(authorization_servers),
        "bearer_methods_supported": ["header"],
        "scopes_supported": sorted(set(scopes)),
    }
