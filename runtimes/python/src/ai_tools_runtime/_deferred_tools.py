"""Deferred tools (docs/tool-search.md): a big API's tools sent to a model
only once a search found them, for every provider, with each
conversation's loaded tools kept in its conversation store."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol, TypeVar

import grpc

from ._agent_tool import AgentTool
from ._conversation_executor import store_failure
from ._conversation_store import ConversationStore
from ._deferred_providers import (
    DeferredRequestSet,
    anthropic_request_tools,
    gemini_request_tool,
    namespace_function,
    namespace_tool,
    openai_chat_request_tools,
    openai_responses_request_tools,
    search_tool_of,
)
from ._json import quote
from ._provider_limits import OPENAI_MAX_TOOLS
from ._search_arguments import (
    DEFAULT_SEARCH_LIMIT,
    MAX_SEARCH_LIMIT,
    SEARCH_TOOLS_NAME,
    not_in_search_data,
    parse_search_arguments,
)
from ._tool_error import ToolError
from ._tool_search import ToolSearch, ToolSearchNamespace, rank_tools
from .providers import (
    AnthropicRequestTool,
    AnthropicToolResultBlock,
    GeminiTool,
    OpenAIChatTool,
    OpenAINamespaceTool,
    OpenAIResponsesRequestTool,
    OpenAIToolSearchOutput,
)

__all__ = [
    "DeferredTools",
    "ToolSearchOutcome",
]

T = TypeVar("T")


@dataclass(frozen=True)
class ToolSearchOutcome:
    """What :meth:`DeferredTools.search` found and what is loaded now."""

    found: list[str]
    """The tools the search found, best first (loaded before or not)."""
    loaded: list[str]
    """The conversation's loaded tools after the search, in load order."""


class _ToolLoadingStore(Protocol):
    async def load(self, handle: str) -> tuple[str, str]: ...

    async def load_tools(self, handle: str, epoch: str, names: Sequence[str]) -> list[str]: ...

    async def loaded_tools(self, handle: str) -> list[str]: ...


# Anthropic's answer when a search found nothing deferred.
_NOTHING_FOUND: Final = "no tool found; search again with other words"


@dataclass(frozen=True)
class _Placement:
    namespace: ToolSearchNamespace
    function: str


