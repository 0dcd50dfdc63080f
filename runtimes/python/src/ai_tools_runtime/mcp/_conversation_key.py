"""Conversation handles bound to the caller (docs/production.md,
"Authorization"): the store key of a handle carries a digest of the token's
subject, so that another subject presenting the handle finds nothing."""

from __future__ import annotations

import base64
import hashlib

__all__ = ["conversation_key", "subject_suffix"]


def subject_suffix(subject: str) -> str:
    """What a subject adds to the store key of its handles: ``""`` without
    a subject (no authorization), else ``"."`` and the first 22 characters
    of the unpadded base64url SHA-256 of the subject."""
    if subject == "":
        return ""
    digest = hashlib.sha256(subject.encode("utf-8")).digest()
    return "." + base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")[:22]


def conversation_key(handle: str, subject: str) -> str:
    """The conversation store key of ``handle`` when ``subject`` presents
    it: the handle itself when the subject is ``""``, else the handle and
    :func:`subject_suffix`. The same in every target."""
    return handle + subject_suffix(subject)
