/**
 * The paragraph a request field that takes an alias ends its description
 * with, so that the model knows what to send: `An id alias such as
 * "acct-1".` for the prefix `acct`.
 */
export function aliasNote(prefix: string): string {
  return `An id alias such as "${prefix}-1".`;
}
