import {
  nestedTypes,
  type DescFile,
  type DescService,
} from "../../read/descriptors.js";

/**
 * A tool name in camelCase: split on "_" and "-", drop empty parts, the first
 * part with its first letter lower-cased, the others upper-cased
 * (`page_themes_update` → `pageThemesUpdate`, `Greet_Loudly` → `greetLoudly`,
 * `__a_b_` → `aB`). The rest of each part is kept as written.
 */
export function tsCamelCase(name: string): string {
  return name
    .split(/[_-]/)
    .filter((part) => part !== "")
    .map((part, i) =>
      i === 0
        ? part[0]!.toLowerCase() + part.slice(1)
        : part[0]!.toUpperCase() + part.slice(1),
    )
    .join("");
}

/** True when `s` is an identifier made of ASCII letters, digits, "_" and "$". */
export function isTsIdentifier(s: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s);
}

/**
 * Names a `const` of an ECMAScript module cannot take: keywords, the words
 * reserved in strict mode (a module is strict) and in modules (`await`),
 * the names strict mode forbids as bindings (`arguments`, `eval`), and the
 * global values a declaration must not shadow.
 */
export const tsReservedWords: ReadonlySet<string> = new Set([
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  // strict mode and modules
  "await",
  "implements",
  "interface",
  "let",
  "package",
  "private",
  "protected",
  "public",
  "static",
  "yield",
  "arguments",
  "eval",
  // global values
  "undefined",
  "NaN",
  "Infinity",
  "globalThis",
]);

/**
 * protoc-gen-es's rule for identifiers taken from protobuf names: a name
 * ECMAScript or the generated code reserves gets a "$" appended.
 */
const esReserved: ReadonlySet<string> = new Set([
  ...[...tsReservedWords].filter(
    (w) =>
      !["await", "arguments", "eval", "undefined", "NaN", "Infinity"].includes(
        w,
      ),
  ),
  "Object",
  "bigint",
  "number",
  "boolean",
  "string",
  "object",
  "Uint8Array",
  "Partial",
]);

function esSafe(name: string): string {
  return esReserved.has(name) ? name + "$" : name;
}

/** `Outer.Inner` of package `a.b` → `Outer_Inner`. */
function esBaseName(typeName: string, pkg: string): string {
  const local = pkg === "" ? typeName : typeName.slice(pkg.length + 1);
  return local.replace(/\./g, "_");
}

/** The n-th candidate of a name: `X`, `X$`, `X$1`, `X$2`, … */
function salted(base: string, i: number): string {
  return i === 0 ? base : i === 1 ? base + "$" : `${base}$${i - 1}`;
}

const serviceNameCache = new WeakMap<DescFile, Map<DescService, string>>();

/**
 * The name under which protoc-gen-es (2.x) exports a service descriptor from
 * its `_pb.js` file. protoc-gen-es first gives every message and enum of the
 * file its type name (`Link`), then, in declaration order, the file, messages
 * and enums (`LinkSchema`), extensions and services their descriptor names;
 * a name already taken gets a "$" suffix, then "$1", "$2", ….
 */
export function esServiceExportName(service: DescService): string {
  const file = service.file;
  let names = serviceNameCache.get(file);
  if (names === undefined) {
    names = new Map();
    const pkg = file.proto.package;
    const taken = new Set<string>();
    const take = (base: string): string => {
      for (let i = 0; ; i++) {
        const name = esSafe(salted(base, i));
        if (!taken.has(name)) {
          taken.add(name);
          return name;
        }
      }
    };
    const types = [...nestedTypes(file)];
    for (const desc of types) {
      if (desc.kind === "message" || desc.kind === "enum") {
        take(esBaseName(desc.typeName, pkg));
      }
    }
    take("file_" + file.name.replace(/[^a-zA-Z0-9_]+/g, "_"));
    for (const desc of types) {
      switch (desc.kind) {
        case "message":
        case "enum":
          take(esBaseName(desc.typeName, pkg) + "Schema");
          break;
        case "extension":
          take(esBaseName(desc.typeName, pkg));
          break;
        case "service":
          names.set(desc, take(esBaseName(desc.typeName, pkg)));
          break;
      }
    }
    serviceNameCache.set(file, names);
  }
  const name = names.get(service);
  if (name === undefined) {
    throw new Error(`service ${service.typeName} not found in ${file.name}`);
  }
  return name;
}

/**
 * The comment above the imports of protoc-gen-es modules: where they are
 * looked for, so that a "Cannot find module" error on one of them points
 * at the option that places them.
 */
export function esImportsComment(importPath: string): string {
  return `// protoc-gen-es output, found through the plugin option ts_import_path (${JSON.stringify(importPath)}).`;
}

/**
 * The module specifier of a proto file's protoc-gen-es output, relative to
 * this plugin's output root: `<importPath>/<file without .proto>_pb.js`.
 */
export function esModulePath(importPath: string, protoFile: string): string {
  return `${importPath}/${protoFile.replace(/\.proto$/, "")}_pb.js`;
}
