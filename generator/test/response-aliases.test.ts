import { describe, expect, it } from "vitest";
import { compileRequest } from "./support/compile.js";
import { modelOf } from "./support/model.js";

// The registration tables of docs/runtime.md, "Response registration".
// Expected tables were written by hand from that text.

const header = `syntax = "proto3";
package crm.v1;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/struct.proto";
option go_package = "example.com/crm/v1;crmv1";
`;

function rpc(
  name: string,
  request: string,
  response: string,
  autoExecute = true,
  stream = false,
): string {
  return `  rpc R_${name}(${request}) returns (${stream ? "stream " : ""}${response}) {
    option (ai.tools.v1.rpc_tool) = {name: "${name}", description: "d", auto_execute: ${autoExecute}};
  }\n`;
}

const crm =
  header +
  `
service Crm {
${rpc("accounts_list", "ListAccountsRequest", "ListAccountsResponse")}
${rpc("accounts_get", "GetAccountRequest", "GetAccountResponse")}
${rpc("accounts_update", "GetAccountRequest", "Plain")}
${rpc("accounts_watch", "ListAccountsRequest", "Account", true, true)}
${rpc("notes_list", "ListAccountsRequest", "ListNotesResponse")}
${rpc("plain_get", "ListAccountsRequest", "Plain", false)}
${rpc("nothing_get", "ListAccountsRequest", "Nothing")}
${rpc("owners_get", "GetAccountRequest", "TwoEntities")}
}

message ListAccountsRequest { int32 count = 1; }
message GetAccountRequest {
  string account_id = 1 [(ai.tools.v1.tool_field) = {alias_prefix: "acct"}];
}
message ListAccountsResponse {
  repeated Account accounts = 1;
  string workspace_id = 2;
  google.protobuf.Timestamp at = 3;
}
message Account {
  string id = 1 [(ai.tools.v1.tool_field) = {alias_prefix: "acct"}];
  string owner_id = 2 [(ai.tools.v1.tool_field) = {alias_prefix: "user"}];
  repeated Contact contacts = 3;
  map<string, Contact> contacts_by_role = 4;
  map<string, string> member_ids = 5 [(ai.tools.v1.tool_field) = {alias_prefix: "user"}];
  oneof primary {
    Contact primary_contact = 6;
    string primary_user_id = 7 [(ai.tools.v1.tool_field) = {alias_prefix: "user"}];
  }
  Plain details = 8;
  google.protobuf.Struct extra = 9;
  Tree tree = 10;
  repeated string tag_ids = 11 [(ai.tools.v1.tool_field) = {alias_prefix: "tag"}];
  int64 legacy_number = 12 [(ai.tools.v1.tool_field) = {alias_prefix: "num"}];
}
message Contact {
  string id = 1 [(ai.tools.v1.tool_field) = {alias_prefix: "contact"}];
  string owner_id = 2 [(ai.tools.v1.tool_field) = {alias_prefix: "acct"}];
}
// Recursive, with an aliased field deep down.
message Tree {
  repeated Tree children = 1;
  string node_id = 2 [(ai.tools.v1.tool_field) = {alias_prefix: "node"}];
}
// An entity whose id is not annotated.
message Plain { string id = 1; string title = 2; }
message GetAccountResponse { Plain account = 1; }
message ListNotesResponse { repeated Plain notes = 1; }
message Nothing { string title = 1; }
// The second entity gives the primary prefix: the first one's id is not the entity's.
message TwoEntities { Plain owner = 1; Contact contact = 2; }
`;

describe("response registration tables", () => {
  const model = modelOf(compileRequest({ "crm/v1/crm.proto": crm }));

  it("lists the executors' response types holding aliased ids, by type", () => {
    const f = (
      field: string,
      prefix: string,
      message: string,
      map = false,
    ) => ({ field, prefix, message, map, anyValue: false });
    expect(model.responseAliasTypes).toEqual([
      [
        "crm.v1.Account",
        [
          f("id", "acct", ""),
          f("ownerId", "user", ""),
          f("contacts", "", "crm.v1.Contact"),
          f("contactsByRole", "", "crm.v1.Contact", true),
          f("memberIds", "user", "", true),
          f("primaryContact", "", "crm.v1.Contact"),
          f("primaryUserId", "user", ""),
          f("tree", "", "crm.v1.Tree"),
          f("tagIds", "tag", ""),
        ],
      ],
      ["crm.v1.Contact", [f("id", "contact", ""), f("ownerId", "acct", "")]],
      ["crm.v1.ListAccountsResponse", [f("accounts", "", "crm.v1.Account")]],
      [
        "crm.v1.Tree",
        [f("children", "", "crm.v1.Tree"), f("nodeId", "node", "")],
      ],
      ["crm.v1.TwoEntities", [f("contact", "", "crm.v1.Contact")]],
    ]);
  });

  it("gives each executor its response type and entity id rule", () => {
    expect(model.toolResponseAliases).toEqual([
      // primary prefix from the request; the entity is the first message
      // field whose message has an id
      [
        "accounts_get",
        {
          message: "crm.v1.GetAccountResponse",
          idPrefix: "acct",
          idField: "account",
        },
      ],
      [
        "accounts_list",
        { message: "crm.v1.ListAccountsResponse", idPrefix: "", idField: "" },
      ],
      // the response itself is the entity
      [
        "accounts_update",
        { message: "crm.v1.Plain", idPrefix: "acct", idField: "" },
      ],
      [
        "accounts_watch",
        { message: "crm.v1.Account", idPrefix: "", idField: "" },
      ],
      // the annotated Contact.id gave the primary prefix: owner.id is not the entity's
      [
        "owners_get",
        { message: "crm.v1.TwoEntities", idPrefix: "", idField: "" },
      ],
    ]);
  });
});
