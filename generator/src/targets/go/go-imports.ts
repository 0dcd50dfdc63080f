import type { GoFeatures, GoImport } from "./go-runtime.js";

/**
 * Imports of the per-proto part of the Go file (templates/go/*.hbs), by
 * feature: AgentTool needs encoding/json, the Execute methods context. The
 * runtime's imports come from its source (go-runtime.ts).
 */
export function goTemplateImports(f: GoFeatures): GoImport[] {
  return [
    ...(f.executors ? [{ name: "context", path: "context" }] : []),
    { name: "json", path: "encoding/json" },
  ];
}

/** True for a standard library import path (no dot in its first element). */
export function isGoStdImport(path: string): boolean {
  return !path.split("/")[0]!.includes(".");
}

/**
 * Package-level identifiers the templates declare. Tool variables
 * (PascalCase) must not take an exported one; import names must not take any.
 * Execute, CanExecute and GetAliasManager are methods, reserved as the
 * plugin this one replaces reserved them.
 */
export const goFileIdentifiers: readonly string[] = [
  "AgentTool",
  "AllTools",
  "toolProviderForms",
  "Execute",
  "CanExecute",
  "GetAliasManager",
  "responseFieldPrefixes",
  "knownAliasPrefixes",
  "responseAliasTypes",
  "toolResponseAliases",
  "toolArguments",
  "toolTimeouts",
  "toolNeedsApproval",
  "toolMethods",
  "lenientArguments",
  "jsonNames",
  "validateRequest",
];

/**
 * Local names of the templates' executor methods. A package imported under
 * one of them would be shadowed where the code needs it.
 */
export const goLocalNames: readonly string[] = [
  "argsJSON",
  "cancel",
  "ctx",
  "e",
  "err",
  "req",
  "resp",
  "stream",
];
