"""Helpers of the Python end-to-end suite (the Go suite's helpers_test.go)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import grpc
from ai_tools_runtime import AliasManager, ToolError
from google.longrunning import operations_pb2
from google.protobuf import empty_pb2, json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

import ai_tools_gen
from ai_tools_gen import AsyncExecutor, Executor
from linkhub.v1 import (
    control_pb2,
    control_pb2_grpc,
    exports_pb2,
    links_pb2,
    samples_pb2,
    themes_pb2,
    workflows_pb2,
)

T = TypeVar("T")

UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
ALIAS_RE = re.compile(r'"(link|theme|step|operation)-[0-9]+"')


def repo_root() -> str:
    return os.environ.get("E2E_REPO_ROOT") or os.path.abspath(
        os.path.join(os.path.dirname(__file__), "..", "..", "..")
    )


def new_uuid() -> str:
    """A random UUID: a workspace id the "user" gives the model."""
    return str(uuid.uuid4())


def js(value: Any) -> str:
    """A value as JSON text, the way a model writes arguments."""
    return json.dumps(value, ensure_ascii=False)


class Exec(Protocol):
    """What a test needs of an executor, sync or async."""

    def execute(self, tool_name: str, args_json: str) -> str: ...

    @property
    def aliases(self) -> AliasManager: ...


class _LoopExec:
    """An AsyncExecutor driven from the test's thread: each call runs on the loop."""

    def __init__(self, e: AsyncExecutor, run: Callable[[Coroutine[Any, Any, str]], str]) -> None:
        self.inner = e
        self._run = run

    def execute(self, tool_name: str, args_json: str) -> str:
        return self._run(self.inner.execute(tool_name, args_json))

    @property
    def aliases(self) -> AliasManager:
        return self.inner.aliases


@dataclass
class Driver:
    """Makes executors of one kind; ``kind`` is "sync" or "async"."""

    kind: str
    new: Callable[[], Exec]
    loop: asyncio.AbstractEventLoop | None = None
    aio_channel: grpc.aio.Channel | None = None

    @staticmethod
    def sync(channel: grpc.Channel) -> Driver:
        return Driver("sync", lambda: Executor(channel))

    @staticmethod
    def asynchronous(
        loop: asyncio.AbstractEventLoop,
        channel: grpc.aio.Channel,
        run: Callable[[Coroutine[Any, Any, Any]], Any],
    ) -> Driver:
        async def make() -> AsyncExecutor:
            return AsyncExecutor(channel)

        def new() -> Exec:
            return _LoopExec(run(make()), run)

        return Driver("async", new, loop, channel)


def control(channel: grpc.Channel) -> control_pb2_grpc.TestControlServiceStub:
    return control_pb2_grpc.TestControlServiceStub(channel)


def reset_server(channel: grpc.Channel) -> None:
    control(channel).Reset(control_pb2.ResetRequest())


def recorded(channel: grpc.Channel) -> list[control_pb2.RecordedRequest]:
    return list(control(channel).GetRecorded(control_pb2.GetRecordedRequest()).requests)


REQUEST_TYPES: dict[str, type[Message]] = {
    "linkhub.v1.LinkService/CreateLink": links_pb2.CreateLinkRequest,
    "linkhub.v1.LinkService/GetLink": links_pb2.GetLinkRequest,
    "linkhub.v1.LinkService/ListLinks": links_pb2.ListLinksRequest,
    "linkhub.v1.LinkService/UpdateLink": links_pb2.UpdateLinkRequest,
    "linkhub.v1.LinkService/DeleteLink": links_pb2.DeleteLinkRequest,
    "linkhub.v1.PageThemeService/CreatePageTheme": themes_pb2.CreatePageThemeRequest,
    "linkhub.v1.PageThemeService/ListPageThemes": themes_pb2.ListPageThemesRequest,
    "linkhub.v1.PageThemeService/UpdatePageTheme": themes_pb2.UpdatePageThemeRequest,
    "linkhub.v1.WorkflowService/CreateStep": workflows_pb2.CreateStepRequest,
    "linkhub.v1.WorkflowService/ListSteps": workflows_pb2.ListStepsRequest,
    "linkhub.v1.WorkflowService/Ping": empty_pb2.Empty,
    "linkhub.v1.SampleService/EchoStrict": samples_pb2.Sample,
    "linkhub.v1.SampleService/EchoLoose": samples_pb2.Sample,
    "linkhub.v1.ExportService/ExportLinks": exports_pb2.ExportLinksRequest,
    "google.longrunning.Operations/GetOperation": operations_pb2.GetOperationRequest,
}


