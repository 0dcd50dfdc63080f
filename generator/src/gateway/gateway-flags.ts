import { parseArgs } from "node:util";
import type { McpProvider } from "@protoc-gen-ai-tools/runtime/mcp";
import { GatewayError } from "./gateway-error.js";
import {
  httpOptionsOf,
  httpSecurityFlags,
  type GatewayHttp,
} from "./gateway-http-flags.js";
import { gatewayRedisOf, type GatewayRedis } from "./gateway-store.js";

/** The usage line of `protoc-gen-ai-tools mcp`. */
export const gatewayUsage = `usage: protoc-gen-ai-tools mcp (--descriptor-set FILE --target HOST:PORT | --grpc HOST:PORT) [--grpc-tls-ca FILE] [--file NAME]...
  [--http HOST:PORT [--public-url URL] [--auth-issuer URL [--auth-jwks-url URL] [--auth-audience AUD] [--auth-scope SCOPE]...]
   [--allowed-host HOST]... [--allowed-origin ORIGIN]... [--allow-unauthenticated] [--redis URL | --redis-env NAME] [--store-ttl SECONDS]]
  [--tools annotated|all] [--include PATTERN]... [--exclude PATTERN]... [--trim-prefix PACKAGE]
  [--name-prefix PREFIX] [--schema inline|compact] [--providers NAME]... [--unannotated-tools read-only-run|run|ask]
  [--lenient-arguments] [--deprecated drop|keep] [--output-only-comments] [--provider openai|anthropic|gemini]
  [--search-first [--always-loaded NAME]...]`;

/** The plugin options the gateway takes as flags (`--trim-prefix` for `trim_prefix=`). */
const pluginFlags = {
  tools: { type: "string" },
  include: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  "trim-prefix": { type: "string" },
  "name-prefix": { type: "string" },
  schema: { type: "string" },
  providers: { type: "string", multiple: true },
  "unannotated-tools": { type: "string" },
  "lenient-arguments": { type: "boolean" },
  deprecated: { type: "string" },
  "output-only-comments": { type: "boolean" },
} as const;

/** The gateway's settings, from its command line. */
export interface GatewayFlags {
  /** `--help`: print the usage, nothing else. */
  readonly help: boolean;
  /** The FileDescriptorSet file. */
  readonly descriptorSet: string | undefined;
  /** The gRPC server to describe by reflection and call (`--grpc`). */
  readonly grpc: string | undefined;
  /** The gRPC server the tools call, `HOST:PORT` (plaintext). */
  readonly target: string;
  /** `--grpc-tls-ca FILE`: call the server over TLS trusting this CA. */
  readonly grpcTlsCa: string | undefined;
  /** `--http HOST:PORT` and its security flags, or undefined for stdio. */
  readonly http: GatewayHttp | undefined;
  /** `--redis URL` or `--redis-env NAME`: the conversation store of HTTP handles. */
  readonly redis: GatewayRedis | undefined;
  /** `--store-ttl SECONDS` in milliseconds: an unused conversation's life. */
  readonly storeTtlMs: number | undefined;
  /**
   * `--provider`: the provider whose generated form each tool lists as its
   * input schema (McpServiceOptions.provider), or undefined for the tools'
   * parameters.
   */
  readonly provider: McpProvider | undefined;
  /**
   * `--search-first`: serve a search-first tool set, with the
   * `--always-loaded` tools listed from the start; undefined to list every
   * tool.
   */
  readonly searchFirst:
    { readonly alwaysLoaded: readonly string[] } | undefined;
  /** The files whose services become tools (`--file`), or none for the default. */
  readonly files: readonly string[];
  /** The plugin parameter the flags make, for the plugin's own parseOptions. */
  readonly parameter: string;
}

/** `HOST:PORT` split, or a GatewayError naming the flag. */
export function hostPort(
  flag: string,
  value: string,
): { host: string; port: number } {
  const at = value.lastIndexOf(":");
  const host = value.slice(0, at).replace(/^\[(.*)\]$/, "$1");
  const port = Number(value.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new GatewayError(
      `${flag} ${JSON.stringify(value)}: write HOST:PORT, e.g. 127.0.0.1:50051`,
    );
  }
  return { host, port };
}

const providers: readonly string[] = ["openai", "anthropic", "gemini"];

