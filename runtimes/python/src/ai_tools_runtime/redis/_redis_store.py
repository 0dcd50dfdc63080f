"""The Redis conversation store (docs/store.md, "Redis")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import redis.asyncio
from redis.exceptions import NoScriptError, ResponseError

from .._conversation_store import (
    DEFAULT_IDLE_TTL_SECONDS,
    ConversationCorruptError,
    ConversationExpiredError,
    mint_conversation_handle,
    mint_epoch,
)
from .._store_layout import DEFAULT_KEY_PREFIX, conversation_key, state_from_fields
from ._scripts import CREATE, LOAD, REGISTER, Script

__all__ = ["RedisConversationStore"]

_EXPIRED: Final = "EXPIRED"
_WRONGTYPE: Final = "WRONGTYPE"
# A handle has 128 random bits: repeated collisions mean a broken random
# source, not bad luck (the same bound in every language, docs/store.md).
_CREATE_TRIES: Final = 8


class RedisConversationStore:
    """A ``ConversationStore`` in Redis: one hash per conversation under
    ``<key_prefix>conv:{<handle>}``, changed only by the three Lua scripts
    (``EVALSHA``, ``EVAL`` when the server does not have them yet), so that
    processes sharing the server never give two UUIDs one alias, nor one
    UUID two aliases, and number without gaps. A conversation the server
    lost (a restart without persistence, an eviction, the idle TTL) is
    expired, never made again: its epoch marks it.

    ``client`` is the application's ``redis.asyncio.Redis`` (either
    ``decode_responses``); its errors (unreachable, timed out, restarted
    mid-call) are raised as they are, and the executor reports them as
    ``store-unavailable``. ``idle_ttl_seconds`` is renewed by every ``load``
    and ``register``."""

    def __init__(
        self,
        client: redis.asyncio.Redis,
        *,
        key_prefix: str = DEFAULT_KEY_PREFIX,
        idle_ttl_seconds: float = DEFAULT_IDLE_TTL_SECONDS,
    ) -> None:
        ttl_ms = round(idle_ttl_seconds * 1000)
        if not ttl_ms > 0:
            raise ValueError(f"idle_ttl_seconds must be positive, got {idle_ttl_seconds!r}")
        self._client = client
        self._prefix = key_prefix
        self._ttl_ms = ttl_ms

    @property
    def client(self) -> redis.asyncio.Redis:
        """The Redis client the store uses."""
        return self._client

    def key(self, handle: str) -> str:
        """The key of a conversation's hash."""
        return conversation_key(self._prefix, handle)

    async def create(self, suffix: str = "") -> str:
        for _ in range(_CREATE_TRIES):
            handle = mint_conversation_handle() + suffix
            if await self._run(CREATE, handle, self._ttl_ms, mint_epoch()) == 1:
                return handle
        raise RuntimeError(
            f"no free conversation handle in {_CREATE_TRIES} tries: is the random source broken?"
        )

    async def load(self, handle: str) -> tuple[str, str]:
        reply = await self._run(LOAD, handle, self._ttl_ms)
        if reply is None:
            raise ConversationExpiredError(handle)
        fields = _fields(handle, reply)
        return fields.get("epoch", ""), state_from_fields(fields)

    async def register(self, handle: str, epoch: str, pairs: Sequence[tuple[str, str]]) -> str:
        args: list[str | int] = [self._ttl_ms, epoch]
        for prefix, uuid in pairs:
            args += (prefix, uuid)
        reply = await self._run(REGISTER, handle, *args)
        return state_from_fields(_fields(handle, reply))

    async def delete(self, handle: str) -> None:
        await self._client.delete(self.key(handle))

    async def _run(self, script: Script, handle: str, *args: str | int) -> Any:
        """Run a script on the conversation's key: an ``EXPIRED`` reply is
        :class:`ConversationExpiredError`, ``WRONGTYPE`` (the key is not a
        hash) :class:`ConversationCorruptError`."""
        key = self.key(handle)
        try:
            try:
                return await self._client.evalsha(script.sha1, 1, key, *args)
            except NoScriptError:
                # A server that never saw the script, or restarted: send it once.
                return await self._client.eval(script.text, 1, key, *args)
        except ResponseError as err:
            if str(err).startswith(_EXPIRED):
                raise ConversationExpiredError(handle) from err
            if str(err).startswith(_WRONGTYPE):
                raise ConversationCorruptError(handle, str(err)) from err
            raise


def _fields(handle: str, reply: Any) -> Mapping[str, str]:
    """HGETALL's flat reply as a mapping of text."""
    if not isinstance(reply, list) or len(reply) % 2:
        raise ConversationCorruptError(
            handle, "the store's reply is not a list of fields and values"
        )
    # Bytes that are not UTF-8 become U+FFFD: restore_state refuses the state.
    text = [v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v) for v in reply]
    return dict(zip(text[::2], text[1::2], strict=True))
