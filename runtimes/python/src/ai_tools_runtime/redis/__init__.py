"""Conversations in Redis (docs/store.md, "Redis"), on redis-py's asyncio
client (``pip install "protoc-gen-ai-tools-runtime[redis]"``), a server's
or a Redis Cluster's: a
:class:`RedisConversationStore` is a ``ConversationStore`` that every
process sharing the Redis server (and the key prefix) shares, whatever its
language. ``ai_tools_runtime`` itself never imports this module."""

from ._redis_store import DEFAULT_STORE_TIMEOUT_SECONDS, RedisClient, RedisConversationStore
from ._scripts import SCRIPTS, Script

__all__ = [
    "DEFAULT_STORE_TIMEOUT_SECONDS",
    "SCRIPTS",
    "RedisClient",
    "RedisConversationStore",
    "Script",
]
