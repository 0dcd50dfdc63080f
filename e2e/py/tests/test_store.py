"""Conversations in Redis across processes (issue 12, docs/store.md): two
worker processes (scripts/store_worker.py) serve fifty conversations at
once, a hundred calls each per process, against the real test server and a
real redis-server; and a worker killed with SIGKILL mid-run loses no alias
it has shown."""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis.asyncio
from ai_tools_runtime.redis import RedisConversationStore
from helpers import UUID_RE, new_uuid

from linkhub.v1 import links_pb2, links_pb2_grpc, themes_pb2, themes_pb2_grpc

WORKER = Path(__file__).resolve().parent.parent / "scripts" / "store_worker.py"
CONVERSATIONS = 50
CALLS = 100  # per conversation and worker


class Worker:
    """One store_worker.py process, its commands answered by id."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.answered: list[dict[str, Any]] = []
        self._next = 0
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, grpc_addr: str, redis_url: str) -> Worker:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(WORKER),
            "--grpc",
            grpc_addr,
            "--redis",
            redis_url,
            "--parallel",
            "1000",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 24,
        )
        return cls(proc)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            reply = json.loads(line)
            self.answered.append(reply)
            future = self.pending.pop(reply["id"], None)
            if future is not None:
                future.set_result(reply)
        for future in self.pending.values():
            future.set_exception(EOFError("the worker exited"))

    async def send(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        if self._reader.done():
            raise EOFError("the worker exited")
        self._next += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[self._next] = future
        self.proc.stdin.write(json.dumps({"id": self._next, **command}).encode() + b"\n")
        await self.proc.stdin.drain()
        return await future

    async def start_conversation(self) -> str:
        return str((await self.send({"op": "start"}))["handle"])

    async def execute(self, handle: str, tool: str, args: dict[str, Any]) -> Any:
        reply = await self.send({"op": "call", "handle": handle, "tool": tool, "args": args})
        assert "result" in reply, reply
        return reply["result"]

    async def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert await asyncio.wait_for(self.proc.wait(), 30) == 0
        await self._reader


@pytest.fixture
async def start_worker(
    server_addr: str, redis_url: str
) -> AsyncIterator[Callable[[], Awaitable[Worker]]]:
    """Starts workers; those still running at the end are killed."""
    started: list[Worker] = []

    async def start() -> Worker:
        started.append(await Worker.start(server_addr, redis_url))
        return started[-1]

    yield start
    for w in started:
        if w.proc.returncode is None:
            w.proc.kill()
            await w.proc.wait()


def link_args(ws: str, title: str, theme: str) -> dict[str, Any]:
    return {
        "workspace_id": ws,
        "target_url": f"https://example.com/{title.replace(' ', '/')}",
        "slug": None,
        "page_theme_id": theme,
        "labels": [],
        "title": title,
        "expire_after": None,
    }


class Seen:
    """What the model was shown in one conversation, by both workers: the
    title of each alias (from creates and gets), checked as it comes."""

    def __init__(self, ws: str) -> None:
        self.ws = ws
        self.titles: dict[str, str] = {}  # alias -> title (links and themes)
        self.link_theme: dict[str, str] = {}  # link alias -> theme alias shown
        self.problems: list[str] = []

    def show(self, alias: str, title: str, shown: Any) -> None:
        for u in UUID_RE.findall(json.dumps(shown)):
            if u != self.ws:
                self.problems.append(f"{alias}: the model saw {u}")
        if self.titles.setdefault(alias, title) != title:
            self.problems.append(f"{alias} is {title!r} and {self.titles[alias]!r}")


async def play(worker: Worker, p: int, c: int, handle: str, seen: Seen, rng: random.Random) -> None:
    """Worker p's calls in conversation c: themes, links with a theme,
    and gets of links either worker made."""
    top = {"theme": 0, "link": 0}
    for k in range(CALLS):
        if k % 10 == 0:
            name = f"c{c} p{p} theme {k}"
            args = {"workspace_id": seen.ws, "name": name, "background_color": ""}
            out = await worker.execute(
                handle, "page_themes_create", args | {"font": "", "palette": []}
            )
            alias = out["page_theme"]["id"]
            seen.show(alias, name, out)
        elif k % 2 == 1 or top["theme"] == 0:
            title = f"c{c} p{p} link {k}"
            theme = f"theme-{rng.randint(1, max(top['theme'], 1))}"
            out = await worker.execute(handle, "links_create", link_args(seen.ws, title, theme))
            alias = out["link"]["id"]
            seen.show(alias, title, out)
            if out["link"]["page_theme_id"] != theme:
                seen.problems.append(f"{alias} shows theme {out['link']['pageThemeId']}")
            seen.link_theme[alias] = theme
        else:
            alias = f"link-{rng.randint(1, top['link'])}"
            out = await worker.execute(handle, "links_get", {"id": alias})
            if out["link"]["id"] != alias:
                seen.problems.append(f"links_get {alias} shows {out['link']['id']}")
            seen.show(alias, out["link"]["title"], out)
            continue
        kind, n = alias.rsplit("-", 1)
        top[kind] = max(top[kind], int(n))


async def check_against_the_server(
    channel: grpc.aio.Channel,
    store: RedisConversationStore,
    handle: str,
    seen: Seen,
    *,
    complete: bool = True,
) -> None:
    """The conversation's stored aliases against the server's entities:
    numbered without gaps, each alias shown naming the entity with the
    title shown; ``complete``: every entity of the workspace has one."""
    state = json.loads((await store.load(handle))[1])
    aliases: dict[str, str] = state["aliases"]
    links = links_pb2_grpc.LinkServiceStub(channel)
    themes = themes_pb2_grpc.PageThemeServiceStub(channel)
    listed = (await links.ListLinks(links_pb2.ListLinksRequest(workspace_id=seen.ws))).links
    theme_list = await themes.ListPageThemes(themes_pb2.ListPageThemesRequest(workspace_id=seen.ws))
    title_of = {x.id: x.title for x in listed} | {t.id: t.name for t in theme_list.page_themes}
    theme_of = {x.id: x.page_theme_id for x in listed}
    counters: dict[str, int] = state["counters"]
    want = {f"{prefix}-{n}" for prefix, top in counters.items() for n in range(1, top + 1)}
    assert set(aliases) == want  # no gap
    assert len(set(aliases.values())) == len(aliases)  # no UUID twice
    assert set(aliases.values()) <= set(title_of)
    if complete:  # no entity without its alias
        assert set(aliases.values()) == set(title_of)
    # every alias shown names the entity the server holds under it
    for alias, title in seen.titles.items():
        assert title_of[aliases[alias]] == title, alias
    for link, theme in seen.link_theme.items():
        assert theme_of[aliases[link]] == aliases[theme], link


async def test_two_workers_fifty_conversations(
    start_worker: Callable[[], Awaitable[Worker]], redis_url: str, server_addr: str
) -> None:
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    workers = [await start_worker() for _ in range(2)]
    rng = random.Random(12)
    client = redis.asyncio.Redis.from_url(redis_url)
    store = RedisConversationStore(client)
    handles = [await workers[c % 2].start_conversation() for c in range(CONVERSATIONS)]
    seen = [Seen(new_uuid()) for _ in range(CONVERSATIONS)]
    await asyncio.gather(
        *(
            play(workers[p], p, c, handles[c], seen[c], random.Random(rng.random()))
            for c in range(CONVERSATIONS)
            for p in (0, 1)
        )
    )
    assert [p for s in seen for p in s.problems] == []
    async with grpc.aio.insecure_channel(server_addr) as channel:
        for c in range(CONVERSATIONS):
            await check_against_the_server(channel, store, handles[c], seen[c])
    assert sum(len(w.answered) for w in workers) == CONVERSATIONS * (2 * CALLS + 1)
    for handle in handles:
        assert (await workers[1].send({"op": "end", "handle": handle}))["ok"] is True
    assert await client.exists(*(store.key(h) for h in handles)) == 0  # all ended
    await client.aclose()
    for w in workers:
        await w.close()
    after, calls = resource.getrusage(resource.RUSAGE_CHILDREN), CONVERSATIONS * 2 * CALLS
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(
        f"store load: {calls} calls by 2 workers in {time.monotonic() - started:.1f} s, "
        f"workers' CPU {cpu:.1f} s ({cpu / calls * 1000:.2f} ms a call)",
        file=sys.stderr,
    )


async def test_a_killed_worker_loses_nothing_it_showed(
    start_worker: Callable[[], Awaitable[Worker]], redis_url: str, server_addr: str
) -> None:
    client = redis.asyncio.Redis.from_url(redis_url)
    store = RedisConversationStore(client)
    worker = await start_worker()
    handles = [await worker.start_conversation() for _ in range(5)]
    seen = [Seen(new_uuid()) for _ in handles]
    calls = [
        asyncio.create_task(play(worker, 0, c, handles[c], seen[c], random.Random(c)))
        for c in range(len(handles))
    ]
    async with asyncio.timeout(120):
        while len(worker.answered) < 65 and not any(c.done() for c in calls):
            await asyncio.sleep(0.01)
    os.kill(worker.proc.pid, signal.SIGKILL)
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert all(isinstance(r, EOFError | ConnectionError) for r in results), results
    assert await worker.proc.wait() == -signal.SIGKILL
    assert sum(len(s.titles) for s in seen) >= 25
    async with grpc.aio.insecure_channel(server_addr) as channel:
        for handle, s in zip(handles, seen, strict=True):
            state = json.loads((await store.load(handle))[1])
            assert set(s.titles) <= set(state["aliases"])  # every alias shown is stored
            await check_against_the_server(channel, store, handle, s, complete=False)
    await client.aclose()
