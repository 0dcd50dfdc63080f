"""Scenario 6: fifty conversations at once, one executor each, on one shared
channel: threads over Executor, asyncio tasks over AsyncExecutor. Each
numbers its aliases from 1, and they resolve to its own entities only."""

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
from ai_tools_runtime import AliasManager
from conftest import LoopThread
from helpers import (
    ALIAS_RE,
    UUID_RE,
    decode_recorded,
    js,
    new_uuid,
    recorded,
    reset_server,
)

from ai_tools_gen import AsyncExecutor, Executor
from linkhub.v1 import links_pb2, links_pb2_grpc, themes_pb2, themes_pb2_grpc

CONVERSATIONS = 50


def script(ws: str, i: int) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """The calls of conversation i: (tool, args, what the result must show)."""
    calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    for k in (1, 2):
        calls.append(
            (
                "page_themes_create",
                {
                    "workspace_id": ws,
                    "name": f"c{i} theme {k}",
                    "background_color": "",
                    "font": "",
                    "palette": [],
                },
                {"page_theme.id": f"theme-{k}"},
            )
        )
    for k in (1, 2, 3):
        calls.append(
            (
                "links_create",
                {
                    "workspace_id": ws,
                    "target_url": f"https://example.com/c{i}/{k}",
                    "slug": None,
                    "page_theme_id": f"theme-{1 + k % 2}",
                    "labels": [],
                    "title": f"c{i} link {k}",
                    "expire_after": None,
                },
                {"link.id": f"link-{k}", "link.page_theme_id": f"theme-{1 + k % 2}"},
            )
        )
    calls += [
        (
            "links_list",
            {"workspace_id": ws, "page_theme_id": "theme-2"},
            {"links.0.id": "link-1", "links.1.id": "link-3", "links.2.id": None},
        ),
        ("links_get", {"id": "link-2"}, {"link.title": f"c{i} link 2"}),
        (
            "steps_create",
            {
                "link_id": "link-3",
                "send_email": None,
                "open_link": {"link_id": "link-2"},
                "wait": None,
            },
            {"step.id": "step-1", "step.link_id": "link-3", "step.open_link.link_id": "link-2"},
        ),
        ("steps_list", {"link_id": "link-3"}, {"steps.0.id": "step-1", "steps.1.id": None}),
    ]
    return calls


def dig(v: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(v, list):
            idx = int(part)
            v = v[idx] if idx < len(v) else None
        elif isinstance(v, dict):
            v = v.get(part)
        else:
            return None
    return v


def check(i: int, ws: str, tool: str, out: str, want: dict[str, Any]) -> list[str]:
    problems = [
        f"conversation {i}: {tool}: the model saw {u}" for u in UUID_RE.findall(out) if u != ws
    ]
    result = json.loads(out)
    for path, value in want.items():
        if dig(result, path) != value:
            problems.append(f"conversation {i}: {tool}: {path} = {dig(result, path)}, want {value}")
    return problems


def verify(channel: grpc.Channel, runs: list[tuple[str, AliasManager]]) -> None:
    links = links_pb2_grpc.LinkServiceStub(channel)
    themes = themes_pb2_grpc.PageThemeServiceStub(channel)
    want_gets = []
    for i, (ws, am) in enumerate(runs):
        ll = links.ListLinks(links_pb2.ListLinksRequest(workspace_id=ws)).links
        tl = themes.ListPageThemes(themes_pb2.ListPageThemesRequest(workspace_id=ws)).page_themes
        assert len(ll) == 3 and len(tl) == 2, i
        for k, link in enumerate(ll):
            assert am.resolve_alias(f"link-{k + 1}") == link.id, (i, k)
        for k, theme in enumerate(tl):
            assert am.resolve_alias(f"theme-{k + 1}") == theme.id, (i, k)
        assert len(UUID_RE.findall(am.export_state())) == 6, am.export_state()
        want_gets.append(ll[1].id)
    got = []
    for rec in recorded(channel):
        if rec.procedure == "linkhub.v1.LinkService/GetLink":
            msg = decode_recorded(rec)
            assert isinstance(msg, links_pb2.GetLinkRequest)
            got.append(msg.id)
        assert not ALIAS_RE.search(rec.request_json), rec.request_json
    assert sorted(got) == sorted(want_gets)


def test_parallel_conversations_in_threads(channel: grpc.Channel) -> None:
    reset_server(channel)

    def conversation(i: int) -> tuple[str, AliasManager, list[str]]:
        ws = new_uuid()
        e = Executor(channel)
        problems = []
        for tool, args, want in script(ws, i):
            problems += check(i, ws, tool, e.execute(tool, js(args)), want)
        return ws, e.aliases, problems

    with ThreadPoolExecutor(CONVERSATIONS) as pool:
        results = list(pool.map(conversation, range(CONVERSATIONS)))
    assert [p for _, _, ps in results for p in ps] == []
    verify(channel, [(ws, am) for ws, am, _ in results])


def test_parallel_conversations_in_tasks(aio: LoopThread, channel: grpc.Channel) -> None:
    aio_channel = aio.channel
    reset_server(channel)

    async def conversation(i: int) -> tuple[str, AliasManager, list[str]]:
        ws = new_uuid()
        e = AsyncExecutor(aio_channel)
        problems = []
        for tool, args, want in script(ws, i):
            problems += check(i, ws, tool, await e.execute(tool, js(args)), want)
        return ws, e.aliases, problems

    async def all_of_them() -> list[tuple[str, AliasManager, list[str]]]:
        return list(await asyncio.gather(*(conversation(i) for i in range(CONVERSATIONS))))

    results = aio.run(all_of_them())
    assert [p for _, _, ps in results for p in ps] == []
    verify(channel, [(ws, am) for ws, am, _ in results])
