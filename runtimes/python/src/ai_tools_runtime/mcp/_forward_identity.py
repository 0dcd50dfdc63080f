"""The caller's identity to the backend (docs/production.md, "Identity to
the backend"): chosen claims as gRPC metadata, and metadata from a hook (a
token exchange, the application's own credentials). The client's bearer
token is never among them."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ._identity import Identity

__all__ = ["BackendCredentials", "ForwardIdentity", "forwarded_metadata"]

BackendCredentials = Callable[[Identity | None], Mapping[str, str] | Awaitable[Mapping[str, str]]]
"""Metadata to add to a call for an identity (None: no authorization; sync
or async); an ``authorization`` entry here is the backend's token, allowed."""


@dataclass(frozen=True)
class ForwardIdentity:
    """What of the caller's identity goes to the gRPC call.

    - ``metadata``: metadata key → claim name (``"sub"``: the subject), e.g.
      ``{"x-user-id": "sub", "x-tenant": "tenant"}``; a claim the token lacks
      is left out, one that is not a string, number or bool is sent as JSON.
      Sent only for an authenticated caller.
    - ``backend_credentials``: called for every call (with ``None`` when
      there is no authorization); its entries are added."""

    metadata: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    backend_credentials: BackendCredentials | None = None


def _claim_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


async def forwarded_metadata(
    forward: ForwardIdentity, identity: Identity | None
) -> list[tuple[str, str]]:
    """The metadata ``forward`` adds to a call of ``identity`` (None: no
    authorization), keys lower-case."""
    out: list[tuple[str, str]] = []
    if identity is not None:
        for key, claim in forward.metadata.items():
            value = identity.subject if claim == "sub" else identity.claims.get(claim)
            if value is not None:
                out.append((key.lower(), _claim_text(value)))
    hook = forward.backend_credentials
    if hook is not None:
        made: Any = hook(identity)
        if inspect.isawaitable(made):
            made = await made
        out.extend((str(k).lower(), str(v)) for k, v in dict(made).items())
    return out
