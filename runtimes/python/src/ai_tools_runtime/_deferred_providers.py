"""The provider requests of deferred tools (docs/tool-search.md): each
provider's ``tools`` for a request that loads tools on demand, built from
the tool set :class:`DeferredTools` checked (runtimes/ts/src/deferred-providers.ts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ._agent_tool import AgentTool
from ._json import quote
from ._provider_limits import (
    GEMINI_MAX_FUNCTION_DECLARATIONS,
    OPENAI_MAX_TOOLS,
    check_anthropic_tool_search_request,
    check_openai_deferred_request,
)
from ._search_arguments import SEARCH_TOOLS_NAME, search_parameters
from ._tool_search import ToolSearchNamespace
from .providers import (
    AnthropicRequestTool,
    AnthropicToolSearchBm25Tool,
    AnthropicToolSearchRegexTool,
    GeminiTool,
    OpenAIChatTool,
    OpenAINamespaceFunction,
    OpenAINamespaceTool,
    OpenAIResponsesRequestTool,
    OpenAIToolSearchTool,
    anthropic_tools,
    gemini_tool,
    openai_chat_tools,
    openai_responses_tool,
)

__all__ = [
    "DeferredRequestSet",
    "anthropic_request_tools",
    "gemini_request_tool",
    "namespace_function",
    "namespace_tool",
    "openai_chat_request_tools",
    "openai_responses_request_tools",
    "search_tool_of",
]

# OpenAI's client ``tool_search`` description.
_CLIENT_SEARCH_DESCRIPTION: Final = (
    "Search the functions of the namespaces above by what they do; the best matches are loaded."
)


@dataclass(frozen=True)
class DeferredRequestSet:
    """What the request builders read, checked once by
    :class:`DeferredTools`: the tools, the always-loaded ones and the
    search data."""

    tools: Sequence[AgentTool]
    """The tools of the generated module, in the order given."""
    by_name: dict[str, AgentTool]
    """The same tools by name."""
    always: Sequence[str]
    """The names of the always-loaded tools, in the order given."""
    always_tools: Sequence[AgentTool]
    """The always-loaded tools, in the order given."""
    namespaces: Sequence[ToolSearchNamespace]
    """The namespaces of the tool-search data."""
    default_limit: int
    """How many tools a search finds when the model does not say."""
    search_tool: AgentTool
    """The ``search_tools`` function (:func:`search_tool_of`)."""


def openai_responses_request_tools(
    tool_set: DeferredRequestSet, search: Literal["hosted", "client"]
) -> list[OpenAIResponsesRequestTool]:
    """The ``tools`` of an OpenAI Responses request: the always-loaded
    tools, each namespace with its other functions deferred, then
    ``tool_search``. Raises ValueError for an unknown search mode, a
    namespace named like an always-loaded tool, or more than 128
    top-level items."""
    if search not in ("hosted", "client"):
        raise ValueError(
            f'openai_responses: search {quote(str(search))} is not "hosted" or "client"'
        )
    namespaces = _namespace_tools(tool_set)
    for ns in namespaces:
        if ns["name"] in tool_set.always:
            raise ValueError(
                f"namespace {quote(ns['name'])} has the name of an always-loaded tool: "
                "OpenAI could not tell them apart; load another tool always"
            )
    check_openai_deferred_request(len(tool_set.always_tools), len(namespaces))
    out: list[OpenAIResponsesRequestTool] = [
        openai_responses_tool(t) for t in tool_set.always_tools
    ]
    out.extend(namespaces)
    search_tool: OpenAIToolSearchTool = {"type": "tool_search"}
    if search == "client":
        search_tool = {
            "type": "tool_search",
            "execution": "client",
            "description": _CLIENT_SEARCH_DESCRIPTION,
            "parameters": search_parameters(tool_set.default_limit),
        }
    out.append(search_tool)
    return out


def openai_chat_request_tools(
    tool_set: DeferredRequestSet, loaded: Sequence[str]
) -> list[OpenAIChatTool]:
    """The ``tools`` of an OpenAI Chat Completions request: the
    always-loaded tools, ``search_tools``, then the ``loaded`` ones in load
    order; more than 128 raise ValueError."""
    tools = _request_tools(tool_set, loaded)
    _check_loaded_request(len(tools), OPENAI_MAX_TOOLS, "tools", "OpenAI")
    return openai_chat_tools(tools)


def gemini_request_tool(
    tool_set: DeferredRequestSet,
    loaded: Sequence[str],
    form: Literal["parameters_json_schema", "parameters"],
) -> GeminiTool:
    """The Gemini tool of a request: the functions of
    :func:`openai_chat_request_tools`; more than 512 raise ValueError."""
    tools = _request_tools(tool_set, loaded)
    _check_loaded_request(
        len(tools), GEMINI_MAX_FUNCTION_DECLARATIONS, "function declarations", "Gemini"
    )
    return gemini_tool(tools, form=form)


def anthropic_request_tools(
    tool_set: DeferredRequestSet, search: Literal["bm25", "regex", "client"], strict: bool
) -> list[AnthropicRequestTool]:
    """The ``tools`` of an Anthropic request: the always-loaded tools,
    every other tool with ``defer_loading: true``, then the search tool.
    Raises ValueError for an unknown search mode or a request over
    Anthropic's limits."""
    server = _anthropic_search_tool(search)
    always = tool_set.always
    deferred = [t for t in tool_set.tools if t.name not in always]
    client = [tool_set.search_tool] if server is None else []
    out: list[AnthropicRequestTool] = []
    for t in anthropic_tools([*tool_set.always_tools, *deferred, *client], strict=strict):
        if t["name"] not in always and t["name"] != SEARCH_TOOLS_NAME:
            t["defer_loading"] = True
        out.append(t)
    if server is not None:
        out.append(server)
    check_anthropic_tool_search_request(len(out))
    return out


