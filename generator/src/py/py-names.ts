/**
 * Python names: the constants of the generated module, its own identifiers,
 * and the module paths grpcio-tools gives the `*_pb2` files.
 */

/**
 * A tool name in UPPER_SNAKE_CASE: split on "_" and "-" (empty parts
 * dropped) and between a lower-case letter or digit and an upper-case one
 * (and before the last capital of a run followed by a lower-case letter),
 * joined with "_", upper-cased (`page_themes_update` → `PAGE_THEMES_UPDATE`,
 * `getHTTPLink` → `GET_HTTP_LINK`, `__a-b_` → `A_B`).
 */
export function pyUpperSnake(name: string): string {
  return name
    .split(/[_-]/)
    .filter((part) => part !== "")
    .map((part) =>
      part
        .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
        .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2"),
    )
    .join("_")
    .toUpperCase();
}

/** True when `s` is an ASCII Python identifier. */
export function isPyIdentifier(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s);
}

/** Python 3 keywords and soft keywords. */
export const pyKeywords: ReadonlySet<string> = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
  // soft keywords
  "_",
  "case",
  "match",
  "type",
]);

/**
 * Every name the generated module binds besides the tool constants and the
 * `*_pb2` import names (which always hold lower-case letters, so never equal
 * an UPPER_SNAKE constant): a tool whose constant would be one of these is
 * refused.
 */
export const pyFileIdentifiers: ReadonlySet<string> = new Set([
  "__all__",
  "ai_tools_runtime",
  "grpc",
  "json",
  "AgentTool",
  "AliasConfig",
  "ToolMethod",
  "ALL_TOOLS",
  "ALIAS_CONFIG",
  "RESPONSE_FIELD_PREFIXES",
  "TOOL_OUTPUT_PREFIX",
  "Executor",
  "AsyncExecutor",
  "all_tools",
  "_TOOL_METHODS",
]);

/**
 * The Python module grpcio-tools writes for a proto file, as protoc's Python
 * generator names it: `.proto` stripped, "-" → "_", "/" → ".", plus
 * `_pb2` (`linkhub/v1/links.proto` → `linkhub.v1.links_pb2`).
 */
export function pyProtoModule(protoFile: string): string {
  return (
    protoFile
      .replace(/\.proto$/, "")
      .replace(/-/g, "_")
      .replace(/\//g, ".") + "_pb2"
  );
}

/**
 * The local name a module is imported as, escaped the way protoc's Python
 * generator names imported modules, so distinct modules never share one:
 * "_" → "__", "." → "_dot_" (`linkhub.v1.links_pb2` →
 * `linkhub_dot_v1_dot_links__pb2`).
 */
export function pyImportAlias(module: string): string {
  return module.replace(/_/g, "__").replace(/\./g, "_dot_");
}

/**
 * Why `module` cannot be written in an import statement (a part that is not
 * an identifier, or is a keyword), or undefined when it can.
 */
export function pyModuleProblem(module: string): string | undefined {
  for (const part of module.split(".")) {
    if (!isPyIdentifier(part)) {
      return `${JSON.stringify(part)} is not a Python identifier`;
    }
    if (
      pyKeywords.has(part) &&
      part !== "_" &&
      part !== "case" &&
      part !== "match" &&
      part !== "type"
    ) {
      return `${JSON.stringify(part)} is a Python keyword`;
    }
  }
  return undefined;
}
