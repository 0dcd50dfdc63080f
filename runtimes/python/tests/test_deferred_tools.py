"""DeferredTools (docs/tool-search.md): the loaded list in the store, the
model's mistakes, each provider's request (compared as parsed JSON, and
sent through the official SDK clients to a local stub), and the limits
refused before sending."""

from __future__ import annotations

import json
import typing
from collections.abc import Sequence
from typing import Any

import anthropic
import grpc
import openai
import pytest
from anthropic.types import (
    TextBlockParam,
    ToolReferenceBlockParam,
    ToolSearchToolBm25_20251119Param,
    ToolSearchToolRegex20251119Param,
)
from google import genai
from google.genai import types as genai_types
from openai.types.responses import (
    NamespaceTool,
    NamespaceToolParam,
    ResponseToolSearchOutputItemParamParam,
    ToolSearchTool,
    ToolSearchToolParam,
)
from openai.types.responses.namespace_tool_param import ToolFunction
from test_providers import Stub, stub  # noqa: F401 (the fixture)
from tool_search_fixture import NAMESPACES, TOOLS, build_index, search_data, tool

from ai_tools_runtime import (
    AgentTool,
    DeferredTools,
    MemoryConversationStore,
    SearchArguments,
    ToolError,
    ToolSearchOutcome,
    parse_search_arguments,
    search_parameters,
)
from ai_tools_runtime import providers as ours

SEARCH_PARAMETERS = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "What you want to do, in a few words."},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 20,
            "description": "The most tools to find; 5 by default.",
        },
    },
    "required": ["query"],
    "additionalProperties": False,
}
SEARCH_TOOLS_DESCRIPTION = (
    "Search this API's tools by what they do and load the best matches: a loaded tool can be "
    "called from the next turn on. Searchable: LinkService (Short links: create, read, list, "
    "delete.); UserService (Users.)."
)
BY_NAME = {t.name: t for t in TOOLS}


def setup(
    *, always_loaded: Sequence[str] = (), limit: int = 5, max_loaded: Any = None
) -> tuple[MemoryConversationStore, DeferredTools]:
    store = MemoryConversationStore()
    deferred = DeferredTools(
        TOOLS,
        search_data(),
        store,
        always_loaded=always_loaded,
        limit=limit,
        max_loaded=max_loaded,
    )
    return store, deferred


def openai_function(name: str) -> dict[str, Any]:
    t = BY_NAME[name]
    return {
        "type": "function",
        "name": t.name,
        "description": t.description,
        "parameters": t.schema(),
        "strict": True,
    }


def deferred_function(name: str, function: str) -> dict[str, Any]:
    return {**openai_function(name), "name": function, "defer_loading": True}


def link_namespace(*skip: str) -> dict[str, Any]:
    ns = NAMESPACES[0]
    return {
        "type": "namespace",
        "name": "LinkService",
        "description": ns["description"],
        "tools": [
            deferred_function(f["tool"], f["function"])
            for f in ns["tools"]
            if f["tool"] not in skip
        ],
    }


def anthropic_tool(name: str) -> dict[str, Any]:
    t = BY_NAME[name]
    return {"name": t.name, "description": t.description, "input_schema": t.schema()}


def many(n: int) -> tuple[list[AgentTool], list[dict[str, Any]]]:
    tools = [tool(f"t{i:05}", f"Tool {i}.") for i in range(n)]
    namespaces = [
        {
            "name": "Many",
            "description": "Many tools.",
            "tools": [{"tool": t.name, "function": f"F{i}"} for i, t in enumerate(tools)],
        }
    ]
    return tools, namespaces


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (ours.OpenAINamespaceFunction, ToolFunction),
        (ours.OpenAINamespaceTool, NamespaceToolParam),
        (ours.OpenAIToolSearchTool, ToolSearchToolParam),
        (ours.OpenAIToolSearchOutput, ResponseToolSearchOutputItemParamParam),
        (ours.AnthropicToolSearchBm25Tool, ToolSearchToolBm25_20251119Param),
        (ours.AnthropicToolSearchRegexTool, ToolSearchToolRegex20251119Param),
        (ours.AnthropicToolReference, ToolReferenceBlockParam),
        (ours.AnthropicTextBlock, TextBlockParam),
    ],
)
def test_typeddict_keys_match_the_sdk(mine: Any, theirs: Any) -> None:
    # mypy checks the value types (tests/typed_providers.py); here the keys.
    assert set(mine.__annotations__) <= set(theirs.__annotations__)
    assert _required_keys(mine) == _required_keys(theirs)


