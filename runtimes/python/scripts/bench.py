"""Quick benchmark: aliasify_json on a 25 KB response holding 1,000
registered UUIDs (plus resolve_json and register_response on it), then with
20 and 100 operation names registered too. Then the MCP HTTP gate's token
verification per request, auth on and off alternating
(scripts/bench_http_auth.py). Then the per-call cost of telemetry: no
telemetry, OpenTelemetry on the no-op API, on an in-memory exporter,
alternating (scripts/bench_telemetry.py).

With ``--before REV`` (a git revision of this repository, e.g. the commit
before issue 30), also the executor's overhead: one tool call through the
Executor of the runtime at REV and through this one, and the same RPC made
directly with the grpcio stub, alternating, against the test server of
tests/gen on a local socket; the difference of the medians as a share of the
direct call (scripts/generate.py must have run)."""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from ai_tools_runtime import (
    AliasConfig,
    AliasManager,
    ResponseAliases,
    ResponseAliasField,
    ResponseAliasTool,
)

# What the generated module declares for a list of accounts with owners.
CONFIG = AliasConfig(
    known_alias_prefixes=frozenset({"acct"}),
    response_aliases=ResponseAliases(
        types={
            "List": (ResponseAliasField(field="accounts", message="Account"),),
            "Account": (
                ResponseAliasField(field="id", prefix="acct"),
                ResponseAliasField(field="ownerId", prefix="acct"),
            ),
        },
        tools={"accounts_list": ResponseAliasTool(message="List")},
    ),
)


def best_of(fn: Callable[[], object], runs: int = 20) -> float:
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    manager = AliasManager(CONFIG)
    base = uuid.UUID("0a1b2c3d-0000-4000-8000-000000000000").int
    ids = [str(uuid.UUID(int=base + i)) for i in range(1000)]
    for u in ids:
        manager.register("acct", u)
    # A 25 KB response (a list of accounts, each naming itself and its owner),
    # every UUID in it registered: the manager holds 1,000 aliases.
    items: list[dict[str, str]] = []
    text = ""
    while len(text) < 25_000:
        i = len(items)
        items.append({"id": ids[i % 1000], "ownerId": ids[(i * 7) % 1000], "name": f"account {i}"})
        text = json.dumps({"accounts": items}, separators=(",", ":"))
    size = len(text)
    aliasified = manager.aliasify_json(text)
    t_aliasify = best_of(lambda: manager.aliasify_json(text))
    t_resolve = best_of(lambda: manager.resolve_json(aliasified))
    fresh = AliasManager(CONFIG)
    t_register = best_of(lambda: fresh.register_response("accounts_list", text))
    print(f"bench: {size / 1000:.1f} KB response, {2 * len(items)} UUIDs in it, 1000 aliases")
    print(f"bench: aliasify_json  {t_aliasify * 1e3:.2f} ms (best of 20)")
    print(f"bench: resolve_json   {t_resolve * 1e3:.2f} ms (best of 20, aliasified text)")
    print(f"bench: register_response {t_register * 1e3:.2f} ms (best of 20, one walk)")
    # Names (operation names, not UUIDs) registered too, ten of them in the text.
    for count in (20, 100):
        names = [f"workspaces/w1/operations/{i}" for i in range(1, count + 1)]
        for name in names:
            manager.register("operation", name)
        named = json.dumps({"accounts": items, "operations": names[:10]}, separators=(",", ":"))
        t_names = best_of(partial(manager.aliasify_json, named))
        print(f"bench: aliasify_json  {t_names * 1e3:.2f} ms (best of 20, {count} names too)")
    from bench_http_auth import compare_auth

    compare_auth()
    from bench_telemetry import compare_telemetry

    compare_telemetry()
    if len(sys.argv) == 3 and sys.argv[1] == "--before":
        from bench_executor import compare

        compare(sys.argv[2])
    elif len(sys.argv) != 1:
        print("usage: bench.py [--before REV]", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
