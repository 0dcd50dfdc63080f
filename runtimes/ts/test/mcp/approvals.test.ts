// Approvals of the MCP tool server (issue 33, contract §3), served over
// streamable HTTP on a real socket to the SDK client on both protocol
// revisions, the tools forwarding to the aitest gRPC server: the approve
// hook, elicitation (input_required on 2026-07-28, the SDK's legacy shim
// sending elicitation/create on 2025-11-25), and no way to ask.
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createMcpToolServer,
  serveHttp,
  type ApprovalRequest,
  type AuditRecord,
  type McpToolServerOptions,
  type RunningHttpServer,
} from "../../src/mcp/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import { aitestAliases, strictDefaults } from "../support/aitest-tools.js";
import { callTool, firstText } from "../support/mcp-client.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";

let grpc: AitestServer;
const running: RunningHttpServer[] = [];

beforeAll(async () => {
  grpc = await startAitestServer();
});

afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await grpc.close();
});

beforeEach(() => {
  grpc.calls.length = 0;
});

/** accounts_create needs an approval; the other tools do not. */
const methods = aitestMcpMethods.map((m) =>
  m.tool.name === "accounts_create" ? { ...m, needsApproval: true } : m,
);

async function serve(options: McpToolServerOptions = {}): Promise<string> {
  const server = createMcpToolServer(options);
  server.addTools({
    methods,
    aliases: aitestAliases,
    transport: grpc.transport,
  });
  const http = await serveHttp(server);
  running.push(http);
  return http.url;
}

type Revision = "2026-07-28" | "2025-11-25";
const revisions: Revision[] = ["2026-07-28", "2025-11-25"];

/** What the user answers to an elicitation, and the messages shown. */
interface User {
  answer: {
    action: "accept" | "decline" | "cancel";
    content?: Record<string, boolean>;
  };
  readonly asked: string[];
}

