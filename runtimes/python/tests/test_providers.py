"""Provider adapters: shapes checked against the official SDKs' own types,
and a request sent by each official client to a local HTTP stub carrying
our tool exactly."""

from __future__ import annotations

import copy
import json
import pickle
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import ai_tools_gen
import anthropic
import openai
import pydantic
import pytest
from anthropic.types import ToolParam
from google import genai
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from openai.types.shared_params import FunctionDefinition
from toolset import ACCOUNTS_CREATE, ACCOUNTS_WATCH

from ai_tools_runtime import (
    AgentTool,
    anthropic_tool,
    anthropic_tools,
    gemini_function_declaration,
    gemini_tool,
    openai_chat_tool,
    openai_responses_tool,
)
from ai_tools_runtime import providers as ours

SCHEMA = ACCOUNTS_CREATE.schema()
WATCH_SCHEMA = ACCOUNTS_WATCH.schema()

# -- shapes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (ours.OpenAIResponsesTool, FunctionToolParam),
        (ours.OpenAIChatTool, ChatCompletionFunctionToolParam),
        (ours.OpenAIChatFunction, FunctionDefinition),
        (ours.AnthropicTool, ToolParam),
        (ours.GeminiFunctionDeclaration, genai_types.FunctionDeclarationDict),
        (ours.GeminiTool, genai_types.ToolDict),
    ],
)
def test_typeddict_keys_match_the_sdk(mine: Any, theirs: Any) -> None:
    # mypy checks the value types (tests/typed_providers.py); here the keys.
    assert set(mine.__annotations__) <= set(theirs.__annotations__)
    assert mine.__required_keys__ == theirs.__required_keys__


def test_openai_responses_tool() -> None:
    tool = openai_responses_tool(ACCOUNTS_CREATE)
    assert tool == {
        "type": "function",
        "name": "accounts_create",
        "description": "Create an account.",
        "parameters": SCHEMA,
        "strict": True,
    }
    pydantic.TypeAdapter(FunctionToolParam).validate_python(tool, strict=True)
    assert tool["parameters"] is not ACCOUNTS_CREATE.parameters  # a copy


def test_openai_chat_tool() -> None:
    tool = openai_chat_tool(ACCOUNTS_WATCH)
    assert tool == {
        "type": "function",
        "function": {
            "name": "accounts_watch",
            "description": "Stream accounts.",
            "parameters": WATCH_SCHEMA,
            "strict": False,
        },
    }
    pydantic.TypeAdapter(ChatCompletionFunctionToolParam).validate_python(tool, strict=True)


def test_anthropic_tool() -> None:
    tool = anthropic_tool(ACCOUNTS_CREATE)
    assert tool == {
        "name": "accounts_create",
        "description": "Create an account.",
        "input_schema": SCHEMA,
    }
    # strict=True flags strict tools only: a schema the generator did not make
    # strict never carries the flag (as in the TypeScript runtime).
    assert anthropic_tool(ACCOUNTS_CREATE, strict=True)["strict"] is True
    assert "strict" not in anthropic_tool(ACCOUNTS_WATCH, strict=True)
    assert "strict" not in anthropic_tool(ACCOUNTS_WATCH)
    pydantic.TypeAdapter(ToolParam).validate_python(tool, strict=True)


def test_gemini_function_declaration() -> None:
    declaration = gemini_function_declaration(ACCOUNTS_CREATE)
    assert declaration == {
        "name": "accounts_create",
        "description": "Create an account.",
        "parameters_json_schema": SCHEMA,
    }
    model = genai_types.FunctionDeclaration.model_validate(declaration)  # extra keys refused
    assert model.parameters_json_schema == SCHEMA
    tool = genai_types.Tool.model_validate(gemini_tool([ACCOUNTS_CREATE, ACCOUNTS_WATCH]))
    assert [d.name for d in tool.function_declarations or []] == [
        "accounts_create",
        "accounts_watch",
    ]


# -- copies and immutability ---------------------------------------------------


