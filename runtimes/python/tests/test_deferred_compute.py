"""Compute Engine's whole deferred request builds for every provider
(issue 36): its generated module (988 tools in 124 namespaces,
tools=all and tool_search=true; `scripts/generate.py --compute` writes it
into tests/gen/compute) through DeferredTools, run by
tests/compute_requests.py in a process of its own (the module is 16 MB).
The nightly run's only (bash scripts/nightly.sh large): .ci/run leaves this
file out (conftest.py), and checks each provider's limits on made-up tools
(test_deferred_tools.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import GEN, HERE

COMPUTE = GEN / "compute"


def test_compute_deferred_requests_build_for_every_provider() -> None:
    generate = subprocess.run(
        [sys.executable, str(HERE.parent / "scripts" / "generate.py"), "--compute"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert generate.returncode == 0, generate.stderr
    assert (COMPUTE / "ai_tools_gen.py").exists(), generate.stdout
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(COMPUTE), os.environ.get("PYTHONPATH", "")]),
    }
    run = subprocess.run(
        [sys.executable, str(HERE / "compute_requests.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    tools, namespaces = got["tools"], got["namespaces"]
    assert tools == 988 and namespaces == 124, got
    loaded = got["loaded"]
    assert len(loaded) == 3 and loaded[0] == "google_cloud_compute_v1_Instances_Stop", loaded
    for mode, last in (
        ("hosted", {"type": "tool_search"}),
        ("client", {"type": "tool_search", "execution": "client"}),
    ):
        r = got[f"openai_responses_{mode}"]
        # OpenAI counts top-level items (at most 128): the namespaces and tool_search.
        assert r["items"] == namespaces + 1 <= 128, r
        assert r["functions"] == tools + 1 and r["deferred"] == tools and r["last"] == last, r
    for mode, last in (
        ("bm25", {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}),
        ("regex", {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}),
        ("client", {"name": "search_tools"}),
    ):
        r = got[f"anthropic_{mode}"]
        assert r["items"] == tools + 1 and r["deferred"] == tools and r["last"] == last, r
    for key in ("openai_chat", "gemini_parameters_json_schema", "gemini_parameters"):
        assert got[key] == ["search_tools", *loaded], (key, got[key])
