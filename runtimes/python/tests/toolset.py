"""What the generated ai_tools_gen.py would declare for
e2e/vectors/proto/aitest/v1/vectors.proto (written by hand for the runtime
tests; the schema of accounts_create is the Go target's, byte for byte)."""

from __future__ import annotations

import json

from aitest.v1 import vectors_pb2

from ai_tools_runtime import AgentTool, AliasConfig, ToolMethod

ACCOUNTS_CREATE_PARAMETERS = (
    '{"additionalProperties":false,"properties":{"name":{"type":"string"},'
    '"note_count":{"description":"Test hook: the server returns this many notes with fresh '
    'ids.","type":"integer"},"owner_id":{"type":"string"}},"required":["name","owner_id",'
    '"note_count"],"type":"object"}'
)

ACCOUNTS_CREATE = AgentTool(
    name="accounts_create",
    description="Create an account.",
    strict=True,
    parameters=json.loads(ACCOUNTS_CREATE_PARAMETERS),
)
ACCOUNTS_LIST = AgentTool("accounts_list", "List accounts.", True, {"type": "object"})
ACCOUNTS_MERGE = AgentTool(
    "accounts_merge", "Merge one account into another.", True, {"type": "object"}
)
ACCOUNTS_WATCH = AgentTool("accounts_watch", "Stream accounts.", False, {"type": "object"})
FIXUP_STRICT = AgentTool("fixup_strict", "Echo a request (strict schema).", True, {})
FIXUP_LOOSE = AgentTool("fixup_loose", "Echo a request.", False, {})

ALIASES = AliasConfig(
    response_field_prefixes={"id": "", "ownerId": "user"},
    known_alias_prefixes=frozenset({"acct", "user", "note"}),
)

_ACCOUNTS = "/aitest.v1.AccountService/"
_FIXUP = "/aitest.v1.FixupService/"

METHODS = [
    ToolMethod(
        ACCOUNTS_CREATE,
        _ACCOUNTS + "CreateAccount",
        vectors_pb2.CreateAccountRequest,
        vectors_pb2.CreateAccountResponse,
        "acct",
    ),
    ToolMethod(
        ACCOUNTS_LIST,
        _ACCOUNTS + "ListAccounts",
        vectors_pb2.ListAccountsRequest,
        vectors_pb2.ListAccountsResponse,
        "acct",
    ),
    ToolMethod(
        ACCOUNTS_MERGE,
        _ACCOUNTS + "MergeAccounts",
        vectors_pb2.MergeAccountsRequest,
        vectors_pb2.MergeAccountsResponse,
        "acct",
    ),
    ToolMethod(
        ACCOUNTS_WATCH,
        _ACCOUNTS + "WatchAccounts",
        vectors_pb2.WatchAccountsRequest,
        vectors_pb2.Account,
        "acct",
        server_streaming=True,
    ),
    ToolMethod(
        FIXUP_STRICT, _FIXUP + "EchoStrict", vectors_pb2.FixupRequest, vectors_pb2.FixupRequest
    ),
    ToolMethod(
        FIXUP_LOOSE, _FIXUP + "EchoLoose", vectors_pb2.FixupRequest, vectors_pb2.FixupRequest
    ),
]
