import type { ToolModel } from "../../model/model.js";
import { alignKeys } from "./go-align.js";
import { goQuote } from "./go-quote.js";
import type { GoImport } from "./go-runtime.js";
import type { GoCallTablesView } from "./go-view.js";

/** Plugin options the executors take (lenient_arguments, json_names, validate). */
export interface GoCallOptions {
  readonly lenientArguments?: boolean;
  readonly jsonNames?: boolean;
  /** validate=true: ai_tools.gen.go sets up validateRequest (Go only). */
  readonly validate?: boolean;
}

/** The import validateRequest's set-up needs. */
export const goValidatorImport: GoImport = {
  name: "protovalidate",
  path: "buf.build/go/protovalidate",
};

/** Imports of templates/go/call-tables.hbs, validateRequest's aside. */
export const goCallTableImports: readonly GoImport[] = [
  { name: "time", path: "time" },
  { name: "proto", path: "google.golang.org/protobuf/proto" },
];

/** `validateRequest = …` of the MCP file's init, set up from protovalidate. */
export const goValidatorAssignment =
  "validateRequest = func(m proto.Message) error { return protovalidate.Validate(m) }";

const units: readonly (readonly [bigint, string])[] = [
  [3_600_000_000_000n, "time.Hour"],
  [60_000_000_000n, "time.Minute"],
  [1_000_000_000n, "time.Second"],
  [1_000_000n, "time.Millisecond"],
  [1_000n, "time.Microsecond"],
  [1n, "time.Nanosecond"],
];

/** A positive duration as Go writes it: `2 * time.Minute`, `time.Second`. */
export function goDuration(nanos: bigint): string {
  for (const [size, name] of units) {
    if (nanos % size === 0n) {
      const n = nanos / size;
      return n === 1n ? name : `${n} * ${name}`;
    }
  }
  return `${nanos} * time.Nanosecond`;
}

/**
 * The argument tables, deadlines, option constants and validator of
 * `tools` (templates/go/call-tables.hbs); `validator`: validateRequest is
 * set up from protovalidate.
 */
export function goCallTablesView(
  tools: readonly ToolModel[],
  options: GoCallOptions,
  validator: boolean,
): GoCallTablesView {
  return {
    arguments: aligned(goArgumentEntries(tools)),
    timeouts: aligned(goTimeoutEntries(tools)),
    approvals: aligned(goApprovalEntries(tools)),
    methods: aligned(goMethodEntries(tools)),
    lenientArguments: String(options.lenientArguments === true),
    jsonNames: String(options.jsonNames === true),
    validator,
  };
}

/** Each tool with an argument table: its quoted name and table. */
export function goArgumentEntries(
  tools: readonly ToolModel[],
): [string, string][] {
  return tools
    .filter((t) => t.argumentsJson !== "")
    .map((t) => [goQuote(t.name), goQuote(t.argumentsJson)]);
}

/** Each tool with a deadline: its quoted name and duration. */
export function goTimeoutEntries(
  tools: readonly ToolModel[],
): [string, string][] {
  return tools
    .filter((t) => t.timeoutNanos !== undefined)
    .map((t) => [goQuote(t.name), goDuration(t.timeoutNanos!)]);
}

/**
 * Each tool whose calls wait for an approval: its quoted name and quoted
 * full gRPC method (`"/linkhub.v1.LinkService/ArchiveLink"`).
 */
export function goApprovalEntries(
  tools: readonly ToolModel[],
): [string, string][] {
  return tools
    .filter((t) => t.needsApproval)
    .map((t) => [goQuote(t.name), goQuote(goFullMethod(t))]);
}

/** Each tool: its quoted name and quoted full gRPC method (`toolMethods`). */
export function goMethodEntries(
  tools: readonly ToolModel[],
): [string, string][] {
  return tools.map((t) => [goQuote(t.name), goQuote(goFullMethod(t))]);
}

/** The full gRPC method of a tool: `/linkhub.v1.LinkService/GetLink`. */
export function goFullMethod(tool: ToolModel): string {
  return `/${tool.service.typeName}/${tool.method.name}`;
}

function aligned(
  entries: readonly (readonly [string, string])[],
): { key: string; value: string }[] {
  const keys = alignKeys(entries.map(([key, value]) => ({ key, value })));
  return entries.map(([, value], i) => ({ key: keys[i]!, value }));
}