/** `--provider NAME`, refused unless openai, anthropic or gemini. */
function providerOf(value: string | undefined): McpProvider | undefined {
  if (value !== undefined && !providers.includes(value)) {
    throw new GatewayError(
      `--provider ${JSON.stringify(value)}: write openai, anthropic or gemini (the provider whose generated form each tool lists), or leave it out for the tools' parameters`,
    );
  }
  return value as McpProvider | undefined;
}

/**
 * `--search-first` and its `--always-loaded` names (repeatable, or
 * comma-separated: tool names have no comma); `--always-loaded` alone is
 * refused.
 */
function searchFirstOf(
  on: boolean | undefined,
  alwaysLoaded: readonly string[] | undefined,
): GatewayFlags["searchFirst"] {
  const names = (alwaysLoaded ?? []).flatMap((v) => v.split(","));
  if (on !== true) {
    if (names.length > 0) {
      throw new GatewayError(
        "--always-loaded applies to --search-first only (without it every tool is listed): add --search-first, or leave it out",
      );
    }
    return undefined;
  }
  if (names.some((n) => n.trim() === "")) {
    throw new GatewayError(
      `--always-loaded ${JSON.stringify((alwaysLoaded ?? []).join(","))}: give tool names, e.g. --always-loaded links_get`,
    );
  }
  return { alwaysLoaded: [...new Set(names)] };
}

/** `--store-ttl SECONDS` in milliseconds, refused unless a positive whole number. */
function storeTtlMs(value: string | undefined): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const seconds = Number(value);
  if (
    !/^[0-9]+$/.test(value) ||
    !Number.isSafeInteger(seconds * 1000) ||
    seconds <= 0
  ) {
    throw new GatewayError(
      `--store-ttl ${JSON.stringify(value)}: write a positive whole number of seconds, e.g. 1800 (the default, 30 minutes)`,
    );
  }
  return seconds * 1000;
}

/**
 * The plugin parameter of the plugin-option flags: target=ts and mcp=true
 * (the tools the TypeScript MCP server would list), then each flag as its
 * option, for the plugin's parseOptions to check like any other.
 */
function parameterOf(values: Record<string, unknown>): string {
  const pairs = ["target=ts", "mcp=true"];
  for (const [flag, spec] of Object.entries(pluginFlags)) {
    const value = values[flag];
    if (value === undefined) {
      continue;
    }
    const key = flag.replaceAll("-", "_");
    const list: unknown[] = spec.type === "boolean" ? ["true"] : [value].flat();
    for (const item of list as string[]) {
      if (item.includes(",")) {
        throw new GatewayError(
          `--${flag} ${JSON.stringify(item)}: give one value per flag (repeat the flag) instead of a comma-separated list`,
        );
      }
      pairs.push(`${key}=${item}`);
    }
  }
  return pairs.join(",");
}

/** Parse the arguments after `mcp`. Throws GatewayError with the fix. */
export function parseGatewayFlags(args: readonly string[]): GatewayFlags {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        "descriptor-set": { type: "string" },
        grpc: { type: "string" },
        target: { type: "string" },
        http: { type: "string" },
        "grpc-tls-ca": { type: "string" },
        redis: { type: "string" },
        "redis-env": { type: "string" },
        "store-ttl": { type: "string" },
        ...httpSecurityFlags,
        file: { type: "string", multiple: true },
        provider: { type: "string" },
        "search-first": { type: "boolean" },
        "always-loaded": { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
        ...pluginFlags,
      },
    }));
  } catch (e) {
    throw new GatewayError(`${(e as Error).message}\n${gatewayUsage}`);
  }
  if (values.help === true) {
    return {
      help: true,
      descriptorSet: undefined,
      grpc: undefined,
      target: "",
      grpcTlsCa: undefined,
      http: undefined,
      redis: undefined,
      storeTtlMs: undefined,
      provider: undefined,
      searchFirst: undefined,
      files: [],
      parameter: "",
    };
  }
  const descriptorSet = values["descriptor-set"];
  const grpc = values.grpc;
  if (descriptorSet === undefined && grpc === undefined) {
    throw new GatewayError(
      `give --descriptor-set FILE (a set written by \`buf build -o FILE\`) or --grpc HOST:PORT\n${gatewayUsage}`,
    );
  }
  const target = values.target ?? grpc;
  if (target === undefined) {
    throw new GatewayError(
      `--descriptor-set needs --target HOST:PORT, the gRPC server the tools call\n${gatewayUsage}`,
    );
  }
  hostPort("--target", target);
  const http = httpOptionsOf(
    values.http === undefined ? undefined : hostPort("--http", values.http),
    values,
  );
  for (const flag of ["redis", "redis-env", "store-ttl"] as const) {
    if (values[flag] !== undefined && http === undefined) {
      throw new GatewayError(
        `--${flag} applies to --http only (over stdio the connection is one conversation, kept in memory): add --http HOST:PORT, or leave it out`,
      );
    }
  }
  return {
    help: false,
    descriptorSet,
    grpc,
    target,
    grpcTlsCa: values["grpc-tls-ca"],
    http,
    redis: gatewayRedisOf(values.redis, values["redis-env"], process.env),
    storeTtlMs: storeTtlMs(values["store-ttl"]),
    provider: providerOf(values.provider),
    searchFirst: searchFirstOf(values["search-first"], values["always-loaded"]),
    files: values.file ?? [],
    parameter: parameterOf(values),
  };
}

