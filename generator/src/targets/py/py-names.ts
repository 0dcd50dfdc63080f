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
  "AgentTool",
  "AliasConfig",
  "ResponseAliases",
  "ResponseAliasField",
  "ResponseAliasTool",
  "ToolMethod",
  "ALL_TOOLS",
  "ALIAS_CONFIG",
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
 * grpcio-tools' own name for an imported module, escaped so that distinct
 * modules never share one: "_" → "__", "." → "_dot_"
 * (`linkhub.v1.links_pb2` → `linkhub_dot_v1_dot_links__pb2`). The last
 * resort of pyModuleNames.
 */
export function pyImportAlias(module: string): string {
  return module.replace(/_/g, "__").replace(/\./g, "_dot_");
}

/** A directory that names an API version: `v1`, `v2beta1`, `v1alpha`. */
function isVersionSegment(segment: string): boolean {
  return /^v\d+(?:[a-z]+\d*)?$/.test(segment);
}

/**
 * The names a module may be imported as, shortest first: for
 * `temporal.api.workflowservice.v1.request_response_pb2`,
 * `workflowservice_request_response_pb2`, then
 * `workflowservice_v1_request_response_pb2`,
 * `api_workflowservice_v1_request_response_pb2`, … up to every directory,
 * and last pyImportAlias's. The first name is the module's own
 * (`links_pb2`) when its file name starts with the directory's
 * (`links/v1/links.proto`), for a top-level module, and for the protobuf
 * package's modules (`google.protobuf.empty_pb2`): as a person imports them.
 */
function moduleNameCandidates(module: string): string[] {
  const parts = module.split(".");
  const base = parts.at(-1)!;
  const dirs = parts.slice(0, -1);
  const out: string[] = [];
  if (dirs.length > 0) {
    let anchor = dirs.length - 1;
    while (anchor > 0 && isVersionSegment(dirs[anchor]!)) anchor--;
    const stem = base.replace(/_pb2$/, "");
    const own = dirs[anchor]!;
    if (
      module.startsWith("google.protobuf.") ||
      stem === own ||
      stem.startsWith(`${own}_`)
    ) {
      out.push(base);
    }
    out.push(`${own}_${base}`);
    for (let k = dirs.length - 1; k >= 0; k--) {
      if (k <= anchor) out.push(`${dirs.slice(k).join("_")}_${base}`);
    }
  } else {
    out.push(base);
  }
  out.push(pyImportAlias(module));
  return [...new Set(out)];
}

/**
 * The local names of the `*_pb2` modules a file imports, keyed by module:
 * short names a person would write, unique within the file, depending only
 * on the set of modules. Each module takes its first candidate
 * (moduleNameCandidates); of modules sharing a name, those with a longer
 * candidate left move on to it, until every name is unique
 * (`operatorservice_request_response_pb2` and
 * `workflowservice_request_response_pb2`; `acme_v1_x_pb2` and
 * `other_acme_v1_x_pb2`); modules whose every directory is in the name and
 * still clash (`a_b.c_pb2`, `a.b_c_pb2`) take pyImportAlias's.
 * Every name ends in `_pb2`, so none is a keyword, a name the module defines
 * or an UPPER_SNAKE tool constant.
 */
export function pyModuleNames(modules: readonly string[]): Map<string, string> {
  const unique = [...new Set(modules)];
  const candidates = unique.map(moduleNameCandidates);
  const step = unique.map(() => 0);
  for (;;) {
    const holders = new Map<string, number[]>();
    unique.forEach((_, i) => {
      const name = candidates[i]![step[i]!]!;
      holders.set(name, [...(holders.get(name) ?? []), i]);
    });
    let moved = false;
    for (const group of holders.values()) {
      if (group.length < 2) continue;
      // Those with a longer name left take it; when none has, all take
      // the escaped name (the last candidate).
      const longer = group.filter((i) => step[i]! < candidates[i]!.length - 2);
      for (const i of longer.length > 0 ? longer : group) {
        if (step[i]! < candidates[i]!.length - 1) {
          step[i]!++;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return new Map(unique.map((m, i) => [m, candidates[i]![step[i]!]!]));
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
