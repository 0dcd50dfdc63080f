"""The Redis conversation store (docs/store.md, "Redis")."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

import redis.asyncio
import redis.asyncio.cluster
from redis.exceptions import NoScriptError, ResponseError

from .._conversation_store import (
    DEFAULT_IDLE_TTL_SECONDS,
    DEFAULT_MAX_ALIASES,
    ConversationCorruptError,
    ConversationExpiredError,
    checked_max_aliases,
    mint_conversation_handle,
    mint_epoch,
)
from .._store_layout import (
    DEFAULT_KEY_PREFIX,
    check_tool_names,
    conversation_key,
    loaded_from_fields,
    state_from_fields,
)
from ._scripts import CREATE, LOAD, LOAD_TOOLS, LOADED_TOOLS, REGISTER, Script

__all__ = ["DEFAULT_STORE_TIMEOUT_SECONDS", "RedisClient", "RedisConversationStore"]

DEFAULT_STORE_TIMEOUT_SECONDS: Final = 5.0
"""How long one store operation may take unless set: 5 seconds."""

RedisClient = redis.asyncio.Redis | redis.asyncio.cluster.RedisCluster
"""The clients the store takes: a server's, or a Redis Cluster's."""

T = TypeVar("T")

_EXPIRED: Final = "EXPIRED"
_WRONGTYPE: Final = "WRONGTYPE"
# A handle has 128 random bits: repeated collisions mean a broken random
# source, not bad luck (the same bound in every language, docs/store.md).
_CREATE_TRIES: Final = 8


class RedisConversationStore:
    """A ``ConversationStore`` in Redis: one hash per conversation under
    ``<key_prefix>conv:{<handle>}``, changed only by the Lua scripts
    (``EVALSHA``, ``EVAL`` when the server does not have them yet), so that
    processes sharing the server never give two UUIDs one alias, nor one
    UUID two aliases, and number without gaps. A conversation the server
    lost (a restart without persistence, an eviction, the idle TTL) is
    expired, never made again: its epoch marks it.

    ``client`` is the application's ``redis.asyncio.Redis`` or
    ``redis.asyncio.cluster.RedisCluster`` (either ``decode_responses``; a
    conversation's key is one hash slot); its errors (unreachable,
    restarted mid-call) are raised as they are, and the executor reports
    them as ``store-unavailable``. Each operation (the ``EVAL`` after a
    ``NOSCRIPT`` included) is given up after ``timeout`` seconds, whatever
    the client's own timeouts and retries, with a :class:`TimeoutError`
    ``redis did not answer within <ms> ms``. ``idle_ttl_seconds`` is renewed
    by every ``load`` and ``register``. A call in a conversation holding
    ``max_aliases`` aliases is refused (``conversation-full``) before it is
    sent."""

    def __init__(
        self,
        client: RedisClient,
        *,
        key_prefix: str = DEFAULT_KEY_PREFIX,
        idle_ttl_seconds: float = DEFAULT_IDLE_TTL_SECONDS,
        timeout: float = DEFAULT_STORE_TIMEOUT_SECONDS,
        max_aliases: int = DEFAULT_MAX_ALIASES,
    ) -> None:
        ttl_ms = round(idle_ttl_seconds * 1000)
        if not ttl_ms > 0:
            raise ValueError(f"idle_ttl_seconds must be positive, got {idle_ttl_seconds!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        self._client = client
        self._prefix = key_prefix
        self._ttl_ms = ttl_ms
        self._timeout = float(timeout)
        self._max_aliases = checked_max_aliases(max_aliases)

    @property
    def client(self) -> RedisClient:
        """The Redis client the store uses."""
        return self._client

    @property
    def timeout(self) -> float:
        """How long one operation may take, in seconds."""
        return self._timeout

    @property
    def max_aliases(self) -> int:
        """How many aliases a conversation holds before its calls are refused."""
        return self._max_aliases

    def key(self, handle: str) -> str:
        """The key of a conversation's hash."""
        return conversation_key(self._prefix, handle)

    async def create(self, suffix: str = "") -> str:
        # One budget for all the tries, as for any operation.
        return await self._within(lambda: self._create(suffix))

    async def _create(self, suffix: str) -> str:
        for _ in range(_CREATE_TRIES):
            handle = mint_conversation_handle() + suffix
            if await self._send(CREATE, handle, (self._ttl_ms, mint_epoch())) == 1:
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
        key = self.key(handle)
        await self._within(lambda: self._client.delete(key))

    async def load_tools(self, handle: str, epoch: str, names: Sequence[str]) -> list[str]:
        """Append each name not yet loaded to the conversation's loaded tools,
        in order, in one script (docs/store.md, "Loaded tools"), and return
        the whole list in load order; renews the idle TTL.
        :class:`ConversationExpiredError` when the conversation is missing or
        of another epoch, :class:`ConversationCorruptError` for another
        layout version or broken positions, :class:`ValueError` for an empty
        name (nothing sent)."""
        check_tool_names(names)
        reply = await self._run(LOAD_TOOLS, handle, self._ttl_ms, epoch, *names)
        return _loaded(handle, reply)

    async def loaded_tools(self, handle: str) -> list[str]:
        """The conversation's loaded tools in load order; renews the idle
        TTL. :class:`ConversationExpiredError` when it is missing."""
        reply = await self._run(LOADED_TOOLS, handle, self._ttl_ms)
        if reply is None:
            raise ConversationExpiredError(handle)
        return _loaded(handle, reply)

    async def _within(self, operation: Callable[[], Awaitable[T]]) -> T:
        """``operation`` given up after the store's timeout: the client's
        own timeout is per try and it retries (redis-py's default gives up
        on a hung server after about a minute), and a cancelled command's
        connection is dropped by the client, so the next one is clean."""
        deadline = asyncio.timeout(self._timeout)
        try:
            async with deadline:
                return await operation()
        except TimeoutError as err:
            if not deadline.expired():
                raise
            ms = f"{self._timeout * 1000:.3f}".rstrip("0").rstrip(".")
            raise TimeoutError(f"redis did not answer within {ms} ms") from err

    async def _run(self, script: Script, handle: str, *args: str | int) -> Any:
        """Run a script on the conversation's key: an ``EXPIRED`` reply is
        :class:`ConversationExpiredError`, ``WRONGTYPE`` (the key is not a
        hash) :class:`ConversationCorruptError`."""
        return await self._within(lambda: self._send(script, handle, args))

    async def _send(self, script: Script, handle: str, args: Sequence[str | int]) -> Any:
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


def _loaded(handle: str, reply: Any) -> list[str]:
    """The loaded tools of a loaded-tools script's reply (the ``v`` and
    ``t:`` fields); what cannot be read is :class:`ConversationCorruptError`."""
    try:
        return loaded_from_fields(_fields(handle, reply))
    except ValueError as err:
        raise ConversationCorruptError(handle, str(err)) from err
