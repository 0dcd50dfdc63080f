"""Which ``Host`` and ``Origin`` headers an MCP HTTP server accepts
(DNS rebinding; docs/production.md, "Hardened HTTP"), and which bind
addresses are loopback."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["HostRules", "is_loopback", "origin_of"]

_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def is_loopback(host: str) -> bool:
    """``localhost``, ``127.0.0.0/8`` or ``::1`` (``0.0.0.0`` and ``::``
    are every interface, not loopback)."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


_DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower-cased, without the
    scheme's default port (as browsers send an ``Origin``)."""
    parts = urlsplit(url)
    scheme, netloc = parts.scheme.lower(), parts.netloc.lower()
    default = _DEFAULT_PORTS.get(scheme)
    if default is not None and netloc.endswith(default):
        netloc = netloc[: -len(default)]
    return f"{scheme}://{netloc}"


def _split_host(value: str) -> tuple[str, str | None]:
    """``host`` and ``port`` (or ``None``) of a ``Host`` header or an
    allow-list entry; an IPv6 address keeps its brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        rest = value[end + 1 :] if end >= 0 else ""
        return value[: end + 1], rest[1:] if rest.startswith(":") else None
    host, colon, port = value.partition(":")
    return host, port if colon else None


@dataclass(frozen=True)
class HostRules:
    """The allow-lists. A host entry without a port matches any port; an
    origin entry matches exactly (``loopback_origins``: also any
    ``http(s)`` origin on a loopback name)."""

    hosts: frozenset[str]
    origins: frozenset[str]
    loopback_origins: bool

    @staticmethod
    def create(
        bind_host: str,
        public_url: str | None,
        allowed_hosts: Iterable[str] | None,
        allowed_origins: Iterable[str] | None,
    ) -> HostRules:
        """The rules of a server bound to ``bind_host``: the given lists,
        else the defaults (the loopback names, plus the public URL's host
        and a specific bind address;
        the public URL's origin, plus any loopback origin when bound to a
        loopback address)."""
        loopback = is_loopback(bind_host)
        if allowed_hosts is not None:
            hosts = set(allowed_hosts)
        else:
            hosts = set(_LOOPBACK_NAMES)
            if public_url:
                hosts.add(_split_host(urlsplit(public_url).netloc)[0])
            if not loopback and bind_host not in ("", "0.0.0.0", "::"):
                hosts.add(f"[{bind_host}]" if ":" in bind_host else bind_host)
        if allowed_origins is not None:
            origins = {origin_of(o) if o != "null" else o for o in allowed_origins}
        else:
            origins = {origin_of(public_url)} if public_url else set()
        return HostRules(
            hosts=frozenset(h.strip().lower() for h in hosts),
            origins=frozenset(origins),
            loopback_origins=loopback and allowed_origins is None,
        )

    def host_allowed(self, header: str | None) -> bool:
        if not header:
            return False
        host, port = _split_host(header)
        return host in self.hosts or (port is not None and f"{host}:{port}" in self.hosts)

    def origin_allowed(self, header: str) -> bool:
        origin = header.strip().lower()
        if origin in self.origins:
            return True
        if not self.loopback_origins:
            return False
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and is_loopback(parts.hostname or "")
