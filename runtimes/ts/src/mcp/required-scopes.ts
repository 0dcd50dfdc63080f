/**
 * Check the `requiredScopes` option: each scope an RFC 6749 scope token
 * (it is written into `WWW-Authenticate` challenges). Throws an Error
 * naming the tool and the scope.
 */
export function checkRequiredScopes(
  requiredScopes: Readonly<Record<string, readonly string[]>> | undefined,
): void {
  for (const [tool, scopes] of Object.entries(requiredScopes ?? {})) {
    for (const s of scopes) {
      if (!scopeToken.test(s)) {
        throw new Error(
          `requiredScopes: scope ${JSON.stringify(s)} of tool ${JSON.stringify(tool)} is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)`,
        );
      }
    }
  }
}

/** An RFC 6749 scope-token: %x21 / %x23-5B / %x5D-7E, at least one. */
const scopeToken = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