def decode_recorded(r: control_pb2.RecordedRequest) -> Message:
    """A recorded request_json read into its request type."""
    cls = REQUEST_TYPES.get(r.procedure)
    assert cls is not None, f"recorded an unexpected procedure {r.procedure!r}"
    msg = cls()
    json_format.Parse(r.request_json, msg)
    return msg


def expect_recorded(channel: grpc.Channel, start: int, wants: list[tuple[str, Message]]) -> None:
    """Everything recorded after the first ``start`` requests is ``wants``, exactly."""
    got = recorded(channel)[start:]
    problems: list[str] = []
    for i in range(max(len(got), len(wants))):
        if i >= len(got):
            problems.append(f"request {i}: {wants[i][0]} {wants[i][1]} never reached the server")
        elif i >= len(wants):
            problems.append(f"request {i}: unexpected {got[i].procedure} {got[i].request_json}")
        elif got[i].procedure != wants[i][0]:
            problems.append(f"request {i}: procedure {got[i].procedure}, want {wants[i][0]}")
        else:
            if decode_recorded(got[i]) != wants[i][1]:
                problems.append(
                    f"request {i} ({wants[i][0]}):\n got  {got[i].request_json}\n"
                    f" want {json_format.MessageToJson(wants[i][1], indent=None)}"
                )
            alias = ALIAS_RE.search(got[i].request_json)
            if alias:
                problems.append(f"request {i} carries the alias {alias.group(0)}")
    assert not problems, "\n".join(problems)


@dataclass
class Model:
    """Runs tool calls as the application loop does for a model: JSON text in,
    result text out; it must never see a UUID but its workspace's."""

    e: Exec
    ok: set[str] = field(default_factory=set)

    def call(self, tool: str, args: Any) -> dict[str, Any]:
        text = args if isinstance(args, str) else js(args)
        out = self.e.execute(tool, text)
        self.check_no_uuid(tool, out)
        value = json.loads(out)
        assert isinstance(value, dict), f"{tool}: result is not a JSON object: {out}"
        return value

    def check_no_uuid(self, tool: str, text: str) -> None:
        seen = [u for u in UUID_RE.findall(text) if u not in self.ok]
        assert not seen, f"{tool}: the model saw the UUID(s) {seen}: {text}"


def new_model(driver: Driver, *raw_ok: str) -> Model:
    return Model(driver.new(), set(raw_ok))


def create_links(m: Model, ws: str, n: int) -> list[str]:
    """The model creates n links in ws; returns the aliases it saw."""
    out = []
    for i in range(1, n + 1):
        r = m.call(
            "links_create",
            {
                "workspace_id": ws,
                "target_url": f"https://example.com/{i}",
                "slug": None,
                "page_theme_id": "",
                "labels": [],
                "title": f"link {i}",
                "expire_after": None,
            },
        )
        out.append(r["link"]["id"])
    return out


def link_ids(channel: grpc.Channel, ws: str) -> list[str]:
    """What the server holds for ws, oldest first (the request is recorded too)."""
    from linkhub.v1 import links_pb2_grpc

    resp = links_pb2_grpc.LinkServiceStub(channel).ListLinks(
        links_pb2.ListLinksRequest(workspace_id=ws)
    )
    return [link.id for link in resp.links]


def refusal_code(message: str) -> grpc.StatusCode:
    """The code of a call refused before any request: NOT_FOUND for an
    unknown tool, INVALID_ARGUMENT for arguments and aliases."""
    if message.startswith("no auto-executor"):
        return grpc.StatusCode.NOT_FOUND
    return grpc.StatusCode.INVALID_ARGUMENT


def expect_rejected(channel: grpc.Channel, e: Exec, tool: str, args: str, msg: str) -> None:
    """A call that must fail with exactly msg before any request reaches the server."""
    before = len(recorded(channel))
    try:
        e.execute(tool, args)
    except ToolError as err:
        assert str(err) == msg, f"{tool} {args}:\n got  {err}\n want {msg}"
        assert err.code == refusal_code(msg), f"{tool}: {err.code}"
    else:
        raise AssertionError(f"{tool} {args}: no error; want {msg}")
    after = len(recorded(channel))
    assert after == before, f"{tool} {args}: {after - before} request(s) reached the server"


