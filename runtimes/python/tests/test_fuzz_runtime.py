"""Fuzzing the alias manager, the argument fix-up and the executor with random
JSON (issue 12, point 6; docs/runtime.md is the contract), with Hypothesis.

Under ``pnpm test`` each property runs its kept cases (``@example``) and a
fixed number of generated ones, derandomized: a quick, repeatable regression
test. With ``FUZZ_SECONDS`` set (``pnpm fuzz``), the properties share that many
seconds, each running from fresh seeds until its share is spent."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import time
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from conftest import Servers
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from toolset import ALIASES, METHODS

from ai_tools_runtime import AliasManager, Executor, ToolError

# The methods without their argument tables: strict tools' calls reach the
# fix-up without every field given.
UNCHECKED = [dataclasses.replace(m, arguments=None) for m in METHODS]

SECONDS = float(os.environ.get("FUZZ_SECONDS") or "0")
FUZZING = SECONDS > 0
PROPERTIES = 4

FUZZ = settings(
    max_examples=50 if FUZZING else 60,
    derandomize=not FUZZING,
    deadline=None,  # the machine is shared: time is not a property here
    database=None,  # found cases are kept as @example, not in .hypothesis/
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

POOL = [
    "0b6f3a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
    "11111111-2222-4333-8444-555555555555",
    "AABBCCDD-EEFF-4011-8233-445566778899",
    "deadbeef-dead-beef-dead-beefdeadbeef",
    "00000000-0000-0000-0000-000000000000",
    "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a",
]
PREFIXES = ["acct", "contact", "note", "user", "team-x", "a"]
FIELDS = [
    "labels", "items_by_num", "itemsByNum", "flags", "attrs", "extra", "list", "item",
    "items", "text", "number", "nested", "other_text", "otherText", "note", "values",
    "value_map", "valueMap", "display_name", "displayName", "count", "enabled", "timeout",
    "data", "name", "counts", "payload", "children", "owner_id", "ownerId", "key", "value",
    "id", "account", "accounts", "notes", "contacts", "contactsByRole", "memberIds",
    "primaryContact", "primaryUserId", "tags", "__proto__", "constructor",
]  # fmt: skip
_UUID_RUN = re.compile(
    r"(?<![0-9a-fA-F-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}"
    r"-[0-9a-fA-F]{12}(?![0-9a-fA-F-])"
)

uuids = st.one_of(
    st.sampled_from(POOL), st.uuids().map(str), st.uuids().map(lambda u: str(u).upper())
)
prefixes = st.one_of(st.sampled_from(PREFIXES), st.text(min_size=1, max_size=6))
aliases = st.one_of(
    st.builds(lambda p, n: f"{p}-{n}", prefixes, st.integers(0, 12)),
    st.sampled_from(["acct-01", "acct-", "-1", "acct--1", "user-1.5", "acct-1 "]),
)
texts = st.one_of(
    aliases,
    uuids,
    st.builds(lambda a, u, b: a + u + b, st.text(max_size=3), uuids, st.text(max_size=3)),
    st.text(max_size=8),
    st.sampled_from(
        ["1.5s", "-3s", "YQ==", "_-8", "+/8=", "NaN", "Infinity", "1e3", "42", "true",
         '{"a":1}', "[1,2]", "2026-12-01T05:00:00Z", "__proto__"]
    ),
)  # fmt: skip
keys = st.one_of(st.sampled_from(FIELDS), st.sampled_from(["1", "-7", "true", "x"]), texts)
numbers = st.one_of(
    st.integers().map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(
        ["0", "-0", "1e400", "-1e400", "1E-7", "12345678901234567890", "9007199254740993",
         "2147483648", "-2147483649", "0.0000001", "1.0", "4294967296", "9" * 400]
    ),
)  # fmt: skip


class Num:
    """A JSON number kept as written."""

    def __init__(self, text: str) -> None:
        self.text = text


def write(v: Any) -> str:
    """JSON text of a document; objects are lists of (key, value) entries, so
    keys may repeat and keep their order."""
    if isinstance(v, Num):
        return v.text
    if isinstance(v, tuple):
        return "{" + ",".join(f"{json.dumps(k)}:{write(x)}" for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ",".join(write(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def _objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(st.tuples(keys, children), max_size=5).map(tuple)


docs = st.recursive(
    st.one_of(texts, numbers.map(Num), st.booleans(), st.none()),
    lambda children: st.one_of(st.lists(children, max_size=4), _objects(children)),
    max_leaves=20,
)
objects = _objects(docs)


@st.composite
def json_texts(draw: st.DrawFn) -> str:
    """Mostly JSON objects; sometimes any document, cut text or noise."""
    kind = draw(st.integers(0, 9))
    if kind < 6:
        return write(draw(objects))
    if kind < 7:
        return write(draw(docs))
    if kind < 9:
        text = write(draw(objects))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        return text[:at] + draw(st.text(max_size=2)) + text[at + draw(st.integers(0, 2)) :]
    return draw(st.text(max_size=20))


registrations = st.lists(st.tuples(prefixes, uuids), max_size=12)


def uuids_in(text: str) -> list[str]:
    return _UUID_RUN.findall(text)


def manager(regs: list[tuple[str, str]]) -> AliasManager:
    m = AliasManager(ALIASES)
    for p, u in regs:
        m.register(p, u)
    return m


def state_of(m: AliasManager) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(m.export_state())
    return state


def registered(m: AliasManager) -> set[str]:
    return set(state_of(m)["aliases"].values())


def canonical(text: str) -> str:
    """The text as resolve re-encodes it, nothing resolved."""
    return AliasManager(ALIASES).resolve_json(text, checked=False)


def aliases_plain(m: AliasManager) -> bool:
    """Whether every registered alias is written by the JSON encoder as itself
    and holds no UUID: then aliasify undoes resolve."""
    return all(
        json.dumps(a, ensure_ascii=False) == f'"{a}"' and not uuids_in(a)
        for a in state_of(m)["aliases"]
    )


def expect_consistent(m: AliasManager) -> None:
    """One alias per UUID; per prefix exactly the aliases 1..counter."""
    state = state_of(m)
    values = list(state["aliases"].values())
    assert len(set(values)) == len(values)
    want = sorted(f"{p}-{i}" for p, n in state["counters"].items() for i in range(1, n + 1))
    assert sorted(state["aliases"]) == want


def run(prop: Callable[[], None], name: str, counter: list[int]) -> None:
    """Run a property once (test) or until its share of FUZZ_SECONDS is spent."""
    if not FUZZING:
        prop()
        return
    end = time.monotonic() + SECONDS / PROPERTIES
    while time.monotonic() < end:
        prop()
    print(f"fuzz {name}: {counter[0]} cases")


def test_fuzz_resolve() -> None:
    """Resolve fails only with unknown-alias, invents no UUID, and aliasify
    after resolve gives the input back (as resolve re-encodes it)."""
    count = [0]

    @FUZZ
    @given(registrations, json_texts())
    @example([("acct", POOL[0])], f'{{"a":"acct-1","b":"{POOL[0]}"}}')
    @example([("acct", POOL[0])], '{"a":["acct-1", "acct-2"]}')
    @example([], '{"x":"acct-01"')
    def prop(regs: list[tuple[str, str]], text: str) -> None:
        count[0] += 1
        m = manager(regs)
        known = registered(m)
        canon = canonical(text)
        unchecked = m.resolve_json(text, checked=False)
        given_uuids = set(uuids_in(canon))
        for u in uuids_in(unchecked):
            assert u in given_uuids or u in known
        try:
            resolved = m.resolve_json(text)
        except ToolError as err:
            assert err.reason == "unknown-alias"
            assert str(err).startswith('unknown alias "')
            return
        assert resolved == unchecked
        if aliases_plain(m):
            if m.aliasify_json(canon) == canon:
                assert m.aliasify_json(resolved) == canon
            assert not set(uuids_in(m.aliasify_json(text))) & known

    run(prop, "resolve", count)


def test_fuzz_registration() -> None:
    """Registration never raises, numbers without gaps, registers only UUIDs it
    was given, and its state survives export and restore."""
    count = [0]
    tools = [*sorted(ALIASES.response_aliases.tools), "no_such_tool"]
    ops = st.one_of(
        st.tuples(st.just("register"), prefixes, uuids),
        st.tuples(st.just("response"), st.sampled_from(tools), json_texts()),
    )

    @FUZZ
    @given(st.lists(ops, max_size=8))
    def prop(steps: list[tuple[str, str, str]]) -> None:
        count[0] += 1
        m = AliasManager(ALIASES)
        offered: set[str] = set()
        for kind, a, b in steps:
            if kind == "register":
                offered.add(b)
                before = {u: al for al, u in state_of(m)["aliases"].items()}
                got = m.register(a, b)
                assert got == before.get(b, got)
                assert m.resolve_alias(got) == b
            else:
                offered.update(uuids_in(canonical(b)))
                m.register_response(a, b)
            expect_consistent(m)
        assert registered(m) <= offered
        copy = AliasManager(ALIASES)
        copy.restore_state(m.export_state())
        assert copy.export_state() == m.export_state()

    run(prop, "registration", count)


@st.composite
def states(draw: st.DrawFn) -> str | bytes:
    """An exported state mutated field by field, any JSON, or a cut export."""
    kind = draw(st.integers(0, 5))
    if kind == 4:
        return draw(json_texts())
    exported = manager(draw(registrations)).export_state()
    if kind == 5:
        at = draw(st.integers(0, len(exported) - 1))
        return (exported[:at] + draw(st.text(max_size=2)) + exported[at + 1 :]).encode(
            "utf-8", "surrogatepass"
        )
    state: dict[str, Any] = json.loads(exported)
    values = st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=4)),
        lambda c: st.one_of(st.lists(c, max_size=3), st.dictionaries(st.text(max_size=3), c)),
        max_leaves=5,
    )
    for _ in range(draw(st.integers(1, 3))):
        what = draw(st.sampled_from(["alias", "alias-value", "counter", "version", "drop", "key"]))
        part = (
            state.setdefault("aliases" if what.startswith("alias") else "counters", {})
            if what in ("alias", "alias-value", "counter")
            else state
        )
        if not isinstance(part, dict):
            continue
        if what == "alias":
            part[draw(st.text(max_size=8))] = draw(uuids)
        elif what == "alias-value":
            part[f"{draw(prefixes)}-3"] = draw(st.one_of(st.text(), uuids))
        elif what == "counter":
            part[draw(prefixes)] = draw(values)
        elif what == "version":
            state["version"] = draw(values)
        elif what == "drop":
            state.pop(draw(st.sampled_from(["aliases", "counters", "version"])), None)
        else:
            state[draw(st.sampled_from(["Aliases", "VERSION", "extra"]))] = draw(values)
    return json.dumps(state)


def test_fuzz_restore() -> None:
    """restore_state takes a consistent state or refuses it with ValueError,
    leaving the state as it was; a restored state never reissues an alias."""
    count = [0]

    @FUZZ
    @given(registrations, states())
    @example([], f'{{"aliases":{{"acct-1":"{POOL[0]}"}},"counters":{{"acct":0}},"version":1}}')
    @example([], '{"version":1.0}')
    @example([], "null")
    @example([], b"\xff")
    def prop(regs: list[tuple[str, str]], state: str | bytes) -> None:
        count[0] += 1
        m = manager(regs)
        before = m.export_state()
        try:
            m.restore_state(state)
        except ValueError as err:
            assert str(err).startswith("restore alias state: ")
            assert m.export_state() == before
            return
        restored = state_of(m)
        values = list(restored["aliases"].values())
        assert len(set(values)) == len(values)
        for a in restored["aliases"]:
            p, _, n = a.rpartition("-")
            assert restored["counters"].get(p, 0) >= int(n)
        fresh = "ffffffff-ffff-4fff-bfff-ffffffffffff"
        if fresh in values:
            return
        for p in ["acct", *restored["counters"]]:
            copy = AliasManager(ALIASES)
            copy.restore_state(m.export_state())
            assert copy.register(p, fresh) not in restored["aliases"]

    run(prop, "restore", count)


def test_fuzz_execute(servers: Servers) -> None:
    """A call (against the echo server on a real socket) returns a result or a
    ToolError of a documented reason, shows no registered UUID and none it was
    not given."""
    count = [0]
    with grpc.insecure_channel(servers.target) as channel:

        @FUZZ
        @given(
            registrations, st.sampled_from(["fixup_strict", "fixup_loose", "nope"]), json_texts()
        )
        @example([("user", POOL[1])], "fixup_strict", '{"item":{"owner_id":"user-1"}}')
        @example([], "fixup_strict", '{"data":"YQ=","timeout":"1.5s"}')
        @example([], "fixup_loose", '{"extra":"{\\"a\\":1}","list":["1","x"]}')
        # Found by fuzzing: 1e400 in a Value reached the server as inf.
        @example([], "fixup_strict", '{"value_map":{"labels":1e400}}')
        # Found by fuzzing: a key with a lone surrogate raised SystemError in
        # upb's field lookup.
        @example([], "fixup_strict", '{"\\ud800x":[]}')
        @example([], "fixup_strict", '{"title":"\\ud800"}')
        def prop(regs: list[tuple[str, str]], tool: str, args: str) -> None:
            count[0] += 1
            for methods in (METHODS, UNCHECKED):
                check_call(Executor(channel, methods, ALIASES), regs, tool, args)

        def check_call(
            executor: Executor, regs: list[tuple[str, str]], tool: str, args: str
        ) -> None:
            for p, u in regs:
                executor.aliases.register(p, u)
            try:
                shown = executor.execute(tool, args)
            except ToolError as err:
                assert err.reason in ("unknown-tool", "unknown-alias", "invalid-arguments"), err
                shown = str(err)
            known = registered(executor.aliases)
            given_uuids = set(uuids_in(canonical(args)))
            for u in uuids_in(shown):
                assert u in given_uuids or u in known
                assert not (aliases_plain(executor.aliases) and u in known), shown

        run(prop, "execute", count)


@pytest.mark.parametrize(
    ("tool", "args", "path"),
    [
        ("fixup_strict", '{"value_map":{"labels":1e400}}', "value_map.labels"),
        ("fixup_loose", '{"extra":-1e400}', "extra"),
        ("fixup_loose", '{"attrs":{"a":[1,1e999]}}', "attrs.a[1]"),
        ("fixup_strict", '{"extra":"1e400"}', "extra"),
    ],
)
def test_fuzz_found_number_past_double_range(
    servers: Servers, tool: str, args: str, path: str
) -> None:
    """Found by fuzzing: a number past the double range in a Value is refused
    before the call (Go's protojson refuses it; json_format read inf)."""
    with grpc.insecure_channel(servers.target) as channel:
        executor = Executor(channel, UNCHECKED, ALIASES)
        with pytest.raises(ToolError) as info:
            executor.execute(tool, args)
    assert info.value.reason == "invalid-arguments"
    assert str(info.value).startswith(f'invalid arguments, nothing was sent:\n- "{path}": number ')
    assert servers.received() == 0