def _required_keys(typed_dict: Any) -> set[str]:
    """The required keys, read from the evaluated annotations: with string
    annotations (``from __future__ import annotations``) ``__required_keys__``
    cannot see ``Required[...]``."""
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    return {
        key
        for key, hint in hints.items()
        if typing.get_origin(hint) is typing.Required
        or (typed_dict.__total__ and typing.get_origin(hint) is not typing.NotRequired)
    }


# -- search and the loaded list ------------------------------------------------


async def test_search_appends_in_load_order_and_never_reorders() -> None:
    store, deferred = setup()
    handle = await store.create()
    first = await deferred.search(handle, "remove a link", 1)
    assert first == ToolSearchOutcome(["links_delete"], ["links_delete"])
    second = await deferred.search(handle, "get user", 2)
    assert second.found == ["users_get", "links_get"]
    assert second.loaded == ["links_delete", "users_get", "links_get"]
    # Found again, in another order: the list stays as it was.
    third = await deferred.search(handle, "get link delete", 3)
    assert "links_delete" in third.found
    assert third.loaded[:3] == ["links_delete", "users_get", "links_get"]
    assert await deferred.loaded(handle) == third.loaded


async def test_search_keeps_always_loaded_tools_out_of_the_list() -> None:
    store, deferred = setup(always_loaded=["users_get"])
    handle = await store.create()
    assert await deferred.search(handle, "get user", 1) == ToolSearchOutcome(["users_get"], [])


async def test_search_finds_nothing_for_unknown_words() -> None:
    store, deferred = setup()
    handle = await store.create()
    assert await deferred.search(handle, "zebra", 5) == ToolSearchOutcome([], [])


async def test_search_uses_the_creations_limit() -> None:
    store, deferred = setup(limit=1)
    handle = await store.create()
    assert len((await deferred.search(handle, "link")).found) == 1


async def test_search_loads_nothing_past_max_loaded() -> None:
    store, deferred = setup(max_loaded=2)
    handle = await store.create()
    await deferred.search(handle, "remove a link", 1)
    with pytest.raises(ToolError) as caught:
        await deferred.search(handle, "get user", 2)
    assert (caught.value.reason, caught.value.code, str(caught.value)) == (
        "conversation-full",
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "3 tools would be loaded, at most 2: call one of the loaded tools, "
        "or start a new conversation",
    )
    assert await deferred.loaded(handle) == ["links_delete"]
    # Tools already loaded count once: the list may reach max_loaded.
    out = await deferred.search(handle, "get link delete", 2)
    assert out.loaded == ["links_delete", "links_get"]


def test_max_loaded_defaults_to_what_chat_takes_and_refuses_below_1() -> None:
    _, deferred = setup(always_loaded=["users_get"])
    assert deferred._max_loaded == 126  # pyright: ignore[reportPrivateUsage]
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match=r"give a whole number of at least 1"):
            setup(max_loaded=bad)


async def test_search_in_an_unknown_conversation_is_expired() -> None:
    _, deferred = setup()
    with pytest.raises(ToolError) as caught:
        await deferred.search("nope", "remove a link")
    assert caught.value.reason == "conversation-expired"
    with pytest.raises(ToolError) as caught:
        await deferred.loaded("nope")
    assert caught.value.reason == "conversation-expired"


# -- the model's mistakes ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (42, "- expected a JSON object, got a number"),
        ("{", "- invalid JSON; send the arguments as one JSON object"),
        ({"limit": 2}, '- "query": missing required field'),
        ({"query": "x", "limit": 0}, '- "limit": must be a whole number from 1 to 20'),
        ({"query": "x", "limit": 1.5}, '- "limit": must be a whole number from 1 to 20'),
        ({"query": "x", "limit": True}, '- "limit": must be a whole number from 1 to 20'),
        ({"query": "x", "n": 1}, '- "n": unknown field; valid fields: query, limit'),
        (json.dumps('{"query":"x"}'), "- expected a JSON object, got a string"),
    ],
)
def test_bad_search_arguments(args: Any, line: str) -> None:
    with pytest.raises(ToolError) as caught:
        parse_search_arguments(args)
    assert caught.value.reason == "invalid-arguments"
    assert str(caught.value) == f"invalid arguments, nothing was sent:\n{line}"


