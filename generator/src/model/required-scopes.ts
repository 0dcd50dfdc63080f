import { compareUtf8 } from "../schema/canonical-json.js";

/**
 * The `required_scopes` of a tool (docs/annotations.md): scopes a
 * caller's token must hold to call it over MCP HTTP, compared exactly.
 */

/** An RFC 6749 scope-token: %x21 / %x23-5B / %x5D-7E, at least one. */
const scopeToken = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Why the `required_scopes` of tool `name` cannot be used, or undefined:
 * each must be a non-empty RFC 6749 scope token (printable ASCII without
 * spaces, `"` or `\`).
 */
export function requiredScopesProblem(
  name: string,
  scopes: readonly string[],
): string | undefined {
  const bad = scopes.find((s) => !scopeToken.test(s));
  if (bad === undefined) {
    return undefined;
  }
  const what =
    bad === ""
      ? "an empty value"
      : `${JSON.stringify(bad)}, which is no scope token (RFC 6749: printable ASCII without spaces, quotes or backslashes)`;
  return `tool ${JSON.stringify(name)} has required_scopes ${what}; write each scope as its own value, e.g. required_scopes: ["links.read", "links.write"]`;
}

/** The scopes sorted (byte order) without repeats. */
export function normalizedScopes(scopes: readonly string[]): string[] {
  return [...new Set(scopes)].sort(compareUtf8);
}
