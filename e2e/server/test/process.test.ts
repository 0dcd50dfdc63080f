import { createClient } from "@connectrpc/connect";
import {
  createGrpcTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LinkService } from "../src/gen/linkhub/v1/links_pb.js";
import { WorkflowService } from "../src/gen/linkhub/v1/workflows_pb.js";

// The server as the end-to-end tests run it: `node dist/main.js`.

const main = resolve(import.meta.dirname, "..", "dist", "main.js");
const readyLine = /^ready 127\.0\.0\.1:(\d+)\n$/;

interface Started {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
    }
  }
});

async function startProcess(args: string[] = []): Promise<Started> {
  const child = spawn(process.execPath, [main, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null }>(
    (done) => child.once("exit", (code, signal) => done({ code, signal })),
  );
  const port = await new Promise<number>((done, fail) => {
    child.stdout?.on("data", (chunk: string) => {
      stdout += chunk;
      const match = readyLine.exec(stdout);
      if (match !== null) {
        done(Number(match[1]));
      }
    });
    void exited.then(({ code }) =>
      fail(new Error(`server exited with ${code} before ready: ${stderr}`)),
    );
  });
  return { child, port, stdout: () => stdout, stderr: () => stderr, exited };
}

async function ping(port: number): Promise<string> {
  const sessionManager = new Http2SessionManager(`http://127.0.0.1:${port}`);
  try {
    const transport = createGrpcTransport({
      baseUrl: `http://127.0.0.1:${port}`,
      sessionManager,
    });
    const links = createClient(LinkService, transport);
    const { link } = await links.createLink({
      workspaceId: "ws",
      targetUrl: "https://example.com",
    });
    expect((await links.getLink({ id: link?.id ?? "" })).link).toEqual(link);
    const { serverTime } = await createClient(WorkflowService, transport).ping(
      {},
    );
    return serverTime;
  } finally {
    sessionManager.abort();
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const address = probe.address();
  await new Promise<void>((done) => probe.close(() => done()));
  if (address === null || typeof address === "string") {
    throw new Error("no port");
  }
  return address.port;
}

describe("node dist/main.js", () => {
  beforeAll(() => {
    if (!existsSync(main)) {
      throw new Error(`${main} is missing: run "pnpm build" first`);
    }
  });

  it("prints only the ready line, serves gRPC and exits when stdin closes", async () => {
    const started = await startProcess();
    expect(started.port).toBeGreaterThan(0);
    expect(await ping(started.port)).not.toBe("");
    started.child.stdin?.end();
    expect(await started.exited).toEqual({ code: 0, signal: null });
    expect(started.stdout()).toBe(`ready 127.0.0.1:${started.port}\n`);
    expect(started.stderr()).toBe("");
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "exits cleanly on %s",
    async (signal) => {
      const started = await startProcess();
      await ping(started.port);
      started.child.kill(signal);
      expect(await started.exited).toEqual({ code: 0, signal: null });
      expect(started.stdout()).toBe(`ready 127.0.0.1:${started.port}\n`);
    },
  );

  it("listens on --port N", async () => {
    const port = await freePort();
    const started = await startProcess(["--port", String(port)]);
    expect(started.port).toBe(port);
    await ping(port);
    started.child.kill("SIGTERM");
    expect((await started.exited).code).toBe(0);
  });

  it("refuses a bad command line on stderr with status 2", async () => {
    const child = spawn(process.execPath, [main, "--port", "nope"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) =>
      child.once("close", done),
    );
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain('invalid port "nope"');
  });
});