def test_search_arguments_from_an_object_or_json_text() -> None:
    assert parse_search_arguments({"query": "get link"}) == SearchArguments("get link")
    assert parse_search_arguments('{"query":"get link","limit":3}') == SearchArguments(
        "get link", 3
    )
    assert parse_search_arguments('{"query":"get link","limit":3.0}') == SearchArguments(
        "get link", 3
    )
    assert parse_search_arguments({"query": "get link", "limit": None}) == SearchArguments(
        "get link"
    )
    assert search_parameters(7)["properties"]["limit"]["description"] == (
        "The most tools to find; 7 by default."
    )


async def test_search_refuses_a_bad_limit() -> None:
    store, deferred = setup()
    handle = await store.create()
    with pytest.raises(ToolError) as caught:
        await deferred.search(handle, "link", 0)
    assert caught.value.reason == "invalid-arguments"
    assert await deferred.loaded(handle) == []


def test_tool_of_names_both_parts_of_an_unknown_call() -> None:
    _, deferred = setup()
    assert deferred.tool_of("LinkService", "GetLink") == "links_get"
    with pytest.raises(ToolError) as caught:
        deferred.tool_of("LinkService", "GetLinks")
    assert str(caught.value) == (
        'no function "GetLinks" in namespace "LinkService": call a function a tool search loaded'
    )
    assert caught.value.reason == "unknown-tool"
    with pytest.raises(ToolError) as caught:
        deferred.tool_of("Links", "GetLink")
    assert str(caught.value).startswith('unknown namespace "Links" (function "GetLink")')


# -- OpenAI Responses ----------------------------------------------------------


async def test_openai_responses_hosted() -> None:
    store, deferred = setup(always_loaded=["users_get"])
    handle = await store.create()
    tools = await deferred.openai_responses(handle, search="hosted")
    # UserService holds only the always-loaded tool: not sent.
    assert tools == [openai_function("users_get"), link_namespace(), {"type": "tool_search"}]
    NamespaceTool.model_validate(tools[1])
    ToolSearchTool.model_validate(tools[2])


async def test_openai_responses_client() -> None:
    store, deferred = setup()
    handle = await store.create()
    tools = await deferred.openai_responses(handle, search="client")
    user_namespace = {
        "type": "namespace",
        "name": "UserService",
        "description": "Users.\nFunctions: GetUser",
        "tools": [deferred_function("users_get", "GetUser")],
    }
    assert tools == [
        link_namespace(),
        user_namespace,
        {
            "type": "tool_search",
            "execution": "client",
            "description": (
                "Search the functions of the namespaces above by what they do; "
                "the best matches are loaded."
            ),
            "parameters": SEARCH_PARAMETERS,
        },
    ]
    ToolSearchTool.model_validate(tools[2])
    with pytest.raises(ValueError, match='search "server" is not "hosted" or "client"'):
        await deferred.openai_responses(handle, search="server")


def test_openai_tool_search_output_groups_in_namespaces() -> None:
    _, deferred = setup(always_loaded=["links_list"])
    out = deferred.openai_tool_search_output(
        "call-1", ["users_get", "links_get", "links_list", "links_delete", "links_get"]
    )
    assert out == {
        "type": "tool_search_output",
        "call_id": "call-1",
        "execution": "client",
        "status": "completed",
        "tools": [
            {
                "type": "namespace",
                "name": "UserService",
                "description": "Users.\nFunctions: GetUser",
                "tools": [deferred_function("users_get", "GetUser")],
            },
            {
                "type": "namespace",
                "name": "LinkService",
                "description": NAMESPACES[0]["description"],
                "tools": [
                    deferred_function("links_get", "GetLink"),
                    deferred_function("links_delete", "DeleteLink"),
                ],
            },
        ],
    }
    assert deferred.openai_tool_search_output("call-2", [])["tools"] == []
    with pytest.raises(ValueError, match='unknown tool "nope": pass names a search found'):
        deferred.openai_tool_search_output("call-3", ["nope"])


