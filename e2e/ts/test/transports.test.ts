// createExecutor(transport) takes any Connect transport: the same short
// conversation over the gRPC, gRPC-web and Connect protocols, each on HTTP/2
// to the test server. Aliases resolve to the exact UUIDs, invented aliases
// are refused before any request, and server errors keep their code.
import { Code, type Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import { describe, expect, it } from "vitest";
import { createExecutor } from "../src/gen/ai_tools.gen.js";
import {
  decodeRecorded,
  newUUID,
  recorded,
  resetServer,
  toolError,
  useServer,
  type ToolResult,
} from "./support.js";

const env = useServer();

const transports: Record<string, (baseUrl: string) => Transport> = {
  grpc: (baseUrl) => createGrpcTransport({ baseUrl }),
  "grpc-web": (baseUrl) =>
    createGrpcWebTransport({ baseUrl, httpVersion: "2" }),
  connect: (baseUrl) => createConnectTransport({ baseUrl, httpVersion: "2" }),
};

describe.each(Object.keys(transports))("over %s", (protocol) => {
  it("resolves aliases, refuses invented ones, keeps server error codes", async () => {
    await resetServer(env);
    const executor = createExecutor(transports[protocol]!(env.server.baseUrl));
    const ws = newUUID();
    const theme = JSON.parse(
      await executor.execute(
        "page_themes_create",
        JSON.stringify({
          workspace_id: ws,
          name: "T",
          background_color: "",
          font: "",
          palette: [],
        }),
      ),
    ) as ToolResult;
    expect(theme.page_theme.id).toBe("theme-1");
    const link = JSON.parse(
      await executor.execute(
        "links_create",
        JSON.stringify({
          workspace_id: ws,
          target_url: "https://example.com/t",
          slug: null,
          page_theme_id: "theme-1",
          labels: [],
          title: null,
          expire_after: null,
        }),
      ),
    ) as ToolResult;
    expect(link.link).toMatchObject({ id: "link-1", page_theme_id: "theme-1" });

    const themeId = executor.aliases.resolveAlias("theme-1");
    const [, createLink] = (await recorded(env)).map(decodeRecorded);
    expect(createLink?.message).toMatchObject({ pageThemeId: themeId });

    const before = (await recorded(env)).length;
    const invented = await toolError(
      executor.execute("links_get", `{"id":"link-9"}`),
    );
    expect(invented.message).toBe(
      'invalid arguments, nothing was sent:\n- "id": unknown alias "link-9"; valid link aliases: link-1',
    );
    expect((await recorded(env)).length).toBe(before);

    await executor.execute("links_delete", `{"id":"link-1"}`);
    const gone = await toolError(
      executor.execute("links_get", `{"id":"link-1"}`),
    );
    expect(gone.code).toBe(Code.NotFound);
    expect(gone.message).toContain('link "link-1" not found');
  });
});
