"""Scope names as RFC 6749 (section 3.3) defines them: they go into the
``scope="…"`` parameter of a ``WWW-Authenticate`` challenge, so the options
naming them are checked at start-up."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Final

__all__ = ["check_scope_tokens"]

_SCOPE_TOKEN: Final = re.compile(r"[\x21\x23-\x5b\x5d-\x7e]+")


def check_scope_tokens(option: str, scopes: Iterable[str], tool: str | None = None) -> None:
    """Raise ``ValueError`` naming ``option`` (and ``tool``) for the first
    of ``scopes`` that is not a scope token."""
    for scope in scopes:
        if _SCOPE_TOKEN.fullmatch(scope) is None:
            of = f" of tool {json.dumps(tool)}" if tool is not None else ""
            raise ValueError(
                f"{option}: scope {json.dumps(scope)}{of} is not a valid scope token "
                "(RFC 6749: printable ASCII, no space, quote or backslash)"
            )
