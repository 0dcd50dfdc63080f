// What the security suite starts besides the vector's server: the flags of
// its other servers, a run that must end at start-up, idle connections, and
// the official TypeScript client with a bearer token and an elicitation
// handler.
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { connect as netConnect, type Socket } from "node:net";
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { TestIssuer } from "@protoc-gen-ai-tools/testkit";
import type { Language } from "./languages.js";
import type { Revision } from "./raw-http.js";
import { vectorFlags } from "./security-vector.js";

/** The vector's flags without its approval hook (`--approve allow`). */
export function authFlags(issuer: TestIssuer): string[] {
  const flags = vectorFlags(issuer);
  const at = flags.indexOf("--approve");
  if (at >= 0) flags.splice(at, 2);
  return flags;
}

/** How a command that should not start ended. */
export interface Ended {
  /** Its exit code; "listening" when it started after all (then killed). */
  code: number | null | "listening";
  stderr: string;
}

/**
 * Run a language's HTTP server with flags that must stop it at start-up;
 * a server that starts anyway is stopped and reported as "listening".
 */
export function runToExit(
  language: Language,
  grpc: string,
  flags: string[],
): Promise<Ended> {
  const { command, args, env } = language.stdio(grpc, [
    "--http",
    "0",
    ...flags,
  ]);
  const child = spawn(command, args, {
    stdio: ["pipe", "pipe", "pipe"],
    ...(env === undefined ? {} : { env }),
  });
  let stderr = "";
  let listening = false;
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  child.stdout.on("data", (d: Buffer) => {
    if (d.toString("utf8").startsWith("listening")) {
      listening = true;
      child.kill("SIGKILL");
    }
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) =>
      resolve({ code: listening ? "listening" : code, stderr }),
    );
  });
}

/**
 * Open n connections to a port: half send nothing, half the start of a
 * request and no more (slow clients). Resolves once all are connected.
 */
export async function idleConnections(
  port: number,
  n: number,
): Promise<Socket[]> {
  return await Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise<Socket>((resolve, reject) => {
          const s = netConnect({ host: "127.0.0.1", port }, () => {
            if (i % 2 === 1)
              s.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            resolve(s);
          });
          s.on("error", (e) => {
            if (!s.connecting) return; // closed by the server later: fine
            reject(e);
          });
        }),
    ),
  );
}

/** What a user answers to the elicitation of an approval, and what it was shown. */
export interface User {
  readonly answer: {
    action: "accept" | "decline" | "cancel";
    content?: Record<string, boolean>;
  };
  readonly asked: string[];
}

/**
 * The official TypeScript client on revision, sending authorization on
 * every request, able to answer elicitations when a user is given.
 */
export async function connectWithToken(
  url: URL,
  revision: Revision,
  authorization: string,
  user?: User,
): Promise<Client> {
  const client = new Client(
    { name: "e2e-security", version: "1.0.0" },
    {
      capabilities: user === undefined ? {} : { elicitation: { form: {} } },
      versionNegotiation: {
        mode: revision === "2026-07-28" ? "auto" : "legacy",
      },
    },
  );
  if (user !== undefined) {
    client.setRequestHandler("elicitation/create", (request) => {
      user.asked.push(request.params.message);
      return Promise.resolve(user.answer);
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization } },
    }),
  );
  return client;
}

/** What a server answered to a body that stopped coming. */
export interface Trickled {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  /** Whether the server closed the connection after its answer. */
  readonly closed: boolean;
}

/**
 * POST a request announcing a 100-byte body, send 10 bytes of it and then
 * nothing; resolve with the server's answer once the connection closes
 * (or 5 s after the answer, `closed` false). Rejects after waitMs without
 * an answer.
 */
export function trickleBody(
  port: number,
  path: string,
  waitMs: number,
): Promise<Trickled> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path,
      agent: false,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": "100",
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${String(waitMs)} ms`));
    }, waitMs);
    req.on("error", () => undefined); // the close below tells
    req.on("response", (res) => {
      clearTimeout(timer);
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("error", () => undefined);
      const answer = (closed: boolean) => ({
        status: res.statusCode ?? 0,
        contentType: res.headers["content-type"] ?? "",
        text,
        closed,
      });
      const open = setTimeout(() => {
        resolve(answer(false));
        req.destroy();
      }, 5_000);
      req.socket?.once("close", () => {
        clearTimeout(open);
        resolve(answer(true));
      });
    });
    req.write('{"jsonrpc"'); // 10 of the 100 bytes announced
  });
}
