"""Tool search (docs/tool-search.md): the data a generated module declares
with ``tool_search=true`` (namespaces and a BM25 index built by the
generator), and the one query pipeline every runtime runs on it."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ._json import quote

__all__ = [
    "ToolHit",
    "ToolSearch",
    "ToolSearchFunction",
    "ToolSearchIndex",
    "ToolSearchNamespace",
    "define_tool_search",
    "rank_tools",
    "tokenize_query",
]


@dataclass(frozen=True)
class ToolHit:
    """One search result: a tool's name and its BM25 score."""

    name: str
    score: float


@dataclass(frozen=True)
class ToolSearchFunction:
    """A tool inside a namespace: its name, and its function name there
    (the method's name, which an OpenAI namespaced call carries)."""

    tool: str
    function: str


@dataclass(frozen=True)
class ToolSearchNamespace:
    """A group of tools (one gRPC service, or one resource of a big one):
    what a model sees of them before any search."""

    name: str
    description: str
    tools: tuple[ToolSearchFunction, ...]


@dataclass(frozen=True)
class ToolSearchIndex:
    """The BM25 index the generator built (version 2): norms and idf are
    precomputed, so ranking takes no logarithm."""

    k1: float
    b: float
    names: tuple[str, ...]
    norms: tuple[float, ...]
    idf: Mapping[str, float]
    postings: Mapping[str, tuple[tuple[int, int], ...]]
    stop_words: frozenset[str]
    query_terms: Mapping[str, tuple[str, ...]]


class ToolSearch:
    """The tool-search data of a generated module (``TOOL_SEARCH``): its
    namespaces and its index, decoded from JSON text on first use."""

    __slots__ = ("_by_call", "_index", "_namespace_of", "_namespaces", "_text")

    def __init__(self, json_text: str) -> None:
        self._text = json_text
        self._namespaces: tuple[ToolSearchNamespace, ...] | None = None
        self._index: ToolSearchIndex | None = None
        self._by_call: dict[tuple[str, str], str] = {}
        self._namespace_of: dict[str, ToolSearchNamespace] = {}

    @property
    def namespaces(self) -> tuple[ToolSearchNamespace, ...]:
        """The namespaces, in the generated order."""
        if self._namespaces is None:
            self._decode()
        assert self._namespaces is not None
        return self._namespaces

    @property
    def index(self) -> ToolSearchIndex:
        """The BM25 index."""
        if self._index is None:
            self._decode()
        assert self._index is not None
        return self._index

    def namespace_of(self, tool: str) -> ToolSearchNamespace | None:
        """The namespace holding ``tool``, or None."""
        self.namespaces  # noqa: B018 (decodes)
        return self._namespace_of.get(tool)

    def tool_of(self, namespace: str, function: str) -> str | None:
        """The tool an OpenAI namespaced call ``{namespace, name}`` names, or None."""
        self.namespaces  # noqa: B018 (decodes)
        return self._by_call.get((namespace, function))

    def _decode(self) -> None:
        try:
            data = json.loads(self._text)
        except ValueError as err:
            raise _bad("tool search data", f"not JSON ({err})") from err
        top = _object(data, "tool search data")
        _version(top, 1, "tool search data")
        namespaces = tuple(_namespace(n) for n in _array(top, "namespaces", "tool search data"))
        index = _index(_object(top.get("index"), "tool search data: index"))
        by_call: dict[tuple[str, str], str] = {}
        namespace_of: dict[str, ToolSearchNamespace] = {}
        for ns in namespaces:
            for fn in ns.tools:
                by_call[(ns.name, fn.function)] = fn.tool
                namespace_of[fn.tool] = ns
        self._by_call, self._namespace_of = by_call, namespace_of
        self._namespaces, self._index = namespaces, index


def define_tool_search(json_text: str) -> ToolSearch:
    """The tool-search data of a generated module, given as JSON text; it is
    decoded on first use, not when the module is imported."""
    return ToolSearch(json_text)


def _bad(where: str, what: str) -> ValueError:
    return ValueError(
        f"{where}: {what}; regenerate the file with protoc-gen-ai-tools (tool_search=true)"
    )


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(where, "not an object")
    return value


def _array(obj: dict[str, Any], key: str, where: str) -> list[Any]:
    value = obj.get(key)
    if not isinstance(value, list):
        raise _bad(where, f"{quote(key)} is not an array")
    return value


