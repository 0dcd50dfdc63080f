"""A search-first tool set (docs/mcp.md, "Search-first tool sets"): the
server lists ``search_tools`` and the always-loaded tools; a search adds the
tools it finds to the list of a connection that can be told of it now, with
``notifications/tools/list_changed`` (stdio or a 2025-11-25 HTTP session; a
2026-07-28 connection while it listens, on its ``subscriptions/listen``
stream). Any other request (stateless HTTP, a 2026-07-28 connection that
does not listen) lists ``call_tool`` too, and ``search_tools`` then answers
with the found tools' input schemas. Listing is a view: a tool that is not
listed is still called directly."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import mcp_types
from mcp.shared.exceptions import MCPError

from .._search_arguments import not_in_search_data
from .._tool_search import ToolSearch, rank_tools
from ._search_first_tools import (
    CALL_TOOL,
    DEFAULT_LIMIT,
    MAX_LIMIT,
    SEARCH_TOOLS,
    call_tool_listing,
    search_arguments,
    search_tool_listing,
)

__all__ = ["SearchFirst", "SearchFirstMode", "SearchFirstTools", "check_search_first"]

_MAX_SESSIONS: Final = 10_000

SearchFirstMode = Literal["list", "call"]
"""How a connection sees the tools found: ``list`` (one that can be told of a
list change now: a 2025-11-25 connection or session, a 2026-07-28 connection
while it listens) adds them to its ``tools/list``; ``call`` (stateless HTTP,
a 2026-07-28 connection that does not listen) gives each with its input
schema, to be called through ``call_tool``."""


@dataclass(frozen=True)
class SearchFirst:
    """The ``search_first`` option of :class:`McpToolServer`: ``search`` is
    the generated module's ``TOOL_SEARCH``; ``always_loaded`` are tools
    listed from the start, by their generated names (with a name prefix:
    every registration of the tool; a served tool the data does not hold
    must be listed here; a name no served tool has is refused at the first
    ``tools/list`` or ``search_tools``); ``limit`` is how many tools a search
    finds when the model gives no ``limit`` (1 to 20)."""

    search: ToolSearch
    always_loaded: Sequence[str] = ()
    limit: int = DEFAULT_LIMIT


def check_search_first(option: SearchFirst) -> None:
    """A ``ValueError`` for a ``limit`` that is not a whole number from 1 to
    20, or an always-loaded name given twice."""
    limit = option.limit
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise ValueError(
            f"search_first.limit {limit!r} is not a whole number from 1 to {MAX_LIMIT}: "
            f"leave it out for {DEFAULT_LIMIT}"
        )
    seen: set[str] = set()
    for name in option.always_loaded:
        if name in seen:
            raise ValueError(
                f"search_first.always_loaded: {json.dumps(name)} is given twice: "
                "give each tool once"
            )
        seen.add(name)


@dataclass
class _Served:
    """The listings of the tools served, by generated name, in registration
    order."""

    by_tool: dict[str, list[mcp_types.Tool]] = field(default_factory=dict)


class SearchFirstTools:
    """The search-first view of one server: what each connection lists, and
    its searches. The tools found join a connection's list in the order
    found, each once, never reordered (a client's prompt cache survives)."""

    def __init__(self, option: SearchFirst) -> None:
        check_search_first(option)
        self.option = option
        self._option = option
        self._served = _Served()
        self._absent = next(iter(option.always_loaded), None)
        self._listings: dict[SearchFirstMode, mcp_types.Tool] = {}
        self._total = sum(len(ns.tools) for ns in option.search.namespaces)
        self._known = {t.tool for ns in option.search.namespaces for t in ns.tools} | set(
            option.always_loaded
        )
        self._sessions: OrderedDict[str, list[mcp_types.Tool]] = OrderedDict()

    def set_tools(self, tools: Sequence[tuple[str, mcp_types.Tool]]) -> None:
        """The tools served, as (generated name, listing), in registration
        order."""
        served = _Served()
        for tool, listed in tools:
            served.by_tool.setdefault(tool, []).append(listed)
        self._served = served
        self._absent = next(
            (n for n in self._option.always_loaded if n not in served.by_tool), None
        )
        groups = [
            ns
            for ns in self._option.search.namespaces
            if any(t.tool in served.by_tool for t in ns.tools)
        ]
        self._listings = {
            mode: search_tool_listing(mode, groups, self._option.limit) for mode in ("list", "call")
        }

    @property
    def _always(self) -> list[mcp_types.Tool]:
        return [
            t for name in self._option.always_loaded for t in self._served.by_tool.get(name, [])
        ]

    def loaded(self, session: str) -> list[mcp_types.Tool]:
        """The tools an HTTP session's searches loaded (made on first use;
        the oldest of more than 10,000 sessions are forgotten: mcp 2.3.0
        tells no one when a session ends)."""
        found = self._sessions.pop(session, None)
        if found is None:
            found = []
        self._sessions[session] = found
        while len(self._sessions) > _MAX_SESSIONS:
            self._sessions.popitem(last=False)
        return found

    def listing(self, mode: SearchFirstMode, loaded: list[mcp_types.Tool]) -> list[mcp_types.Tool]:
        """A connection's ``tools/list``: ``search_tools``, ``call_tool`` in
        ``call`` mode, the always-loaded tools, then (``list`` mode) those
        its searches loaded."""
        self._check_always()
        if mode == "call":
            return [self._listings[mode], call_tool_listing(), *self._always]
        return [self._listings[mode], *self._always, *loaded]

    def search(
        self, mode: SearchFirstMode, loaded: list[mcp_types.Tool], args: dict[str, Any]
    ) -> tuple[mcp_types.CallToolResult, bool]:
        """A ``search_tools`` call: its result, and whether tools joined
        ``loaded`` (then say so with ``notifications/tools/list_changed``)."""
        self._check_always()
        taken = search_arguments(args, self._option.limit)
        if isinstance(taken, str):
            error = mcp_types.CallToolResult(
                content=[mcp_types.TextContent(text=taken)], is_error=True
            )
            return error, False
        query, limit = taken
        found = self._find(query, limit)
        added = False
        if mode == "list":
            always = self._always
            for t in found:
                if all(t is not have for have in loaded) and all(t is not a for a in always):
                    loaded.append(t)
                    added = True
        return _search_result(found, mode), added

    def _find(self, query: str, limit: int) -> list[mcp_types.Tool]:
        """The served tools ``query`` finds, best first, at most ``limit``:
        the data's ranking kept to the tools this server serves."""
        found: list[mcp_types.Tool] = []
        for hit in rank_tools(self._option.search, query, max(self._total, 1)):
            for listed in self._served.by_tool.get(hit.name, []):
                if len(found) == limit:
                    return found
                found.append(listed)
        return found

    def check_served(self, tool: str) -> None:
        """A ``ValueError`` for a served tool (by generated name) that neither
        the data nor ``always_loaded`` names: no list would show it, no
        search find it."""
        if tool not in self._known:
            raise ValueError(not_in_search_data(tool))

    def _check_always(self) -> None:
        """An ``MCPError`` for an always-loaded name no served tool has (a
        mistyped name would list nothing): checked at ``tools/list`` and
        ``search_tools``, when every registration is known."""
        if self._absent is not None:
            raise MCPError(
                mcp_types.INTERNAL_ERROR,
                f"always-loaded tool {json.dumps(self._absent)} is not served here: check its "
                "name (the generated tool names), or drop it from always_loaded",
            )

    @staticmethod
    def reserved(name: str) -> bool:
        """Whether ``name`` is a search-first tool's."""
        return name in (SEARCH_TOOLS, CALL_TOOL)


def _search_result(
    found: Sequence[mcp_types.Tool], mode: SearchFirstMode
) -> mcp_types.CallToolResult:
    """``{"tools":[{"name","description"}]}``, each with its ``inputSchema``
    in ``call`` mode, as text and as ``structuredContent``."""
    tools: list[dict[str, Any]] = []
    for t in found:
        item: dict[str, Any] = {"name": t.name, "description": t.description}
        if mode == "call":
            item["inputSchema"] = t.input_schema
        tools.append(item)
    value = {"tools": tools}
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return mcp_types.CallToolResult(
        content=[mcp_types.TextContent(text=text)], structured_content=value
    )
