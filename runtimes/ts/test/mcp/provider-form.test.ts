// McpServiceOptions.provider (docs/mcp.md, "Serving a provider's form"):
// a registration lists each tool's generated form for the provider and
// calls made with that form's arguments reach the real gRPC server as the
// default form's arguments do.
import { toJson, type JsonObject } from "@bufbuild/protobuf";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMcpToolServer,
  serveStdio,
  type McpProvider,
  type McpToolMethod,
  type McpToolServer,
} from "../../src/mcp/index.js";
import {
  startAitestServer,
  type AitestServer,
} from "../support/aitest-server.js";
import { aitestAliases } from "../support/aitest-tools.js";
import { generatedTool } from "../support/generated-tool.js";
import { callTool } from "../support/mcp-client.js";
import { aitestMcpMethods } from "../support/mcp-tools.js";
import {
  FixupRequestSchema,
  FixupService,
  type FixupRequest,
} from "../src/gen/aitest/v1/vectors_pb.js";

// fixup_strict as protoc-gen-ai-tools (target=ts) writes it for
// e2e/vectors/proto: a strict tool on the Item cycle, so its `parameters`
// is the stop variant and its openai and anthropic forms the recursive one
// (docs/compat.md, "Provider forms"); the other form keys are left out.
const generated = JSON.parse(
  readFileSync(
    new URL("../support/fixup-strict-tool.json", import.meta.url),
    "utf8",
  ),
) as {
  name: string;
  description: string;
  strict: boolean;
  parameters: JsonObject;
  forms: { openai: JsonObject; anthropic: JsonObject };
};

const fixupStrict: McpToolMethod = {
  tool: generatedTool(generated),
  method: FixupService.method.echoStrict,
  outputSchema: { type: "object" },
};

let grpc: AitestServer;

beforeAll(async () => {
  grpc = await startAitestServer();
});

afterAll(async () => {
  await grpc.close();
});

function register(
  server: McpToolServer,
  methods: readonly McpToolMethod[],
  provider?: string,
): void {
  server.addTools({
    methods,
    aliases: aitestAliases,
    transport: grpc.transport,
    provider: provider as McpProvider | undefined,
  });
}

async function connect(server: McpToolServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(server, { transport: serverSide });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("tools/list with a provider", () => {
  const cases: [McpProvider | undefined, JsonObject][] = [
    [undefined, generated.parameters],
    ["openai", generated.forms.openai],
    ["anthropic", generated.forms.anthropic],
    // No gemini key: the generator wrote none, the form is `parameters`.
    ["gemini", generated.parameters],
  ];
  for (const [provider, want] of cases) {
    it(`serves the generated ${provider ?? "default"} form`, async () => {
      const server = createMcpToolServer();
      register(server, [fixupStrict], provider);
      const client = await connect(server);
      const { tools } = await client.listTools();
      expect(tools[0]?.inputSchema).toEqual({ ...want, type: "object" });
      await client.close();
    });
  }

  it("refuses an unknown provider at registration", () => {
    const server = createMcpToolServer();
    expect(() => register(server, [fixupStrict], "mistral")).toThrow(
      'unknown provider "mistral": use "openai", "anthropic" or "gemini"',
    );
    expect(server.listTools()).toEqual([]);
  });

  it("refuses a tool without generated forms at registration, adding none", () => {
    const server = createMcpToolServer();
    // fixup_strict has its forms; accounts_create (written by hand) has none.
    const methods = [
      fixupStrict,
      ...aitestMcpMethods.filter((m) => m.tool.name !== "fixup_strict"),
    ];
    expect(() => register(server, methods, "openai")).toThrow(
      'provider "openai": tool "accounts_create" has no generated "openai" form; generate with providers=openai (or without providers=), or register a tool written by hand without a provider',
    );
    expect(server.listTools()).toEqual([]);
  });
});

describe("tools/call with a provider's form", () => {
  // Every field of FixupRequest but the nullable ones (the optional note
  // and level, the oneof kind), as the default form's arguments may give it.
  const given = {
    labels: [{ key: "k", value: "v" }],
    items_by_num: [],
    flags: [],
    attrs: [],
    extra: '"x"',
    list: [],
    item: { name: "a", counts: [], payload: "1", children: [], owner_id: "" },
    items: [],
    values: [],
    value_map: [],
    display_name: "d",
    count: 2,
    enabled: true,
    timeout: "1s",
    data: "",
    levels: [],
  };
  // The OpenAI form's: every property present, the optional ones null.
  const openai = {
    ...given,
    note: null,
    level: null,
    text: null,
    number: null,
    nested: null,
    other_text: null,
  };

  async function echoed(
    provider: McpProvider | undefined,
    args: Record<string, unknown>,
  ): Promise<FixupRequest> {
    const server = createMcpToolServer();
    register(server, [fixupStrict], provider);
    const client = await connect(server);
    const before = grpc.calls.length;
    const r = await callTool(client, "fixup_strict", args);
    await client.close();
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(grpc.calls.slice(before).map((c) => c.method)).toEqual([
      "EchoStrict",
    ]);
    return grpc.calls.at(-1)!.request as FixupRequest;
  }

  it("reaches the server as the same request the default form's arguments make", async () => {
    const byDefault = await echoed(undefined, given);
    const byOpenAi = await echoed("openai", openai);
    expect(toJson(FixupRequestSchema, byOpenAi)).toEqual(
      toJson(FixupRequestSchema, byDefault),
    );
    expect(byDefault.displayName).toBe("d");
    expect(byDefault.item?.name).toBe("a");
  });

  it("sends the recursion only the OpenAI form lists", async () => {
    const child = { name: "b", counts: [], payload: "2", owner_id: "" };
    const request = await echoed("openai", {
      ...openai,
      item: { ...openai.item, children: [{ ...child, children: [] }] },
    });
    expect(request.item?.children.map((c) => c.name)).toEqual(["b"]);
  });
});
