import {
  defineToolSearch,
  type ConversationStore,
} from "@protoc-gen-ai-tools/runtime";
import {
  createMcpToolServer,
  serveHttp,
  serveStdio,
  type McpToolServer,
} from "@protoc-gen-ai-tools/runtime/mcp";
import { GeneratorError } from "../errors.js";
import type { GeneratorModel } from "../model/model.js";
import { createBackendTransport } from "./backend-transport.js";
import { generatedMethodDescription } from "../model/method-description.js";
import { noToolsWarning } from "../model/no-tools.js";
import { buildRequestModel } from "../plugin.js";
import {
  createDescriptorSetSource,
  type DescriptorSource,
} from "./descriptor-source.js";
import { GatewayError } from "./gateway-error.js";
import {
  gatewayHelp,
  parseGatewayFlags,
  type GatewayFlags,
} from "./gateway-flags.js";
import { filesToGenerate, gatewayRequest } from "./gateway-request.js";
import { gatewayRegistry, gatewayToolSets } from "./gateway-tools.js";
import { unauthenticatedNote } from "./gateway-http-flags.js";
import { createReflectionSource } from "./reflection-source.js";
import { createGatewayStore, type GatewayStore } from "./gateway-store.js";

/** Writes a line of the gateway's log: stderr (stdout is the stdio transport). */
export function logLine(message: string): void {
  process.stderr.write(`protoc-gen-ai-tools mcp: ${message}\n`);
}

/**
 * The source `flags` name: the descriptor set when given (`--grpc` then
 * only names the server to call), otherwise the `--grpc` server's
 * reflection (over TLS with `--grpc-tls-ca`).
 */
function sourceOf(flags: GatewayFlags): DescriptorSource {
  if (flags.descriptorSet !== undefined) {
    return createDescriptorSetSource(flags.descriptorSet);
  }
  const server = flags.grpc ?? flags.target;
  return createReflectionSource(
    server,
    createBackendTransport(server, flags.grpcTlsCa),
  );
}

/** The validator of tools with `validate`, from @bufbuild/protovalidate when installed. */
async function validatorFor(validate: boolean) {
  if (!validate) {
    return undefined;
  }
  try {
    const { createValidator } = await import("@bufbuild/protovalidate");
    return createValidator();
  } catch {
    throw new GatewayError(
      "some tools check buf.validate rules (validate): install @bufbuild/protovalidate beside protoc-gen-ai-tools (npm install @bufbuild/protovalidate)",
    );
  }
}

/**
 * Build the MCP server of `flags`: descriptors from the source, the model
 * as the plugin builds it (target=ts, mcp=true), the runtime's tool server
 * fed from it, its calls going to `flags.target` over gRPC (plaintext).
 */
export async function createGateway(
  flags: GatewayFlags,
  store?: ConversationStore,
): Promise<{ server: McpToolServer; summary: string }> {
  const source = sourceOf(flags);
  const files = await source.load();
  const request = gatewayRequest(
    files,
    filesToGenerate(files, flags.files, source.label),
    flags.parameter,
  );
  const warn = (m: string) => logLine(`warning: ${m}`);
  const built = buildRequestModel(request, warn);
  const { model } = built;
  if (model.tools.length === 0) {
    const why = noToolsWarning(built.files, built.selection);
    throw new GatewayError(
      `no method of the ${source.label} becomes a tool${why === undefined ? ": --tools, --include and --exclude leave none" : `: ${why}`}`,
    );
  }
  built.checker.finish(model.tools);
  built.problems.throwIfAny();
  const generated = model.tools.filter(
    (t) => t.description === generatedMethodDescription(t.method),
  ).length;
  const registry = gatewayRegistry(files);
  const transport = createBackendTransport(flags.target, flags.grpcTlsCa);
  const server = createMcpToolServer({
    name: "protoc-gen-ai-tools",
    registry,
    conversationStore: store,
    idleTtlMs: flags.storeTtlMs,
    searchFirst: searchFirstOf(model, flags.searchFirst),
  });
  const validator = await validatorFor(model.tools.some((t) => t.validate));
  const lenientArguments = built.options.common["lenient_arguments"] === "true";
  const sets = gatewayToolSets(
    model,
    registry,
    transport,
    flags.provider !== undefined,
  );
  // The descriptions and schemas (the output schemas read lazily) are
  // made: the comments are no longer needed in memory, nor while the
  // tools are listed for the runtime (bench/README.md, "Gateway").
  for (const file of files) {
    file.sourceCodeInfo = undefined;
  }
  for (const set of sets) {
    server.addTools({
      ...set,
      validator,
      lenientArguments,
      provider: flags.provider,
    });
  }
  const searchFirst =
    flags.searchFirst === undefined
      ? ""
      : `; search-first, ${flags.searchFirst.alwaysLoaded.length} always loaded`;
  const summary = `${model.tools.length} tools from ${model.mcpServices.length} services of the ${source.label}, ${generated} with generated descriptions; calls go to ${flags.target}${flags.grpcTlsCa === undefined ? "" : " (TLS)"}${searchFirst}`;
  return { server, summary };
}

