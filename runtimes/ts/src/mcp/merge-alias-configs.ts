import type {
  AliasConfig,
  ResponseAliasField,
  ResponseAliasTool,
} from "../alias-manager.js";

/**
 * One alias config holding the facts of several generated files (a server
 * may serve the tools of more than one): prefixes, message types and tools
 * united. Throws an Error when two files disagree about a tool.
 */
export function mergeAliasConfigs(
  configs: readonly AliasConfig[],
): AliasConfig {
  const unique = [...new Set(configs)];
  if (unique.length === 1 && unique[0] !== undefined) {
    return unique[0];
  }
  const prefixes = new Set<string>();
  const types: Record<string, readonly ResponseAliasField[]> = {};
  const tools: Record<string, ResponseAliasTool> = {};
  for (const c of unique) {
    c.knownAliasPrefixes.forEach((p) => prefixes.add(p));
    Object.assign(types, c.responseAliases.types);
    for (const [name, t] of Object.entries(c.responseAliases.tools)) {
      const known = tools[name];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(t)) {
        throw new Error(
          `tool ${JSON.stringify(name)} registers its response ids differently in two generated files: generate them together`,
        );
      }
      tools[name] = t;
    }
  }
  return {
    knownAliasPrefixes: [...prefixes].sort(),
    responseAliases: { types, tools },
  };
}
