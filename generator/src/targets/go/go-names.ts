/**
 * A tool name in PascalCase: split on "_" and "-", drop empty parts,
 * upper-case the first letter of each part (`page_themes_update` →
 * `PageThemesUpdate`, `__a_b_` → `AB`).
 */
export function goPascalCase(name: string): string {
  return name
    .split(/[_-]/)
    .filter((part) => part !== "")
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

/** True when `s` is a valid Go identifier made of ASCII letters, digits and "_". */
export function isGoIdentifier(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s);
}

/** Go's keywords and predeclared identifiers: never usable as import names. */
export const goKeywordsAndPredeclared: ReadonlySet<string> = new Set([
  "break",
  "case",
  "chan",
  "const",
  "continue",
  "default",
  "defer",
  "else",
  "fallthrough",
  "for",
  "func",
  "go",
  "goto",
  "if",
  "import",
  "interface",
  "map",
  "package",
  "range",
  "return",
  "select",
  "struct",
  "switch",
  "type",
  "var",
  "any",
  "append",
  "bool",
  "byte",
  "cap",
  "clear",
  "close",
  "comparable",
  "complex",
  "complex128",
  "complex64",
  "copy",
  "delete",
  "error",
  "false",
  "float32",
  "float64",
  "imag",
  "int",
  "int16",
  "int32",
  "int64",
  "int8",
  "iota",
  "len",
  "make",
  "max",
  "min",
  "new",
  "nil",
  "panic",
  "print",
  "println",
  "real",
  "recover",
  "rune",
  "string",
  "true",
  "uint",
  "uint16",
  "uint32",
  "uint64",
  "uint8",
  "uintptr",
]);

/**
 * A Go package name from a go_package option: the part after ";" when given,
 * else the last path element, with characters Go does not allow replaced by
 * "_" (as protoc-gen-go does).
 */
export function goPackageName(goPackage: string): {
  importPath: string;
  name: string;
} {
  const semi = goPackage.indexOf(";");
  const importPath = semi < 0 ? goPackage : goPackage.slice(0, semi);
  let name =
    semi < 0
      ? importPath.slice(importPath.lastIndexOf("/") + 1)
      : goPackage.slice(semi + 1);
  name = name.replace(/[^A-Za-z0-9_]/g, "_");
  if (
    name === "" ||
    /^[0-9]/.test(name) ||
    goKeywordsAndPredeclared.has(name)
  ) {
    name = "_" + name;
  }
  return { importPath, name };
}
