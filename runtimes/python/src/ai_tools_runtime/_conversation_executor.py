"""Tool calls through a conversation store (docs/store.md, "A call through
a store"): the executor of an agent backend whose replicas share
conversations."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from ._aliases import AliasManager
from ._conversation_store import (
    DEFAULT_MAX_ALIASES,
    ConversationCorruptError,
    ConversationExpiredError,
    ConversationStore,
    expired_message,
)
from ._executor import AsyncExecutor
from ._json import quote
from ._tables import AliasConfig
from ._telemetry import Observed, Telemetry
from ._tool_error import ToolError, ToolErrorReason

__all__ = ["ConversationExecutor", "StoredConversation"]

Metadata = Sequence[tuple[str, str | bytes]]
T = TypeVar("T")


def store_failure(handle: str, cause: Exception) -> ToolError:
    """The ``ToolError`` of a store operation on ``handle`` that raised
    ``cause`` (docs/store.md): ``conversation-expired``,
    ``conversation-corrupt``, or else ``store-unavailable`` with the
    error's message on one line."""
    if isinstance(cause, ConversationExpiredError):
        return _error(
            expired_message(handle), "conversation-expired", grpc.StatusCode.NOT_FOUND, cause
        )
    if isinstance(cause, ConversationCorruptError):
        return corrupt_error(handle, cause)
    text = _one_line(cause) or type(cause).__name__
    return _error(
        f"conversation store unavailable: {text}",
        "store-unavailable",
        grpc.StatusCode.UNAVAILABLE,
        cause,
    )


def corrupt_error(handle: str, cause: Exception) -> ToolError:
    """The ``conversation-corrupt`` error of a handle: the cause's message
    (``restore_state``'s, or the store's) on one line."""
    return _error(
        f"conversation {quote(handle)} cannot be read: {_one_line(cause)}",
        "conversation-corrupt",
        grpc.StatusCode.DATA_LOSS,
        cause,
    )


def full_error(handle: str | None, count: int) -> ToolError:
    """The ``conversation-full`` error of a conversation holding ``count``
    aliases, its store's limit or more (docs/store.md, "Alias cap");
    ``handle`` None: a conversation the model holds no handle of (a
    connection's, a session's), named "this conversation"."""
    named = "this conversation" if handle is None else f"conversation {quote(handle)}"
    message = (
        f"{named} holds {count} aliases, its limit: "
        "start a new conversation (this call was not sent)"
    )
    return ToolError(message, reason="conversation-full", code=grpc.StatusCode.RESOURCE_EXHAUSTED)


def _error(
    message: str, reason: ToolErrorReason, code: grpc.StatusCode, cause: Exception
) -> ToolError:
    err = ToolError(message, reason=reason, code=code)
    err.__cause__ = cause
    return err


def _one_line(err: Exception) -> str:
    return " ".join(str(err).split())


@dataclass
class StoredConversation:
    """One call's view of a conversation kept in a store: its handle, the
    epoch ``load`` read and an alias manager holding the state read."""

    store: ConversationStore
    handle: str
    epoch: str
    aliases: AliasManager

    @classmethod
    async def create(
        cls, store: ConversationStore, config: AliasConfig | None, suffix: str = ""
    ) -> StoredConversation:
        """A new conversation (``create``, its handle followed by
        ``suffix``), loaded. Raises :class:`ToolError` only."""
        if suffix and not _takes_suffix(store):
            name = type(store).__name__
            message = (
                f"the conversation store {name} cannot bind conversations to callers: "
                'give its create a parameter, create(self, suffix: str = "") -> handle + suffix'
            )
            raise ToolError(message, reason="store-unavailable", code=grpc.StatusCode.UNAVAILABLE)
        try:
            handle = await (store.create(suffix) if suffix else store.create())
        except Exception as err:
            raise store_failure("", err) from err
        return await cls.load(store, handle, config)

    @classmethod
    async def load(
        cls,
        store: ConversationStore,
        handle: str,
        config: AliasConfig | None,
    ) -> StoredConversation:
        """Step 1: ``load`` the conversation into a fresh alias manager.
        Raises :class:`ToolError` (``conversation-expired``,
        ``conversation-corrupt``, ``store-unavailable``) only."""
        try:
            epoch, state = await store.load(handle)
        except Exception as err:
            raise store_failure(handle, err) from err
        aliases = AliasManager(config)
        _restore(aliases, handle, state)
        return cls(store, handle, epoch, aliases)

    def check_room(self, shown: str | None) -> None:
        """Refuse the call (``conversation-full``; it is not sent) when the
        conversation holds its store's ``max_aliases`` or more (docs/store.md,
        "Alias cap"); ``shown`` is the handle the model knows the
        conversation by, which the message names (None: it knows none)."""
        limit = getattr(self.store, "max_aliases", None)
        count = self.aliases.alias_count()
        if count >= (DEFAULT_MAX_ALIASES if limit is None else limit):
            raise full_error(shown, count)

    async def confirm(self, tool_name: str, values: Sequence[Any]) -> int:
        """Step 4: register the ids of the call's response ``values`` (a
        stream's messages, in order) in the store, and take the state it
        returns; how many ids were new to the state loaded. Nothing to
        register, nothing is asked."""
        pairs = self.aliases.collect_registrations(tool_name, values)
        if not pairs:
            return 0
        try:
            state = await self.store.register(self.handle, self.epoch, pairs)
        except Exception as err:
            raise store_failure(self.handle, err) from err
        _restore(self.aliases, self.handle, state)
        return len(pairs)


