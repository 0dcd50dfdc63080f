import {
  Code,
  ConnectError,
  createClient,
  type Client,
} from "@connectrpc/connect";
import {
  createGrpcTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { expect } from "vitest";
import { Operations } from "../../src/gen/google/longrunning/operations_pb.js";
import { TestControlService } from "../../src/gen/linkhub/v1/control_pb.js";
import { ExportService } from "../../src/gen/linkhub/v1/exports_pb.js";
import { LinkService } from "../../src/gen/linkhub/v1/links_pb.js";
import { SampleService } from "../../src/gen/linkhub/v1/samples_pb.js";
import { PageThemeService } from "../../src/gen/linkhub/v1/themes_pb.js";
import { WorkflowService } from "../../src/gen/linkhub/v1/workflows_pb.js";
import { startServer, type RunningServer } from "../../src/linkhub-server.js";

/**
 * A server listening on a real socket, and gRPC clients for it (the gRPC
 * transport always speaks HTTP/2).
 */
export interface Harness {
  readonly server: RunningServer;
  readonly links: Client<typeof LinkService>;
  readonly themes: Client<typeof PageThemeService>;
  readonly workflows: Client<typeof WorkflowService>;
  readonly samples: Client<typeof SampleService>;
  readonly exports: Client<typeof ExportService>;
  readonly operations: Client<typeof Operations>;
  readonly control: Client<typeof TestControlService>;
  /** Closes the clients' HTTP/2 session, then the server. */
  close(): Promise<void>;
}

/**
 * Starts a server in process and connects gRPC clients to it.
 */
export async function startHarness(): Promise<Harness> {
  const server = await startServer();
  const sessionManager = new Http2SessionManager(server.baseUrl);
  const transport = createGrpcTransport({
    baseUrl: server.baseUrl,
    sessionManager,
  });
  return {
    server,
    links: createClient(LinkService, transport),
    themes: createClient(PageThemeService, transport),
    workflows: createClient(WorkflowService, transport),
    samples: createClient(SampleService, transport),
    exports: createClient(ExportService, transport),
    operations: createClient(Operations, transport),
    control: createClient(TestControlService, transport),
    async close() {
      sessionManager.abort();
      await server.close();
    },
  };
}

/**
 * Awaits `call`, expects it to fail with a ConnectError of `code`, and returns
 * the error.
 */
export async function expectConnectError(
  call: Promise<unknown>,
  code: Code,
): Promise<ConnectError> {
  let caught: unknown;
  try {
    await call;
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ConnectError);
  const err = caught as ConnectError;
  expect(Code[err.code]).toBe(Code[code]);
  return err;
}

/** Matches a UUID as `crypto.randomUUID()` writes it. */
export const uuidPattern =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
