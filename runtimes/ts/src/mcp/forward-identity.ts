import { Code } from "@connectrpc/connect";
import { quote } from "../json.js";
import { ToolError } from "../tool-error.js";
import type { Identity } from "./identity.js";

/**
 * What of the caller's identity goes to the gRPC service, as request
 * metadata (docs/production.md, "Identity to the backend"). The client's bearer
 * token itself is never forwarded.
 */
export interface ForwardIdentity {
  /**
   * Metadata key (sent lower case) → claim name: `sub` is the verified
   * subject, any other name a claim of the token. A claim that is not a
   * string, number or boolean is sent as JSON; an absent one is not sent;
   * nothing is sent without authorization.
   */
  readonly metadata?: Readonly<Record<string, string>> | undefined;
  /**
   * Metadata to add to each call, e.g. `authorization` with a backend token
   * from an RFC 8693 exchange for the caller, or the application's own
   * credentials; called with `undefined` without authorization. A throw
   * fails the call, nothing sent.
   */
  readonly backendCredentials?:
    | ((identity: Identity | undefined) => Promise<Record<string, string>>)
    | undefined;
}

const metadataKey = /^[0-9a-zA-Z_.-]+$/;

/** Check the option; throws an Error naming a key that is not gRPC metadata. */
export function checkForwardIdentity(f: ForwardIdentity | undefined): void {
  for (const key of Object.keys(f?.metadata ?? {})) {
    if (!metadataKey.test(key) || key.toLowerCase().startsWith("grpc-")) {
      throw new Error(
        `forwardIdentity.metadata key ${quote(key)} is not a gRPC metadata key: use letters, digits, "-", "_" and "." (not "grpc-…"), e.g. "x-user-id"`,
      );
    }
  }
}

/**
 * Set the metadata of identity (undefined without authorization) on
 * headers. A value holding the client's token is refused (the MCP
 * specification forbids passing it through), as is a hook that fails:
 * both a ToolError naming the tool, nothing sent.
 */
export async function forwardIdentity(
  f: ForwardIdentity,
  identity: Identity | undefined,
  token: string | undefined,
  tool: string,
  headers: Headers,
): Promise<void> {
  const values: [string, string][] = [];
  for (const [key, claim] of Object.entries(
    identity === undefined ? {} : (f.metadata ?? {}),
  )) {
    const v = claim === "sub" ? identity?.subject : identity?.claims[claim];
    if (v !== undefined && v !== null) {
      values.push([key.toLowerCase(), metadataValue(v)]);
    }
  }
  if (f.backendCredentials !== undefined) {
    let added: Record<string, string>;
    try {
      added = await f.backendCredentials(identity);
    } catch {
      throw new ToolError(
        `the backend credentials of the call of ${quote(tool)} could not be obtained; nothing was sent`,
        { reason: "unavailable", code: Code.Unavailable },
      );
    }
    values.push(
      ...Object.entries(added).map(([k, v]): [string, string] => [
        k.toLowerCase(),
        String(v),
      ]),
    );
  }
  for (const [key, value] of values) {
    if (token !== undefined && token !== "" && value.includes(token)) {
      throw refused(tool, `metadata ${quote(key)} holds the client's token`);
    }
    try {
      headers.set(key, value);
    } catch {
      throw refused(tool, `metadata ${quote(key)} is not a valid header value`);
    }
  }
}

function metadataValue(v: unknown): string {
  switch (typeof v) {
    case "string":
      return v;
    case "number":
    case "boolean":
      return String(v);
    default:
      return JSON.stringify(v);
  }
}

function refused(tool: string, why: string): ToolError {
  return new ToolError(
    `the call of ${quote(tool)} could not carry the caller's identity (${why}); nothing was sent`,
    { reason: "not-approved", code: Code.PermissionDenied },
  );
}
