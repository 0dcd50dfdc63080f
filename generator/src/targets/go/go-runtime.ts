import { goRuntimeFiles } from "../../gen/templates.js";
import { compareUtf8 } from "../../schema/canonical-json.js";

/**
 * The Go runtime (runtimes/go), inlined into ai_tools.gen.go. Each runtime
 * file says when it is needed with a line `//aitools:inline <feature>...`
 * (any of `aliases`, `executors`, `streaming`, `mcp`, `providers`, `connect`,
 * `toolsearch`); lines between
 * `//aitools:if <feature>` and `//aitools:end` (nested or not) are kept
 * only when the file has that feature, those after `//aitools:if !<feature>`
 * only when it has not. The package clause goes; the imports
 * are returned apart, for the file's one import block, keeping only those
 * the kept code uses.
 */

/** Which parts of the Go file are present. */
export interface GoFeatures {
  readonly aliases: boolean;
  readonly executors: boolean;
  readonly streaming: boolean;
  /** The MCP file (ai_tools_mcp.gen.go); never the main file. */
  readonly mcp: boolean;
  /**
   * The provider functions (OpenAIChatTools, AnthropicTools, ...), which
   * read the file's toolProviderForms: always in the main file, never in
   * the MCP file.
   */
  readonly providers?: boolean;
  /**
   * ForwardToConnect...Client's calls (option go_connect): only in an MCP
   * file generated with it.
   */
  readonly connect?: boolean;
  /**
   * The tool-search data and the deferred tools (option tool_search):
   * ToolSearch, RankTools, DeferredTools; only in the main file.
   */
  readonly toolsearch?: boolean;
}

/** One import of Go code: the name it is used under and its path. */
export interface GoImport {
  readonly name: string;
  readonly path: string;
}

interface RuntimeFile {
  readonly name: string;
  readonly features: readonly string[];
  readonly imports: readonly GoImport[];
  /** The lines after the import block (or the package clause). */
  readonly body: readonly string[];
}

const features = [
  "aliases",
  "executors",
  "streaming",
  "mcp",
  "providers",
  "connect",
  "toolsearch",
] as const;

function parseFile(name: string, text: string): RuntimeFile {
  const lines = text.split("\n");
  const directive = lines.find((l) => l.startsWith("//aitools:inline "));
  const wanted = (directive ?? "").split(" ").slice(1);
  for (const f of wanted) {
    if (!(features as readonly string[]).includes(f)) {
      throw new Error(`runtimes/go/${name}: unknown feature ${f}`);
    }
  }
  const pkg = lines.findIndex((l) => l.startsWith("package "));
  let i = pkg + 1;
  while (lines[i] === "") i++;
  const imports: GoImport[] = [];
  const addImport = (spec: string): void => {
    const m = /^(?:([A-Za-z_][A-Za-z0-9_]*) )?"([^"]+)"$/.exec(spec.trim());
    if (m === null) {
      throw new Error(`runtimes/go/${name}: cannot read import ${spec}`);
    }
    const path = m[2]!;
    imports.push({ name: m[1] ?? path.slice(path.lastIndexOf("/") + 1), path });
  };
  if (lines[i]?.startsWith("import (")) {
    for (i++; lines[i] !== ")"; i++) {
      if (lines[i]!.trim() !== "") addImport(lines[i]!);
    }
    i++;
  } else if (lines[i]?.startsWith("import ")) {
    addImport(lines[i]!.slice("import ".length));
    i++;
  }
  while (lines[i] === "") i++;
  let end = lines.length;
  while (end > i && lines[end - 1] === "") end--;
  return { name, features: wanted, imports, body: lines.slice(i, end) };
}

const files: readonly RuntimeFile[] = Object.keys(goRuntimeFiles)
  .sort(compareUtf8)
  .map((name) => parseFile(name, goRuntimeFiles[name]!));

/** The lines of a file's body with its `//aitools:if <feature>` regions resolved. */
function resolveRegions(file: RuntimeFile, f: GoFeatures): string[] {
  const out: string[] = [];
  const open: boolean[] = []; // per enclosing region: is its feature on
  for (const line of file.body) {
    const marker = line.trim();
    if (marker.startsWith("//aitools:if ")) {
      const condition = marker.slice("//aitools:if ".length);
      const feature = condition.replace(/^!/, "");
      if (!(features as readonly string[]).includes(feature)) {
        throw new Error(`runtimes/go/${file.name}: unknown feature ${feature}`);
      }
      const on = f[feature as keyof GoFeatures] === true;
      open.push(condition.startsWith("!") ? !on : on);
    } else if (marker === "//aitools:end") {
      if (open.pop() === undefined) {
        throw new Error(
          `runtimes/go/${file.name}: //aitools:end without //aitools:if`,
        );
      }
    } else if (open.every(Boolean)) {
      out.push(line);
    }
  }
  // What gofmt would do after a removal: one blank line at most, none
  // right after an opening or before a closing brace.
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.filter(
    (line, j) =>
      line !== "" ||
      (out[j - 1] !== "" &&
        !(out[j - 1] ?? "{").endsWith("{") &&
        !/^\s*}/.test(out[j + 1] ?? "")),
  );
}

/** Code lines only (comments dropped), to look for uses of a name. */
function codeOf(lines: readonly string[]): string {
  return lines.map((l) => l.replace(/\/\/.*$/, "")).join("\n");
}

/**
 * The runtime code the Go file needs: the kept files' bodies, one blank
 * line apart, without a trailing newline, and the imports that code uses.
 */
export function goRuntime(f: GoFeatures): {
  code: string;
  imports: GoImport[];
} {
  return render(f, (file) => needs(file, f));
}