async def test_openai_responses_refuses_a_namespace_named_as_an_always_loaded_tool() -> None:
    tools = [*TOOLS, tool("LinkService", "A tool named as the namespace.")]
    store = MemoryConversationStore()
    deferred = DeferredTools(tools, search_data(), store, always_loaded=["LinkService"])
    handle = await store.create()
    with pytest.raises(ValueError) as caught:
        await deferred.openai_responses(handle, search="hosted")
    assert str(caught.value) == (
        'namespace "LinkService" has the name of an always-loaded tool: OpenAI could not tell '
        "them apart; load another tool always"
    )


# -- Chat Completions and Gemini ----------------------------------------------


async def test_chat_and_gemini_always_then_search_tools_then_loaded() -> None:
    store, deferred = setup(always_loaded=["users_get"])
    handle = await store.create()
    await deferred.search(handle, "remove a link", 1)
    await deferred.search(handle, "create a short link", 1)
    chat = await deferred.openai_chat(handle)
    assert [t["function"]["name"] for t in chat] == [
        "users_get",
        "search_tools",
        "links_delete",
        "links_create",
    ]
    assert chat[1] == {
        "type": "function",
        "function": {
            "name": "search_tools",
            "description": SEARCH_TOOLS_DESCRIPTION,
            "parameters": SEARCH_PARAMETERS,
            "strict": False,
        },
    }
    gemini = await deferred.gemini(handle)
    declarations = gemini.get("function_declarations") or []
    assert [d.get("name") for d in declarations] == [
        "users_get",
        "search_tools",
        "links_delete",
        "links_create",
    ]
    assert declarations[1] == {
        "name": "search_tools",
        "description": SEARCH_TOOLS_DESCRIPTION,
        "parameters_json_schema": SEARCH_PARAMETERS,
    }
    open_api = await deferred.gemini(handle, form="parameters")
    search = (open_api.get("function_declarations") or [])[1]
    assert search.get("parameters") == {
        k: v for k, v in SEARCH_PARAMETERS.items() if k != "additionalProperties"
    }


def test_search_tools_result() -> None:
    _, deferred = setup()
    text = deferred.search_tools_result(["links_get", "users_get"])
    assert json.loads(text) == {
        "tools": [
            {"name": "links_get", "description": "Get a short link by its id."},
            {"name": "users_get", "description": "Get a user by id."},
        ]
    }
    assert json.loads(deferred.search_tools_result([])) == {"tools": []}


# -- Anthropic -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "search_tool"),
    [
        ("bm25", {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}),
        ("regex", {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}),
    ],
)
async def test_anthropic_server_search(mode: Any, search_tool: dict[str, Any]) -> None:
    store, deferred = setup(always_loaded=["links_get"])
    handle = await store.create()
    tools = await deferred.anthropic(handle, search=mode)
    assert tools == [
        anthropic_tool("links_get"),
        *(
            {**anthropic_tool(t.name), "defer_loading": True}
            for t in TOOLS
            if t.name != "links_get"
        ),
        search_tool,
    ]


async def test_anthropic_client_search() -> None:
    store, deferred = setup()
    handle = await store.create()
    tools = await deferred.anthropic(handle, search="client")
    assert tools[:-1] == [{**anthropic_tool(t.name), "defer_loading": True} for t in TOOLS]
    assert tools[-1] == {
        "name": "search_tools",
        "description": SEARCH_TOOLS_DESCRIPTION,
        "input_schema": SEARCH_PARAMETERS,
    }
    assert deferred.anthropic_tool_references(["links_get", "users_get"]) == [
        {"type": "tool_reference", "tool_name": "links_get"},
        {"type": "tool_reference", "tool_name": "users_get"},
    ]
    assert deferred.anthropic_tool_references([]) == [
        {"type": "text", "text": "no tool found; search again with other words"}
    ]
    with pytest.raises(ValueError, match='search "other" is not "bm25", "regex" or "client"'):
        await deferred.anthropic(handle, search="other")


async def test_anthropic_strict_counts_deferred_tools_too() -> None:
    tools, namespaces = many(21)
    store = MemoryConversationStore()
    deferred = DeferredTools(tools, search_data(namespaces, tools), store)
    handle = await store.create()
    assert len(await deferred.anthropic(handle, search="bm25")) == 22
    with pytest.raises(ValueError, match="21 strict tools in one request"):
        await deferred.anthropic(handle, search="bm25", strict=True)


# -- limits --------------------------------------------------------------------