ADAPTERS: list[Any] = [
    lambda t: openai_responses_tool(t)["parameters"],
    lambda t: openai_chat_tool(t)["function"]["parameters"],
    lambda t: anthropic_tool(t, strict=True)["input_schema"],
    lambda t: gemini_function_declaration(t)["parameters_json_schema"],
    lambda t: (gemini_tool([t])["function_declarations"] or [])[0]["parameters_json_schema"],
    lambda t: t.schema(),
]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_mutating_an_adapters_output_leaves_the_tools_alone(adapter: Any) -> None:
    before = [t.schema() for t in ai_tools_gen.all_tools()]
    for tool in ai_tools_gen.all_tools():
        schema = adapter(tool)
        schema["type"] = "changed"
        schema.setdefault("properties", {})["injected"] = {"type": "string"}
        for prop in schema["properties"].values():
            if isinstance(prop, dict):
                prop.clear()
        schema.setdefault("required", []).append("injected")
    assert [t.schema() for t in ai_tools_gen.all_tools()] == before


def test_generated_tools_are_frozen() -> None:
    tool = ai_tools_gen.ACCOUNTS_CREATE
    with pytest.raises(AttributeError):
        tool.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        tool.parameters["type"] = "array"  # type: ignore[index]
    with pytest.raises(TypeError):
        tool.parameters["properties"]["name"]["type"] = "integer"
    with pytest.raises(AttributeError):
        tool.parameters["required"].append("x")
    assert isinstance(ai_tools_gen.ALL_TOOLS, tuple)
    listed = ai_tools_gen.all_tools()
    listed.clear()
    assert len(ai_tools_gen.all_tools()) == len(ai_tools_gen.ALL_TOOLS) == 6
    # A tool made by hand from a dict is frozen as well, and a copy.
    source: dict[str, Any] = {"type": "object", "required": ["a"]}
    made = AgentTool("t", "d", False, source)
    source["required"].append("b")
    assert made.schema() == {"type": "object", "required": ["a"]}
    assert made == AgentTool("t", "d", False, {"type": "object", "required": ["a"]})
    assert json.loads(json.dumps(made.schema())) == made.schema()
    # The generated provider forms are frozen as well.
    assert tool.forms is not None
    with pytest.raises(TypeError):
        tool.forms["anthropicStrictCounts"]["optional"] = 1
    with pytest.raises(TypeError):
        tool.forms["extra"] = {}  # type: ignore[index]
    # Copies and pickles of a frozen tool are equal, and frozen too.
    for copied in (copy.deepcopy(tool), copy.copy(tool), pickle.loads(pickle.dumps(tool))):
        assert copied == tool
        assert copied.forms == tool.forms
        with pytest.raises(TypeError):
            copied.parameters["type"] = "array"  # type: ignore[index]
        with pytest.raises(TypeError):
            copied.forms["geminiParameters"] = None  # type: ignore[index]
    for copied in (copy.deepcopy(made), pickle.loads(pickle.dumps(made))):
        assert copied == made
        assert copied.forms is None


def test_tools_from_json_text_decode_it_on_first_use() -> None:
    # A generated module declares its tools with from_json: nothing is
    # decoded before it is read, so a broken text shows only then.
    broken = AgentTool.from_json("t", "d", False, "{not json", "[]")
    assert (broken.name, broken.description, broken.strict) == ("t", "d", False)
    for copied in (copy.deepcopy(broken), pickle.loads(pickle.dumps(broken))):
        with pytest.raises(json.JSONDecodeError):
            copied.schema()
        assert copied.forms is not None
        with pytest.raises(ValueError, match=r"^not a JSON object: '\[\]'$"):
            copied.forms.get("openai")
    # Decoded, it is the tool made from the same values, frozen likewise.
    text = '{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}'
    lazy = AgentTool.from_json("t", "d", True, text, '{"geminiParameters":null}')
    eager = AgentTool("t", "d", True, json.loads(text), {"geminiParameters": None})
    assert lazy == eager and eager == lazy
    assert lazy.schema() == eager.schema() == json.loads(text)
    assert lazy.schema() is not lazy.schema()
    assert list(lazy.parameters) == ["type", "properties", "required"]
    assert repr(lazy) == repr(eager)
    with pytest.raises(TypeError):
        lazy.parameters["type"] = "array"  # type: ignore[index]
    with pytest.raises(TypeError):
        lazy.parameters["properties"]["a"]["type"] = "integer"
    assert AgentTool.from_json("t", "d", True, text).forms is None
    # Every generated tool equals its eager copy (schema and forms alike).
    for tool in ai_tools_gen.all_tools():
        assert tool.forms is not None
        forms = {k: tool.forms[k] for k in tool.forms}
        assert tool == AgentTool(tool.name, tool.description, tool.strict, tool.schema(), forms)