/**
 * The runtime code of a second file of the same package (the MCP file),
 * whose features are `f`: the files it needs that the main file, with
 * `main`, does not already hold.
 */
export function goRuntimeBeside(
  main: GoFeatures,
  f: GoFeatures,
): { code: string; imports: GoImport[] } {
  return render(f, (file) => needs(file, f) && !needs(file, main));
}

function needs(file: RuntimeFile, f: GoFeatures): boolean {
  return file.features.some((name) => f[name as keyof GoFeatures] === true);
}

function render(
  f: GoFeatures,
  keep: (file: RuntimeFile) => boolean,
): { code: string; imports: GoImport[] } {
  const parts: string[] = [];
  const imports = new Map<string, GoImport>();
  for (const file of files) {
    if (!keep(file)) continue;
    const body = resolveRegions(file, f);
    if (body.length === 0) continue;
    parts.push(body.join("\n"));
    const code = codeOf(body);
    for (const imp of file.imports) {
      if (new RegExp(`\\b${imp.name}\\.`).test(code)) {
        imports.set(imp.path, imp);
      }
    }
  }
  return { code: parts.join("\n\n"), imports: [...imports.values()] };
}

/**
 * The runtime files the names below come from: those of an optional
 * feature (`connect`) aside, so that a file generated without it names its
 * imports as before (goConnectRuntimeNames has theirs).
 */
const namingFiles = files.filter((file) => !file.features.includes("connect"));

/** Package-level names (types, functions, variables, constants) of `of`. */
function declarationsOf(of: readonly RuntimeFile[]): string[] {
  const names = new Set<string>();
  for (const file of of) {
    let block: string | undefined;
    for (const line of file.body) {
      if (block !== undefined) {
        if (line === ")") block = undefined;
        else {
          const m = /^\t([A-Za-z_][A-Za-z0-9_]*)\b/.exec(line);
          if (m !== null) names.add(m[1]!);
        }
        continue;
      }
      const open = /^(var|const|type) \($/.exec(line);
      if (open !== null) {
        block = open[1];
        continue;
      }
      const m = /^(?:func|type|var|const) ([A-Za-z_][A-Za-z0-9_]*)\b/.exec(
        line,
      );
      if (m !== null) names.add(m[1]!);
    }
  }
  return [...names].sort(compareUtf8);
}

/** Every identifier the code of `of` uses. */
function identifiersOf(of: readonly RuntimeFile[]): string[] {
  return of.flatMap(
    (file) =>
      codeOf(file.body)
        .replace(/"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)*'/g, " ")
        .match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [],
  );
}

/**
 * Package-level names the runtime declares (types, functions, variables,
 * constants), in every file that may be inlined. Exported ones are reserved
 * against tool names; all of them against import names.
 */
export const goRuntimeDeclarations: readonly string[] =
  declarationsOf(namingFiles);

/**
 * Every identifier the runtime's code uses (locals, fields and package-level
 * names alike): an import named like one of them could be shadowed.
 */
export const goRuntimeIdentifiers: ReadonlySet<string> = new Set(
  identifiersOf(namingFiles),
);

/**
 * The names of the `connect` part (declared and used, `connect` the
 * import's among them), taken besides the others in an MCP file generated
 * with go_connect.
 */
export const goConnectRuntimeNames: readonly string[] = (() => {
  const of = files.filter((file) => file.features.includes("connect"));
  return [...new Set([...declarationsOf(of), ...identifiersOf(of)])].sort(
    compareUtf8,
  );
})();

/**
 * The runtime's files as a file without the option tool_search has them:
 * those of the `toolsearch` part alone left out, and the
 * `//aitools:if toolsearch` regions of the others.
 */
function withoutToolSearch(of: readonly RuntimeFile[]): RuntimeFile[] {
  return of
    .filter((file) => file.features.some((f) => f !== "toolsearch"))
    .map((file) => {
      const body: string[] = [];
      const skipping: boolean[] = [];
      for (const line of file.body) {
        const marker = line.trim();
        if (marker.startsWith("//aitools:if ")) {
          skipping.push(marker === "//aitools:if toolsearch");
        } else if (marker === "//aitools:end") {
          skipping.pop();
        }
        if (!skipping.includes(true)) body.push(line);
      }
      return { ...file, body };
    });
}

/**
 * The names (declared or used) only the tool-search code of the runtime
 * has: reserved, as goRuntimeDeclarations and goRuntimeIdentifiers reserve
 * the others, only in files generated with tool_search=true, so that a
 * file without it names its tools and imports as before the option.
 */
export const goToolSearchOnlyNames: ReadonlySet<string> = (() => {
  const plain = withoutToolSearch(namingFiles);
  const base = new Set([...declarationsOf(plain), ...identifiersOf(plain)]);
  return new Set(
    [...declarationsOf(namingFiles), ...identifiersOf(namingFiles)].filter(
      (name) => !base.has(name),
    ),
  );
})();

/**
 * goRuntimeDeclarations and goRuntimeIdentifiers as a file reserves them:
 * without tool_search, less {@link goToolSearchOnlyNames}.
 */
export function goRuntimeNames(toolSearch: boolean): {
  declarations: readonly string[];
  identifiers: ReadonlySet<string>;
} {
  if (toolSearch) {
    return {
      declarations: goRuntimeDeclarations,
      identifiers: goRuntimeIdentifiers,
    };
  }
  return {
    declarations: goRuntimeDeclarations.filter(
      (n) => !goToolSearchOnlyNames.has(n),
    ),
    identifiers: new Set(
      [...goRuntimeIdentifiers].filter((n) => !goToolSearchOnlyNames.has(n)),
    ),
  };
}