async def test_openai_responses_counts_top_level_items() -> None:
    tools, namespaces = many(127)
    tools.append(tool("zz", "One more."))
    namespaces.append(
        {"name": "Z", "description": "Z.", "tools": [{"tool": "zz", "function": "Z"}]}
    )
    names = [t.name for t in tools]
    # 125 always loaded + 2 namespaces + tool_search = 128: sent.
    store = MemoryConversationStore()
    deferred = DeferredTools(
        tools, search_data(namespaces, tools), store, always_loaded=names[:125]
    )
    handle = await store.create()
    assert len(await deferred.openai_responses(handle, search="hosted")) == 128
    # 126 + 2 + 1 = 129: refused, however many functions the namespaces hold.
    deferred = DeferredTools(
        tools, search_data(namespaces, tools), store, always_loaded=names[:126]
    )
    with pytest.raises(ValueError) as caught:
        await deferred.openai_responses(handle, search="client")
    assert str(caught.value) == (
        "129 top-level tools in one request (126 always loaded, 2 namespaces, the tool_search "
        "tool): OpenAI takes at most 128; load fewer tools always, or split the API into "
        "several tool sets (fewer services per generated file)"
    )
    # Nothing always loaded: 127 namespaces + tool_search fit, 128 do not.
    for count, sent in ((127, True), (128, False)):
        tools = [tool(f"n{i:03}", f"Tool {i}.") for i in range(count)]
        spaces = [
            {
                "name": f"N{i:03}",
                "description": "One.",
                "tools": [{"tool": t.name, "function": "F"}],
            }
            for i, t in enumerate(tools)
        ]
        deferred = DeferredTools(tools, search_data(spaces, tools), store)
        if sent:
            assert len(await deferred.openai_responses(handle, search="hosted")) == 128
            continue
        with pytest.raises(ValueError) as caught:
            await deferred.openai_responses(handle, search="hosted")
        assert str(caught.value) == (
            "129 top-level tools in one request (0 always loaded, 128 namespaces, the "
            "tool_search tool): OpenAI takes at most 128; load fewer tools always, or split the "
            "API into several tool sets (fewer services per generated file)"
        )


async def test_chat_counts_every_function_and_gemini_every_declaration() -> None:
    tools, namespaces = many(600)
    store = MemoryConversationStore()
    deferred = DeferredTools(tools, search_data(namespaces, tools), store, limit=20)
    handle = await store.create()
    epoch, _ = await store.load(handle)
    await store.load_tools(handle, epoch, [t.name for t in tools[:127]])
    assert len(await deferred.openai_chat(handle)) == 128
    await store.load_tools(handle, epoch, [tools[127].name])
    with pytest.raises(ValueError) as caught:
        await deferred.openai_chat(handle)
    assert str(caught.value) == (
        "129 tools in one request: OpenAI takes at most 128; send a subset of the tools, "
        "or lower max_loaded"
    )
    await store.load_tools(handle, epoch, [t.name for t in tools[128:511]])
    assert len((await deferred.gemini(handle)).get("function_declarations") or []) == 512
    await store.load_tools(handle, epoch, [tools[511].name])
    with pytest.raises(ValueError) as caught:
        await deferred.gemini(handle)
    assert str(caught.value) == (
        "513 function declarations in one request: Gemini takes at most 512; send a subset of "
        "the tools, or lower max_loaded"
    )


async def test_anthropic_takes_at_most_10000_tools() -> None:
    tools, namespaces = many(10000)
    store = MemoryConversationStore()
    # The request does not read the index: a one-tool index keeps the test short.
    index = build_index({"t00000": ["tool"]})
    deferred = DeferredTools(tools, search_data(namespaces, tools, index), store)
    handle = await store.create()
    with pytest.raises(ValueError) as caught:
        await deferred.anthropic(handle, search="bm25")
    assert str(caught.value) == (
        "10001 tools in one request: Anthropic tool search takes at most 10000; "
        "send a subset of the tools"
    )


# -- options that cannot work ------------------------------------------------


class OldStore:
    """A store written before loaded tools: no load_tools nor loaded_tools."""

    async def create(self, suffix: str = "") -> str:
        return "h" + suffix

    async def load(self, handle: str) -> tuple[str, str]:
        return "e", "{}"

    async def register(self, handle: str, epoch: str, pairs: Sequence[tuple[str, str]]) -> str:
        return "{}"

    async def delete(self, handle: str) -> None:
        pass


