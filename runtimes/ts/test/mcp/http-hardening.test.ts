// The HTTP server's hardening over real sockets: graceful shutdown (calls
// in flight finish, new requests are refused), the connection cap, and the
// Host/Origin allow-lists' defaults by bind address.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { once } from "node:events";
import { describe, expect, it, vi } from "vitest";
import {
  checkHostOrigin,
  hostOriginPolicy,
  isLoopbackHost,
} from "../../src/mcp/host-origin.js";
import {
  createMcpHttpHandler,
  createMcpToolServer,
  serveHttp,
  type McpToolServer,
} from "../../src/mcp/index.js";
import { modernRpc, send } from "../support/http-request.js";

/** A tool server whose tools/list waits until `release()`. */
function heldServer(): {
  server: McpToolServer;
  entered: Promise<void>;
  release: () => void;
} {
  const base = createMcpToolServer();
  let enter = () => {};
  const entered = new Promise<void>((resolve) => (enter = resolve));
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: McpToolServer = {
    ...base,
    createSdkServer(scope) {
      const sdk = base.createSdkServer(scope);
      sdk.removeRequestHandler("tools/list");
      sdk.setRequestHandler("tools/list", async () => {
        enter();
        await released;
        return { tools: [] };
      });
      return sdk;
    },
  };
  return { server, entered, release };
}

const list = modernRpc("tools/list");

