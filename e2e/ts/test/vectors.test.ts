// The shared error vectors (e2e/vectors/errors/*.json) through the executor
// generated from e2e/vectors/proto (src/gen/vectors/ai_tools.gen.ts),
// against the runtime's aitest server on a real socket; and the generated
// registration table at work on the account fixtures.
import { createAliasManager } from "@protoc-gen-ai-tools/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startAitestServer,
  type AitestServer,
} from "../../../runtimes/ts/test/support/aitest-server.js";
import { defineErrorVectorTests } from "../../../runtimes/ts/test/support/error-vectors.js";
import {
  aliasConfig,
  allTools,
  createExecutor,
} from "../src/gen/vectors/ai_tools.gen.js";

let server: AitestServer;

beforeAll(async () => {
  server = await startAitestServer();
});

afterAll(async () => {
  await server.close();
});

describe("error vectors, generated executor", () => {
  defineErrorVectorTests(
    { describe, it, expect },
    () => createExecutor(server.transport),
    () => server,
  );
});

describe("generated registration table", () => {
  it("numbers 12 accounts and their 24 contacts each under its own prefix", async () => {
    const executor = createExecutor(server.transport);
    const out = JSON.parse(
      await executor.execute(
        "accounts_list",
        `{"count":12,"contacts_per_account":2}`,
      ),
    ) as {
      accounts: { id: string; contacts: { id: string; owner_id: string }[] }[];
    };
    expect(out.accounts.map((a) => a.id)).toEqual(
      Array.from({ length: 12 }, (_, i) => `acct-${i + 1}`),
    );
    expect(out.accounts.flatMap((a) => a.contacts.map((c) => c.id))).toEqual(
      Array.from({ length: 24 }, (_, i) => `contact-${i + 1}`),
    );
    // Contact.owner_id names the account: shown as the account's alias.
    for (const a of out.accounts) {
      for (const c of a.contacts) expect(c.owner_id).toBe(a.id);
    }
  });

  it("shares one alias manager between executors and hand-written tools", async () => {
    const shared = createAliasManager(aliasConfig);
    const a = createExecutor(server.transport, { aliasManager: shared });
    const b = createExecutor(server.transport, { aliasManager: shared });
    await a.execute(
      "accounts_create",
      `{"name":"x","owner_id":"","note_count":0,"contact_count":0}`,
    );
    expect(b.aliases).toBe(shared);
    expect(shared.resolveAlias("acct-1")).not.toBe("acct-1");
  });

  it("freezes the generated tools; adapters' copies leave them alone", () => {
    const [tool] = allTools();
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool!.parameters)).toBe(true);
    const before = JSON.stringify(allTools());
    allTools().pop();
    expect(JSON.stringify(allTools())).toBe(before);
  });
});
