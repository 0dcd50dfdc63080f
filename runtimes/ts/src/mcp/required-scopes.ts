/**
 * Check the `requiredScopes` option: each scope an RFC 6749 scope token
 * (it is written into `WWW-Authenticate` challenges). Throws an Error
 * naming the tool and the scope.
 */
export function checkRequiredScopes(
  requiredScopes: Readonly<Record<string, readonly string[]>> | undefined,
): void {
  for (const [tool, scopes] of Object.entries(requiredScopes ?? {})) {
    checkScopeTokens(
      scopes,
      "requiredScopes",
      ` of tool ${JSON.stringify(tool)}`,
    );
  }
}

/**
 * Throw an Error naming the option (and `of`, the tool) for the first of
 * scopes that is not an RFC 6749 scope token.
 */
export function checkScopeTokens(
  scopes: readonly string[],
  option: string,
  of = "",
): void {
  const bad = scopes.find((s) => !scopeToken.test(s));
  if (bad !== undefined) {
    throw new Error(
      `${option}: scope ${JSON.stringify(bad)}${of} is not a valid scope token (RFC 6749: printable ASCII, no space, quote or backslash)`,
    );
  }
}

/** An RFC 6749 scope-token: %x21 / %x23-5B / %x5D-7E, at least one. */
const scopeToken = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
