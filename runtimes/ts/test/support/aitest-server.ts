// An in-process gRPC server of aitest.v1 (e2e/vectors/proto), for the
// executor tests: AccountService with fresh UUIDs (accounts, notes,
// contacts), FixupService echoing, and a hook answering the next call with
// a given status (the `server` cases of e2e/vectors/errors).
import { create } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  type Interceptor,
} from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createGrpcTransport,
} from "@connectrpc/connect-node";
import { randomUUID } from "node:crypto";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import {
  AccountSchema,
  AccountService,
  ContactSchema,
  FixupService,
  NoteSchema,
  type Account,
} from "../src/gen/aitest/v1/vectors_pb.js";

export interface AitestServer {
  /** The server's base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** A gRPC transport to the server. */
  readonly transport: ReturnType<typeof createGrpcTransport>;
  /**
   * Requests received, by method name (with the deadline the client sent,
   * in milliseconds, for ListAccounts).
   */
  readonly calls: { method: string; request: unknown; timeoutMs?: number }[];
  /** The request metadata of every call, in order (keys lower case). */
  readonly metadata: Record<string, string>[];
  /** Account ids the server created. */
  readonly accounts: Map<string, Account>;
  /**
   * Answer the next call (of any method) with this status; the call is
   * still recorded in `calls`.
   */
  failNext(
    code: Code,
    message: string,
    details?: ConnectError["details"],
  ): void;
  /**
   * Hold the next ListAccounts call until its client cancels it (or its
   * deadline passes); the call is still recorded in `calls`.
   */
  holdNextList(): void;
  /** The held calls in progress, and how many the server saw cancelled. */
  readonly held: { holding: number; cancelled: number };
  close(): Promise<void>;
}

function newAccount(
  name: string,
  ownerId: string,
  noteCount: number,
  contactCount = 0,
): Account {
  const id = randomUUID();
  return create(AccountSchema, {
    id,
    name,
    ownerId,
    workspaceId: randomUUID(),
    notes: Array.from({ length: noteCount }, (_, i) =>
      create(NoteSchema, { id: randomUUID(), text: `note ${i}` }),
    ),
    tags: { env: "test" },
    contacts: Array.from({ length: contactCount }, (_, i) =>
      create(ContactSchema, {
        id: randomUUID(),
        email: `c${i}@example.com`,
        ownerId: id,
        externalId: randomUUID(),
      }),
    ),
  });
}

export async function startAitestServer(): Promise<AitestServer> {
  const calls: { method: string; request: unknown; timeoutMs?: number }[] = [];
  const accounts = new Map<string, Account>();
  const remember = (a: Account) => {
    accounts.set(a.id, a);
    return a;
  };
  let failure: ConnectError | undefined;
  let holdList = false;
  const held = { holding: 0, cancelled: 0 };
  /** Wait for the call's cancellation, then fail it as the server saw it. */
  const hold = async (signal: AbortSignal) => {
    held.holding++;
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener("abort", () => resolve(), { once: true });
    });
    held.holding--;
    held.cancelled++;
    throw new ConnectError("cancelled by the client", Code.Canceled);
  };
  const record = (method: string, request: unknown) => {
    calls.push({ method, request });
    const f = failure;
    failure = undefined;
    if (f !== undefined) {
      throw f;
    }
  };
  const routes = (router: ConnectRouter) => {
    router.service(AccountService, {
      createAccount(req) {
        record("CreateAccount", req);
        return {
          account: remember(
            newAccount(req.name, req.ownerId, req.noteCount, req.contactCount),
          ),
        };
      },
      async listAccounts(req, ctx) {
        record("ListAccounts", req);
        const timeoutMs = ctx.timeoutMs();
        if (timeoutMs !== undefined) calls.at(-1)!.timeoutMs = timeoutMs;
        if (holdList) {
          holdList = false;
          await hold(ctx.signal);
        }
        return {
          accounts: Array.from({ length: req.count }, (_, i) =>
            remember(
              newAccount(`a${i}`, randomUUID(), 0, req.contactsPerAccount),
            ),
          ),
        };
      },
      mergeAccounts(req) {
        record("MergeAccounts", req);
        const target = accounts.get(req.targetId);
        if (!accounts.has(req.sourceId)) {
          throw new ConnectError(
            `account ${req.sourceId} not found`,
            Code.NotFound,
          );
        }
        if (target === undefined) {
          throw new ConnectError(
            `account ${req.targetId} not found`,
            Code.NotFound,
          );
        }
        return { account: target, receivedSourceId: req.sourceId };
      },
      // eslint-disable-next-line @typescript-eslint/require-await -- Connect's server-streaming handler is an async generator; this one has nothing to await
      async *watchAccounts(req) {
        record("WatchAccounts", req);
        for (let i = 0; i < req.count; i++) {
          yield remember(newAccount(`w${i}`, randomUUID(), 0));
        }
      },
    });
    router.service(FixupService, {
      echoStrict(req) {
        record("EchoStrict", req);
        return req;
      },
      echoLoose(req) {
        record("EchoLoose", req);
        return req;
      },
    });
  };
  const metadata: Record<string, string>[] = [];
  const recordMetadata: Interceptor = (next) => (req) => {
    const headers: Record<string, string> = {};
    req.header.forEach((value, key) => {
      headers[key] = value;
    });
    metadata.push(headers);
    return next(req);
  };
  const server = http2.createServer(
    connectNodeAdapter({ routes, interceptors: [recordMetadata] }),
  );
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const transport = createGrpcTransport({
    baseUrl: `http://127.0.0.1:${port}`,
  });
  return {
    url: `http://127.0.0.1:${port}`,
    transport,
    calls,
    metadata,
    accounts,
    failNext(code, message, details) {
      failure = new ConnectError(message, code);
      // Details sent as bytes (a google.rpc.BadRequest written by hand).
      failure.details = details ?? [];
    },
    holdNextList() {
      holdList = true;
    },
    held,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Sessions the transport keeps open would hold close() forever.
        for (const s of sessions) s.destroy();
      }),
  };
}
