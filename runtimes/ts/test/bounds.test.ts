// Bounded results and calls (docs/runtime.md, "Bounded results" and
// "Deadlines"): a result over maxResultBytes is refused, a stream cancelled
// once past it; each call carries a deadline (the tool's, the executor's,
// 30 s by default; the caller's when shorter), against the aitest server
// on a real socket, which holds a call until its client cancels it.
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ToolError,
  createExecutor,
  defaultMaxResultBytes,
  defaultTimeoutMs,
  type ExecutorConfig,
} from "../src/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";
import { createMcpToolServer } from "../src/mcp/index.js";

let server: AitestServer;

beforeAll(async () => {
  server = await startAitestServer();
});

afterAll(async () => {
  await server.close();
});

function executor(config: Partial<ExecutorConfig> = {}) {
  return createExecutor(server.transport, {
    methods: aitestMethods,
    aliases: aitestAliases,
    ...config,
  });
}

async function toolError(p: Promise<unknown>): Promise<ToolError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ToolError);
  return e as ToolError;
}

const list = (count: number) =>
  JSON.stringify({ count, contacts_per_account: 1 });

describe("maxResultBytes", () => {
  it("refuses a result over the limit, counting the text the model would see", async () => {
    const whole = await executor({ maxResultBytes: 0 }).execute(
      "accounts_list",
      list(20),
    );
    const bytes = Buffer.byteLength(whole);
    expect(bytes).toBeGreaterThan(2000);
    const err = await toolError(
      executor({ maxResultBytes: 2000 }).execute("accounts_list", list(20)),
    );
    expect([err.reason, err.code]).toEqual([
      "result-too-large",
      Code.ResourceExhausted,
    ]);
    expect(err.message).toBe(
      `result too large: ${bytes} bytes, over the limit of 2000; ask for less (a smaller page size or a filter)`,
    );
    // At the limit exactly: shown (the server's fresh UUIDs are as long).
    const atLimit = await executor({ maxResultBytes: bytes }).execute(
      "accounts_list",
      list(20),
    );
    expect(Buffer.byteLength(atLimit)).toBe(bytes);
  });

  it("is 100,000 bytes by default", async () => {
    expect(defaultMaxResultBytes).toBe(100_000);
    const err = await toolError(executor().execute("accounts_list", list(600)));
    expect(err.reason).toBe("result-too-large");
    expect(err.message).toMatch(
      /^result too large: \d+ bytes, over the limit of 100000; /,
    );
  });

  it("stops a stream once its text is over the limit", async () => {
    const err = await toolError(
      executor({ maxResultBytes: 5000 }).execute(
        "accounts_watch",
        `{"count":1000}`,
      ),
    );
    expect([err.reason, err.code, err.message]).toEqual([
      "result-too-large",
      Code.ResourceExhausted,
      "result too large: more than 5000 bytes; ask for less (a smaller page size or a filter)",
    ]);
    const items = JSON.parse(
      await executor({ maxResultBytes: 5000 }).execute(
        "accounts_watch",
        `{"count":3}`,
      ),
    ) as unknown[];
    expect(items).toHaveLength(3);
  });
});

describe("limits below 0", () => {
  it("are refused when the executor or the MCP server is made, naming the option", () => {
    expect(() => executor({ maxResultBytes: -1 })).toThrow(
      "maxResultBytes must be 0 (no limit) or a positive whole number of bytes, got -1",
    );
    expect(() => createMcpToolServer({ maxResultBytes: -1 })).toThrow(
      "maxResultBytes must be 0 (no limit)",
    );
    expect(() => executor({ timeoutMs: -5 })).toThrow(
      "timeoutMs must be 0 (no deadline) or a positive number of milliseconds, got -5",
    );
    expect(() => createMcpToolServer({ timeoutMs: -5 })).toThrow(
      "timeoutMs must be 0 (no deadline)",
    );
  });
});

describe("deadlines", () => {
  /** Run a held ListAccounts call; the error, once the server saw it end. */
  async function heldCall(
    run: (args: string) => Promise<string>,
  ): Promise<ToolError> {
    const cancelled = server.held.cancelled;
    server.holdNextList();
    const err = await toolError(run(list(1)));
    await vi.waitFor(() => expect(server.held.cancelled).toBe(cancelled + 1));
    return err;
  }

  it("sends 30 s by default", async () => {
    expect(defaultTimeoutMs).toBe(30_000);
    await executor().execute("accounts_list", list(1));
    const sent = server.calls.at(-1)?.timeoutMs;
    expect(sent).toBeGreaterThan(25_000);
    expect(sent).toBeLessThanOrEqual(30_000);
  });

  it("sends no deadline with timeoutMs 0, the caller's when given", async () => {
    const e = executor({ timeoutMs: 0 });
    await e.execute("accounts_list", list(1));
    expect(server.calls.at(-1)?.timeoutMs).toBeUndefined();
    await e.execute("accounts_list", list(1), { timeoutMs: 60_000 });
    expect(server.calls.at(-1)?.timeoutMs).toBeGreaterThan(55_000);
  });

  it("ends a call past the executor's deadline: DeadlineExceeded, the server sees it end", async () => {
    const e = executor({ timeoutMs: 100 });
    const err = await heldCall((args) => e.execute("accounts_list", args));
    expect([err.reason, err.code]).toEqual([
      "server-error",
      Code.DeadlineExceeded,
    ]);
    expect(err.message).toMatch(/^rpc error: code = DeadlineExceeded desc = /);
  });

  it("takes the tool's own deadline over the executor's", async () => {
    const e = executor({
      timeoutMs: 60_000,
      methods: aitestMethods.map((m) =>
        m.tool.name === "accounts_list" ? { ...m, timeoutMs: 100 } : m,
      ),
    });
    const err = await heldCall((args) => e.execute("accounts_list", args));
    expect(err.code).toBe(Code.DeadlineExceeded);
  });

  it("takes the caller's deadline when shorter, never when longer", async () => {
    const e = executor({ timeoutMs: 60_000 });
    let err = await heldCall((args) =>
      e.execute("accounts_list", args, { timeoutMs: 100 }),
    );
    expect(err.code).toBe(Code.DeadlineExceeded);
    const short = executor({ timeoutMs: 100 });
    err = await heldCall((args) =>
      short.execute("accounts_list", args, { timeoutMs: 60_000 }),
    );
    expect(err.code).toBe(Code.DeadlineExceeded);
  });

  it("a cancelled signal ends the held call: Canceled", async () => {
    const e = executor();
    const abort = new AbortController();
    const err = await heldCall((args) => {
      const p = e.execute("accounts_list", args, { signal: abort.signal });
      void vi
        .waitFor(() => expect(server.held.holding).toBe(1))
        .then(() => abort.abort());
      return p;
    });
    expect(err.code).toBe(Code.Canceled);
  });
});