/** What `protoc-gen-ai-tools mcp --help` prints. */
export const gatewayHelp = `${gatewayUsage}

Serves the tools of a gRPC API over MCP, with no generated file: the tools
the generated TypeScript MCP server (target=ts,mcp=true) would list, made by
the plugin from the API's descriptors, each call sent to the gRPC server.

  --descriptor-set FILE  the API's descriptors: buf build -o FILE, or
                         protoc --descriptor_set_out=FILE --include_imports
                         --include_source_info (comments become descriptions)
  --grpc HOST:PORT       the descriptors by gRPC server reflection (v1, else
                         v1alpha), and the server to call
  --target HOST:PORT     the gRPC server the tools call
  --grpc-tls-ca FILE     reflection and calls over TLS, trusting this CA (PEM);
                         plaintext HTTP/2 without it
  --http HOST:PORT       streamable HTTP at /mcp instead of stdio; an address
                         other than loopback needs --auth-issuer or
                         --allow-unauthenticated
  --public-url URL       the URL clients use (https://tools.example.com/mcp);
                         needed with --auth-issuer
  --auth-issuer URL      require a bearer JWT from this issuer on every request
  --auth-jwks-url URL    its keys; by default from the issuer's metadata
                         (these two URLs, and --public-url with them, must be
                         https unless their host is loopback)
  --auth-audience AUD    the audience tokens must hold; --public-url by default
  --auth-scope SCOPE     a scope every token must hold (repeatable)
  --allowed-host HOST    a Host header accepted (repeatable); by default the
                         loopback names and --public-url's host
  --allowed-origin ORIGIN  an Origin header accepted (repeatable); by default
                         --public-url's origin (and loopback ones on loopback)
  --allow-unauthenticated  serve a non-loopback address without tokens: anyone
                         who reaches the port calls every tool
  --redis URL            keep HTTP conversations (handles) on Redis
                         (redis://HOST:PORT), shared by every gateway using it
  --redis-env NAME       --redis's URL from the environment variable NAME
                         (keeps a password out of the command line)
  --store-ttl SECONDS    how long an unused conversation or session lives
                         (1800 by default)
  --provider NAME        list each tool's generated form for this provider
                         (openai, anthropic or gemini) as its input schema,
                         instead of its parameters (docs/mcp.md, "Serving a
                         provider's form"); calls take that form's arguments
  --search-first         list search_tools (and the --always-loaded tools)
                         instead of every tool; the tools a search finds join
                         the connection's list (docs/mcp.md, "Search-first
                         tool sets"); the index is built at start-up
  --always-loaded NAME   a tool listed from the start with --search-first
                         (repeatable, or NAME,NAME)
  --file NAME            a file whose services become tools (repeatable); by
                         default every file declaring a service, but google/*,
                         grpc/*, buf/validate/* and ai/tools/* ones
  --tools, --include, --exclude, --trim-prefix, --name-prefix, --schema,
  --providers, --unannotated-tools, --lenient-arguments, --deprecated,
  --output-only-comments: the plugin options of the same name (protoc-gen-ai-tools --help)

gRPC reflection and health services are never tools. Logs go to stderr.
--auth-issuer needs the package jose, --redis the package redis (npm install).`;
