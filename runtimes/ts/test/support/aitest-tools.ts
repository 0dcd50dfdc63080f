// The ToolMethods and AliasConfig the generated ai_tools.gen.ts holds for
// e2e/vectors/proto, written out by hand: the runtime's tests cannot run the
// generator (which depends on the runtime). e2e/ts runs the generated file.
import type { DescMethod, JsonObject } from "@bufbuild/protobuf";
import type { AliasConfig, ToolMethod } from "../../src/index.js";
import {
  AccountService,
  FixupService,
} from "../src/gen/aitest/v1/vectors_pb.js";

const anyObject: JsonObject = { type: "object", properties: {} };

function toolMethod(
  name: string,
  method: DescMethod,
  strict: boolean,
  args?: object,
): ToolMethod {
  return {
    tool: { name, description: `${name} tool`, strict, parameters: anyObject },
    method,
    ...(args === undefined ? {} : { arguments: JSON.stringify(args) }),
  };
}

/**
 * The argument tables of the tools (docs/runtime.md, "Structure check"):
 * the schema's properties in declaration order; a strict tool's
 * non-nullable properties required. fixup_strict goes without one (no
 * structure check), as a hand-written ToolMethod may.
 */
const scalars = (names: string[], required: boolean) => ({
  nodes: [
    {
      fields: Object.fromEntries(names.map((n) => [n, {}])),
      ...(required ? { required: names } : {}),
    },
  ],
});

const fixupLooseArguments = {
  nodes: [
    {
      fields: {
        labels: {},
        items_by_num: { node: 1, map: true },
        flags: {},
        attrs: {},
        extra: {},
        list: {},
        item: { node: 1 },
        items: { node: 1, list: true },
        text: {},
        number: {},
        nested: { node: 1 },
        other_text: {},
        note: {},
        values: {},
        value_map: {},
        display_name: {},
        count: {},
        enabled: {},
        timeout: {},
        data: {},
        level: {},
        levels: {},
      },
    },
    {
      fields: {
        name: {},
        counts: {},
        payload: {},
        children: { node: 1, list: true },
        owner_id: {},
      },
    },
  ],
};

export const aitestMethods: ToolMethod[] = [
  toolMethod(
    "accounts_create",
    AccountService.method.createAccount,
    true,
    scalars(["name", "owner_id", "note_count", "contact_count"], true),
  ),
  toolMethod(
    "accounts_list",
    AccountService.method.listAccounts,
    true,
    scalars(["count", "contacts_per_account"], true),
  ),
  toolMethod(
    "accounts_merge",
    AccountService.method.mergeAccounts,
    true,
    scalars(["source_id", "target_id", "note"], true),
  ),
  toolMethod(
    "accounts_watch",
    AccountService.method.watchAccounts,
    false,
    scalars(["count"], false),
  ),
  toolMethod("fixup_strict", FixupService.method.echoStrict, true),
  toolMethod(
    "fixup_loose",
    FixupService.method.echoLoose,
    false,
    fixupLooseArguments,
  ),
];

const noEntity = { idPrefix: "", idField: "" };

/** The alias configuration of a file that declares no alias prefix. */
export const noAliases: AliasConfig = {
  knownAliasPrefixes: [],
  responseAliases: { types: {}, tools: {} },
};

export const aitestAliases: AliasConfig = {
  knownAliasPrefixes: ["acct", "contact", "note", "user"],
  responseAliases: {
    types: {
      "aitest.v1.Account": [
        { field: "id", prefix: "acct" },
        { field: "ownerId", prefix: "user" },
        { field: "notes", message: "aitest.v1.Note" },
        { field: "contacts", message: "aitest.v1.Contact" },
        { field: "contactsByRole", message: "aitest.v1.Contact", map: true },
        { field: "memberIds", prefix: "user", map: true },
        { field: "primaryContact", message: "aitest.v1.Contact" },
        { field: "primaryUserId", prefix: "user" },
      ],
      "aitest.v1.Contact": [
        { field: "id", prefix: "contact" },
        { field: "ownerId", prefix: "acct" },
      ],
      "aitest.v1.CreateAccountResponse": [
        { field: "account", message: "aitest.v1.Account" },
      ],
      "aitest.v1.FixupRequest": [
        { field: "itemsByNum", message: "aitest.v1.Item", map: true },
        { field: "item", message: "aitest.v1.Item" },
        { field: "items", message: "aitest.v1.Item" },
        { field: "nested", message: "aitest.v1.Item" },
      ],
      "aitest.v1.Item": [
        { field: "children", message: "aitest.v1.Item" },
        { field: "ownerId", prefix: "user" },
      ],
      "aitest.v1.ListAccountsResponse": [
        { field: "accounts", message: "aitest.v1.Account" },
      ],
      "aitest.v1.MergeAccountsResponse": [
        { field: "account", message: "aitest.v1.Account" },
      ],
      "aitest.v1.Note": [{ field: "id", prefix: "note" }],
    },
    tools: {
      accounts_create: {
        message: "aitest.v1.CreateAccountResponse",
        ...noEntity,
      },
      accounts_list: { message: "aitest.v1.ListAccountsResponse", ...noEntity },
      accounts_merge: {
        message: "aitest.v1.MergeAccountsResponse",
        ...noEntity,
      },
      accounts_watch: { message: "aitest.v1.Account", ...noEntity },
      fixup_loose: { message: "aitest.v1.FixupRequest", ...noEntity },
      fixup_strict: { message: "aitest.v1.FixupRequest", ...noEntity },
    },
  },
};

/**
 * Values for every field of the strict accounts tools (a strict tool takes
 * them all), for the calls of tests that are not about them.
 */
export const strictDefaults = {
  accounts_create: { name: "", owner_id: "", note_count: 0, contact_count: 0 },
  accounts_list: { count: 0, contacts_per_account: 0 },
  accounts_merge: { source_id: "", target_id: "", note: "" },
} as const;