/**
 * The search-first option of `--search-first`: the model's tool-search data
 * (namespaces and the index the plugin writes with tool_search=true, built
 * here from the model), each `--always-loaded` name a tool of the model.
 */
function searchFirstOf(
  model: GeneratorModel,
  flag: GatewayFlags["searchFirst"],
) {
  if (flag === undefined) {
    return undefined;
  }
  const names = new Set(model.tools.map((t) => t.name));
  for (const name of flag.alwaysLoaded) {
    if (!names.has(name)) {
      throw new GatewayError(
        `--always-loaded ${JSON.stringify(name)}: no tool has that name; give a name tools/list gives without --search-first`,
      );
    }
  }
  return {
    search: defineToolSearch(model.toolSearchJson),
    alwaysLoaded: flag.alwaysLoaded,
  };
}

/** The message of an error thrown while starting: the input's fault, or a bug. */
function errorMessage(e: unknown): string {
  if (e instanceof GatewayError || e instanceof GeneratorError) {
    return e.message;
  }
  return `internal error (please report it): ${e instanceof Error ? e.message : String(e)}`;
}

/**
 * `protoc-gen-ai-tools mcp ARGS`: serve the tools of an API over MCP
 * (stdio, or streamable HTTP with `--http`, its conversations on Redis
 * with `--redis`). Bad input is one line on stderr and exit code 2.
 */
export async function runGateway(args: readonly string[]): Promise<void> {
  let flags: GatewayFlags;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let redis: GatewayStore | undefined;
  try {
    flags = parseGatewayFlags(args);
    if (flags.help) {
      process.stdout.write(`${gatewayHelp}\n`);
      return;
    }
    if (flags.redis !== undefined) {
      redis = await createGatewayStore(flags.redis, flags.storeTtlMs, logLine);
    }
    gateway = await createGateway(flags, redis?.store);
  } catch (e) {
    logLine(errorMessage(e));
    await redis?.close();
    process.exitCode = 2;
    return;
  }
  if (flags.http === undefined) {
    serveStdio(gateway.server, { onerror: (e) => logLine(e.message) });
    logLine(`${gateway.summary}; serving stdio`);
    return;
  }
  await serveGatewayHttp(gateway, flags.http, redis);
}

/** Serve `gateway` over HTTP until SIGTERM or SIGINT; exit code 2 if it cannot start. */
async function serveGatewayHttp(
  gateway: Awaited<ReturnType<typeof createGateway>>,
  options: NonNullable<GatewayFlags["http"]>,
  redis: GatewayStore | undefined,
): Promise<void> {
  let http: Awaited<ReturnType<typeof serveHttp>>;
  try {
    http = await serveHttp(gateway.server, options);
  } catch (e) {
    // serveHttp's refusals (a bad --public-url, --auth-scope, a missing
    // jose) are written for the person starting it.
    logLine(`--http: ${e instanceof Error ? e.message : String(e)}`);
    await redis?.close();
    process.exitCode = 2;
    return;
  }
  const store = redis === undefined ? "" : "; conversations on Redis";
  const auth =
    options.auth !== undefined && "issuer" in options.auth
      ? `; bearer tokens of ${options.auth.issuer}`
      : "";
  const open = unauthenticatedNote(options, http.url);
  logLine(`${gateway.summary}; serving ${http.url}${auth}${store}${open}`);
  const stop = () =>
    void http
      .close()
      .then(() => redis?.close())
      .then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