def namespace_tool(
    ns: ToolSearchNamespace, functions: list[OpenAINamespaceFunction]
) -> OpenAINamespaceTool:
    """An OpenAI namespace of the search data with ``functions``."""
    return {"type": "namespace", "name": ns.name, "description": ns.description, "tools": functions}


def namespace_function(tool: AgentTool, function: str) -> OpenAINamespaceFunction:
    """The tool as a deferred function of its namespace, named ``function``
    there (as :func:`openai_responses_tool` makes it)."""
    plain = openai_responses_tool(tool)
    return {
        "type": "function",
        "name": function,
        "description": plain.get("description"),
        "parameters": plain["parameters"],
        "strict": plain["strict"],
        "defer_loading": True,
    }


def search_tool_of(namespaces: Sequence[ToolSearchNamespace], default_limit: int) -> AgentTool:
    """The ``search_tools`` function, its description naming the namespaces."""
    listed = "; ".join(
        f"{ns.name} ({ns.description.split(chr(10))[0].strip()})" for ns in namespaces
    )
    parameters = search_parameters(default_limit)
    open_api = {k: v for k, v in parameters.items() if k != "additionalProperties"}
    return AgentTool(
        SEARCH_TOOLS_NAME,
        "Search this API's tools by what they do and load the best matches: a loaded tool "
        f"can be called from the next turn on. Searchable: {listed}.",
        False,
        parameters,
        {"geminiParameters": open_api},
    )


def _request_tools(tool_set: DeferredRequestSet, loaded: Sequence[str]) -> list[AgentTool]:
    """The functions of a Chat Completions or Gemini request: the
    always-loaded tools, ``search_tools``, then the loaded ones."""
    by_name = tool_set.by_name
    loaded_tools = [by_name[n] for n in loaded if n not in tool_set.always and n in by_name]
    return [*tool_set.always_tools, tool_set.search_tool, *loaded_tools]


def _namespace_tools(tool_set: DeferredRequestSet) -> list[OpenAINamespaceTool]:
    """The namespaces with their deferred functions (always-loaded ones out)."""
    out = []
    for ns in tool_set.namespaces:
        functions = [
            namespace_function(tool_set.by_name[f.tool], f.function)
            for f in ns.tools
            if f.tool not in tool_set.always
        ]
        if functions:
            out.append(namespace_tool(ns, functions))
    return out


def _check_loaded_request(count: int, limit: int, what: str, provider: str) -> None:
    """A Chat Completions or Gemini request over its provider's limit: the
    loaded tools make it, so the fix is a lower ``max_loaded`` too."""
    if count > limit:
        raise ValueError(
            f"{count} {what} in one request: {provider} takes at most {limit}; "
            "send a subset of the tools, or lower max_loaded"
        )


def _anthropic_search_tool(
    mode: str,
) -> AnthropicToolSearchBm25Tool | AnthropicToolSearchRegexTool | None:
    """Anthropic's server search tool for ``mode``; none for ``client``."""
    if mode == "bm25":
        return {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
    if mode == "regex":
        return {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}
    if mode == "client":
        return None
    raise ValueError(f'anthropic: search {quote(str(mode))} is not "bm25", "regex" or "client"')
