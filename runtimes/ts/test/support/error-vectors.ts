// The shared error vectors (e2e/vectors/errors/*.json): loading them and
// running one case through an executor against an aitest server. Used by
// the runtime's tests (hand-written tables) and by e2e/ts (the generated
// executor); free of test-framework imports so that both can load it.
import { Code } from "@connectrpc/connect";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolError, type Executor } from "../../src/index.js";

/** One case of an error vector. */
export interface ErrorCase {
  readonly name: string;
  readonly tool: string;
  readonly args: string;
  readonly server?: { readonly code: string; readonly message: string };
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
  failNext(code: Code, message: string): void;
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
    server.failNext(connectCode(c.server.code), c.server.message);
  }
  const before = server.calls.length;
  let outcome: ErrorOutcome | undefined;
  try {
    await executor.execute(c.tool, c.args);
  } catch (e) {
    if (!(e instanceof ToolError)) {
      throw e;
    }
    outcome = {
      reason: e.reason,
      code: rpcCodeName(e.code),
      message: e.message,
      rawMessage: e.rawMessage,
    };
  }
  return { expect: outcome, sent: server.calls.length > before };
}
