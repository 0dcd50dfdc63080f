"""Issue 36, deferred tools against the real test server: the generated
TOOL_SEARCH (tool_search=true) finds a tool, DeferredTools loads it in the
conversation's store, and the model's call of the loaded tool (an OpenAI
namespaced call) runs through the conversation executor: ``link-1``
reaches the server as the link's UUID. In Redis, two replicas share the
loaded list."""

from __future__ import annotations

import json

import grpc
import redis.asyncio
from ai_tools_runtime import (
    ConversationExecutor,
    DeferredTools,
    MemoryConversationStore,
    ToolSearchOutcome,
    parse_search_arguments,
    rank_tools,
)
from ai_tools_runtime.providers import OpenAIToolSearchOutput
from ai_tools_runtime.redis import RedisConversationStore
from conftest import LoopThread
from helpers import UUID_RE, expect_recorded, js, new_uuid, recorded, reset_server

import ai_tools_gen
from ai_tools_gen import AsyncExecutor
from linkhub.v1 import links_pb2, links_pb2_grpc


def test_generated_data_ranks_and_maps_calls() -> None:
    hits = rank_tools(ai_tools_gen.TOOL_SEARCH, "get one link by its id", 3)
    assert hits[0].name == "links_get", hits
    names = [ns.name for ns in ai_tools_gen.TOOL_SEARCH.namespaces]
    assert "LinkService" in names and "ExportService" in names, names
    # Every generated tool is in one namespace: DeferredTools takes them all.
    DeferredTools(ai_tools_gen.ALL_TOOLS, ai_tools_gen.TOOL_SEARCH, MemoryConversationStore())


def test_search_load_call_through_openai_responses(aio: LoopThread, channel: grpc.Channel) -> None:
    """The client tool search of OpenAI Responses, end to end but for the
    model: its tool_search_call, our tool_search_output, its namespaced
    function call mapped back to links_get and run."""
    reset_server(channel)
    ws = new_uuid()

    async def run() -> tuple[str, list[str], ToolSearchOutcome, OpenAIToolSearchOutput, str, str]:
        store = MemoryConversationStore()
        executor = ConversationExecutor(AsyncExecutor(aio.channel), store)
        deferred = DeferredTools(
            ai_tools_gen.ALL_TOOLS,
            ai_tools_gen.TOOL_SEARCH,
            store,
            always_loaded=["links_create"],
        )
        handle = await executor.start()
        created = await executor.execute(
            handle,
            "links_create",
            js(
                {
                    "workspace_id": ws,
                    "target_url": "https://example.com/a",
                    "slug": None,
                    "page_theme_id": "",
                    "labels": [],
                    "title": None,
                    "expire_after": None,
                }
            ),
        )
        tools = await deferred.openai_responses(handle, search="client")
        sent = [t["type"] if t["type"] == "tool_search" else t["name"] for t in tools]
        # The model's tool_search_call carries its arguments as an object.
        args = parse_search_arguments({"query": "get one link by id", "limit": 2})
        found = await deferred.search(handle, args.query, args.limit)
        output = deferred.openai_tool_search_output("call-1", found.found)
        # The model then calls GetLink in the LinkService namespace.
        tool = deferred.tool_of("LinkService", "GetLink")
        got = await executor.execute(handle, tool, '{"id":"link-1"}')
        return created, sent, found, output, tool, got

    start = len(recorded(channel))
    created, sent, found, output, tool, got = aio.run(run())
    assert json.loads(created)["link"]["id"] == "link-1", created
    assert sent == [
        "links_create",
        "Operations",
        "LinkService",
        "ExportService",
        "PageThemeService",
        "WorkflowService",
        "SampleService",
        "tool_search",
    ], sent
    assert found.found[0] == "links_get" and found.loaded[0] == "links_get", found
    assert output["type"] == "tool_search_output" and output["call_id"] == "call-1", output
    link_ns = next(ns for ns in output["tools"] if ns["name"] == "LinkService")
    assert "GetLink" in [f["name"] for f in link_ns["tools"]], output
    assert tool == "links_get"
    link = json.loads(got)["link"]
    assert link["id"] == "link-1" and link["target_url"] == "https://example.com/a", got
    # What the server holds, learnt outside the conversation: link-1's UUID.
    links = links_pb2_grpc.LinkServiceStub(channel).ListLinks(
        links_pb2.ListLinksRequest(workspace_id=ws)
    )
    assert len(links.links) == 1 and UUID_RE.fullmatch(links.links[0].id), links
    assert [r.procedure for r in recorded(channel)[start:]][:2] == [
        "linkhub.v1.LinkService/CreateLink",
        "linkhub.v1.LinkService/GetLink",
    ]
    expect_recorded(
        channel,
        start + 1,
        [
            ("linkhub.v1.LinkService/GetLink", links_pb2.GetLinkRequest(id=links.links[0].id)),
            (
                "linkhub.v1.LinkService/ListLinks",
                links_pb2.ListLinksRequest(workspace_id=ws),
            ),
        ],
    )


def test_loaded_tools_shared_by_two_replicas_in_redis(
    aio: LoopThread, channel: grpc.Channel, redis_url: str
) -> None:
    """Replica A searches and loads; replica B (its own Redis client,
    store, executor and DeferredTools) builds the Chat Completions request
    with the loaded tools in load order and runs the loaded tool with the
    alias A's call made; B's search appends, A sees it."""
    reset_server(channel)
    ws = new_uuid()

    async def run() -> tuple[list[str], list[str], list[str], str, list[str]]:
        clients = [redis.asyncio.Redis.from_url(redis_url) for _ in range(2)]
        try:
            stores = [RedisConversationStore(c) for c in clients]
            executors = [ConversationExecutor(AsyncExecutor(aio.channel), s) for s in stores]
            replicas = [
                DeferredTools(ai_tools_gen.ALL_TOOLS, ai_tools_gen.TOOL_SEARCH, s) for s in stores
            ]
            handle = await executors[0].start()
            await replicas[0].search(handle, "create a short link", 1)
            await executors[0].execute(
                handle,
                "links_create",
                js(
                    {
                        "workspace_id": ws,
                        "target_url": "https://example.com/b",
                        "slug": None,
                        "page_theme_id": "",
                        "labels": [],
                        "title": None,
                        "expire_after": None,
                    }
                ),
            )
            first = (await replicas[0].search(handle, "get one link by id", 1)).loaded
            chat = await replicas[1].openai_chat(handle)
            chat_names = [t["function"]["name"] for t in chat]
            got = await executors[1].execute(handle, "links_get", '{"id":"link-1"}')
            more = (await replicas[1].search(handle, "archive a link", 1)).loaded
            seen_by_a = await replicas[0].loaded(handle)
            return first, chat_names, more, got, seen_by_a
        finally:
            for c in clients:
                await c.aclose()

    start = len(recorded(channel))
    first, chat_names, more, got, seen_by_a = aio.run(run())
    assert first == ["links_create", "links_get"], first
    assert chat_names == ["search_tools", "links_create", "links_get"], chat_names
    assert json.loads(got)["link"]["id"] == "link-1", got
    assert more == ["links_create", "links_get", "links_archive"], more
    assert seen_by_a == more
    get = [r for r in recorded(channel)[start:] if r.procedure.endswith("/GetLink")]
    assert len(get) == 1 and UUID_RE.fullmatch(json.loads(get[0].request_json)["id"]), get