def test_refuses_a_store_without_the_loaded_tools_operations() -> None:
    with pytest.raises(ValueError) as caught:
        DeferredTools(TOOLS, search_data(), OldStore())
    assert str(caught.value) == (
        "the conversation store cannot keep loaded tools: give it "
        "load_tools(handle, epoch, names) and loaded_tools(handle) "
        '(docs/store.md, "Loaded tools")'
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"always_loaded": ["nope"]},
            'always_loaded: unknown tool "nope": name tools of the generated file',
        ),
        ({"limit": 0}, 'limit "0": give a whole number from 1 to 20'),
        ({"limit": 21}, 'limit "21": give a whole number from 1 to 20'),
        (
            {"tools": [*TOOLS, tool("stray", "Not in the data.")]},
            'tool "stray" is served but not in the tool-search data: generate its file with '
            "tool_search=true and pass that file's data, or list it in always_loaded",
        ),
        (
            {"tools": TOOLS[:4]},
            'tool search data: namespace "UserService" names the tool "users_get", which is '
            "not given: pass the tools and the TOOL_SEARCH of one generated module",
        ),
        (
            {"tools": [*TOOLS, TOOLS[0]]},
            'tool "links_create" is given twice: pass the generated module\'s ALL_TOOLS',
        ),
        (
            {"tools": [*TOOLS, tool("search_tools", "Clash.")], "always_loaded": ["search_tools"]},
            'tool "search_tools" has the name of the search function: rename the RPC\'s tool',
        ),
    ],
)
def test_refuses_options_that_cannot_work(kwargs: dict[str, Any], message: str) -> None:
    tools = kwargs.pop("tools", TOOLS)
    with pytest.raises(ValueError) as caught:
        DeferredTools(tools, search_data(), MemoryConversationStore(), **kwargs)
    assert str(caught.value) == message


# -- the official SDK clients send it as built ---------------------------------


async def test_the_sdk_clients_send_the_deferred_requests(stub: Stub) -> None:  # noqa: F811
    store, deferred = setup(always_loaded=["users_get"])
    handle = await store.create()
    await deferred.search(handle, "remove a link", 1)
    responses = await deferred.openai_responses(handle, search="client")
    client = openai.OpenAI(api_key="test", base_url=stub.url + "/v1", max_retries=0)
    client.responses.create(model="stub", input="hi", tools=responses)
    client.responses.create(
        model="stub",
        input=[deferred.openai_tool_search_output("call-1", ["links_get"])],
    )
    chat = await deferred.openai_chat(handle)
    client.chat.completions.create(
        model="stub", messages=[{"role": "user", "content": "hi"}], tools=chat
    )
    claude = anthropic.Anthropic(api_key="test", base_url=stub.url, max_retries=0)
    anthropic_tools = await deferred.anthropic(handle, search="client")
    references = deferred.anthropic_tool_references(["links_get"])
    claude.messages.create(
        model="stub",
        max_tokens=16,
        tools=anthropic_tools,
        messages=[
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "tu-1", "name": "search_tools", "input": {}}
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "tu-1", "content": references}],
            },
        ],
    )
    gemini = genai.Client(api_key="test", http_options=genai_types.HttpOptions(base_url=stub.url))
    gemini_tool = await deferred.gemini(handle)
    gemini.models.generate_content(
        model="stub",
        contents="hi",
        config=genai_types.GenerateContentConfig(
            tools=[gemini_tool],
            automatic_function_calling=genai_types.AutomaticFunctionCallingConfig(disable=True),
        ),
    )
    bodies = [body for _, body in stub.requests]
    assert bodies[0]["tools"] == responses
    assert bodies[1]["input"] == [deferred.openai_tool_search_output("call-1", ["links_get"])]
    assert bodies[2]["tools"] == chat
    assert bodies[3]["tools"] == anthropic_tools
    assert bodies[3]["messages"][2]["content"][0]["content"] == references
    names = [d["name"] for d in bodies[4]["tools"][0]["functionDeclarations"]]
    assert names == ["users_get", "search_tools", "links_delete"]
    assert bodies[4]["tools"][0]["functionDeclarations"][1]["parameters_json_schema"] == (
        SEARCH_PARAMETERS
    )
