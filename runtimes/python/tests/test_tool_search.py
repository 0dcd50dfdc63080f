"""Tool search: define_tool_search's lazy decoding and its refusals, and
rank_tools against the shared vectors e2e/vectors/tool-search/ranking.json
(scores compared exactly, as parsed doubles) and a small index by hand."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import VECTORS
from tool_search_fixture import build_index, search_data

from ai_tools_runtime import ToolHit, ToolSearch, define_tool_search, rank_tools
from ai_tools_runtime._tool_search import tokenize_query

RANKING = VECTORS / "tool-search" / "ranking.json"


def _index(docs: dict[str, list[str]], **extra: Any) -> dict[str, Any]:
    return build_index(docs, ["a", "the"], {"remove": ["delete"], **extra})


DOCS = {
    "links_create": ["links", "create", "link", "target", "url"],
    "links_delete": ["links", "delete", "link"],
    "links_get": ["links", "get", "link"],
    "themes_delete": ["themes", "delete", "theme"],
}


def _search(index: dict[str, Any] | None = None) -> ToolSearch:
    # The fixture's namespaces; the index of DOCS.
    return search_data(index=index if index is not None else _index(DOCS))


def test_tokenize_query_splits_as_the_generator() -> None:
    assert tokenize_query("listInstances HTTPServer snake_case v1 IPv6") == [
        "list",
        "instances",
        "http",
        "server",
        "snake",
        "case",
        "v1",
        "i",
        "pv6",
    ]
    assert tokenize_query("café—déjà vu  ") == ["caf", "d", "j", "vu"]
    assert tokenize_query("") == []


def test_rank_tools_scores_and_orders() -> None:
    search = _search()
    hits = rank_tools(search, "Remove the link")
    # remove → delete (query terms); "the" is a stop word; link is in 3 documents.
    assert [h.name for h in hits] == ["links_delete", "themes_delete", "links_get", "links_create"]
    index = search.index
    delete_idf, link_idf = index.idf["delete"], index.idf["link"]

    def part(idf: float, tf: int, doc: int) -> float:
        return idf * (tf * (1.2 + 1)) / (tf + index.norms[doc])

    assert hits[0].score == part(delete_idf, 1, 1) + part(link_idf, 1, 1)
    assert hits[1].score == part(delete_idf, 1, 3)
    assert rank_tools(search, "remove link", 1) == [hits[0]]


def test_rank_tools_nothing_to_find() -> None:
    search = _search()
    for query in ("", "the a", "unknown words", "???"):
        assert rank_tools(search, query) == [], query


def test_rank_tools_ties_by_name_bytes() -> None:
    search = _search()
    hits = rank_tools(search, "delete delete DELETE", 5)
    assert [h.name for h in hits] == ["links_delete", "themes_delete"]
    # Same length, same tf: equal scores, name bytes decide.
    assert hits[0].score == hits[1].score


@pytest.mark.parametrize("limit", [0, -1, True, 1.5])
def test_rank_tools_refuses_a_bad_limit(limit: Any) -> None:
    with pytest.raises(ValueError, match="limit"):
        rank_tools(_search(), "link", limit)


def test_define_tool_search_decodes_on_first_use() -> None:
    search = define_tool_search("not json")  # nothing decoded yet
    with pytest.raises(ValueError, match="not JSON"):
        rank_tools(search, "link")
    good = _search()
    assert [ns.name for ns in good.namespaces] == ["LinkService", "UserService"]
    assert good.tool_of("LinkService", "GetLink") == "links_get"
    assert good.tool_of("UserService", "GetLink") is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 3}, "version 3 is not 2"),
        ({"norms": [1.0]}, "1 norms for 4 names"),
        ({"postings": {"x": [[9, 1]]}, "idf": {"x": 1.0}}, "posting"),
        ({"postings": {"x": [[0, 1]]}}, 'term "x" has postings but no idf'),
    ],
)
def test_define_tool_search_refuses_broken_data(change: dict[str, Any], message: str) -> None:
    search = _search({**_index(DOCS), **change})
    with pytest.raises(ValueError, match=message):
        search.index  # noqa: B018


def test_ranking_vectors() -> None:
    vectors = json.loads(RANKING.read_text(encoding="utf-8"))
    checked = 0
    for case in vectors["cases"]:
        # The vectors hold the index alone: wrap it as a module's data.
        data = '{"version":1,"namespaces":[],"index":' + case["index"] + "}"
        search = define_tool_search(data)
        for q in case["queries"]:
            where = f"{case['name']}: {q['query']!r} limit {q['limit']}"
            if "error" in q:
                with pytest.raises(ValueError) as caught:
                    rank_tools(search, q["query"], q["limit"])
                assert str(caught.value) == q["error"], where
            else:
                got = rank_tools(search, q["query"], q["limit"])
                want = [ToolHit(h["name"], h["score"]) for h in q["expected"]]
                assert got == want, where
            checked += 1
    assert checked >= 60, checked
