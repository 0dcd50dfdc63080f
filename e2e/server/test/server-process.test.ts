import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { expect, it } from "vitest";
import { LinkService } from "../src/gen/linkhub/v1/links_pb.js";
import { startServerProcess } from "../src/server-process.js";

// startServerProcess: dist/main.js as its own process, as the suites whose
// workers run in other processes use it.

it("starts dist/main.js, serves gRPC at its address, and stops on close", async () => {
  const server = await startServerProcess();
  expect(server.address).toMatch(/^127\.0\.0\.1:[0-9]+$/);
  expect(server.pid).toBeGreaterThan(0);
  const links = createClient(
    LinkService,
    createGrpcTransport({ baseUrl: `http://${server.address}` }),
  );
  expect((await links.listLinks({ workspaceId: "w" })).links).toEqual([]);
  await server.close();
  await server.close(); // idempotent
  expect(() => process.kill(server.pid, 0)).toThrow();
});
