/**
 * What the TypeScript templates (templates/ts/*.hbs) print. Every string is
 * final TypeScript source text: identifiers chosen, literals quoted, lists
 * sorted, and the statements whose layout depends on the data printed as
 * prettier prints them (ts-doc.ts): the file needs no formatter unless
 * `formatted` is false.
 */
export interface TsFileView {
  /** Always "ai_tools.gen.ts". */
  readonly fileName: string;
  /**
   * True when the printed statements are laid out as prettier would; false
   * when the printer was unsure of something and printed them unformatted,
   * for prettier to format the file.
   */
  readonly formatted: boolean;
  /** Quoted module specifier of the runtime, `"@protoc-gen-ai-tools/runtime"`. */
  readonly runtimeModule: string;
  /** The header's npm install line (tsInstallComment). */
  readonly installComment: string;
  /** True when any tool has auto_execute: the file exports createExecutor. */
  readonly hasExecutors: boolean;
  /** `import { createValidator } from "@bufbuild/protovalidate";` or "". */
  readonly validatorImport: string;
  /**
   * Property lines createExecutor passes to the runtime beyond the tables
   * (`validator: createValidator,`, `lenientArguments: true,`, …).
   */
  readonly executorSettings: readonly string[];
  /** The comment above `serviceImports` (esImportsComment). */
  readonly esImportsComment: string;
  /** Import statements of protoc-gen-es service descriptors, one per `_pb.js` module, by path. */
  readonly serviceImports: readonly string[];
  /** Every tool, in tool-name byte order. */
  readonly tools: readonly TsToolView[];
  /** `return [...];` of allTools(), indented one level. */
  readonly allTools: string;
  /** The `export const responseAliases` statement. */
  readonly responseAliases: string;
  /** The `export const knownAliasPrefixes` statement. */
  readonly knownAliasPrefixes: string;
  /** The `const toolMethods` statement (auto-executed tools by name, in tool-name order). */
  readonly toolMethods: string;
  /**
   * The `export const toolSearch` statement (option tool_search=true: the
   * tool-search data as JSON text, docs/tool-search.md), or "".
   */
  readonly toolSearch: string;
}

/** `import { {{names}} } from {{from}};` */
export interface TsImportView {
  /** `LinkService` or `LinkService as LinkhubV1LinkService`, comma-separated. */
  readonly names: string;
  /** Quoted module specifier, e.g. `"./linkhub/v1/links_pb.js"`. */
  readonly from: string;
}

/** One `export const x: AgentTool = defineTool({…});`. */
export interface TsToolView {
  /** The tool name, unquoted (for comments; only `[A-Za-z0-9_-]`). */
  readonly rawName: string;
  /** `Service.Method` (identifiers only), for the doc comment. */
  readonly element: string;
  /** The whole `export const` statement. */
  readonly declaration: string;
}

/** One property of an object literal: print `{{key}}: {{value}},`. */
export interface TsEntryView {
  /** The key as written in an object literal (bare, quoted or computed). */
  readonly key: string;
  /** The value as a TypeScript expression. */
  readonly value: string;
}

/** One message type of `responseAliases.types`: `{{key}}: [{{fields}}]`. */
export interface TsResponseTypeView {
  /** Quoted literal of the message's full name. */
  readonly key: string;
  /** Object literals of its fields, in declaration order. */
  readonly fields: readonly string[];
}
