import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createInProcessTransport,
  createMcpToolServer,
  extraPropertiesKey,
  serveStdio,
} from "../../src/mcp/index.js";
import {
  AccountSchema,
  AccountService,
  NoteSchema,
} from "../src/gen/aitest/v1/vectors_pb.js";
import { aitestAliases, strictDefaults } from "../support/aitest-tools.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

describe("createInProcessTransport", () => {
  it("serves an implementation: extras in its context, errors as the executors word them, ids aliased", async () => {
    const id = randomUUID();
    const contexts: Record<string, string>[] = [];
    const transport = createInProcessTransport(AccountService, {
      createAccount(req, ctx) {
        contexts.push({ ...ctx.values.get(extraPropertiesKey) });
        return {
          account: create(AccountSchema, { id, name: req.name }),
        };
      },
      mergeAccounts(req) {
        throw new ConnectError(
          `account ${req.sourceId} not found`,
          Code.NotFound,
          undefined,
          [{ desc: NoteSchema, value: { id: req.sourceId, text: "gone" } }],
        );
      },
    });
    const server = createMcpToolServer({
      extraProperties: [{ name: "tenant", description: "The tenant." }],
    });
    server.addTools({
      methods: aitestMcpMethods.filter((m) =>
        m.tool.name.startsWith("accounts_"),
      ),
      aliases: aitestAliases,
      transport,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serveStdio(server, { transport: serverSide });
    const client = new Client(
      { name: "test", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(clientSide);

    const created = (await client.callTool({
      name: "accounts_create",
      arguments: {
        ...strictDefaults.accounts_create,
        name: "n",
        tenant: "t-9",
      },
    })) as { structuredContent?: unknown };
    // Proto field names, defaults written.
    expect(created.structuredContent).toEqual({
      account: {
        id: "acct-1",
        name: "n",
        owner_id: "",
        workspace_id: "",
        notes: [],
        tags: {},
        contacts: [],
        contacts_by_role: {},
        member_ids: {},
      },
    });
    expect(contexts).toEqual([{ tenant: "t-9" }]);

    const failed = (await client.callTool({
      name: "accounts_merge",
      arguments: { source_id: "acct-1", target_id: "acct-1", note: "" },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(failed.isError).toBe(true);
    // The executors' text (the details stay with the application).
    expect(failed.content[0]!.text).toBe(
      "rpc error: code = NotFound desc = account acct-1 not found",
    );
    // Not implemented here: Connect's Unimplemented, as a server error.
    const list = (await client.callTool({
      name: "accounts_list",
      arguments: { ...strictDefaults.accounts_list, count: 1 },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(list.isError).toBe(true);
    expect(list.content[0]!.text).toMatch(
      /^rpc error: code = Unimplemented desc = /,
    );
    await client.close();
  });
});
