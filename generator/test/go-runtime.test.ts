import { describe, expect, it } from "vitest";
import { goFileIdentifiers } from "../src/targets/go/go-imports.js";
import {
  goRuntime,
  goRuntimeBeside,
  goRuntimeDeclarations,
  goRuntimeIdentifiers,
} from "../src/targets/go/go-runtime.js";

// The inlined Go runtime (runtimes/go): which parts a file gets, which
// imports it needs, and which names it reserves. The goldens compile every
// combination under gofmt, vet and the Go tests (scripts/go-test.mjs).

const none = {
  aliases: false,
  executors: false,
  streaming: false,
  mcp: false,
};

describe("goRuntime", () => {
  it("is empty when no tool involves aliases or executors", () => {
    expect(goRuntime(none)).toEqual({ code: "", imports: [] });
  });

  it("leaves the alias manager and the alias regions out of executor-only files", () => {
    const { code, imports } = goRuntime({ ...none, executors: true });
    expect(code).not.toMatch(/AliasManager|e\.aliases|aitools:/);
    expect(code).toContain("type ToolError struct");
    expect(code).toContain("func fixArgs(");
    expect(code).not.toContain("func collect[");
    // The argument check (issue 30) reads the file's argument tables and
    // keeps each parsed one (sync.Map); refusals carry a gRPC code.
    expect(code).toContain("toolArguments[");
    expect(imports.map((i) => i.path)).toContain(
      "google.golang.org/grpc/codes",
    );
  });

  it("gives alias-only files the manager without grpc", () => {
    const { code, imports } = goRuntime({ ...none, aliases: true });
    expect(code).toContain("func (m *AliasManager) RegisterResponseJSON(");
    expect(code).not.toMatch(/ToolError|\bExecutor\b|aitools:/);
    // protobuf's registry reads registration by either naming (issue 30).
    expect(
      imports.some((i) => i.path.startsWith("google.golang.org/grpc")),
    ).toBe(false);
  });

  it("keeps each helper once and imports exactly what the code uses", () => {
    const all = { aliases: true, executors: true, streaming: true, mcp: false };
    const { code, imports } = goRuntime(all);
    for (const helper of [
      "func sortedKeys[",
      "func decodeJSON(",
      "func encodeJSON(",
      "func nextUUID(",
      "func quote(",
    ]) {
      expect(code.split(helper).length - 1, helper).toBe(1);
    }
    expect(code).toContain("func collect[");
    expect(code).toContain("type ConversationExecutor struct");
    expect(code).not.toMatch(/^package |^import |aitools:/m);
    for (const imp of imports) {
      expect(code, imp.path).toMatch(new RegExp(`\\b${imp.name}\\.`));
    }
    expect(code).not.toMatch(/\n\n\n/);
  });
  it("is ASCII, so that a file holding it stays one byte per character", () => {
    // One character outside Latin-1 makes V8 write the whole file (13 MB
    // at 2,000 tools) as a two-byte string, copied and transcoded once
    // more on its way out: write such a character as \u2026 in a Go
    // string, as "..." in a comment.
    const all = { aliases: true, executors: true, streaming: true, mcp: true };
    const lines = goRuntime(all)
      .code.split("\n")
      .filter((line) => /[\u0080-\uffff]/.test(line));
    expect(lines).toEqual([]);
  });
});

describe("goRuntimeBeside", () => {
  it("gives the MCP file only what the main file lacks", () => {
    const main = { ...none, aliases: true, executors: true };
    const { code, imports } = goRuntimeBeside(main, { ...main, mcp: true });
    expect(code).toContain("func addMCPTools(");
    expect(code).not.toMatch(
      /type Executor struct|type AliasManager struct|type ConversationStore interface/,
    );
    expect(imports.map((i) => i.path)).toContain(
      "github.com/modelcontextprotocol/go-sdk/mcp",
    );
    expect(goRuntime(main).code).not.toContain("go-sdk");
    expect(goRuntime(main).code).toContain("type ConversationStore interface");
    expect(goRuntime(main).code).toContain("type ConversationExecutor struct");
  });

  it("brings the executor helpers when the main file has none", () => {
    const main = { ...none, aliases: true };
    const { code } = goRuntimeBeside(main, {
      ...main,
      executors: true,
      mcp: true,
    });
    expect(code).toContain("type Executor struct");
    expect(code).toContain("type ToolError struct");
    expect(code).not.toContain("type AliasManager struct");
    // The store, not the executor of conversations: no generated Execute.
    expect(code).toContain("type ConversationStore interface");
    expect(code).not.toMatch(/ConversationExecutor|aitools:/);
  });

  it("leaves the conversations out of a file without aliases", () => {
    const { code } = goRuntimeBeside(none, {
      ...none,
      executors: true,
      mcp: true,
    });
    expect(code).toContain("func addMCPTools(");
    expect(code).not.toMatch(/ConversationStore|aitools:/);
  });
});

