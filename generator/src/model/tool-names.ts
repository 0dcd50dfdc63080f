/** Tool names every provider accepts (docs/compat.md, "What providers accept"). */
export const toolNamePattern = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/**
 * Why a tool name would be refused by a provider, or undefined when it is
 * accepted everywhere.
 */
export function toolNameProblem(name: string): string | undefined {
  if (name === "") {
    return `tool name is empty; set a name in the rpc_tool option, e.g. name: "links_create"`;
  }
  if (toolNamePattern.test(name)) {
    return undefined;
  }
  return (
    `tool name ${JSON.stringify(name)} is refused by model providers; ` +
    `use 1 to 64 letters, digits, "_" or "-", starting with a letter or "_" (${toolNamePattern.source})`
  );
}