class DeferredTools:
    """A generated module's tools for requests that load tools on demand
    (docs/tool-search.md): per provider, the request's tools, and the
    answers to the model's search calls. The loaded tools of a conversation
    live in the conversation store, in load order, never reordered, so any
    replica builds the same request.

    ``tools`` and ``search`` are the module's ``ALL_TOOLS`` and
    ``TOOL_SEARCH`` (generated with ``tool_search=true``); ``store`` is the
    :class:`ConversationExecutor`'s (a handle is one its ``start()``
    returned) and needs ``load_tools`` and ``loaded_tools`` (the memory and
    Redis stores have them). ``always_loaded`` names tools sent as ordinary
    tools in every request, never deferred; ``limit`` is how many tools a
    search finds when the model does not say (5, at most 20);
    ``max_loaded`` is the most tools a conversation's searches may load
    (always-loaded ones aside; a search that would load more loads nothing
    and raises :class:`ToolError` ``conversation-full`` for the model), by
    default 128 less the always-loaded tools less 1, what OpenAI Chat
    Completions takes with ``search_tools`` (1 when that is less), at least
    1 (docs/tool-search.md, "Limits"). Options that cannot work raise
    ValueError here."""

    def __init__(
        self,
        tools: Sequence[AgentTool],
        search: ToolSearch,
        store: ConversationStore,
        *,
        always_loaded: Sequence[str] = (),
        limit: int = DEFAULT_SEARCH_LIMIT,
        max_loaded: int | None = None,
    ) -> None:
        self._store = _tool_loading_of(store)
        self._limit = _checked_limit_option(limit)
        self._tools = list(tools)
        self._by_name = _tool_map(self._tools)
        self._always = _always_loaded_of(always_loaded, self._by_name)
        self._max_loaded = _checked_max_loaded(max_loaded, len(self._always))
        self._search = search
        self._placements = _placements_of(search.namespaces, self._by_name, self._always)
        self._by_pair: dict[str, dict[str, str]] = {}
        for tool, p in self._placements.items():
            self._by_pair.setdefault(p.namespace.name, {})[p.function] = tool
        self._set = DeferredRequestSet(
            tools=self._tools,
            by_name=self._by_name,
            always=self._always,
            always_tools=[self._by_name[n] for n in self._always],
            namespaces=search.namespaces,
            default_limit=self._limit,
            search_tool=search_tool_of(search.namespaces, self._limit),
        )

    @property
    def always_loaded(self) -> list[str]:
        """The tools sent in every request, in the order given."""
        return list(self._always)

    async def search(self, handle: str, query: str, limit: int | None = None) -> ToolSearchOutcome:
        """Rank the tools for ``query`` (at most ``limit``, the creation's
        by default) and append the found ones not yet loaded (always-loaded
        ones aside) to the conversation's loaded tools, atomically. Bad
        arguments (a model's mistake) raise :class:`ToolError`
        (``invalid-arguments``) to show the model, and so does a search that
        would load more than ``max_loaded`` tools (``conversation-full``,
        nothing loaded); store failures raise ``conversation-expired`` or
        ``store-unavailable``."""
        args = parse_search_arguments({"query": query, "limit": limit})
        hits = rank_tools(self._search, args.query, args.limit or self._limit)
        found = [h.name for h in hits if h.name in self._by_name]
        fresh = [n for n in found if n not in self._always]
        return ToolSearchOutcome(found, await self._load_names(handle, fresh))

    async def loaded(self, handle: str) -> list[str]:
        """The conversation's loaded tools, in load order."""
        return await _store_call(handle, lambda: self._store.loaded_tools(handle))

    async def openai_responses(
        self, handle: str, *, search: Literal["hosted", "client"]
    ) -> list[OpenAIResponsesRequestTool]:
        """The ``tools`` of an OpenAI Responses request: the always-loaded
        tools, each namespace with its other functions deferred
        (``defer_loading: true``), then ``tool_search`` (hosted, or
        ``search="client"``: answered with :meth:`openai_tool_search_output`).
        The same every turn (OpenAI keeps what a search loaded in the
        conversation's items); more than 128 top-level items raise
        ValueError. ``handle`` is not read (the same signature as the
        others)."""
        return openai_responses_request_tools(self._set, search)

    async def openai_chat(self, handle: str) -> list[OpenAIChatTool]:
        """The ``tools`` of an OpenAI Chat Completions request: the
        always-loaded tools, ``search_tools``, then the loaded ones in load
        order (a load only appends: the prefix a provider caches stays the
        same); more than 128 raise ValueError."""
        return openai_chat_request_tools(self._set, await self.loaded(handle))

    async def gemini(
        self,
        handle: str,
        *,
        form: Literal["parameters_json_schema", "parameters"] = "parameters_json_schema",
    ) -> GeminiTool:
        """The Gemini tool of a request: the same functions as
        :meth:`openai_chat`; more than 512 raise ValueError."""
        return gemini_request_tool(self._set, await self.loaded(handle), form)

    async def anthropic(
        self,
        handle: str,
        *,
        search: Literal["bm25", "regex", "client"],
        strict: bool = False,
    ) -> list[AnthropicRequestTool]:
        """The ``tools`` of an Anthropic request: the always-loaded tools,
        every other tool with ``defer_loading: true``, then the search tool
        (Anthropic's BM25 or regex one, or ``search="client"``:
        ``search_tools``, answered with :meth:`anthropic_tool_references`).
        The same every turn (Anthropic expands the ``tool_reference`` blocks
        of the history); more than 10,000 raise ValueError. ``strict=True``
        sends ``strict: true`` for the strict tools: every strict tool of the
        request counts toward Anthropic's limits, deferred or not."""
        return anthropic_request_tools(self._set, search, strict)

    def openai_tool_search_output(
        self, call_id: str, found: Sequence[str]
    ) -> OpenAIToolSearchOutput:
        """The input item answering OpenAI's client ``tool_search_call`` of
        ``call_id``: the found functions grouped in their namespaces
        (always-loaded tools left out: the model has them)."""
        groups: dict[str, OpenAINamespaceTool] = {}
        for tool in self._known(found):
            p = self._placements.get(tool.name)
            if p is None or tool.name in self._always:
                continue
            group = groups.get(p.namespace.name)
            if group is None:
                group = namespace_tool(p.namespace, [])
                groups[p.namespace.name] = group
            if not any(f["name"] == p.function for f in group["tools"]):
                group["tools"].append(namespace_function(tool, p.function))
        return {
            "type": "tool_search_output",
            "call_id": call_id,
            "execution": "client",
            "status": "completed",
            "tools": list(groups.values()),
        }

    def anthropic_tool_references(self, found: Sequence[str]) -> list[AnthropicToolResultBlock]:
        """The content of the ``tool_result`` answering Anthropic's
        ``search_tools`` call: a ``tool_reference`` per found deferred tool,
        or one text block when there is none (saying so, or naming the found
        tools when they are all always loaded)."""
        tools = self._known(found)
        refs: list[AnthropicToolResultBlock] = [
            {"type": "tool_reference", "tool_name": t.name}
            for t in tools
            if t.name not in self._always
        ]
        if refs:
            return refs
        if tools:
            names = ", ".join(t.name for t in tools)
            return [{"type": "text", "text": f"the tools found are already loaded: {names}"}]
        return [{"type": "text", "text": _NOTHING_FOUND}]

    def search_tools_result(self, found: Sequence[str]) -> str:
        """The result text of a ``search_tools`` call (Chat Completions,
        Gemini): ``{"tools":[{"name","description"}]}``, found order."""
        tools = [{"name": t.name, "description": t.description} for t in self._known(found)]
        return json.dumps({"tools": tools}, ensure_ascii=False, separators=(",", ":"))

    def tool_of(self, namespace: str, function: str) -> str:
        """The tool an OpenAI namespaced function call names (its
        ``namespace`` and ``name``); an unknown pair raises
        :class:`ToolError` (``unknown-tool``) naming both, to show the
        model."""
        functions = self._by_pair.get(namespace)
        tool = None if functions is None else functions.get(function)
        if tool is not None:
            return tool
        message = (
            f"unknown namespace {quote(namespace)} (function {quote(function)}): "
            "call a function a tool search loaded, with its namespace"
            if functions is None
            else f"no function {quote(function)} in namespace {quote(namespace)}: "
            "call a function a tool search loaded"
        )
        raise ToolError(message, reason="unknown-tool", code=grpc.StatusCode.NOT_FOUND)

    async def _load_names(self, handle: str, names: list[str]) -> list[str]:
        """Append names to the loaded tools (the epoch read first); the whole
        list. Names that would bring the list over ``max_loaded`` load none
        of them: a ``conversation-full`` ToolError for the model."""
        store = self._store
        now = await _store_call(handle, lambda: store.loaded_tools(handle))
        count = len(now) + sum(1 for n in names if n not in now)
        if count == len(now):
            return now
        if count > self._max_loaded:
            raise ToolError(
                f"{count} tools would be loaded, at most {self._max_loaded}: "
                "call one of the loaded tools, or start a new conversation",
                reason="conversation-full",
                code=grpc.StatusCode.RESOURCE_EXHAUSTED,
            )
        epoch, _ = await _store_call(handle, lambda: store.load(handle))
        return await _store_call(handle, lambda: store.load_tools(handle, epoch, names))

    def _known(self, found: Sequence[str]) -> list[AgentTool]:
        out = []
        for name in found:
            tool = self._by_name.get(name)
            if tool is None:
                raise ValueError(f"unknown tool {quote(name)}: pass names a search found")
            out.append(tool)
        return out


