"""The caller's verified identity (docs/production.md, "Authorization"):
made by the HTTP gate from a bearer token, read by the tool layer.

It travels in the ``mcp`` SDK's own slot, an :class:`~mcp.server.auth.provider.AccessToken`
in the request scope's ``user`` (an ``AuthenticatedUser``) and in the SDK's
``get_access_token()`` context variable, so the SDK's session-owner check
(client id, issuer, subject) keeps working: ``client_id`` and ``subject`` are
the subject, ``claims`` the verified claims (``iss`` among them). The bearer
string itself is not kept there (``token`` is empty): nothing after the gate
needs it, and the client's token is never forwarded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from mcp.server import ServerRequestContext
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken

__all__ = ["Identity", "access_token_of", "identity_of", "identity_of_token"]


@dataclass(frozen=True)
class Identity:
    """Who is calling: the token's subject (``sub``), its scopes, its
    verified claims and its expiry (seconds since the epoch), or what an
    ``introspect`` hook returned for an opaque token."""

    subject: str
    scopes: tuple[str, ...] = ()
    claims: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    expires_at: int | None = None


def access_token_of(identity: Identity, resource: str | None = None) -> AccessToken:
    """The SDK's ``AccessToken`` carrying ``identity`` (``resource``: the
    audience the token was checked against)."""
    return AccessToken(
        token="",
        client_id=identity.subject,
        scopes=list(identity.scopes),
        expires_at=identity.expires_at,
        resource=resource,
        subject=identity.subject,
        claims=dict(identity.claims),
    )


def identity_of_token(token: AccessToken) -> Identity:
    """The :class:`Identity` an ``AccessToken`` carries (the inverse of
    :func:`access_token_of`; a token from another verifier gives its subject,
    else its client id)."""
    subject = token.subject if token.subject is not None else token.client_id
    return Identity(
        subject=subject,
        scopes=tuple(token.scopes),
        claims=MappingProxyType(dict(token.claims or {})),
        expires_at=token.expires_at,
    )


def identity_of(ctx: ServerRequestContext[Any, Any] | None) -> Identity | None:
    """The verified identity of the request a handler serves, or ``None``
    when the server has no ``auth`` (stdio, or HTTP without authorization).
    It is read from the HTTP request the SDK attaches to ``ctx`` (the scope's
    ``user``), else from the SDK's ``get_access_token()`` context variable."""
    request = ctx.request if ctx is not None else None
    scope = getattr(request, "scope", None)
    user = scope.get("user") if isinstance(scope, Mapping) else None
    if isinstance(user, AuthenticatedUser):
        return identity_of_token(user.access_token)
    token = get_access_token()
    return identity_of_token(token) if token is not None else None
