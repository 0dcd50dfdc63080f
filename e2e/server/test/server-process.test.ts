import { createClient } from "@connectrpc/connect";
import { readFileSync } from "node:fs";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { expect, it } from "vitest";
import { LinkService } from "../src/gen/linkhub/v1/links_pb.js";
import { startServerProcess, testTlsFiles } from "../src/server-process.js";

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

it("serves gRPC over TLS with the committed test certificates, trusted through the test CA", async () => {
  const server = await startServerProcess({ tls: testTlsFiles });
  try {
    const ca = readFileSync(testTlsFiles.ca);
    for (const host of ["127.0.0.1", "localhost"]) {
      const port = server.address.split(":")[1]!;
      const links = createClient(
        LinkService,
        createGrpcTransport({
          baseUrl: `https://${host}:${port}`,
          nodeOptions: { ca },
        }),
      );
      expect((await links.listLinks({ workspaceId: "w" })).links).toEqual([]);
    }
    // Without the CA the certificate is not trusted.
    const untrusted = createClient(
      LinkService,
      createGrpcTransport({ baseUrl: `https://${server.address}` }),
    );
    await expect(untrusted.listLinks({ workspaceId: "w" })).rejects.toThrow(
      /certificate/,
    );
  } finally {
    await server.close();
  }
});
