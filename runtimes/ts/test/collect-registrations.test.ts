// collectRegistrations against registerResponse on the shared alias vectors
// (e2e/vectors/aliases): at every step, a manager that registers what was
// collected, and one restored from a memory store's register of it, hold
// the state of the manager that called registerResponse.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  createAliasManager,
  createMemoryConversationStore,
  type AliasManager,
  type ResponseAliases,
} from "../src/index.js";

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/aliases",
);

interface Vector {
  knownPrefixes: string[];
  responseAliases?: ResponseAliases;
  steps: {
    op: string;
    prefix?: string;
    uuid?: string;
    tool?: string;
    json?: string;
  }[];
}

const files = readdirSync(dir).filter((f) => f.startsWith("register-response"));

describe("collectRegistrations", () => {
  it("finds the register-response vectors", () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  for (const file of files) {
    it(`${file}: collected then registered equals registerResponse`, async () => {
      const vector = JSON.parse(
        readFileSync(path.join(dir, file), "utf8"),
      ) as Vector;
      const config = {
        knownAliasPrefixes: vector.knownPrefixes,
        responseAliases: vector.responseAliases ?? { types: {}, tools: {} },
      };
      const store = createMemoryConversationStore();
      let handle = await store.create();
      let direct: AliasManager = createAliasManager(config);
      let collected: AliasManager = createAliasManager(config);
      let stored: AliasManager = createAliasManager(config);
      let calls = 0;
      for (const [i, step] of vector.steps.entries()) {
        const where = `${file} step ${i} (${step.op})`;
        const { epoch } = await store.load(handle);
        switch (step.op) {
          case "register":
            direct.register(step.prefix!, step.uuid!);
            collected.register(step.prefix!, step.uuid!);
            stored.restoreState(
              await store.register(handle, epoch, [[step.prefix!, step.uuid!]]),
            );
            break;
          case "registerResponse": {
            const pairs = stored.collectRegistrations(step.tool!, step.json!);
            expect(pairs, where).toEqual(
              collected.collectRegistrations(step.tool!, step.json!),
            );
            direct.registerResponse(step.tool!, step.json!);
            for (const [prefix, uuid] of pairs) {
              collected.register(prefix, uuid);
            }
            stored.restoreState(await store.register(handle, epoch, pairs));
            // Nothing left to collect once registered.
            expect(stored.collectRegistrations(step.tool!, step.json!)).toEqual(
              [],
            );
            calls++;
            break;
          }
          case "reset":
            direct = createAliasManager(config);
            collected = createAliasManager(config);
            stored = createAliasManager(config);
            handle = await store.create();
            break;
          default:
            continue;
        }
        expect(collected.exportState(), where).toBe(direct.exportState());
        expect(stored.exportState(), where).toBe(direct.exportState());
      }
      expect(calls).toBeGreaterThan(0);
    });
  }

  it("lists each new UUID once, in registration order, known ones left out", () => {
    const m = createAliasManager({
      knownAliasPrefixes: ["acct"],
      responseAliases: {
        types: {
          "t.R": [
            { field: "ids", prefix: "acct" },
            { field: "other", prefix: "user" },
          ],
        },
        tools: { t: { message: "t.R", idPrefix: "", idField: "" } },
      },
    });
    const [a, b, c] = [
      "0b6f0001-0000-4000-8000-000000000001",
      "0b6f0002-0000-4000-8000-000000000002",
      "0b6f0003-0000-4000-8000-000000000003",
    ];
    m.register("acct", b);
    const json = JSON.stringify({ ids: [a, b, a, c], other: c });
    expect(m.collectRegistrations("t", json)).toEqual([
      ["acct", a],
      ["acct", c],
    ]);
    expect(m.exportState()).toBe(
      `{"aliases":{"acct-1":"${b}"},"counters":{"acct":1},"version":1}`,
    );
    expect(m.collectRegistrations("nope", json)).toEqual([]);
    expect(m.collectRegistrations("t", "{not json")).toEqual([]);
  });

  it("reads a response in proto names as in JSON names (the tables name fields by JSON name)", () => {
    const config = {
      knownAliasPrefixes: ["acct", "user"],
      responseAliases: {
        types: {
          "t.R": [
            { field: "ownerId", prefix: "user" },
            { field: "mainAccount", message: "t.A" },
          ],
          "t.A": [{ field: "accountId", prefix: "acct" }],
        },
        tools: {
          t: { message: "t.R", idPrefix: "acct", idField: "mainAccount" },
        },
      },
    };
    const [u, a, b] = [
      "0b6f0001-0000-4000-8000-000000000001",
      "0b6f0002-0000-4000-8000-000000000002",
      "0b6f0003-0000-4000-8000-000000000003",
    ];
    const camel = JSON.stringify({
      ownerId: u,
      mainAccount: { id: a, accountId: b },
    });
    const snake = JSON.stringify({
      owner_id: u,
      main_account: { id: a, account_id: b },
    });
    const want = createAliasManager(config).collectRegistrations("t", camel);
    expect(want).toEqual([
      ["acct", a],
      ["user", u],
      ["acct", b],
    ]);
    expect(createAliasManager(config).collectRegistrations("t", snake)).toEqual(
      want,
    );
  });
});
