/** Which parts of the Go file are present; they decide the imports. */
export interface GoFeatures {
  readonly hasAliases: boolean;
  readonly hasExecutors: boolean;
  readonly hasStreaming: boolean;
}

interface ImportRule {
  readonly path: string;
  /** The package name the file refers to. */
  readonly name: string;
  readonly when: (f: GoFeatures) => boolean;
}

const always = (): boolean => true;
const aliases = (f: GoFeatures): boolean => f.hasAliases;
const executors = (f: GoFeatures): boolean => f.hasExecutors;
const streaming = (f: GoFeatures): boolean => f.hasStreaming;

/**
 * Standard library imports of the generated file, by feature: the alias
 * manager (templates/go/alias-manager.hbs) uses fmt, json, sort, strconv,
 * strings and sync; the executor and its argument fix-up (executor.hbs,
 * fixup.hbs) context, fmt, json, sort, strconv and strings; stream
 * collection errors, io and strings.
 */
export const goStdImports: readonly ImportRule[] = [
  { path: "context", name: "context", when: executors },
  { path: "encoding/json", name: "json", when: always },
  { path: "errors", name: "errors", when: streaming },
  { path: "fmt", name: "fmt", when: (f) => f.hasAliases || f.hasExecutors },
  { path: "io", name: "io", when: streaming },
  { path: "sort", name: "sort", when: (f) => f.hasAliases || f.hasExecutors },
  {
    path: "strconv",
    name: "strconv",
    when: (f) => f.hasAliases || f.hasExecutors,
  },
  {
    path: "strings",
    name: "strings",
    when: (f) => f.hasAliases || f.hasExecutors,
  },
  { path: "sync", name: "sync", when: aliases },
];

/** Third-party imports of the generated file, by feature. */
export const goModuleImports: readonly ImportRule[] = [
  { path: "google.golang.org/grpc", name: "grpc", when: executors },
  {
    path: "google.golang.org/grpc/status",
    name: "status",
    when: (f) => f.hasExecutors && f.hasAliases,
  },
  {
    path: "google.golang.org/protobuf/encoding/protojson",
    name: "protojson",
    when: executors,
  },
  {
    path: "google.golang.org/protobuf/reflect/protoreflect",
    name: "protoreflect",
    when: executors,
  },
];

/**
 * Package-level identifiers the templates declare. Tool variables
 * (PascalCase) must not take an exported one; import names must not take any.
 */
export const goFileIdentifiers: readonly string[] = [
  "AgentTool",
  "AllTools",
  "AliasManager",
  "NewAliasManager",
  "Executor",
  "NewExecutor",
  "Execute",
  "CanExecute",
  "GetAliasManager",
  "responseFieldPrefixes",
  "toolOutputPrefix",
  "knownAliasPrefixes",
];

/**
 * Local names of the executor code (variables, parameters). A package
 * imported under one of them would be shadowed where the code needs it.
 */
export const goLocalNames: readonly string[] = [
  "args",
  "argsJSON",
  "b",
  "cancel",
  "ctx",
  "e",
  "err",
  "item",
  "msg",
  "n",
  "ok",
  "out",
  "p",
  "req",
  "resolved",
  "resp",
  "st",
  "stream",
  "toolName",
];