def status_details(err: ToolError) -> list[tuple[str, bytes]]:
    """The (type URL, value) of each detail of the status the server sent:
    err.details, checked against the grpc-status-details-bin trailer (a
    google.rpc.Status) read here by hand."""
    details = [(d.type_url, d.value) for d in err.details]
    assert details == _trailer_details(err), "details differ from the trailer's"
    return details


def _trailer_details(err: ToolError) -> list[tuple[str, bytes]]:
    raw = b""
    for key, value in err.trailing_metadata:
        if key == "grpc-status-details-bin" and isinstance(value, bytes):
            raw = value
    out = []
    for num, payload in _fields(raw):
        if num == 3 and isinstance(payload, bytes):
            parts = dict(_fields(payload))
            type_url, any_value = parts.get(1, b""), parts.get(2, b"")
            assert isinstance(type_url, bytes) and isinstance(any_value, bytes)
            out.append((type_url.decode(), any_value))
    return out


def _fields(data: bytes) -> list[tuple[int, bytes | int]]:
    """The fields of a protobuf message in wire format (varint or length-delimited)."""
    out: list[tuple[int, bytes | int]] = []
    i = 0

    def varint() -> int:
        nonlocal i
        shift = result = 0
        while True:
            b = data[i]
            i += 1
            result |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return result

    while i < len(data):
        key = varint()
        num, wire = key >> 3, key & 7
        if wire == 0:
            out.append((num, varint()))
        elif wire == 2:
            n = varint()
            out.append((num, data[i : i + n]))
            i += n
        else:
            raise ValueError(f"unexpected wire type {wire}")
    return out


def tools_by_name() -> dict[str, ai_tools_gen.AgentTool]:
    return {t.name: t for t in ai_tools_gen.ALL_TOOLS}


def keys_in_an_empty(args: str) -> bool:
    """Whether schema-generated arguments of a Sample put keys into its
    ``nothing`` (a google.protobuf.Empty, whose loose schema admits any key,
    which the executors refuse as unknown fields)."""
    value = json.loads(args)
    nothing = value.get("nothing") if isinstance(value, dict) else None
    return isinstance(nothing, dict) and len(nothing) > 0


def mask_wire(text: str, message: Descriptor) -> str | None:
    """What a FieldMask's text (comma-separated paths, snake_case or
    lowerCamel) sends, worked out from the descriptor of the message it
    names fields of (issue 31): lowerCamel paths joined by ",", empty paths
    dropped; None when a path names no field."""
    out = []
    for raw in text.split(","):
        path = raw.strip(" \t\n\r")
        if path in ("", "*"):
            out += [path] if path else []
            continue
        wire = _mask_path(path.split("."), message)
        if wire is None:
            return None
        out.append(".".join(wire))
    return ",".join(out)


def _mask_path(segments: list[str], message: Descriptor | None) -> list[str] | None:
    if not segments:
        return []
    seg, rest = segments[0], segments[1:]
    fd = None if message is None else _field(message, seg)
    if fd is None:
        return None
    camel = _camel(fd.name)
    entry = fd.message_type
    if entry is not None and entry.GetOptions().map_entry:
        return [camel, *rest] if len(rest) <= 1 and all(rest) else None
    if fd.is_repeated or entry is None:
        inner = None
    else:
        inner = None if entry.full_name.startswith("google.protobuf.") else entry
    after = _mask_path(rest, inner)
    return None if after is None else [camel, *after]


def _field(message: Descriptor, seg: str) -> FieldDescriptor | None:
    for fd in message.fields:
        if seg in (fd.name, _camel(fd.name)):
            return fd
    return None


def _camel(name: str) -> str:
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def sample_refusal(args: str) -> set[str]:
    """The violation reasons for which the executors refuse schema-generated
    Sample arguments, sending nothing: keys in its Empty (unknown fields),
    and a mask naming no field of Sample (the FieldMask schema cannot say
    which strings are paths)."""
    reasons = {"unknown-field"} if keys_in_an_empty(args) else set()
    mask = json.loads(args).get("mask")
    if isinstance(mask, str) and mask_wire(mask, samples_pb2.Sample.DESCRIPTOR) is None:
        reasons.add("invalid-value")
    return reasons


# Masks of Sample in both namings, for values whose generated mask names no field.
SAMPLE_MASKS = ("maybe_text, byName.k", "inner.name,at", "*", "items,by_flag.true", "")


def with_sample_mask(args: str, i: int) -> str:
    """``args`` with its mask replaced by one that names Sample's fields."""
    value = json.loads(args)
    value["mask"] = SAMPLE_MASKS[i % len(SAMPLE_MASKS)]
    return js(value)
