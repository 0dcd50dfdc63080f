"""The ``auth`` option of :func:`serve_http` (docs/production.md,
"Authorization"): bearer JWTs checked against the issuer's key set, or
opaque tokens handed to an introspection hook."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ._identity import Identity
from ._scope_token import check_scope_tokens

__all__ = ["HttpAuth", "Introspect", "IntrospectionAuth", "JwtAuth"]

Introspect = Callable[[str], Awaitable[Identity | None] | Identity | None]
"""Answers an opaque bearer token: the caller's :class:`Identity`, or
``None`` when the token is not valid (expired, revoked, unknown)."""

_DEFAULT_ALGORITHMS = ("RS256", "ES256")
_MAX_LEEWAY_SECONDS = 300


@dataclass(frozen=True)
class JwtAuth:
    """Bearer JWTs (RFC 9068 access tokens) verified with PyJWT: the
    signature by a key of the issuer's JWKS (cached), ``iss`` = ``issuer``,
    ``aud`` holding ``audience`` exactly (default: the server's
    ``public_url``, RFC 8707), ``exp`` required, ``nbf`` honoured, ``sub``
    required (the subject), ``leeway_seconds`` of clock skew (0 to 300), and only
    ``algorithms`` (never ``none`` nor a shared-secret ``HS*``).

    - ``jwks_url``: the issuer's key set (default: ``jwks_uri`` of the
      issuer's metadata, ``<issuer>/.well-known/oauth-authorization-server``
      then ``openid-configuration``, read once). It, the ``jwks_uri`` and
      the issuer (when its metadata is read) must be https, or http on
      127.0.0.1, localhost or ::1: otherwise tokens are refused naming the
      issuer and the URL.
    - ``scopes``: scopes every request's token must hold (its ``scope`` or
      ``scp`` claim).
    """

    issuer: str
    jwks_url: str | None = None
    audience: str | None = None
    algorithms: tuple[str, ...] = _DEFAULT_ALGORITHMS
    scopes: tuple[str, ...] = ()
    leeway_seconds: float = 30

    def __post_init__(self) -> None:
        if not self.issuer:
            raise ValueError('auth needs issuer: the "iss" of the tokens it accepts')
        if not self.algorithms:
            raise ValueError('auth algorithms: empty; leave it out for ("RS256", "ES256")')
        for alg in self.algorithms:
            if alg.lower() == "none" or alg.upper().startswith("HS"):
                raise ValueError(
                    f'auth algorithms: "{alg}" is not allowed (a resource server checks '
                    "public-key signatures only); use RS256, ES256, PS256 or EdDSA"
                )
        if not 0 <= self.leeway_seconds <= _MAX_LEEWAY_SECONDS:
            raise ValueError(
                f"auth leeway_seconds: {self.leeway_seconds!r} is not 0 to "
                f"{_MAX_LEEWAY_SECONDS} seconds (the clock skew tolerated; default 30)"
            )
        check_scope_tokens("auth scopes", self.scopes)


@dataclass(frozen=True)
class IntrospectionAuth:
    """Opaque bearer tokens: ``introspect`` (sync or async; e.g. an RFC 7662
    call to the authorization server) returns the caller's
    :class:`Identity`, or ``None`` for a token it does not accept; an
    identity whose ``expires_at`` has passed is refused too.
    ``authorization_servers`` go in the protected resource metadata;
    ``scopes`` are required of every request."""

    introspect: Introspect
    authorization_servers: tuple[str, ...]
    scopes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.authorization_servers:
            raise ValueError(
                "auth authorization_servers: empty; name the issuer clients get tokens from, "
                'e.g. ("https://auth.example.com",)'
            )
        check_scope_tokens("auth scopes", self.scopes)


HttpAuth = JwtAuth | IntrospectionAuth
"""What :func:`serve_http`'s ``auth`` takes."""
