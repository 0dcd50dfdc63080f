/**
 * The generated MCP server of the test API (linkhub.v1), forwarding to a
 * running test server:
 *
 *     node dist/mcp-server.js --grpc 127.0.0.1:PORT            # stdio
 *     node dist/mcp-server.js --grpc 127.0.0.1:PORT --http 0   # HTTP
 *
 * Over HTTP it prints one line, `listening http://127.0.0.1:<port>/mcp`, and
 * exits on SIGTERM, SIGINT or when its stdin (a pipe) ends; over stdio it
 * exits when its stdin ends. `--handle-argument` lists the `conversation`
 * argument in every tool's input schema. `--redis redis://HOST:PORT` keeps
 * the handles' conversations on Redis (docs/store.md), so that several
 * instances serve one handle. `--provider openai|anthropic|gemini` lists
 * each tool's generated form for that provider. `--search-first` serves the
 * search-first tool set over the generated `toolSearch` (docs/mcp.md,
 * "Search-first tool sets"), with `--always-loaded NAME` (repeatable)
 * listed from the start. The HTTP security flags (`--public-url`,
 * `--auth-issuer`, …) are in mcp-http-flags.ts; a start-up refusal exits 1
 * with its text on stderr, and SIGTERM drains the calls in flight. The
 * tool-layer flags (`--approve`, `--forward-claims`, `--audit`,
 * `--grpc-tls-ca`, …) are in tool-flags.ts; a bad value exits 1.
 */
import { fstatSync } from "node:fs";
import { parseArgs } from "node:util";
import { createRegistry } from "@bufbuild/protobuf";
import {
  createMcpToolServer,
  serveHttp,
  serveStdio,
  type ConversationStore,
  type McpProvider,
} from "@protoc-gen-ai-tools/runtime/mcp";
import { createRedisConversationStore } from "@protoc-gen-ai-tools/runtime/redis";
import { createClient } from "redis";
import {
  forwardToExportServiceClient,
  forwardToLinkServiceClient,
  forwardToOperationsClient,
  forwardToPageThemeServiceClient,
  forwardToSampleServiceClient,
  forwardToWorkflowServiceClient,
} from "./gen/ai_tools_mcp.gen.js";
import { toolSearch } from "./gen/ai_tools.gen.js";
import { file_linkhub_v1_control } from "./gen/linkhub/v1/control_pb.js";
import {
  httpFlags,
  httpFlagsUsage,
  serveHttpOptionsOf,
  type HttpFlagValues,
} from "./mcp-http-flags.js";
import {
  grpcTransport,
  toolFlags,
  toolFlagsUsage,
  toolServerOptions,
  type ToolFlagValues,
} from "./tool-flags.js";

const usage = `usage: node dist/mcp-server.js --grpc HOST:PORT [--handle-argument] [--redis redis://HOST:PORT] [--provider openai|anthropic|gemini] [--search-first [--always-loaded NAME]...] ${httpFlagsUsage} ${toolFlagsUsage}`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: HttpFlagValues &
    ToolFlagValues & {
      grpc?: string;
      "handle-argument"?: boolean;
      redis?: string;
      provider?: string;
      "search-first"?: boolean;
      "always-loaded"?: string[];
    };
  try {
    ({ values } = parseArgs({
      options: {
        ...httpFlags,
        ...toolFlags,
        grpc: { type: "string" },
        "handle-argument": { type: "boolean" },
        redis: { type: "string" },
        provider: { type: "string" },
        "search-first": { type: "boolean" },
        "always-loaded": { type: "string", multiple: true },
      },
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const grpc = values.grpc ?? fail("--grpc is required");
  let httpOptions: ReturnType<typeof serveHttpOptionsOf>;
  try {
    httpOptions = serveHttpOptionsOf(values);
  } catch (e) {
    fail((e as Error).message);
  }

  let toolOptions: ReturnType<typeof toolServerOptions>;
  let transport: ReturnType<typeof grpcTransport>;
  try {
    toolOptions = toolServerOptions(values);
    transport = grpcTransport(grpc, values);
  } catch (e) {
    // A bad tool flag value is a start-up refusal: exit code 1.
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }

  let conversationStore: ConversationStore | undefined;
  if (values.redis !== undefined) {
    const client = createClient({
      url: values.redis,
      disableOfflineQueue: true,
    });
    client.on("error", (e: Error) =>
      process.stderr.write(`mcp-server: redis: ${e.message}\n`),
    );
    await client.connect();
    conversationStore = createRedisConversationStore({ client });
  }
  const server = createMcpToolServer({
    name: "linkhub",
    version: "1.0.0",
    handleArgument: values["handle-argument"] === true,
    conversationStore,
    // The test server's error details (ResourceInfo, FieldViolation).
    registry: createRegistry(file_linkhub_v1_control),
    ...toolOptions,
    ...(values["search-first"] === true
      ? {
          searchFirst: {
            search: toolSearch,
            alwaysLoaded: values["always-loaded"],
          },
        }
      : {}),
  });
  // Operations before ExportService: GetOperation still writes the
  // ExportLinksResponse its operation holds (the server knows the types of
  // every registered service's files).
  // The runtime refuses a provider it does not know at registration.
  const options = { provider: values.provider as McpProvider | undefined };
  forwardToOperationsClient(server, transport, options);
  forwardToExportServiceClient(server, transport, options);
  forwardToLinkServiceClient(server, transport, options);
  forwardToPageThemeServiceClient(server, transport, options);
  forwardToSampleServiceClient(server, transport, options);
  forwardToWorkflowServiceClient(server, transport, options);

  if (httpOptions === undefined) {
    serveStdio(server, {
      onerror: (e) => process.stderr.write(`mcp: ${e.message}\n`),
    });
    return;
  }
  const http = await serveHttp(server, httpOptions);
  const stop = () => {
    void http.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  if (stdinIsPipe()) {
    process.stdin.on("end", stop);
    process.stdin.resume();
  }
  process.stdout.write(`listening ${http.url}\n`);
}

/** Whether stdin is a pipe or socket, whose end means the parent is gone. */
function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

main().catch((e: unknown) => {
  process.stderr.write(
    `mcp-server: ${e instanceof Error ? e.message : String(e)}\n`,
  );
  process.exit(1);
});
