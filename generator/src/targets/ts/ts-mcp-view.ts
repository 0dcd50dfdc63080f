import type {
  TsEntryView,
  TsImportView,
  TsResponseTypeView,
} from "./ts-view.js";

/**
 * What templates/ts/mcp-file.hbs prints: the MCP file beside
 * ai_tools.gen.ts. Every string is final TypeScript source text.
 */
export interface TsMcpFileView {
  /** Always "ai_tools_mcp.gen.ts". */
  readonly fileName: string;
  /** Quoted module specifier of the runtime's MCP entry. */
  readonly mcpRuntimeModule: string;
  /** Quoted module specifier of the runtime, for `AliasConfig`. */
  readonly runtimeModule: string;
  /** The header's npm install line (tsInstallComment). */
  readonly installComment: string;
  /** Quoted module specifier of ai_tools.gen.ts, `"./ai_tools.gen.js"`. */
  readonly mainModule: string;
  /** The comment above `serviceImports` (esImportsComment). */
  readonly esImportsComment: string;
  /** Imports of the protoc-gen-es service descriptors, by path. */
  readonly serviceImports: readonly TsImportView[];
  /**
   * The response registration of the tools only MCP executes (not
   * auto-executed in ai_tools.gen.ts), added to the main file's table in
   * `mcpAliasConfig`; undefined when there are none.
   */
  readonly extraAliases: TsMcpExtraAliasesView | undefined;
  /** The alias config the tools are added with. */
  readonly aliasConfig: string;
  /** The services with tools, sorted by full name. */
  readonly services: readonly TsMcpServiceView[];
  /** `import { createValidator } from "@bufbuild/protovalidate";` or "". */
  readonly validatorImport: string;
  /**
   * Property lines each `addTools` passes beyond the tables
   * (`validator: createValidator(),`, `lenientArguments: true,`).
   */
  readonly toolSetSettings: readonly string[];
}

/** Registration entries the main file's tables lack. */
export interface TsMcpExtraAliasesView {
  /** Quoted prefixes the main file does not declare, sorted. */
  readonly prefixes: readonly string[];
  /** Message types the main file's table lacks, by full name. */
  readonly types: readonly TsResponseTypeView[];
  /** Tools the main file does not execute, by name. */
  readonly tools: readonly TsEntryView[];
}

/** One service: its tools and its two functions. */
export interface TsMcpServiceView {
  /** `linkhub.v1.LinkService`. */
  readonly fullName: string;
  /** The local name of its descriptor, e.g. `LinkService`. */
  readonly serviceLocal: string;
  /** `linkServiceTools`. */
  readonly toolsName: string;
  /** `registerLinkServiceHandler`. */
  readonly registerName: string;
  /** `forwardToLinkServiceClient`. */
  readonly forwardName: string;
  readonly tools: readonly TsMcpToolView[];
}

/** One `McpToolMethod`. */
export interface TsMcpToolView {
  /** The tool's constant in ai_tools.gen.ts, e.g. `linksCreate`. */
  readonly constName: string;
  /** The method descriptor expression, e.g. `LinkService.method.createLink`. */
  readonly method: string;
  /** The output schema as a string literal of its JSON text. */
  readonly outputSchema: string;
  /** Quoted wrap key: `""`, `"messages"` or `"value"`. */
  readonly outputWrapKey: string;
  /** `true` or `false`, each hint (docs/mcp.md, "Tool hints"). */
  readonly readOnlyHint: string;
  readonly destructiveHint: string;
  readonly idempotentHint: string;
  readonly openWorldHint: string;
  /**
   * Property lines of the argument table, deadline and `validate`
   * (`arguments: "…",`), those set.
   */
  readonly data: readonly string[];
}