def _takes_suffix(store: ConversationStore) -> bool:
    """Whether the store's ``create`` takes a suffix (stores written before
    handles were bound to callers take none)."""
    try:
        parameters = inspect.signature(store.create).parameters.values()
    except (TypeError, ValueError):  # no signature to read: try it
        return True
    return any(p.kind is not inspect.Parameter.KEYWORD_ONLY for p in parameters)


def _restore(aliases: AliasManager, handle: str, state: str) -> None:
    try:
        aliases.restore_state(state)
    except ValueError as err:
        raise corrupt_error(handle, err) from err


class ConversationExecutor:
    """Runs the tools of an :class:`AsyncExecutor` in conversations kept in
    a :class:`ConversationStore` (docs/store.md), so that any process
    sharing the store continues any conversation. Every call loads the
    conversation, resolves the arguments with it, calls the RPC, stores the
    aliases of the response (before returning it) and shows it with them.
    Safe to use from several tasks and processes at once.

    ``telemetry`` observes every call, its conversation's load and store
    included (docs/production.md, "Telemetry"); the executor's by default."""

    def __init__(
        self,
        executor: AsyncExecutor,
        store: ConversationStore,
        *,
        telemetry: Telemetry | None = None,
    ) -> None:
        self._executor = executor
        self._store = store
        self._config = executor.aliases.config
        self._telemetry = telemetry if telemetry is not None else executor._telemetry

    @property
    def store(self) -> ConversationStore:
        """Where the conversations live."""
        return self._store

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools it runs, in name order."""
        return self._executor.tool_names

    async def start(self) -> str:
        """Start a conversation; its handle (for the next calls, in any
        process). Raises :class:`ToolError` (``store-unavailable``) only."""
        return await _guard("", self._store.create())

    async def execute(
        self,
        handle: str,
        tool_name: str,
        args_json: str,
        *,
        timeout: float | None = None,
        metadata: Metadata | None = None,
    ) -> str:
        """Run ``tool_name`` in the conversation ``handle`` with the model's
        arguments; the result (JSON text, ids as aliases) is for the model.
        Raises :class:`ToolError` only."""
        if self._telemetry is None or not self._executor.can_execute(tool_name):
            return await self._execute(handle, tool_name, args_json, timeout, metadata, None)
        with self._executor._observed(self._telemetry, tool_name) as observed:
            return await self._execute(handle, tool_name, args_json, timeout, metadata, observed)

    async def _execute(
        self,
        handle: str,
        tool_name: str,
        args_json: str,
        timeout: float | None,
        metadata: Metadata | None,
        observed: Observed | None,
    ) -> str:
        conversation = await StoredConversation.load(self._store, handle, self._config)
        if observed is not None:
            observed.outcome.conversation_aliases = conversation.aliases.alias_count()
        conversation.check_room(handle)
        call = self._executor._with_aliases(conversation.aliases)
        values: list[Any] = []
        out = await call._run(
            tool_name, args_json, timeout, metadata, values.append, observed=observed
        )
        registered = await conversation.confirm(tool_name, values)
        if observed is not None:
            observed.outcome.aliases_registered = registered
            observed.outcome.conversation_aliases = conversation.aliases.alias_count()
        return call._shown(out)

    async def end(self, handle: str) -> None:
        """End a conversation (an unknown handle is not an error). Raises
        :class:`ToolError` (``store-unavailable``) only."""
        await _guard(handle, self._store.delete(handle))


async def _guard(handle: str, step: Awaitable[T]) -> T:
    try:
        return await step
    except Exception as err:
        raise store_failure(handle, err) from err
