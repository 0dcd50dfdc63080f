// The security suite's slow case (issue 33): a request body that stops
// coming gets 408 after 30 s, and the connection is closed. The three
// languages' servers are sent theirs at once, so that the suite waits the
// 30 s once; each server answers another request meanwhile.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  languages,
  startHttp,
  type HttpServer,
  type LanguageName,
} from "./languages.js";
import { postRpc } from "./security-vector.js";
import { trickleBody, type Trickled } from "./security-servers.js";

const names: LanguageName[] = ["go", "py", "ts"];
const servers = new Map<LanguageName, HttpServer>();
const answers = new Map<LanguageName, Promise<Trickled>>();

beforeAll(async () => {
  const grpc = inject("grpc");
  await Promise.all(
    names.map(async (name) => {
      const server = await startHttp(languages[name], grpc);
      servers.set(name, server);
      const answer = trickleBody(Number(server.url.port), "/mcp", 60_000);
      answer.catch(() => undefined); // reported by the test
      answers.set(name, answer);
    }),
  );
});

afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

describe.concurrent("a body that stops coming", () => {
  it.each(names)(
    "%s: 10 of 100 announced bytes, then nothing: 408 request_timeout after 30 s, the connection closed; others answered meanwhile",
    async (name) => {
      const port = Number(servers.get(name)!.url.port);
      const meanwhile = await postRpc(port, { id: 1, method: "tools/list" });
      expect(meanwhile.status, meanwhile.text.slice(0, 300)).toBe(200);
      const answer = await answers.get(name)!;
      expect(answer.status, answer.text).toBe(408);
      expect(answer.contentType).toMatch(/^application\/json\b/);
      expect(JSON.parse(answer.text)).toEqual({
        error: "request_timeout",
        error_description: "the request body did not arrive within 30 s",
      });
      expect(answer.closed, "the connection was closed").toBe(true);
    },
  );
});
