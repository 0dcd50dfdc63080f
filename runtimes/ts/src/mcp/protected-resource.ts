import type { ServerResponse } from "node:http";
import { writeRefusal } from "./http-refusal.js";

/** The well-known path of OAuth protected resource metadata (RFC 9728). */
const wellKnown = "/.well-known/oauth-protected-resource";

/**
 * The protected resource metadata of an MCP endpoint: where it is served
 * and what it says (RFC 9728).
 */
export interface ProtectedResource {
  /** The resource URI: the configured public URL, as written. */
  readonly resource: string;
  /** The URL of the metadata, path-inserted (the challenges' `resource_metadata`). */
  readonly metadataUrl: string;
  /** The paths it is served at: path-inserted, then the root. */
  readonly paths: readonly string[];
}

/**
 * The protected resource of a public URL: `https://h/mcp` has its metadata
 * at `https://h/.well-known/oauth-protected-resource/mcp`, served there and
 * at `/.well-known/oauth-protected-resource`.
 */
export function protectedResourceOf(publicUrl: string): ProtectedResource {
  const url = new URL(publicUrl);
  const path = url.pathname === "/" ? "" : url.pathname;
  return {
    resource: publicUrl,
    metadataUrl: `${url.origin}${wellKnown}${path}`,
    paths: path === "" ? [wellKnown] : [wellKnown + path, wellKnown],
  };
}

/** The metadata document's JSON. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly bearer_methods_supported: readonly string[];
  readonly scopes_supported: readonly string[];
}

/**
 * Answer a request for the metadata: 200 with the document to GET and
 * HEAD (cacheable for an hour, no token needed), 405 otherwise.
 */
export function writeProtectedResourceMetadata(
  method: string | undefined,
  res: ServerResponse,
  metadata: ProtectedResourceMetadata,
): void {
  if (method !== "GET" && method !== "HEAD") {
    writeRefusal(res, {
      status: 405,
      code: "method_not_allowed",
      description: `the protected resource metadata answers GET and HEAD, not ${JSON.stringify(method ?? "")}`,
      headers: { allow: "GET, HEAD" },
    });
    return;
  }
  const body = JSON.stringify(metadata);
  res.writeHead(200, {
    "content-type": "application/json",
    "cache-control": "max-age=3600",
    "content-length": Buffer.byteLength(body),
  });
  res.end(method === "GET" ? body : undefined);
}
