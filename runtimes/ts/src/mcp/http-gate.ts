import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { createBearerGate } from "./bearer-gate.js";
import { checkHostOrigin, hostOriginPolicy } from "./host-origin.js";
import type { McpHttpOptions } from "./http-auth-options.js";
import { writeRefusal, writeRpcError } from "./http-refusal.js";
import { checkHttpOptions } from "./http-settings.js";
import {
  protectedResourceOf,
  writeProtectedResourceMetadata,
  type ProtectedResource,
} from "./protected-resource.js";
import { bodyTimeoutMs, closeAfterResponse, readBody } from "./read-body.js";
import { checkToolScopes } from "./scope-check.js";
import { callToolName } from "./search-first.js";
import { sortedUnique } from "./sorted-unique.js";
import type { McpToolServer } from "./tool-server.js";

/** A request the gate let through: its JSON body and its caller. */
export interface AdmittedRequest {
  /** The parsed JSON-RPC body of a POST; undefined for GET and DELETE. */
  readonly body: unknown;
  /** The token's subject; `""` without auth. */
  readonly subject: string;
}

/**
 * The checks of every request before the MCP SDK sees it, in order
 * (docs/production.md): Host, Origin, the protected resource metadata
 * (answered here), the body size, the bearer token, the server-wide and
 * the called tools' scopes.
 */
export interface HttpGate {
  /** The paths of the protected resource metadata; none without auth. */
  readonly metadataPaths: readonly string[];
  /**
   * Check a request: undefined when it has been answered (a refusal, the
   * metadata, a body that is not JSON), else its body and caller, with the
   * SDK's `AuthInfo` set as `req.auth` (both revisions read it).
   */
  admit(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<AdmittedRequest | undefined>;
}

/**
 * Create the gate of an endpoint. `loopback`: whether it listens on a
 * loopback address, or is a handler the application mounts (its address
 * unknown, the loopback lists apply).
 */
export async function createHttpGate(
  server: McpToolServer,
  options: McpHttpOptions,
  loopback: boolean,
): Promise<HttpGate> {
  const { maxBodyBytes } = checkHttpOptions(options);
  const policy = hostOriginPolicy(options, loopback);
  const resource =
    options.auth !== undefined && options.publicUrl !== undefined
      ? protectedResourceOf(options.publicUrl)
      : undefined;
  const bearer =
    options.auth !== undefined && resource !== undefined
      ? await createBearerGate(options.auth, resource)
      : undefined;
  const toolScopes = (tool: string) => server.requiredScopes(tool);
  return {
    metadataPaths: resource?.paths ?? [],
    async admit(req, res) {
      const refused = checkHostOrigin(req, policy);
      if (refused !== undefined) {
        return writeRefusal(res, refused);
      }
      if (resource !== undefined && isMetadataPath(req, resource)) {
        writeProtectedResourceMetadata(req.method, res, {
          resource: resource.resource,
          authorization_servers: authorizationServers(options),
          bearer_methods_supported: ["header"],
          scopes_supported: sortedUnique([
            ...(bearer?.scopes ?? []),
            ...server.listTools().flatMap((t) => toolScopes(t.name)),
          ]),
        });
        return undefined;
      }
      const read = await readJsonBody(req, res, maxBodyBytes);
      if (read === undefined) {
        return undefined;
      }
      if (bearer === undefined) {
        return { body: read.body, subject: "" };
      }
      const checked = await bearer.check(req);
      if ("refusal" in checked) {
        return writeRefusal(res, checked.refusal);
      }
      const refusal = checkToolScopes(
        read.body,
        checked.identity,
        toolScopes,
        bearer,
        server.options.searchFirst === undefined ? undefined : callToolName,
      );
      if (refusal !== undefined) {
        return writeRefusal(res, refusal);
      }
      // The SDK hands it to the handlers as ctx.http.authInfo.
      (req as IncomingMessage & { auth?: AuthInfo }).auth = checked.authInfo;
      return { body: read.body, subject: checked.identity.subject };
    },
  };
}

function isMetadataPath(
  req: IncomingMessage,
  resource: ProtectedResource,
): boolean {
  return resource.paths.includes(new URL(req.url ?? "/", "http://x").pathname);
}

function authorizationServers(options: McpHttpOptions): string[] {
  const auth = options.auth;
  if (auth === undefined) {
    return [];
  }
  return "issuer" in auth ? [auth.issuer] : [...auth.authorizationServers];
}

/**
 * The JSON body of a POST (`{body: undefined}` for other methods), or
 * undefined once answered: 413 past the limit (the connection closed when
 * too much was sent to drain it), 408 when it takes over 30 s (the
 * connection closed), 400 for text that is not JSON.
 */
async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
): Promise<{ body: unknown } | undefined> {
  if (req.method !== "POST") {
    return { body: undefined };
  }
  const read = await readBody(req, maxBodyBytes, bodyTimeoutMs);
  if ("timedOut" in read) {
    closeAfterResponse(req, res);
    return writeRefusal(res, {
      status: 408,
      code: "request_timeout",
      description: `the request body did not arrive within ${String(bodyTimeoutMs / 1000)} s`,
    });
  }
  if (read.text === undefined) {
    if (read.tooLarge === "cut") {
      closeAfterResponse(req, res);
    }
    return writeRefusal(res, {
      status: 413,
      code: "request_too_large",
      description: `the request body is over ${String(maxBodyBytes)} bytes`,
    });
  }
  try {
    return { body: JSON.parse(read.text) as unknown };
  } catch {
    return writeRpcError(res, 400, -32700, "Parse error: invalid JSON");
  }
}
