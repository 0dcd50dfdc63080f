"""Tool-search data for the tests, as a generated module declares it: a few
tools of two services, their namespaces, and a version 2 index built by the
formulas of docs/tool-search.md (the runtime only reads it)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from ai_tools_runtime import AgentTool, ToolSearch, define_tool_search
from ai_tools_runtime._tool_search import tokenize_query

STOP_WORDS = ["a", "by", "its", "of", "the", "to"]


def tool(name: str, description: str, field: str | None = None) -> AgentTool:
    """A tool as the generator writes it: one required string field (or
    none), and its provider forms."""
    properties: dict[str, Any] = {} if field is None else {field: {"type": "string"}}
    required = [] if field is None else [field]
    return AgentTool(
        name,
        description,
        True,
        {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        },
        {
            "anthropicStrictCounts": {"optional": 0, "unions": 0},
            "geminiParameters": {"type": "object", "properties": properties, "required": required},
        },
    )


TOOLS: tuple[AgentTool, ...] = (
    tool("links_create", "Create a short link to a URL.", "url"),
    tool("links_get", "Get a short link by its id.", "link_id"),
    tool("links_delete", "Delete a short link.", "link_id"),
    tool("links_list", "List the short links of a user.", "user_id"),
    tool("users_get", "Get a user by id.", "user_id"),
)

NAMESPACES: list[dict[str, Any]] = [
    {
        "name": "LinkService",
        "description": (
            "Short links: create, read, list, delete.\n"
            "Functions: CreateLink, GetLink, DeleteLink, ListLinks"
        ),
        "tools": [
            {"tool": "links_create", "function": "CreateLink"},
            {"tool": "links_get", "function": "GetLink"},
            {"tool": "links_delete", "function": "DeleteLink"},
            {"tool": "links_list", "function": "ListLinks"},
        ],
    },
    {
        "name": "UserService",
        "description": "Users.\nFunctions: GetUser",
        "tools": [{"tool": "users_get", "function": "GetUser"}],
    },
]


def build_index(
    docs: dict[str, list[str]],
    stop_words: Sequence[str] = STOP_WORDS,
    query_terms: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """A version 2 index (BM25 k1 1.2, b 0.75) of documents given as terms."""
    k1, b = 1.2, 0.75
    names = sorted(docs, key=lambda n: n.encode())
    lengths = [len(docs[n]) for n in names]
    average = sum(lengths) / len(names)
    postings: dict[str, list[list[int]]] = {}
    for doc, name in enumerate(names):
        counts: dict[str, int] = {}
        for term in docs[name]:
            counts[term] = counts.get(term, 0) + 1
        for term, tf in counts.items():
            postings.setdefault(term, []).append([doc, tf])
    n = len(names)
    idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in postings.items()}
    return {
        "version": 2,
        "k1": k1,
        "b": b,
        "names": names,
        "norms": [k1 * (1 - b + b * length / average) for length in lengths],
        "idf": dict(sorted(idf.items())),
        "postings": dict(sorted(postings.items())),
        "stopWords": list(stop_words),
        "queryTerms": query_terms if query_terms is not None else {},
    }


def tools_index(tools: Sequence[AgentTool]) -> dict[str, Any]:
    """The index of ``tools`` (name and description as the text);
    ``remove`` → ``delete`` and ``links`` → ``link`` in its query terms."""
    docs = {
        t.name: [w for w in tokenize_query(f"{t.name} {t.description}") if w not in STOP_WORDS]
        for t in tools
    }
    return build_index(docs, query_terms={"links": ["link"], "remove": ["delete"]})


def search_data(
    namespaces: Sequence[dict[str, Any]] = NAMESPACES,
    tools: Sequence[AgentTool] = TOOLS,
    index: dict[str, Any] | None = None,
) -> ToolSearch:
    """The fixture's tool-search data, as a generated module defines it."""
    data = {
        "version": 1,
        "namespaces": list(namespaces),
        "index": index if index is not None else tools_index(tools),
    }
    return define_tool_search(json.dumps(data))
