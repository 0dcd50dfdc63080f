import type { McpServiceModel } from "../../model/model.js";
import { goCamelCase } from "./go-camel-case.js";

/**
 * What option `go_mcp_compat=true` adds to the Go MCP file: the names of
 * protoc-gen-go-mcp's generated code and runtime package, declared over
 * ours, so that code written for protoc-gen-go-mcp compiles with only its
 * import paths changed (docs/migrate-go-mcp.md). Per service,
 * `Register<S>HandlerWithProvider` and `Register<S>HandlerOpenAI`; once per
 * file, the aliases and constants of {@link goCompatDeclarations}.
 */

/** One service's protoc-gen-go-mcp functions. */
export interface GoCompatServiceView {
  /** `RegisterLinkServiceHandlerWithProvider`. */
  readonly withProviderName: string;
  /** `RegisterLinkServiceHandlerOpenAI`. */
  readonly openAIName: string;
}

/** The functions the file declares for `service` with go_mcp_compat. */
export function goCompatNames(service: McpServiceModel): readonly string[] {
  const register = `Register${goCamelCase(service.name)}Handler`;
  return [`${register}WithProvider`, `${register}OpenAI`];
}

/** The declarations of `service` with go_mcp_compat. */
export function goCompatServiceView(
  service: McpServiceModel,
): GoCompatServiceView {
  const [withProviderName, openAIName] = goCompatNames(service);
  return { withProviderName: withProviderName!, openAIName: openAIName! };
}

/**
 * The file-level declarations with go_mcp_compat, Go source lines (doc
 * comments included), and the names they declare.
 */
export const goCompatDeclarations: {
  readonly names: readonly string[];
  readonly lines: readonly string[];
} = {
  names: [
    "ExtraProperty",
    "LLMProvider",
    "LLMProviderOpenAI",
    "LLMProviderStandard",
    "Option",
  ],
  lines: [
    "// ExtraProperty is protoc-gen-go-mcp's name of MCPExtraProperty.",
    "type ExtraProperty = MCPExtraProperty",
    "",
    "// Option is protoc-gen-go-mcp's name of MCPOption.",
    "type Option = MCPOption",
    "",
    "// LLMProvider is protoc-gen-go-mcp's name of Provider.",
    "type LLMProvider = Provider",
    "",
    "// The providers of protoc-gen-go-mcp's Register...HandlerWithProvider:",
    "// LLMProviderStandard serves the default form (each tool's Parameters),",
    "// LLMProviderOpenAI the OpenAI form (WithProvider).",
    "const (",
    '\tLLMProviderStandard LLMProvider = ""',
    "\tLLMProviderOpenAI   LLMProvider = ProviderOpenAI",
    ")",
  ],
};

/**
 * The local names of the compat functions: no import may take them
 * (goMcpLocalNames has the others).
 */
export const goCompatLocalNames: readonly string[] = ["provider"];
