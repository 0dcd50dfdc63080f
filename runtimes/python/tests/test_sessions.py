"""SessionRegistry: one executor per conversation, idle TTL."""

from __future__ import annotations

import threading

import pytest
from toolset import ALIASES

from ai_tools_runtime import AliasManager, SessionRegistry


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_one_per_conversation_and_idle_ttl() -> None:
    clock = Clock()
    made: list[AliasManager] = []

    def factory() -> AliasManager:
        made.append(AliasManager(ALIASES))
        return made[-1]

    reg = SessionRegistry(factory, idle_ttl_seconds=60, clock=clock)
    a = reg.get("a")
    assert reg.get("a") is a
    b = reg.get("b")
    assert b is not a and len(reg) == 2 and "a" in reg
    clock.now += 59
    assert reg.get("a") is a  # use keeps it alive
    clock.now += 59
    assert reg.get("a") is a
    assert "b" not in reg  # idle 118 s: dropped
    assert reg.get("b") is not b
    clock.now += 60
    assert reg.sweep() == 2 and len(reg) == 0
    assert reg.get("a") is not a
    assert len(made) == 4


def test_empty_conversation_id_is_throwaway() -> None:
    reg = SessionRegistry(lambda: AliasManager(ALIASES), idle_ttl_seconds=60)
    assert reg.get("") is not reg.get("")
    assert len(reg) == 0


def test_least_recently_used_first() -> None:
    clock = Clock()
    reg = SessionRegistry(object, idle_ttl_seconds=10, clock=clock)
    x = reg.get("x")
    clock.now += 5
    y = reg.get("y")
    clock.now += 4
    assert reg.get("x") is x  # x used again: now the newest
    clock.now += 2  # y idle 6 s, x 2 s
    assert len(reg) == 2
    clock.now += 4  # y idle 10 s: dropped; x 6 s: kept
    assert len(reg) == 1
    assert reg.get("x") is x and reg.get("y") is not y


def test_remove_and_bad_ttl() -> None:
    reg = SessionRegistry(lambda: object(), idle_ttl_seconds=1)
    reg.get("x")
    reg.get("y")
    assert reg.remove("x") and not reg.remove("x")
    assert len(reg) == 1 and "y" in reg and "x" not in reg
    for bad in (0, -1, float("nan")):
        with pytest.raises(ValueError, match="idle_ttl_seconds must be positive"):
            SessionRegistry(lambda: object(), idle_ttl_seconds=bad)


def test_threads_share_one_executor_per_conversation() -> None:
    reg = SessionRegistry(lambda: AliasManager(ALIASES), idle_ttl_seconds=60)
    seen: list[AliasManager] = []
    lock = threading.Lock()

    def work() -> None:
        m = reg.get("c")
        with lock:
            seen.append(m)

    threads = [threading.Thread(target=work) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(m) for m in seen}) == 1
