// A local HTTP stub that records request bodies and answers 400, so an SDK
// client sends exactly one request (no retries on 400) and fails after.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface CaptureServer {
  readonly url: string;
  readonly requests: { method: string; path: string; body: unknown }[];
  close(): Promise<void>;
}

export async function startCaptureServer(): Promise<CaptureServer> {
  const requests: { method: string; path: string; body: unknown }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        body: text === "" ? undefined : JSON.parse(text),
      });
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: {
            message: "stub",
            type: "invalid_request_error",
            code: 400,
            status: "INVALID_ARGUMENT",
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
