"""The names pass (_alias_names.NameIndex) beyond e2e/vectors/aliases/
any-value.json: against the rule written as one pattern (a name standing as a
whole token, the longest at each place, left to right) on generated texts;
names filed under a leading character or many names; the index a restored
state builds."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from test_alias_manager import OPERATIONS

from ai_tools_runtime import AliasManager
from ai_tools_runtime._alias_names import NameIndex


def by_pattern(text: str, names: list[str]) -> str:
    """The rule itself: what the manager did with one alternation pattern."""
    ordered = "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n)))
    pattern = re.compile(f"(?<![A-Za-z0-9_./-])(?:{ordered})(?![A-Za-z0-9_./-])")
    return pattern.sub(lambda m: f"<{names.index(m.group())}>", text)


# Pieces of names and texts that touch, overlap and hold other characters.
PIECES = st.sampled_from(["a", "b", "ops", "/", ".", "-", "1", " ", "é", "(", "x_"])


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(
    names=st.lists(st.lists(PIECES, min_size=1, max_size=4).map("".join), min_size=1, unique=True),
    text=st.lists(PIECES, max_size=30).map("".join),
)
def test_the_index_finds_what_the_rule_says(names: list[str], text: str) -> None:
    index = NameIndex()
    for name in names:
        index.add(name)
    aliases = {name: f"<{i}>" for i, name in enumerate(names)}
    assert index.aliasify(text, aliases) == by_pattern(text, names)


def test_names_holding_other_characters_are_found_by_their_key() -> None:
    index = NameIndex()
    for name in ("(draft) ops/1", "é/1", "ops/1", "ops/1 (copy)", "a b"):
        index.add(name)
    aliases = {"(draft) ops/1": "D", "é/1": "E", "ops/1": "O", "ops/1 (copy)": "C", "a b": "AB"}
    text = "(draft) ops/1; é/1, xé/1 ops/1 (copy) ops/1 (copy)x a b, ca b"
    assert index.aliasify(text, aliases) == "D; E, xé/1 C O (copy)x AB, ca b"
    assert index.aliasify("nothing here", aliases) == "nothing here"


def test_many_names_each_found() -> None:
    index = NameIndex()
    names = [f"workspaces/w1/operations/{i}" for i in range(1, 121)]
    for name in names:
        index.add(name)
    text = json.dumps([{"name": n, "of": "workspaces/w1"} for n in reversed(names)])
    want = json.dumps([{"name": f"op-{n[25:]}", "of": "workspaces/w1"} for n in reversed(names)])
    assert index.aliasify(text, {n: f"op-{n[25:]}" for n in names}) == want


def test_a_restored_state_indexes_its_names() -> None:
    m = AliasManager(OPERATIONS)
    m.restore_state(
        '{"aliases":{"operation-1":"ops/1","operation-2":"ops/1 (copy)"},'
        '"counters":{"operation":2},"version":1}'
    )
    assert m.aliasify_json("ops/1 (copy) ops/1") == "operation-2 operation-1"
