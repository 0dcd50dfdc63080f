"""Issue 11, point 7: "admitted means decodable" for compact schemas ($defs,
recursion through $ref) and buf.validate keywords, on the generator's golden
cases ``compact`` (schema=compact), ``validate`` and ``recursion``
(schema=compact with providers=openai: strict cycles), generated into
gen/cases/<case>/ by scripts/run.mjs. The values (200 per tool nightly, 40 in
.ci/run, from the plugin's schema: scripts/values.mjs,
@protoc-gen-ai-tools/e2e-samples) go through an
executor to a gRPC server of the case started here on a real socket: alias
resolution, the argument fix-up and json_format, then the wire. The
auto-executed tools run on the generated ``Executor``; the others (the
validate case's pick tools) on the runtime's, given their ToolMethod, with
the same alias manager. Every other value names its account (the validate
case's ``account_id``, prefix ``acct``) by an alias the executor resolves.
The validate case's server checks requests with protovalidate (50 per tool):
no rule the schema states as a keyword is ever broken."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
import threading
from collections.abc import Iterator
from concurrent import futures
from types import ModuleType
from typing import Any

import ai_tools_runtime
import grpc
import pytest
from google.protobuf import descriptor_pool, message_factory
from google.protobuf.message import Message

GEN = os.path.join(os.path.dirname(__file__), "..", "gen")
ACCOUNT_UUID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"


# The fields of the validate case whose rules its schemas describe in a
# sentence instead of a keyword (docs/schemas.md, "buf.validate"), so that values the
# schema admits may break them: an RE2-only pattern, a reversed range, a rule
# skipped on the zero value, "must be true", the id behind an alias; in
# strict tools also lengths, item lengths, uri and a required string; the
# oneof rules ("" is the message rule over first and second).
_DESCRIBED_CREATE = {"code", "delta", "motto", "accepted", "account_id"}
DESCRIBED: dict[str, set[str]] = {
    "rules_create_loose": _DESCRIBED_CREATE,
    "rules_create_strict": _DESCRIBED_CREATE | {"name", "tags", "homepage", "title"},
    "rules_pick_loose": {"", "target"},
    "rules_pick_strict": {"", "target"},
}


def load_case_module(name: str) -> ModuleType:
    """The case's generated module (its directory on sys.path for the
    grpcio-tools modules it imports)."""
    directory = os.path.abspath(os.path.join(GEN, "cases", name))
    if directory not in sys.path:
        sys.path.append(directory)
    spec = importlib.util.spec_from_file_location(
        f"{name}_ai_tools_gen", os.path.join(directory, "ai_tools_gen.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_case(name: str) -> tuple[ModuleType, dict[str, Any]]:
    """The case's generated module (:func:`load_case_module`) and its values
    file."""
    module = load_case_module(name)
    values_dir = os.environ.get("E2E_VALUES_DIR") or os.path.join(GEN, "values")
    with open(os.path.join(values_dir, f"{name}.json"), encoding="utf-8") as f:
        values: dict[str, Any] = json.load(f)
    return module, values


def method_types(path: str) -> tuple[type[Message], type[Message]]:
    """The request and response classes of a method, by its gRPC path."""
    desc = descriptor_pool.Default().FindMethodByName(path.strip("/").replace("/", "."))
    return (
        message_factory.GetMessageClass(desc.input_type),
        message_factory.GetMessageClass(desc.output_type),
    )


class CaseServer:
    """A gRPC server answering the tools' methods with an empty response,
    recording each request it decoded."""

    def __init__(self, tools: list[dict[str, Any]]) -> None:
        self.received: list[tuple[str, Message]] = []
        # Per request, the fields whose buf.validate rules it breaks
        # (protovalidate, as a server would check them; "" for a message rule).
        self.violations: list[set[str]] = []
        # Whether the next requests are checked (the validate case only).
        self.check = False
        self._lock = threading.Lock()
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        by_service: dict[str, dict[str, grpc.RpcMethodHandler]] = {}
        for t in tools:
            service, method = t["method"].strip("/").split("/")
            request, response = method_types(t["method"])
            by_service.setdefault(service, {})[method] = grpc.unary_unary_rpc_method_handler(
                self._handler(t["method"], response),
                request_deserializer=request.FromString,
                response_serializer=lambda m: m.SerializeToString(),
            )
        self.server.add_generic_rpc_handlers(
            [grpc.method_handlers_generic_handler(s, h) for s, h in by_service.items()]
        )
        self.port = self.server.add_insecure_port("127.0.0.1:0")

    def _handler(self, path: str, response: type[Message]) -> Any:
        def handle(request: Message, context: grpc.ServicerContext) -> Message:
            broken: set[str] = set()
            if self.check:
                import protovalidate  # needs buf.validate, from gen/cases/validate

                for v in protovalidate.collect_violations(request):
                    elements = v.proto.field.elements
                    broken.add(elements[0].field_name if elements else "")
            with self._lock:
                self.received.append((path, request))
                self.violations.append(broken)
            return response()

        return handle


@pytest.fixture(params=["compact", "validate", "recursion"])
def case(request: pytest.FixtureRequest) -> Iterator[tuple[ModuleType, dict[str, Any], CaseServer]]:
    module, values = load_case(request.param)
    server = CaseServer(values["tools"])
    server.server.start()
    try:
        yield module, values, server
    finally:
        server.server.stop(None)


def test_schema_values_decode_and_reach_the_server(
    case: tuple[ModuleType, dict[str, Any], CaseServer],
) -> None:
    module, vf, server = case
    tools = {t.name: t for t in module.ALL_TOOLS}
    assert sorted(tools) == sorted(t["tool"] for t in vf["tools"])
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        generated = module.Executor(channel)
        account = generated.aliases.register("acct", ACCOUNT_UUID)
        lines = []
        for t in vf["tools"]:
            tool = tools[t["tool"]]
            assert json.loads(t["schemaJson"]) == tool.schema(), "values of another schema"
            # 200 values a tool nightly, 40 in .ci/run (scripts/values.mjs).
            assert len(t["values"]) == (200 if os.environ.get("AI_TOOLS_NIGHTLY") == "1" else 40)
            executor = generated
            if not generated.can_execute(tool.name):
                request, response = method_types(t["method"])
                method = ai_tools_runtime.ToolMethod(
                    tool=tool, method=t["method"], request_type=request, response_type=response
                )
                executor = ai_tools_runtime.Executor(channel, [method], generated.aliases)
            aliased = 0
            broken: dict[str, int] = {}
            checked = refused = 0
            for i, args in enumerate(t["values"]):
                obj = json.loads(args)
                use_alias = i % 2 == 1 and isinstance(obj.get("account_id"), str)
                if use_alias:
                    obj["account_id"] = account
                    args = json.dumps(obj, ensure_ascii=False)
                before = len(server.received)
                # protovalidate (CEL in pure Python) costs about 40 ms a
                # request: 50 values per tool are checked, half of them aliased.
                server.check = vf["case"] == "validate" and i % 8 < 2
                try:
                    out = executor.execute(tool.name, args)
                except ai_tools_runtime.ToolError as err:
                    # The executor checks buf.validate rules before sending
                    # (protovalidate): a value breaking a rule is refused.
                    if err.reason != "failed-validation":
                        pytest.fail(f"{tool.name}: {err}\nargs {args}")
                    assert len(server.received) == before, "a refused call was sent"
                    for v in err.violations:
                        name = re.split(r"[.\[]", v.field, maxsplit=1)[0]
                        broken[name] = broken.get(name, 0) + 1
                    refused += 1
                    continue
                assert out == "{}", args
                got = server.received[before:]
                assert [p for p, _ in got] == [t["method"]], args
                if use_alias:
                    fields = {f.name: v for f, v in got[0][1].ListFields()}
                    assert fields["account_id"] == ACCOUNT_UUID
                    aliased += 1
                checked += server.check
                for name in server.violations[before]:
                    broken[name] = broken.get(name, 0) + 1
            # A rule the schema states as a keyword holds for every value it
            # admits; only those stated as a sentence may be broken.
            described = DESCRIBED.get(tool.name, set())
            assert set(broken) <= described, (
                f"{tool.name}: rules with a keyword broken: {set(broken) - described}"
            )
            line = (
                f"{tool.name}: {len(t['values']) - refused} values sent ({aliased} with an alias)"
            )
            if refused:
                line += f"; {refused} refused by the executor's protovalidate"
            if checked:
                line += f"; {checked} checked with protovalidate, described rules broken: "
                line += str(dict(sorted(broken.items())))
            lines.append(line)
        print(f"case {vf['case']}:\n  " + "\n  ".join(lines))