describe("graceful shutdown", () => {
  it("refuses new requests with 503 while the calls in flight finish", async () => {
    const { server, entered, release } = heldServer();
    const handler = await createMcpHttpHandler(server);
    const http = createServer((req, res) => void handler(req, res));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    const url = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}/mcp`;
    try {
      const held = send(url, list);
      await entered;
      const shutdown = handler.shutdown(60_000);
      const refused = await send(url, list);
      expect(refused.status).toBe(503);
      expect(refused.headers.connection).toBe("close");
      expect(JSON.parse(refused.text)).toEqual({
        error: "shutting_down",
        error_description:
          "the server is shutting down: retry on another instance",
      });
      let done = false;
      void shutdown.then(() => (done = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(done).toBe(false);
      release();
      expect((await held).status).toBe(200);
      await shutdown;
    } finally {
      http.close();
    }
  });

  it("close() stops listening and returns once the call in flight is answered", async () => {
    const { server, entered, release } = heldServer();
    const running = await serveHttp(server);
    const held = send(running.url, list);
    await entered;
    let closed = false;
    const closing = running.close().then(() => (closed = true));
    await expect(send(running.url, list)).rejects.toThrow(/ECONNREFUSED/);
    expect(closed).toBe(false);
    release();
    const answer = await held;
    expect(answer.status).toBe(200);
    await closing;
    expect(closed).toBe(true);
  });

  it("ends a call still running after shutdownGraceMs", async () => {
    const { server, entered, release } = heldServer();
    const running = await serveHttp(server, { shutdownGraceMs: 50 });
    const held = send(running.url, list);
    await entered;
    await running.close();
    // Ended: the SDK answers what it has (499), or the connection is reset.
    const outcome = await held.then(
      (r) => r.status,
      () => "reset",
    );
    expect(outcome).not.toBe(200);
    release();
  });
});

describe("slow bodies", () => {
  it("answers 408 and closes a connection whose body is not all there within 30 s", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const running = await serveHttp(createMcpToolServer());
    const { port } = new URL(running.url);
    try {
      const socket = connect(Number(port), "127.0.0.1");
      await once(socket, "connect");
      socket.write(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
      );
      // The body's deadline is the one timer the gate sets.
      while (vi.getTimerCount() === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      const answered = new Promise<string>((resolve) => {
        let text = "";
        socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
        socket.once("close", () => resolve(text));
      });
      vi.advanceTimersByTime(29_999);
      await new Promise((resolve) => setImmediate(resolve));
      expect(socket.closed).toBe(false);
      vi.advanceTimersByTime(1);
      const text = await answered;
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(/\{.*\}/.exec(text)?.[0] ?? "")).toEqual({
        error: "request_timeout",
        error_description: "the request body did not arrive within 30 s",
      });
      expect((await send(running.url, list)).status).toBe(200);
    } finally {
      vi.useRealTimers();
      await running.close();
    }
  });
});

describe("connections", () => {
  it("closes connections over maxConnections, and still answers the others", async () => {
    const running = await serveHttp(createMcpToolServer(), {
      maxConnections: 2,
    });
    const { port } = new URL(running.url);
    const open = async (): Promise<Socket> => {
      const socket = connect(Number(port), "127.0.0.1");
      await once(socket, "connect");
      return socket;
    };
    try {
      const first = await open();
      const second = await open();
      const third = await open();
      await once(third, "close");
      first.write(
        `GET /nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`,
      );
      const [answer] = (await once(first, "data")) as [Buffer];
      expect(answer.toString("latin1")).toMatch(/^HTTP\/1\.1 404 /);
      first.destroy();
      second.destroy();
    } finally {
      await running.close();
    }
  });
});

describe("Host and Origin allow-lists", () => {
  const request = (host: string, origin?: string) =>
    ({
      headers: { host, ...(origin === undefined ? {} : { origin }) },
    }) as IncomingMessage;
  const refusal = (
    policy: ReturnType<typeof hostOriginPolicy>,
    host: string,
    origin?: string,
  ) => checkHostOrigin(request(host, origin), policy)?.code;

  it("on a non-loopback address: the public URL's host and origin, and the loopback names", () => {
    const policy = hostOriginPolicy(
      { publicUrl: "https://tools.example.com/mcp" },
      false,
    );
    expect(refusal(policy, "tools.example.com")).toBeUndefined();
    expect(refusal(policy, "TOOLS.example.com:443")).toBeUndefined();
    expect(refusal(policy, "localhost:8080")).toBeUndefined();
    expect(refusal(policy, "evil.example.com")).toBe("forbidden_host");
    expect(
      refusal(policy, "tools.example.com", "https://tools.example.com"),
    ).toBeUndefined();
    expect(refusal(policy, "tools.example.com", "http://localhost:5173")).toBe(
      "forbidden_origin",
    );
    expect(refusal(policy, "tools.example.com", "null")).toBe(
      "forbidden_origin",
    );
  });

  it("takes host:port entries and origins as configured", () => {
    const policy = hostOriginPolicy(
      {
        allowedHosts: ["api.internal:8443"],
        allowedOrigins: ["https://app.example.com:443"],
      },
      true,
    );
    expect(refusal(policy, "api.internal:8443")).toBeUndefined();
    expect(refusal(policy, "api.internal:80")).toBe("forbidden_host");
    expect(refusal(policy, "localhost")).toBe("forbidden_host");
    expect(
      refusal(policy, "api.internal:8443", "https://app.example.com"),
    ).toBeUndefined();
    expect(refusal(policy, "api.internal:8443", "http://localhost:3000")).toBe(
      "forbidden_origin",
    );
  });

  it("a handler the application mounts takes the loopback lists, and the public URL's", async () => {
    const handler = await createMcpHttpHandler(createMcpToolServer());
    const http = createServer((req, res) => void handler(req, res));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    const url = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}/mcp`;
    try {
      const answer = async (headers: Record<string, string>) => {
        const res = await send(url, {
          headers: { ...list.headers, ...headers },
          body: list.body,
        });
        return res.status === 200
          ? "ok"
          : (JSON.parse(res.text) as { error: string }).error;
      };
      expect(await answer({})).toBe("ok");
      expect(await answer({ origin: "http://localhost:5173" })).toBe("ok");
      expect(await answer({ host: "evil.example.com" })).toBe("forbidden_host");
      expect(await answer({ origin: "https://evil.example.com" })).toBe(
        "forbidden_origin",
      );
    } finally {
      http.close();
      await handler.close();
    }
    const policy = hostOriginPolicy(
      { publicUrl: "https://tools.example.com/mcp" },
      true,
    );
    expect(refusal(policy, "tools.example.com")).toBeUndefined();
    expect(
      refusal(policy, "tools.example.com", "https://tools.example.com"),
    ).toBeUndefined();
  });

  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["::", false],
    ["10.0.0.1", false],
    ["tools.example.com", false],
  ])("%s is loopback: %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
