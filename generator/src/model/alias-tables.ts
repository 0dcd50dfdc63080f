import type { ToolModel } from "./model.js";
import {
  entityId,
  responseAliasTypes,
  type ResponseAliasField,
  type ResponseAliasTool,
} from "./response-aliases.js";
import { sortUtf8 } from "./utf8-order.js";

/**
 * The response registration tables of a generated file (docs/runtime.md,
 * "Response registration") and the alias prefixes it knows.
 */
export interface AliasTables {
  /**
   * The message types of the executed tools' responses that hold aliased
   * ids, sorted by full name, each with its fields in declaration order.
   */
  readonly responseAliasTypes: readonly (readonly [
    string,
    readonly ResponseAliasField[],
  ])[];
  /**
   * Per executed tool whose response registers anything, sorted by tool
   * name: its response message and top-level entity id rule.
   */
  readonly toolResponseAliases: readonly (readonly [
    string,
    ResponseAliasTool,
  ])[];
  /** Every alias prefix of `tools` and of the tables, sorted. */
  readonly knownAliasPrefixes: readonly string[];
}

/**
 * The tables for `tools` (sorted by name) of which `executed` (a sorted
 * subset) are executed.
 */
export function aliasTables(
  tools: readonly ToolModel[],
  executed: readonly ToolModel[],
): AliasTables {
  const types = responseAliasTypes(executed.map((t) => t.output));
  const tabled = new Set(types.map(([name]) => name));
  const toolResponseAliases = executed
    .map((t) => {
      const { idPrefix, idField } = entityId(t.output, t.outputPrefix);
      return [
        t.name,
        { message: t.output.typeName, idPrefix, idField },
      ] as const;
    })
    .filter(([, r]) => r.idPrefix !== "" || tabled.has(r.message));
  const known = new Set<string>();
  for (const tool of tools) {
    tool.requestAliasFields.forEach((f) => known.add(f.prefix));
    tool.responseFieldPrefixes.forEach((p) => p !== "" && known.add(p));
    if (tool.outputPrefix !== "") {
      known.add(tool.outputPrefix);
    }
  }
  for (const [, fields] of types) {
    fields.forEach((f) => f.prefix !== "" && known.add(f.prefix));
  }
  return {
    responseAliasTypes: types,
    toolResponseAliases,
    knownAliasPrefixes: sortUtf8([...known]),
  };
}
