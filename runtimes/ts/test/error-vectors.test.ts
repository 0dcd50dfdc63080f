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
import { defineErrorVectorTests } from "./support/error-vectors.js";

let server: AitestServer;

beforeAll(async () => {
  server = await startAitestServer();
});

afterAll(async () => {
  await server.close();
});

describe("error vectors", () => {
  defineErrorVectorTests(
    { describe, it, expect },
    () =>
      createExecutor(server.transport, {
        methods: aitestMethods,
        aliases: aitestAliases,
      }),
    () => server,
  );
});
