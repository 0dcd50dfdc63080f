"""The HTTP gate's refusals (docs/production.md): one JSON body in every
language, ``{"error": "<code>", "error_description": "<text>"}``, and the
``WWW-Authenticate`` challenges of RFC 6750 / RFC 9728."""

from __future__ import annotations

import json

from starlette.types import Send

__all__ = ["bearer_challenge", "send_json", "send_refusal"]


def bearer_challenge(**params: str) -> str:
    """``Bearer k="v", …`` (the values given, in order; quotes and
    backslashes escaped, characters that are not printable ASCII replaced
    by a space, as in every target)."""
    quoted = (f'{k}="{_escape(v)}"' for k, v in params.items())
    return "Bearer " + ", ".join(quoted)


def _escape(value: str) -> str:
    printable = "".join(c if " " <= c <= "~" else " " for c in value)
    return printable.replace("\\", "\\\\").replace('"', '\\"')


async def send_json(
    send: Send, status: int, document: object, headers: dict[str, str] | None = None
) -> None:
    """Answer with ``document`` as JSON (and these extra headers)."""
    body = json.dumps(document).encode()
    raw = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def send_refusal(
    send: Send,
    status: int,
    code: str,
    description: str,
    headers: dict[str, str] | None = None,
) -> None:
    """Refuse with ``status`` and the contract's error body."""
    await send_json(send, status, {"error": code, "error_description": description}, headers)