# -- the official clients against a local stub ---------------------------------

ANSWERS: dict[str, dict[str, Any]] = {
    "/v1/chat/completions": {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "stub",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "ok"},
                "finish_reason": "stop",
            }
        ],
    },
    "/v1/responses": {
        "id": "resp-1",
        "object": "response",
        "created_at": 0,
        "model": "stub",
        "status": "completed",
        "output": [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    },
    "/v1/messages": {
        "id": "msg-1",
        "type": "message",
        "role": "assistant",
        "model": "stub",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    },
    "gemini": {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "index": 0}]
    },
}


class Stub:
    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, Any]]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                path = self.path.split("?")[0]
                stub.requests.append((path, body))
                answer = ANSWERS.get(path) or ANSWERS["gemini"]
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def only_request(self) -> tuple[str, dict[str, Any]]:
        assert len(self.requests) == 1, self.requests
        return self.requests[0]


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stub]:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    s = Stub()
    s.thread.start()
    try:
        yield s
    finally:
        s.server.shutdown()
        s.server.server_close()


def test_openai_responses_request(stub: Stub) -> None:
    client = openai.OpenAI(api_key="test", base_url=stub.url + "/v1", max_retries=0)
    client.responses.create(
        model="stub", input="hi", tools=[openai_responses_tool(ACCOUNTS_CREATE)]
    )
    path, body = stub.only_request()
    assert path == "/v1/responses"
    assert body["tools"] == [
        {
            "type": "function",
            "name": "accounts_create",
            "description": "Create an account.",
            "parameters": SCHEMA,
            "strict": True,
        }
    ]


def test_openai_chat_request(stub: Stub) -> None:
    client = openai.OpenAI(api_key="test", base_url=stub.url + "/v1", max_retries=0)
    client.chat.completions.create(
        model="stub",
        messages=[{"role": "user", "content": "hi"}],
        tools=[openai_chat_tool(ACCOUNTS_CREATE)],
    )
    path, body = stub.only_request()
    assert path == "/v1/chat/completions"
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "accounts_create",
                "description": "Create an account.",
                "parameters": SCHEMA,
                "strict": True,
            },
        }
    ]


def test_anthropic_request(stub: Stub) -> None:
    client = anthropic.Anthropic(api_key="test", base_url=stub.url, max_retries=0)
    client.messages.create(
        model="stub",
        max_tokens=16,
        messages=[{"role": "user", "content": "hi"}],
        tools=[anthropic_tool(ACCOUNTS_CREATE)],
    )
    path, body = stub.only_request()
    assert path == "/v1/messages"
    assert body["tools"] == [
        {"name": "accounts_create", "description": "Create an account.", "input_schema": SCHEMA}
    ]


def test_anthropic_strict_request(stub: Stub) -> None:
    client = anthropic.Anthropic(api_key="test", base_url=stub.url, max_retries=0)
    client.messages.create(
        model="stub",
        max_tokens=16,
        messages=[{"role": "user", "content": "hi"}],
        tools=anthropic_tools([ACCOUNTS_CREATE, ACCOUNTS_WATCH], strict=True),
    )
    path, body = stub.only_request()
    assert path == "/v1/messages"
    assert body["tools"] == [
        {
            "name": "accounts_create",
            "description": "Create an account.",
            "input_schema": anthropic.transform_schema(SCHEMA),
            "strict": True,
        },
        {"name": "accounts_watch", "description": "Stream accounts.", "input_schema": WATCH_SCHEMA},
    ]


def test_gemini_request(stub: Stub) -> None:
    client = genai.Client(api_key="test", http_options=genai_types.HttpOptions(base_url=stub.url))
    client.models.generate_content(
        model="stub",
        contents="hi",
        config=genai_types.GenerateContentConfig(
            tools=[gemini_tool([ACCOUNTS_CREATE])],
            automatic_function_calling=genai_types.AutomaticFunctionCallingConfig(disable=True),
        ),
    )
    path, body = stub.only_request()
    assert path.endswith("/models/stub:generateContent")
    assert body["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": "accounts_create",
                    "description": "Create an account.",
                    # google-genai writes this key in snake_case itself (the
                    # API reads proto JSON, which takes both spellings); the
                    # same as for its own types.FunctionDeclaration.
                    "parameters_json_schema": SCHEMA,
                }
            ]
        }
    ]
