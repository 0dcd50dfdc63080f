"""Bearer token → :class:`Identity` (docs/production.md, "Authorization"):
PyJWT with a cached ``PyJWKClient`` for JWTs, or the application's
introspection hook for opaque tokens."""

from __future__ import annotations

import asyncio
import base64
import inspect
import json
import logging
import time
import urllib.request
from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import Any, Final
from urllib.parse import urlsplit

import jwt
from jwt import PyJWK, PyJWKClient, PyJWKSet
from jwt.exceptions import InvalidSubjectError

from ._http_auth import HttpAuth, IntrospectionAuth, JwtAuth
from ._identity import Identity

__all__ = ["TokenError", "TokenVerifier", "create_token_verifier"]

TokenVerifier = Callable[[str], Awaitable[Identity]]
"""Checks a bearer token; raises :class:`TokenError` when it is refused."""

logger = logging.getLogger("ai_tools_runtime.mcp")

_JWKS_LIFESPAN_SECONDS = 300
_FETCH_TIMEOUT_SECONDS = 10
_FAILURE_MEMORY_SECONDS = 30.0
"""How long a failed fetch of the issuer's keys (or metadata) is answered
without fetching again."""
_KEYS_UNAVAILABLE = "could not get the issuer's signing keys"


class TokenError(Exception):
    """A refused token; ``str(error)`` says which check failed (never the
    token itself): the 401's ``error_description``."""


def create_token_verifier(auth: HttpAuth, audience: str) -> TokenVerifier:
    """The verifier of ``auth``; JWTs must name ``audience``."""
    if isinstance(auth, IntrospectionAuth):
        return _introspection_verifier(auth)
    return _JwtVerifier(auth, audience).verify


def _introspection_verifier(auth: IntrospectionAuth) -> TokenVerifier:
    async def verify(token: str) -> Identity:
        try:
            answer = auth.introspect(token)
            identity = await answer if inspect.isawaitable(answer) else answer
        except Exception:
            # Logged here; the caller never sees the hook's text.
            logger.exception("the introspection hook failed")
            raise TokenError("could not introspect the token") from None
        if identity is None or not identity.subject:
            raise TokenError("token not accepted")
        if identity.expires_at is not None and identity.expires_at <= time.time():
            raise TokenError("token not accepted")
        return identity

    return verify


_BAD_SIGNATURE = "bad signature"
_UNKNOWN_KEY = "unknown signing key"

# Which check a PyJWT error means, most specific first (the classes nest).
_JWT_ERRORS: tuple[tuple[type[jwt.PyJWTError], str], ...] = (
    (jwt.ExpiredSignatureError, "token expired"),
    (InvalidSubjectError, "token has no sub claim"),  # not a string
    (jwt.ImmatureSignatureError, "token not valid yet"),
    (jwt.InvalidAudienceError, "wrong audience"),
    (jwt.InvalidIssuerError, "wrong issuer"),
    (jwt.InvalidSignatureError, _BAD_SIGNATURE),
    (jwt.InvalidKeyError, _BAD_SIGNATURE),
    (jwt.DecodeError, "malformed token"),
)


class _JwtVerifier:
    def __init__(self, auth: JwtAuth, audience: str) -> None:
        self._auth = auth
        self._audience = audience
        self._client: PyJWKClient | None = None
        self._algorithms = list(auth.algorithms)
        self._failed_at: float | None = None
        """When fetching the keys (or the issuer's metadata) last failed."""
        self._failed_text = _KEYS_UNAVAILABLE
        """Why it failed, as the tokens meanwhile are refused."""

    async def verify(self, token: str) -> Identity:
        header = _header(token)
        alg = header.get("alg")
        if not isinstance(alg, str):
            raise TokenError("malformed token")
        if alg not in self._auth.algorithms:
            raise TokenError(f"algorithm {json.dumps(alg)} is not allowed")
        kid = header.get("kid")
        key = _for_alg(await self._key(kid if isinstance(kid, str) else None, alg), alg)
        if key is None:
            raise TokenError(_BAD_SIGNATURE)
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=self._algorithms,
                audience=self._audience,
                issuer=self._auth.issuer,
                leeway=self._auth.leeway_seconds,
                options={"require": ["exp", "iss", "aud", "sub"], "strict_aud": False},
            )
        except jwt.MissingRequiredClaimError as e:
            raise TokenError(f"token has no {e.claim} claim") from None
        except jwt.PyJWTError as e:
            raise TokenError(_describe(e)) from None
        return _identity(claims)

    async def _key(self, kid: str | None, alg: str) -> PyJWK:
        """The key of ``kid``; without one, the only key of the set that
        fits ``alg`` (as jose and keyfunc pick it)."""
        client = self._client
        if client is not None:
            cached = _cached_key(client, kid, alg)
            if cached is not None:
                return cached
        failed = self._failed_at
        if failed is not None and time.monotonic() - failed < _FAILURE_MEMORY_SECONDS:
            raise TokenError(self._failed_text)
        try:
            # PyJWKClient fetches with urllib (blocking): off the event loop.
            return await asyncio.to_thread(self._fetch_key, kid, alg)
        except TokenError as e:
            self._failed_at, self._failed_text = time.monotonic(), str(e)
            raise
        except jwt.PyJWKClientConnectionError:
            self._failed_at, self._failed_text = time.monotonic(), _KEYS_UNAVAILABLE
            raise TokenError(_KEYS_UNAVAILABLE) from None
        except jwt.PyJWTError:
            raise TokenError(_UNKNOWN_KEY) from None

    def _fetch_key(self, kid: str | None, alg: str) -> PyJWK:
        if self._client is None:
            issuer = self._auth.issuer
            url = (
                _over_tls(issuer, "its JWKS URL", self._auth.jwks_url)
                if self._auth.jwks_url
                else _discover_jwks_url(issuer)
            )
            self._client = PyJWKClient(
                url, lifespan=_JWKS_LIFESPAN_SECONDS, timeout=_FETCH_TIMEOUT_SECONDS
            )
        if kid is not None:
            # An unknown kid refetches the set at most once per 30 s
            # (PyJWKClient's cooldown, PyJWT 2.14 and later).
            return self._client.get_signing_key(kid)
        key = _only_fitting(self._client.get_jwk_set().keys, alg)
        if key is None:
            raise jwt.PyJWKClientError(_UNKNOWN_KEY)
        return key


