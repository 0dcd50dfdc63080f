"""docs/tool-search.md "Use it": its Python loop (tool_search_loop.py) runs
with the openai client against a local stub answering each request with the
next scripted completion; the page's block is those lines, in order."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from conftest import REPO
from openai import AsyncOpenAI
from tool_search_fixture import TOOLS, search_data
from tool_search_loop import ask

from ai_tools_runtime import DeferredTools, MemoryConversationStore


class Scripted:
    """Answers the i-th POST with ``replies[i]``; records the bodies."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.bodies: list[dict[str, Any]] = []
        bodies = self.bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                bodies.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
                out = json.dumps(replies[len(bodies) - 1]).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"


@pytest.fixture
def scripted() -> Iterator[list[Scripted]]:
    made: list[Scripted] = []
    yield made
    for s in made:
        s.server.shutdown()
        s.server.server_close()


def completion(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "c",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-5.4",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None, "message": message}],
    }


def call(call_id: str, name: str, args: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


class RecordingExecutor:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def execute(self, handle: str, tool_name: str, args_json: str) -> str:
        self.calls.append((tool_name, args_json))
        return '{"link":{"id":"link-1"}}'


def test_chat_loop_searches_loads_calls_and_answers(scripted: list[Scripted]) -> None:
    stub = Scripted(
        [
            completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [call("s", "search_tools", '{"query":"get a link","limit":1}')],
                }
            ),
            completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        call("f", "links_get", '{"link_id":"link-1"}'),
                        call("g", "search_tools", '{"query":5}'),
                    ],
                }
            ),
            completion({"role": "assistant", "content": "here"}),
        ]
    )
    scripted.append(stub)
    executor = RecordingExecutor()

    async def run() -> str | None:
        store = MemoryConversationStore()
        deferred = DeferredTools(TOOLS, search_data(), store)
        client = AsyncOpenAI(api_key="test", base_url=stub.url, max_retries=0)
        handle = await store.create()
        return await ask(deferred, executor, client, handle, "get link-1")  # type: ignore[arg-type]

    assert asyncio.run(run()) == "here"
    assert executor.calls == [("links_get", '{"link_id":"link-1"}')]
    names = [[t["function"]["name"] for t in b["tools"]] for b in stub.bodies]
    assert names[0] == ["search_tools"] and "links_get" in names[1], names
    last = {m.get("tool_call_id"): m["content"] for m in stub.bodies[2]["messages"]}
    assert '"name":"links_get"' in last["s"], last
    assert last["f"] == '{"link":{"id":"link-1"}}', last
    assert last["g"].startswith("invalid arguments, nothing was sent:\n"), last


def test_the_pages_python_block_is_the_loops_lines() -> None:
    page = (REPO / "docs" / "tool-search.md").read_text()
    marker = "<!-- loop: python -->\n\n```python\n"
    assert marker in page
    block = page.split(marker, 1)[1].split("```", 1)[0]
    lines = [line.strip() for line in block.splitlines() if line.strip()]
    # The page's imports and objects, and the function's header, are its own.
    start = next(i for i, line in enumerate(lines) if line.startswith("messages:"))
    source = [
        line.strip()
        for line in (REPO / "runtimes/python/tests/tool_search_loop.py").read_text().splitlines()
    ]
    at = 0
    for line in lines[start:]:
        assert line in source[at:], line
        at = source.index(line, at) + 1