async def _store_call(handle: str, op: Callable[[], Awaitable[T]]) -> T:
    """A store operation; what it raises is a :class:`ToolError`
    (``conversation-expired``, ``store-unavailable``, …)."""
    try:
        return await op()
    except ToolError:
        raise
    except Exception as err:
        raise store_failure(handle, err) from err


def _tool_loading_of(store: ConversationStore) -> _ToolLoadingStore:
    """The store, when it has both loaded-tools operations; else ValueError
    naming what is missing (a store written before them)."""
    missing = [
        signature
        for name, signature in (
            ("load_tools", "load_tools(handle, epoch, names)"),
            ("loaded_tools", "loaded_tools(handle)"),
        )
        if not callable(getattr(store, name, None))
    ]
    if missing:
        raise ValueError(
            f"the conversation store cannot keep loaded tools: give it {' and '.join(missing)} "
            '(docs/store.md, "Loaded tools")'
        )
    loading: _ToolLoadingStore = store  # type: ignore[assignment]
    return loading


def _checked_limit_option(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_SEARCH_LIMIT:
        raise ValueError(
            f"limit {quote(str(limit))}: give a whole number from 1 to {MAX_SEARCH_LIMIT}"
        )
    return limit


def _checked_max_loaded(max_loaded: int | None, always: int) -> int:
    if max_loaded is None:
        # What Chat Completions takes: 128 functions, search_tools one of them.
        return max(1, OPENAI_MAX_TOOLS - always - 1)
    if isinstance(max_loaded, bool) or not isinstance(max_loaded, int) or max_loaded < 1:
        raise ValueError(f"max_loaded {quote(str(max_loaded))}: give a whole number of at least 1")
    return max_loaded


def _tool_map(tools: Sequence[AgentTool]) -> dict[str, AgentTool]:
    by_name: dict[str, AgentTool] = {}
    for t in tools:
        if t.name in by_name:
            raise ValueError(
                f"tool {quote(t.name)} is given twice: pass the generated module's ALL_TOOLS"
            )
        if t.name == SEARCH_TOOLS_NAME:
            raise ValueError(
                f"tool {quote(t.name)} has the name of the search function: rename the RPC's tool"
            )
        by_name[t.name] = t
    return by_name


def _always_loaded_of(names: Sequence[str], by_name: Mapping[str, AgentTool]) -> list[str]:
    if isinstance(names, str):
        raise ValueError(f"always_loaded: {quote(names)} is a string: give a list of tool names")
    for name in names:
        if name not in by_name:
            raise ValueError(
                f"always_loaded: unknown tool {quote(name)}: name tools of the generated file"
            )
    return list(dict.fromkeys(names))


def _placements_of(
    namespaces: Sequence[ToolSearchNamespace],
    by_name: Mapping[str, AgentTool],
    always: Sequence[str],
) -> dict[str, _Placement]:
    """Each tool's namespace and function name, checked against the tools."""
    placements: dict[str, _Placement] = {}
    for ns in namespaces:
        for f in ns.tools:
            if f.tool not in by_name:
                raise ValueError(
                    f"tool search data: namespace {quote(ns.name)} names the tool "
                    f"{quote(f.tool)}, which is not given: pass the tools and the "
                    "TOOL_SEARCH of one generated module"
                )
            placements[f.tool] = _Placement(ns, f.function)
    for name in by_name:
        if name not in placements and name not in always:
            raise ValueError(not_in_search_data(name))
    return placements
