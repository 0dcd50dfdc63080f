/**
 * What the TypeScript templates (templates/ts/*.hbs) print. Every string is
 * final TypeScript source text: identifiers chosen, literals quoted, lists
 * sorted. Templates only iterate and print; the plugin then formats the file
 * with prettier.
 */
export interface TsFileView {
  /** Always "ai_tools.gen.ts". */
  readonly fileName: string;
  /** Quoted module specifier of the runtime, `"@ai-tools/runtime"`. */
  readonly runtimeModule: string;
  /** True when any tool has auto_execute: the file exports createExecutor. */
  readonly hasExecutors: boolean;
  /** Imports of protoc-gen-es service descriptors, one per `_pb.js` module, by path. */
  readonly serviceImports: readonly TsImportView[];
  /** Every tool, in tool-name byte order. */
  readonly tools: readonly TsToolView[];
  /** `responseAliases.types`: message types sorted by full name. */
  readonly responseAliasTypes: readonly TsResponseTypeView[];
  /** `responseAliases.tools`: entries sorted by tool name. */
  readonly toolResponseAliases: readonly TsEntryView[];
  /** Quoted literals of `knownAliasPrefixes`, sorted. */
  readonly knownAliasPrefixes: readonly string[];
  /** The auto-executed tools, in tool-name order. */
  readonly executors: readonly TsExecutorView[];
}

/** `import { {{names}} } from {{from}};` */
export interface TsImportView {
  /** `LinkService` or `LinkService as LinkhubV1LinkService`, comma-separated. */
  readonly names: string;
  /** Quoted module specifier, e.g. `"./linkhub/v1/links_pb.js"`. */
  readonly from: string;
}

/** One `export const x: AgentTool = {…}`. */
export interface TsToolView {
  /** camelCase identifier, e.g. `pageThemesUpdate`. */
  readonly constName: string;
  /** The tool name, unquoted (for comments; only `[A-Za-z0-9_-]`). */
  readonly rawName: string;
  /** Quoted literal of the tool name. */
  readonly name: string;
  /** Quoted literal of the description. */
  readonly description: string;
  /** `true` or `false`. */
  readonly strict: string;
  /** The parameter schema as an object literal. */
  readonly parameters: string;
  /** `Service.Method` (identifiers only), for the doc comment. */
  readonly element: string;
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

/** One `ToolMethod` of `toolMethods`. */
export interface TsExecutorView {
  /** The tool's constant, e.g. `linksCreate`. */
  readonly constName: string;
  /** The method descriptor expression, e.g. `LinkService.method.createLink`. */
  readonly method: string;
}
