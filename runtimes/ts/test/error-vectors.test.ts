// Runs the shared error vectors (e2e/vectors/errors/*.json) unchanged,
// through the runtime's executor and the hand-written tables of
// support/aitest-tools.ts, against the aitest server on a real socket.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor } from "../src/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";
import { loadErrorVectors, runErrorCase } from "./support/error-vectors.js";

let server: AitestServer;

beforeAll(async () => {
  server = await startAitestServer();
});

afterAll(async () => {
  await server.close();
});

const vectors = loadErrorVectors();

describe("error vectors", () => {
  it("finds the vector files", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(1);
  });

  for (const [file, vector] of vectors) {
    describe(file, () => {
      for (const c of vector.cases) {
        it(c.name, async () => {
          const executor = createExecutor(server.transport, {
            methods: aitestMethods,
            aliases: aitestAliases,
          });
          const got = await runErrorCase(vector, c, executor, server);
          expect(got).toEqual({ expect: c.expect, sent: c.sent });
        });
      }
    });
  }
});
