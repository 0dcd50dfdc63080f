// The ToolMethods and AliasConfig the generated ai_tools.gen.ts would hold
// for e2e/vectors/proto (hand-written here: the TS target is built in parallel).
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
  outputPrefix: string,
): ToolMethod {
  return {
    tool: { name, description: `${name} tool`, strict, parameters: anyObject },
    method,
    outputPrefix,
  };
}

export const aitestMethods: ToolMethod[] = [
  toolMethod(
    "accounts_create",
    AccountService.method.createAccount,
    true,
    "acct",
  ),
  toolMethod("accounts_list", AccountService.method.listAccounts, true, "acct"),
  toolMethod(
    "accounts_merge",
    AccountService.method.mergeAccounts,
    true,
    "acct",
  ),
  toolMethod(
    "accounts_watch",
    AccountService.method.watchAccounts,
    false,
    "acct",
  ),
  toolMethod("fixup_strict", FixupService.method.echoStrict, true, ""),
  toolMethod("fixup_loose", FixupService.method.echoLoose, false, ""),
];

export const aitestAliases: AliasConfig = {
  responseFieldPrefixes: { id: "", ownerId: "user", receivedSourceId: "" },
  knownAliasPrefixes: ["acct", "note", "user"],
};
