// The shared error vectors (e2e/vectors/errors/*.json): loading them and
// running one case through an executor against an aitest server. Used by
// the runtime's tests (hand-written tables) and by e2e/ts (the generated
// executor); free of test-framework imports so that both can load it.
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { Code, type ConnectError } from "@connectrpc/connect";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Executor, ToolError } from "../../src/index.js";

/** One case of an error vector. */
export interface ErrorCase {
  readonly name: string;
  readonly tool: string;
  readonly args: string;
  readonly server?: {
    readonly code: string;
    readonly message: string;
    /** The field violations of a google.rpc.BadRequest detail to send. */
    readonly badRequest?: readonly {
      readonly field: string;
      readonly description: string;
    }[];
  };
  readonly sent: boolean;
  readonly expect?: ErrorOutcome;
}

/** What a case checks, codes by their google.rpc.Code name. */
export interface ErrorOutcome {
  readonly reason: string;
  readonly code: string;
  readonly message: string;
  readonly rawMessage: string;
}

/** One file of e2e/vectors/errors. */
export interface ErrorVector {
  readonly name: string;
  readonly description: string;
  readonly register: readonly { prefix: string; uuid: string }[];
  readonly cases: readonly ErrorCase[];
}

/** What the aitest server must offer a case. */
export interface ErrorVectorServer {
  readonly calls: readonly unknown[];
  failNext(
    code: Code,
    message: string,
    details?: ConnectError["details"],
  ): void;
}

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../e2e/vectors/errors",
);

/** Every vector file, by file name. */
export function loadErrorVectors(): [file: string, vector: ErrorVector][] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => [
      f,
      JSON.parse(readFileSync(path.join(dir, f), "utf8")) as ErrorVector,
    ]);
}

/**
 * A google.rpc.BadRequest error detail, written field by field (no
 * googleapis package here): `repeated FieldViolation field_violations = 1`,
 * each `string field = 1; string description = 2`.
 */
export function badRequest(
  violations: readonly { field: string; description: string }[],
): ConnectError["details"][number] {
  const w = new BinaryWriter();
  for (const v of violations) {
    w.tag(1, 2)
      .fork()
      .tag(1, 2)
      .string(v.field)
      .tag(2, 2)
      .string(v.description)
      .join();
  }
  return { type: "google.rpc.BadRequest", value: w.finish() };
}

/** The google.rpc.Code name of a Connect code: `NOT_FOUND`. */
export function rpcCodeName(code: Code): string {
  if (code === Code.Canceled) {
    return "CANCELLED";
  }
  return (Code[code] ?? "Unknown")
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toUpperCase();
}

/** The Connect code of a google.rpc.Code name. */
export function connectCode(name: string): Code {
  for (const value of Object.values(Code)) {
    if (typeof value === "number" && rpcCodeName(value) === name) {
      return value;
    }
  }
  throw new Error(`unknown code ${JSON.stringify(name)}`);
}

/**
 * Run one case on a fresh executor (after the vector's registrations):
 * what it returned (`expect` undefined on success), and whether the server
 * received a call.
 */
export async function runErrorCase(
  vector: ErrorVector,
  c: ErrorCase,
  executor: Executor,
  server: ErrorVectorServer,
): Promise<{ expect: ErrorOutcome | undefined; sent: boolean }> {
  for (const r of vector.register) {
    executor.aliases.register(r.prefix, r.uuid);
  }
  if (c.server !== undefined) {
    server.failNext(
      connectCode(c.server.code),
      c.server.message,
      c.server.badRequest === undefined
        ? undefined
        : [badRequest(c.server.badRequest)],
    );
  }
  const before = server.calls.length;
  let outcome: ErrorOutcome | undefined;
  try {
    await executor.execute(c.tool, c.args);
  } catch (e) {
    // By name: e2e/ts loads the runtime's build, not this source.
    if (!(e instanceof Error) || e.name !== "ToolError") {
      throw e;
    }
    const err = e as ToolError;
    outcome = {
      reason: err.reason,
      code: rpcCodeName(err.code),
      message: err.message,
      rawMessage: err.rawMessage,
    };
  }
  return { expect: outcome, sent: server.calls.length > before };
}

/** The test functions {@link defineErrorVectorTests} declares tests with. */
export interface TestApi {
  readonly describe: (name: string, body: () => void) => void;
  readonly it: (name: string, body: () => Promise<void> | void) => void;
  readonly expect: (actual: unknown) => {
    toEqual(expected: unknown): void;
    toBeGreaterThanOrEqual(n: number): void;
  };
}

/**
 * Declare one test per case of every error vector: a fresh executor from
 * `executor()` per case, against `server()` (both read when the test runs).
 * The caller's vitest functions are passed in, so that the runtime's tests
 * and e2e/ts each use their own.
 */
export function defineErrorVectorTests(
  t: TestApi,
  executor: () => Executor,
  server: () => ErrorVectorServer,
): void {
  const vectors = loadErrorVectors();
  t.it("finds the error vector files", () => {
    t.expect(vectors.length).toBeGreaterThanOrEqual(1);
  });
  for (const [file, vector] of vectors) {
    t.describe(file, () => {
      for (const c of vector.cases) {
        t.it(c.name, async () => {
          const got = await runErrorCase(vector, c, executor(), server());
          t.expect(got).toEqual({ expect: c.expect, sent: c.sent });
        });
      }
    });
  }
}
