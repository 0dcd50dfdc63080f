"""Conversation handles (docs/mcp.md, "Conversations"): how they are made,
and where a request passes one back."""

from __future__ import annotations

import json
import re
from typing import Final

from .._conversation_store import mint_conversation_handle

__all__ = [
    "CONVERSATION_ARGUMENT",
    "CONVERSATION_ARGUMENT_DESCRIPTION",
    "CONVERSATION_META_KEY",
    "is_minted_handle",
    "mint_conversation_handle",
    "unknown_conversation_message",
]

CONVERSATION_META_KEY: Final = "ai-tools/conversation"
"""The ``_meta`` key under which a result carries its conversation handle,
and under which a request may pass it back."""

CONVERSATION_ARGUMENT: Final = "conversation"
"""The tool argument that carries the conversation handle when the server
takes it as an argument (``handle_argument``)."""

CONVERSATION_ARGUMENT_DESCRIPTION: Final = (
    'The conversation handle of the previous result ("conversation: …"); '
    "leave it out on the first call."
)
"""The description of the :data:`CONVERSATION_ARGUMENT` property, the same
in every target."""


_MINTED: Final = re.compile(r"[A-Za-z0-9_-]{22,}")


def is_minted_handle(handle: str) -> bool:
    """Whether ``handle`` has the form of a minted one (unpadded base64url,
    22 characters or more; no ``.``, which only store keys bound to a
    subject have)."""
    return _MINTED.fullmatch(handle) is not None


def unknown_conversation_message(handle: str) -> str:
    """The model-facing message of an unknown or expired handle."""
    return (
        f"unknown or expired conversation {json.dumps(handle, ensure_ascii=False)}; "
        f'call again without "{CONVERSATION_ARGUMENT}" to start a new one'
    )