def _header(token: str) -> dict[str, Any]:
    """The token's JOSE header (only the first segment decoded: PyJWT's
    ``get_unverified_header`` decodes all three, and ``decode`` again)."""
    head, dot, _ = token.partition(".")
    try:
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except ValueError:
        header = None
    if not dot or not isinstance(header, dict):
        raise TokenError("malformed token")
    return header


def _cached_key(client: PyJWKClient, kid: str | None, alg: str) -> PyJWK | None:
    """The key ``kid`` (or the only one fitting ``alg``) from the client's
    unexpired key set, without I/O."""
    cache = client.jwk_set_cache
    keys = cache.get() if cache is not None else None
    if not isinstance(keys, PyJWKSet):
        return None
    if kid is None:
        return _only_fitting(keys.keys, alg)
    for key in keys.keys:
        if key.key_id == kid and key.public_key_use in ("sig", None):
            return key
    return None


def _only_fitting(keys: list[PyJWK], alg: str) -> PyJWK | None:
    """The signing key of ``keys`` for ``alg`` when exactly one fits."""
    fitting = [f for f in (_for_alg(k, alg) for k in keys) if f is not None]
    return fitting[0] if len(fitting) == 1 else None


_CURVES: Final = {"ES256": "P-256", "ES384": "P-384", "ES512": "P-521", "ES256K": "secp256k1"}


def _for_alg(key: PyJWK, alg: str) -> PyJWK | None:
    """``key`` to verify ``alg`` with, or None when it does not fit: a
    signing key whose ``alg`` is ``alg``, or that names none and whose type
    (and curve) fits (an RSA key for RS* and PS*, as jose and keyfunc)."""
    if key.public_key_use not in ("sig", None):
        return None
    data: Mapping[str, Any] = key._jwk_data
    if "alg" in data:
        return key if data["alg"] == alg else None
    kty, crv = data.get("kty"), data.get("crv")
    if alg[:2] in ("RS", "PS"):
        fits = kty == "RSA"
    elif alg in _CURVES:
        fits = kty == "EC" and crv == _CURVES[alg]
    else:
        fits = alg == "EdDSA" and kty == "OKP"
    if not fits:
        return None
    if key.algorithm_name == alg:
        return key
    try:
        return PyJWK(dict(data), alg)
    except jwt.PyJWTError:
        return None


def _describe(error: jwt.PyJWTError) -> str:
    for kind, text in _JWT_ERRORS:
        if isinstance(error, kind):
            return text
    return "invalid token"


def _identity(claims: Mapping[str, Any]) -> Identity:
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject:
        raise TokenError("token has no sub claim")
    exp = claims.get("exp")
    return Identity(
        subject=subject,
        scopes=_scopes(claims),
        claims=MappingProxyType(dict(claims)),
        expires_at=int(exp) if isinstance(exp, int | float) else None,
    )


def _scopes(claims: Mapping[str, Any]) -> tuple[str, ...]:
    """The ``scope`` claim (space-separated, RFC 9068) or ``scp`` (a list
    or a string, as some issuers write it)."""
    value = claims.get("scope", claims.get("scp"))
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(s for s in value if isinstance(s, str))
    return ()


def _discover_jwks_url(issuer: str) -> str:
    """``jwks_uri`` of the issuer's metadata (RFC 8414, then OpenID
    Connect discovery); blocking, run off the event loop."""
    parts = urlsplit(_over_tls(issuer, "its URL", issuer))
    path = parts.path.rstrip("/")
    origin = f"{parts.scheme}://{parts.netloc}"
    for url in (
        f"{origin}/.well-known/oauth-authorization-server{path}",
        f"{issuer.rstrip('/')}/.well-known/openid-configuration",
    ):
        try:
            with urllib.request.urlopen(url, timeout=_FETCH_TIMEOUT_SECONDS) as response:
                document = json.load(response)
        except (OSError, ValueError):
            continue
        jwks_uri = document.get("jwks_uri") if isinstance(document, dict) else None
        if isinstance(jwks_uri, str):
            return _over_tls(issuer, "its jwks_uri", jwks_uri)
    raise jwt.PyJWKClientConnectionError(f'no jwks_uri in the metadata of "{issuer}"')


_LOOPBACK_NAMES: Final = ("127.0.0.1", "localhost", "::1")
"""The host names http: is allowed on."""


def _over_tls(issuer: str, what: str, url: str) -> str:
    """``url`` when it is https, or http on a loopback name; else a
    refusal (the keys deciding who calls every tool must not come over
    clear HTTP)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    scheme = parts.scheme.lower() if parts is not None else ""
    if scheme != "https" and not (scheme == "http" and host in _LOOPBACK_NAMES):
        raise TokenError(
            f"issuer {json.dumps(issuer)}: {what} {json.dumps(url)}"
            " must be https (http only on a loopback host)"
        )
    return url
