/**
 * What the Go templates (templates/go/*.hbs) print. Every string here is
 * final Go source text: names shaped, literals quoted, map keys padded the
 * way gofmt aligns them, imports sorted. Templates only iterate and print.
 */
export interface GoFileView {
  /** Name of the generated file: always "ai_tools.gen.go". */
  readonly fileName: string;
  /** True when the file has exactly one import, printed as `import "encoding/json"`. */
  readonly singleImport: boolean;
  /** Import block groups, separated by a blank line; each line is `"path"` or `name "path"`. */
  readonly importGroups: readonly GoImportGroup[];
  /** Every tool, in tool-name byte order. */
  readonly tools: readonly GoToolView[];
  /** True when any tool involves aliases (docs/runtime.md, "Primary prefix"). */
  readonly hasAliases: boolean;
  /** True when any tool has auto_execute. */
  readonly hasExecutors: boolean;
  /**
   * Entries of `toolProviderForms` (tool → the tool variable's Parameters
   * and its provider forms as a quoted JSON text, docs/compat.md), sorted
   * by tool name.
   */
  readonly toolProviderForms: readonly GoMapEntry[];
  /** Entries of `responseFieldPrefixes` (legacy), sorted by key. */
  readonly responseFieldPrefixes: readonly GoMapEntry[];
  /** Entries of `knownAliasPrefixes` (prefix → true), sorted. */
  readonly knownAliasPrefixes: readonly GoMapEntry[];
  /** Entries of `responseAliasTypes`, sorted by message name. */
  readonly responseAliasTypes: readonly GoResponseAliasTypeView[];
  /** Entries of `toolResponseAliases` (tool → struct literal), sorted by tool name. */
  readonly toolResponseAliases: readonly GoMapEntry[];
  /** The auto-executed tools, in tool-name order. */
  readonly executors: readonly GoExecutorView[];
  /** The call tables, with executors (templates/go/call-tables.hbs). */
  readonly callTables: GoCallTablesView | undefined;
  /**
   * The inlined runtime (runtimes/go) this file needs, without its package
   * clause and imports, or "" when it needs none.
   */
  readonly runtime: string;
  /**
   * The Go string literal of the tool-search data's JSON (option
   * tool_search=true, docs/tool-search.md), or "".
   */
  readonly toolSearch: string;
}

/** One message type of `responseAliasTypes`. */
export interface GoResponseAliasTypeView {
  /** Quoted full name of the message. */
  readonly name: string;
  /** Struct literals of its fields, e.g. `{field: "id", prefix: "acct"}`. */
  readonly fields: readonly string[];
}

/** One group of import lines. */
export interface GoImportGroup {
  readonly lines: readonly string[];
}

/** One `var X = AgentTool{…}`. */
export interface GoToolView {
  /** PascalCase identifier, e.g. `PageThemesUpdate`. */
  readonly varName: string;
  /** Quoted Go string literal of the tool name. */
  readonly name: string;
  /** Quoted Go string literal of the description. */
  readonly description: string;
  /** `true` or `false`. */
  readonly strict: string;
  /** Quoted Go string literal of the canonical schema JSON. */
  readonly parameters: string;
  /**
   * The keys of the struct literal with their gofmt padding (`Name:        `).
   * Print `{{nameKey}}{{name}},` and so on.
   */
  readonly nameKey: string;
  readonly descriptionKey: string;
  readonly strictKey: string;
  readonly parametersKey: string;
}

/**
 * One line of a map literal: print `{{key}}{{value}},{{comment}}`. `key` is the
 * quoted key, the colon and the padding gofmt puts before the value.
 */
export interface GoMapEntry {
  readonly key: string;
  readonly value: string;
  /** Empty, or ` // …` (leading space included). */
  readonly comment: string;
}

/** One `(*Executor) Execute<Tool>` method. */
export interface GoExecutorView {
  /** `ExecuteFoo`. */
  readonly funcName: string;
  /** Quoted Go literal of the tool name. */
  readonly name: string;
  /** `Service.Method`, for the doc comment. */
  readonly rpcName: string;
  /** Qualified request type, e.g. `linksv1.CreateLinkRequest`. */
  readonly requestType: string;
  /** Qualified client constructor, e.g. `linksv1.NewLinkServiceClient`. */
  readonly clientConstructor: string;
  /** Go method name on the client, e.g. `CreateLink`. */
  readonly method: string;
  /** `true` or `false`: the tool's schema is strict (drives argument fix-up). */
  readonly strict: string;
  /** The RPC is server-streaming: collect the stream into a JSON array. */
  readonly serverStreaming: boolean;
  /** The call waits for the executor's approval (`e.approve`) before it is sent. */
  readonly needsApproval: boolean;
}

/** What templates/go/call-tables.hbs prints (go-call-tables.ts). */
export interface GoCallTablesView {
  /** `toolArguments` entries, keys aligned as gofmt aligns them. */
  readonly arguments: readonly {
    readonly key: string;
    readonly value: string;
  }[];
  /**
   * The tools whose calls wait for an approval: the quoted tool name, the
   * quoted full gRPC method (`toolNeedsApproval`).
   */
  readonly approvals: readonly {
    readonly key: string;
    readonly value: string;
  }[];
  /** Every tool: the quoted tool name, the quoted full gRPC method (`toolMethods`). */
  readonly methods: readonly {
    readonly key: string;
    readonly value: string;
  }[];
  /** `toolTimeouts` entries: the quoted tool name, a duration expression. */
  readonly timeouts: readonly {
    readonly key: string;
    readonly value: string;
  }[];
  /** `true` or `false`. */
  readonly lenientArguments: string;
  /** `true` or `false`. */
  readonly jsonNames: string;
  /** True when validateRequest is set up from protovalidate. */
  readonly validator: boolean;
}