def _string(obj: dict[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise _bad(where, f"{quote(key)} is not a string")
    return value


def _number(obj: dict[str, Any], key: str, where: str) -> float:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _bad(where, f"{quote(key)} is not a number")
    return float(value)


def _version(obj: dict[str, Any], version: int, where: str) -> None:
    if obj.get("version") != version:
        raise _bad(where, f"version {json.dumps(obj.get('version'))} is not {version}")


def _namespace(value: Any) -> ToolSearchNamespace:
    where = "tool search data: a namespace"
    ns = _object(value, where)
    name = _string(ns, "name", where)
    where = f"tool search data: namespace {quote(name)}"
    tools = []
    for t in _array(ns, "tools", where):
        t = _object(t, where)
        tools.append(ToolSearchFunction(_string(t, "tool", where), _string(t, "function", where)))
    return ToolSearchNamespace(name, _string(ns, "description", where), tuple(tools))


def _index(index: dict[str, Any]) -> ToolSearchIndex:
    where = "tool search data: the index"
    _version(index, 2, where)
    names = tuple(_strings(_array(index, "names", where), where))
    norms = tuple(float(n) for n in _array(index, "norms", where))
    if len(norms) != len(names):
        raise _bad(where, f"{len(norms)} norms for {len(names)} names")
    idf = {k: float(v) for k, v in _object(index.get("idf"), where).items()}
    postings: dict[str, tuple[tuple[int, int], ...]] = {}
    for term, pairs in _object(index.get("postings"), where).items():
        if term not in idf:
            raise _bad(where, f"term {quote(term)} has postings but no idf")
        postings[term] = tuple(_posting(p, len(names), where) for p in pairs)
    query_terms = {
        token: tuple(_strings(terms, where))
        for token, terms in _object(index.get("queryTerms"), where).items()
    }
    return ToolSearchIndex(
        k1=_number(index, "k1", where),
        b=_number(index, "b", where),
        names=names,
        norms=norms,
        idf=idf,
        postings=postings,
        stop_words=frozenset(_strings(_array(index, "stopWords", where), where)),
        query_terms=query_terms,
    )


def _strings(values: Any, where: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise _bad(where, "a list of strings holds something else")
    return values


def _posting(pair: Any, documents: int, where: str) -> tuple[int, int]:
    if (
        isinstance(pair, list)
        and len(pair) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
        and 0 <= pair[0] < documents
        and pair[1] > 0
    ):
        return pair[0], pair[1]
    raise _bad(where, f"posting {json.dumps(pair)} is not [document, term frequency]")


_CAMEL: Final = re.compile(r"([a-z0-9])([A-Z])")
_ACRONYM: Final = re.compile(r"([A-Z])([A-Z][a-z])")
_SEPARATORS: Final = re.compile(r"[^A-Za-z0-9]+")


def tokenize_query(text: str) -> list[str]:
    """Step 1 of the query pipeline: the generator's tokenizer without stop
    words. Word boundaries inside camelCase (``listInstances``,
    ``HTTPServer``), every character but an ASCII letter or digit
    separates, tokens ASCII lower-cased."""
    spaced = _ACRONYM.sub(r"\1 \2", _CAMEL.sub(r"\1 \2", text))
    return [word.lower() for word in _SEPARATORS.split(spaced) if word]


def rank_tools(search: ToolSearch, query: str, limit: int = 5) -> list[ToolHit]:
    """The tools of ``search`` that match ``query``, best first, at most
    ``limit`` (docs/tool-search.md, "Search index"). The pipeline is the
    same in Go and TypeScript, so are the scores, to the last bit: the query
    is tokenized, stop words dropped, each token replaced by its query
    terms, and each distinct indexed term, in first-appearance order, adds
    ``idf * (tf * (k1 + 1)) / (tf + norm)`` to the documents holding it.
    Scores of 0 are left out; equal scores are ordered by name bytes."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit {quote(str(limit))}: ask for at least 1 tool")
    index = search.index
    terms: dict[str, None] = {}
    for token in tokenize_query(query):
        if token in index.stop_words:
            continue
        for term in index.query_terms.get(token, (token,)):
            if term in index.postings:
                terms.setdefault(term)
    k1_plus_1 = index.k1 + 1
    scores: dict[int, float] = {}
    for term in terms:
        idf = index.idf[term]
        for doc, tf in index.postings[term]:
            scores[doc] = scores.get(doc, 0.0) + idf * (tf * k1_plus_1) / (tf + index.norms[doc])
    ranked = sorted(
        ((doc, score) for doc, score in scores.items() if score > 0),
        key=lambda hit: (-hit[1], hit[0]),
    )
    return [ToolHit(index.names[doc], score) for doc, score in ranked[:limit]]