async function connect(
  url: string,
  revision: Revision,
  user?: User,
): Promise<Client> {
  const client = new Client(
    { name: "test", version: "1.0.0" },
    {
      capabilities: user === undefined ? {} : { elicitation: { form: {} } },
      versionNegotiation: {
        mode: revision === "2026-07-28" ? "auto" : "legacy",
      },
    },
  );
  if (user !== undefined) {
    client.setRequestHandler("elicitation/create", (request) => {
      user.asked.push(request.params.message);
      return Promise.resolve(user.answer);
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getNegotiatedProtocolVersion()).toBe(revision);
  return client;
}

const createArgs = () => ({
  ...strictDefaults.accounts_create,
  name: "approved",
  owner_id: randomUUID(),
});

const created = () => grpc.calls.filter((c) => c.method === "CreateAccount");

const deniedText =
  'the call of "accounts_create" was not approved; nothing was sent';
const noWayText =
  'the call of "accounts_create" needs an approval and none could be asked (no approval hook, and the client does not support elicitation); nothing was sent';

describe.each(revisions)("approvals, %s", (revision) => {
  it("asks the approve hook, which allows", async () => {
    const requests: ApprovalRequest[] = [];
    const url = await serve({
      approve: (r) => {
        requests.push(r);
        return Promise.resolve(true);
      },
    });
    const client = await connect(url, revision);
    const args = createArgs();
    const r = await callTool(client, "accounts_create", args);
    expect(r.isError).toBeFalsy();
    expect(created()).toHaveLength(1);
    expect(requests).toEqual([
      {
        subject: "",
        tool: "accounts_create",
        method: "/aitest.v1.AccountService/CreateAccount",
        arguments: args,
      },
    ]);
    // A tool that needs none is not asked about.
    await callTool(client, "accounts_list", strictDefaults.accounts_list);
    expect(requests).toHaveLength(1);
    await client.close();
  });

  it("refuses what the hook denies (or fails on), nothing sent", async () => {
    for (const approve of [
      () => Promise.resolve(false),
      () => Promise.reject(new Error("approver down")),
    ]) {
      const url = await serve({ approve });
      const client = await connect(url, revision);
      const r = await callTool(client, "accounts_create", createArgs());
      expect(r.isError).toBe(true);
      expect(firstText(r)).toBe(deniedText);
      await client.close();
    }
    expect(created()).toHaveLength(0);
  });

  it("refuses when neither a hook nor elicitation can answer", async () => {
    const url = await serve();
    const client = await connect(url, revision);
    const r = await callTool(client, "accounts_create", createArgs());
    expect(r.isError).toBe(true);
    expect(firstText(r)).toBe(noWayText);
    expect(created()).toHaveLength(0);
    await client.close();
  });

  it("checks the arguments before asking", async () => {
    const user: User = { answer: { action: "accept" }, asked: [] };
    const url = await serve();
    const client = await connect(url, revision, user);
    const r = await callTool(client, "accounts_create", { name: 1 });
    expect(r.isError).toBe(true);
    expect(firstText(r)).toMatch(/^invalid arguments, nothing was sent:/);
    expect(user.asked).toEqual([]);
    await client.close();
  });

  it("asks the user by elicitation: accepted, the call runs", async () => {
    const user: User = {
      answer: { action: "accept", content: { approve: true } },
      asked: [],
    };
    const audit: AuditRecord[] = [];
    const url = await serve({ audit: (a) => audit.push(a) });
    const client = await connect(url, revision, user);
    const args = createArgs();
    const r = await callTool(client, "accounts_create", args);
    expect(r.isError).toBeFalsy();
    // One record for the call: the round that asked is not one.
    expect(audit.map((a) => [a.tool, a.outcome])).toEqual([
      ["accounts_create", "ok"],
    ]);
    expect(r.structuredContent).toMatchObject({
      account: { id: "acct-1", name: "approved" },
    });
    expect(user.asked).toEqual([
      `Allow the call of "accounts_create"? Arguments: ${JSON.stringify(args)}`,
    ]);
    expect(created()).toHaveLength(1);
    await client.close();
  });

  it("asks the user by elicitation: declined, cancelled or not approved, nothing sent", async () => {
    for (const answer of [
      { action: "decline" as const },
      { action: "cancel" as const },
      { action: "accept" as const, content: { approve: false } },
    ]) {
      const user: User = { answer, asked: [] };
      const url = await serve();
      const client = await connect(url, revision, user);
      const r = await callTool(client, "accounts_create", createArgs());
      expect(r.isError).toBe(true);
      expect(firstText(r)).toBe(deniedText);
      expect(user.asked).toHaveLength(1);
      await client.close();
    }
    expect(created()).toHaveLength(0);
  });
});

describe("approval state (2026-07-28)", () => {
  /** A client answering input_required itself. */
  async function manualClient(url: string): Promise<Client> {
    const client = new Client(
      { name: "test", version: "1.0.0" },
      {
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
        versionNegotiation: { mode: "auto" },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  }
  const accept = { approval: { action: "accept", content: { approve: true } } };
  const secret = "shared by the replicas, 32 bytes or more";

  async function ask(
    client: Client,
    args: Record<string, unknown>,
  ): Promise<string> {
    const first = (await client.callTool(
      { name: "accounts_create", arguments: args },
      { allowInputRequired: true },
    )) as unknown as {
      resultType: string;
      requestState: string;
      inputRequests: Record<string, { method: string; params: object }>;
    };
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests["approval"]?.method).toBe("elicitation/create");
    expect(first.inputRequests["approval"]?.params).toMatchObject({
      mode: "form",
      requestedSchema: {
        type: "object",
        properties: { approve: { type: "boolean", title: "Approve" } },
        required: ["approve"],
      },
    });
    return first.requestState;
  }

  async function retry(
    client: Client,
    args: object,
    requestState: string | undefined,
    handle?: string,
  ) {
    return (await client.callTool({
      name: "accounts_create",
      arguments: args,
      inputResponses: accept,
      ...(requestState === undefined ? {} : { requestState }),
      ...(handle === undefined
        ? {}
        : { _meta: { "ai-tools/conversation": handle } }),
    } as never)) as { isError?: boolean; content: { text: string }[] };
  }

  it("approves one call: the same answer sent again is denied", async () => {
    const client = await manualClient(await serve());
    const args = createArgs();
    const state = await ask(client, args);
    expect((await retry(client, args, state)).isError).toBeFalsy();
    const again = await retry(client, args, state);
    expect(again.isError).toBe(true);
    expect(again.content[0]?.text).toBe(deniedText);
    expect(created()).toHaveLength(1);
    await client.close();
  });

  it("keeps an approval refused for the concurrency limit unspent", async () => {
    const client = await manualClient(await serve({ maxConcurrentCalls: 1 }));
    const args = createArgs();
    const state = await ask(client, args);
    // A call without a conversation holds the subject's one place.
    grpc.holdNextList();
    const abort = new AbortController();
    const held = client
      .callTool(
        { name: "accounts_list", arguments: strictDefaults.accounts_list },
        { signal: abort.signal },
      )
      .catch((e: unknown) => e);
    await expect.poll(() => grpc.held.holding).toBe(1);
    const over = await retry(client, args, state);
    expect(over.content[0]?.text).toMatch(/^too many calls at once/);
    abort.abort();
    await held;
    await expect.poll(() => grpc.held.holding).toBe(0);
    // The state's nonce was not spent: the same answer approves the call.
    expect((await retry(client, args, state)).isError).toBeFalsy();
    expect(created()).toHaveLength(1);
    await client.close();
  });

  it("denies a state asked in another conversation", async () => {
    const client = await manualClient(await serve());
    const listed = await client.callTool({
      name: "accounts_list",
      arguments: strictDefaults.accounts_list,
    });
    const handle = listed._meta?.["ai-tools/conversation"] as string;
    expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const args = createArgs();
    // Asked without a conversation, answered in the one of handle.
    const state = await ask(client, args);
    const r = await retry(client, args, state, handle);
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toBe(deniedText);
    expect(created()).toHaveLength(0);
    await client.close();
  });

  it("refuses an approvalSecret under 32 bytes", () => {
    for (const approvalSecret of ["short", new Uint8Array(31)]) {
      expect(() => createMcpToolServer({ approvalSecret })).toThrow(
        `approvalSecret must be at least 32 bytes (got ${String(approvalSecret.length)})`,
      );
    }
  });

  it("runs the call the state was signed for, and only that one", async () => {
    const url = await serve({ approvalSecret: secret });
    const client = await manualClient(url);
    const args = createArgs();
    const state = await ask(client, args);
    // Another call's arguments, a forged state, no state: not approved.
    for (const [a, s] of [
      [{ ...args, name: "other" }, state],
      [args, `${state.slice(0, -2)}AA`],
      [args, undefined],
    ] as const) {
      const r = await retry(client, a, s);
      expect(r.isError).toBe(true);
      expect(r.content[0]?.text).toBe(deniedText);
    }
    expect(created()).toHaveLength(0);
    const ok = await retry(client, args, state);
    expect(ok.isError).toBeFalsy();
    expect(created()).toHaveLength(1);
    await client.close();
  });

  it("takes a state of another replica with the same secret, not of another secret", async () => {
    const a = await manualClient(await serve({ approvalSecret: secret }));
    const args = createArgs();
    const state = await ask(a, args);
    const b = await manualClient(await serve({ approvalSecret: secret }));
    expect((await retry(b, args, state)).isError).toBeFalsy();
    const c = await manualClient(
      await serve({ approvalSecret: "another secret of 32 bytes or more" }),
    );
    expect((await retry(c, args, state)).content[0]?.text).toBe(deniedText);
    for (const client of [a, b, c]) await client.close();
  });
});
