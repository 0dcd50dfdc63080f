"""The shared deferred-tools vectors, e2e/vectors/tool-search/requests.json
(format in its description; written by the TypeScript runtime's tests):
the searches' found and loaded lists, every provider's request, every
answer to a search call and tool_of, equal as parsed JSON; and
parse_search_arguments, its error texts exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import VECTORS

from ai_tools_runtime import (
    AgentTool,
    DeferredTools,
    MemoryConversationStore,
    SearchArguments,
    ToolError,
    define_tool_search,
    parse_search_arguments,
)

REQUESTS: dict[str, Any] = json.loads(
    (VECTORS / "tool-search" / "requests.json").read_text(encoding="utf-8")
)
TOOLS = [
    AgentTool(t["name"], t["description"], t["strict"], t["parameters"], t.get("forms"))
    for t in REQUESTS["tools"]
]
# The vectors hold the API's JSON names; google-genai's dicts use snake_case.
GEMINI_KEYS = {
    "function_declarations": "functionDeclarations",
    "parameters_json_schema": "parametersJsonSchema",
}


def _gemini_as_in_vectors(value: Any) -> Any:
    if isinstance(value, dict):
        return {GEMINI_KEYS.get(k, k): _gemini_as_in_vectors(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_gemini_as_in_vectors(v) for v in value]
    return value


def _plain(value: Any) -> Any:
    """A built value as parsed JSON (what the vectors hold)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("case", REQUESTS["cases"], ids=lambda c: c["name"])
async def test_requests_vectors(case: dict[str, Any]) -> None:
    store = MemoryConversationStore()
    deferred = DeferredTools(
        TOOLS,
        define_tool_search(REQUESTS["toolSearch"]),
        store,
        always_loaded=case["alwaysLoaded"],
        max_loaded=case.get("maxLoaded"),
    )
    handle = await store.create()
    for step in case["searches"]:
        if "error" in step:
            with pytest.raises(ToolError) as refused:
                await deferred.search(handle, step["query"], step["limit"])
            assert str(refused.value) == step["error"], step["query"]
            continue
        got = await deferred.search(handle, step["query"], step["limit"])
        assert (got.found, got.loaded) == (step["found"], step["loaded"]), step["query"]
    requests = case["requests"]
    built = {
        "openAiResponsesHosted": await deferred.openai_responses(handle, search="hosted"),
        "openAiResponsesClient": await deferred.openai_responses(handle, search="client"),
        "openAiChat": await deferred.openai_chat(handle),
        "gemini": _gemini_as_in_vectors(await deferred.gemini(handle)),
        "geminiParameters": _gemini_as_in_vectors(await deferred.gemini(handle, form="parameters")),
        "anthropicBm25": await deferred.anthropic(handle, search="bm25"),
        "anthropicRegex": await deferred.anthropic(handle, search="regex"),
        "anthropicClient": await deferred.anthropic(handle, search="client"),
    }
    assert set(built) == set(requests)
    for key, want in requests.items():
        assert _plain(built[key]) == want, key
    found = case["found"]
    answers = {
        "openAiToolSearchOutput": deferred.openai_tool_search_output("call_1", found),
        "anthropicToolReferences": deferred.anthropic_tool_references(found),
        "anthropicToolReferencesNone": deferred.anthropic_tool_references([]),
        "anthropicToolReferencesAlwaysLoaded": deferred.anthropic_tool_references(
            case["alwaysLoaded"]
        ),
        "searchToolsResult": json.loads(deferred.search_tools_result(found)),
    }
    assert set(answers) == set(case["answers"])
    for key, want in case["answers"].items():
        assert _plain(answers[key]) == want, key
    for call in case["toolOf"]:
        if "error" in call:
            with pytest.raises(ToolError) as caught:
                deferred.tool_of(call["namespace"], call["function"])
            assert str(caught.value) == call["error"]
            assert caught.value.reason == "unknown-tool"
        else:
            assert deferred.tool_of(call["namespace"], call["function"]) == call["expected"]


@pytest.mark.parametrize("vector", REQUESTS["searchArguments"], ids=lambda v: json.dumps(v["args"]))
def test_search_arguments_vectors(vector: dict[str, Any]) -> None:
    if "error" in vector:
        with pytest.raises(ToolError) as caught:
            parse_search_arguments(vector["args"])
        assert str(caught.value) == vector["error"]
        assert caught.value.reason == "invalid-arguments"
    else:
        want = vector["expected"]
        got = parse_search_arguments(vector["args"])
        assert got == SearchArguments(want["query"], want.get("limit"))