describe("reserved names", () => {
  it("reserves every exported package-level name of the runtime", () => {
    const exported = goRuntimeDeclarations.filter((n) => /^[A-Z]/.test(n));
    expect(exported).toEqual([
      "AliasManager",
      "AnthropicDeferredOptions",
      "AnthropicDeferredTool",
      "AnthropicMaxOptionalParameters",
      "AnthropicMaxStrictTools",
      "AnthropicMaxToolSearchTools",
      "AnthropicMaxUnionParameters",
      "AnthropicTool",
      "AnthropicToolResultBlock",
      "AnthropicToolSearchTool",
      "AnthropicTools",
      "ApprovalRequest",
      "ApproveFunc",
      "AuditRecord",
      "ConversationExecutor",
      "ConversationStore",
      "DefaultConversationTTL",
      "DefaultMaxAliases",
      "DefaultMaxConcurrentCalls",
      "DefaultMaxResultBytes",
      "DefaultSearchLimit",
      "DefaultToolTimeout",
      "DeferredTools",
      "DeferredToolsOptions",
      "DefineToolSearch",
      "ErrConversationExpired",
      "Executor",
      "ForwardIdentity",
      "GeminiFunctionDeclaration",
      "GeminiFunctionDeclarations",
      "GeminiMaxFunctionDeclarations",
      "Identity",
      "IdentityFromContext",
      "IdentityFromRequest",
      "MCPExtraProperty",
      "MCPExtraValue",
      "MCPOption",
      "MCPRequiredScopes",
      "MCPServer",
      "MaxSearchLimit",
      "MemoryConversationStore",
      "MemoryStoreOption",
      "NewAliasManager",
      "NewConversationExecutor",
      "NewDeferredTools",
      "NewExecutor",
      "NewJSONLinesAuditWriter",
      "NewMCPHTTPHandler",
      "NewMCPStdioTransport",
      "NewMemoryConversationStore",
      "OpenAIChatFunction",
      "OpenAIChatTool",
      "OpenAIChatTools",
      "OpenAIDeferredOptions",
      "OpenAIMaxTools",
      "OpenAINamespaceFunction",
      "OpenAINamespaceTool",
      "OpenAIResponsesTool",
      "OpenAIResponsesTools",
      "OpenAIToolSearchOutput",
      "OpenAIToolSearchTool",
      "ParseSearchArguments",
      "Provider",
      "ProviderAnthropic",
      "ProviderGemini",
      "ProviderOpenAI",
      "RankTools",
      "SearchArguments",
      "SearchFirst",
      "SearchParameters",
      "SearchToolsName",
      "Telemetry",
      "ToolCallEnd",
      "ToolError",
      "ToolHit",
      "ToolNamespace",
      "ToolNamespaceTool",
      "ToolSearch",
      "ToolSearchOutcome",
      "Violation",
      "WithApprovalSecret",
      "WithApprove",
      "WithAudit",
      "WithConversationStore",
      "WithExtraProperties",
      "WithForwardIdentity",
      "WithHandleArgument",
      "WithIdentity",
      "WithMaxAliases",
      "WithMaxConcurrentCalls",
      "WithMaxResultBytes",
      "WithNamePrefix",
      "WithProvider",
      "WithRateLimit",
      "WithRequiredScopes",
      "WithSearchFirst",
      "WithTelemetry",
      "WithTimeout",
    ]);
    expect(goRuntimeIdentifiers.has("aliases")).toBe(true);
    expect(goFileIdentifiers).toContain("AllTools");
  });
});
