/**
 * The paragraph a request field that takes an alias ends its description
 * with, so that the model knows what to send: `An id alias such as
 * "acct-1".` for the prefix `acct`.
 */
function aliasNote(prefix: string): string {
  return `An id alias such as "${prefix}-1".`;
}

/**
 * `description` with the alias note of `prefix` ({@link aliasNote}) as its
 * own last paragraph, unless the description already names an alias of
 * that prefix as a word (`Use a page alias such as page-1.`).
 */
export function withAliasNote(description: string, prefix: string): string {
  if (namesAlias(description, prefix)) {
    return description;
  }
  const note = aliasNote(prefix);
  return description === "" ? note : `${description}\n\n${note}`;
}

/** True when `text` holds `<prefix>-<digits>` as a word. */
function namesAlias(text: string, prefix: string): boolean {
  const quoted = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w-])${quoted}-\\d+(?![\\w-])`).test(text);
}
