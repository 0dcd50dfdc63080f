/**
 * The tool-layer flags of mcp-server.ts (issue 33 contract §5): approvals,
 * identity to the backend, scopes, limits, audit, and TLS to the gRPC
 * server. The same flags as e2e/go/cmd/linkhub-mcp and
 * e2e/py/scripts/mcp_server.py.
 */
import { readFileSync } from "node:fs";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  createJsonLinesAuditWriter,
  type McpToolServerOptions,
} from "@protoc-gen-ai-tools/runtime/mcp";

/** The flags, for `parseArgs`. */
export const toolFlags = {
  approve: { type: "string" },
  "approval-secret": { type: "string" },
  "forward-claims": { type: "string" },
  "required-scope": { type: "string", multiple: true },
  "rate-limit": { type: "string" },
  "max-concurrent-calls": { type: "string" },
  audit: { type: "boolean" },
  "grpc-tls-ca": { type: "string" },
} as const;

/** The usage line of the flags. */
export const toolFlagsUsage =
  "[--approve allow|deny] [--approval-secret S] [--forward-claims key=claim,...] [--required-scope tool=scope]... [--rate-limit N] [--max-concurrent-calls N] [--audit] [--grpc-tls-ca FILE]";

/** The values `parseArgs` gives for {@link toolFlags}. */
export interface ToolFlagValues {
  approve?: string;
  "approval-secret"?: string;
  "forward-claims"?: string;
  "required-scope"?: string[];
  "rate-limit"?: string;
  "max-concurrent-calls"?: string;
  audit?: boolean;
  "grpc-tls-ca"?: string;
}

/** A bad flag value: the reason, for stderr and exit code 1. */
export class FlagError extends Error {}

function pairs(
  flag: string,
  text: string,
  example: string,
): [string, string][] {
  return text.split(",").map((pair) => {
    const at = pair.indexOf("=");
    if (at <= 0 || at === pair.length - 1) {
      throw new FlagError(
        `${flag} ${JSON.stringify(text)}: write key=value pairs, e.g. ${example}`,
      );
    }
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

function positive(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) {
    return undefined;
  }
  const n = Number(text);
  if (!(Number.isSafeInteger(n) && n > 0)) {
    throw new FlagError(
      `${flag}: ${JSON.stringify(text)} is not a positive whole number`,
    );
  }
  return n;
}

/** The tool server options the flags ask for; throws a FlagError for a bad value. */
export function toolServerOptions(v: ToolFlagValues): McpToolServerOptions {
  const options: {
    -readonly [K in keyof McpToolServerOptions]: McpToolServerOptions[K];
  } = {};
  if (v.approve !== undefined) {
    if (v.approve !== "allow" && v.approve !== "deny") {
      throw new FlagError(
        `--approve: ${JSON.stringify(v.approve)} is not allow or deny`,
      );
    }
    const allow = v.approve === "allow";
    options.approve = () => Promise.resolve(allow);
  }
  if (v["approval-secret"] !== undefined) {
    options.approvalSecret = v["approval-secret"];
  }
  if (v["forward-claims"] !== undefined) {
    options.forwardIdentity = {
      metadata: Object.fromEntries(
        pairs(
          "--forward-claims",
          v["forward-claims"],
          "x-user-id=sub,x-tenant=tenant",
        ),
      ),
    };
  }
  const scopes: Record<string, string[]> = {};
  for (const given of v["required-scope"] ?? []) {
    for (const [tool, scope] of pairs(
      "--required-scope",
      given,
      "links_delete=links.delete",
    )) {
      (scopes[tool] ??= []).push(scope);
    }
  }
  if (Object.keys(scopes).length > 0) {
    options.requiredScopes = scopes;
  }
  const rate = positive("--rate-limit", v["rate-limit"]);
  if (rate !== undefined) {
    options.rateLimit = { callsPerMinute: rate };
  }
  options.maxConcurrentCalls = positive(
    "--max-concurrent-calls",
    v["max-concurrent-calls"],
  );
  if (v.audit === true) {
    options.audit = createJsonLinesAuditWriter(process.stderr);
  }
  return options;
}

/** The transport to the gRPC server at `grpc` (host:port or URL): TLS trusting `--grpc-tls-ca`, else plaintext. */
export function grpcTransport(grpc: string, v: ToolFlagValues) {
  const caFile = v["grpc-tls-ca"];
  const hostPort = grpc.replace(/^[a-z]+:\/\//, "");
  if (caFile === undefined) {
    return createGrpcTransport({
      baseUrl: grpc.includes("://") ? grpc : `http://${grpc}`,
    });
  }
  let ca: Buffer;
  try {
    ca = readFileSync(caFile);
  } catch (e) {
    throw new FlagError(
      `--grpc-tls-ca ${JSON.stringify(caFile)}: ${(e as Error).message}`,
    );
  }
  return createGrpcTransport({
    baseUrl: `https://${hostPort}`,
    nodeOptions: { ca },
  });
}
