import type {
  DescFile,
  DescMessage,
  DescMethod,
  DescService,
} from "../read/descriptors.js";
import {
  readMcpToolName,
  readToolDefinition,
  type ToolDefinition,
} from "../read/annotations.js";
import { GeneratorError, type ProblemCollector } from "../errors.js";
import { checkOpenAiStrict } from "../providers/openai-strict.js";
import {
  providersOf,
  strictRecursionAllowed,
} from "../providers/provider-checks.js";
import {
  buildToolSchema,
  RootSchemaError,
  type OneofGroup,
} from "../schema/build-schema.js";
import { canonicalJson, compareUtf8 } from "../schema/canonical-json.js";
import {
  deriveToolName,
  maxToolNameBytes,
  methodFullName,
  minDerivedNameBytes,
} from "./derived-names.js";
import { methodDescription } from "./method-description.js";
import { toolNameProblem } from "./tool-names.js";
import {
  mcpToolNameOverriddenWarning,
  mcpToolNameProblem,
} from "./mcp-tool-name.js";
import type { SchemaForm } from "../schema/schema-form.js";
import { schemaRulesOf, type SchemaRules } from "../schema/schema-rules.js";
import { wellKnownSchema } from "../schema/well-known.js";
import { operationsTool } from "./operations-tool.js";
import { unannotatedToolsOf, type UnannotatedTools } from "./tool-approval.js";

/** Which methods of the files to generate become tools, and how named. */
export interface ToolSelection {
  /**
   * `annotated`: the methods with an `rpc_tool` option; `all`: also every
   * other unary and server-streaming method (client- and bidi-streaming
   * methods without an option are skipped).
   */
  readonly tools: "annotated" | "all";
  /**
   * Method patterns (`pkg.Service.Method`, or a prefix ending with `*`):
   * when not empty, only the methods matching one of them are tools.
   */
  readonly include: readonly string[];
  /** Method patterns of methods that are never tools. */
  readonly exclude: readonly string[];
  /** Taken off the start of the full names that tool names are derived from. */
  readonly trimPrefix: string;
  /** Put in front of every tool name, derived or from an `rpc_tool` option. */
  readonly namePrefix: string;
  /** How the tools' schemas are written (option `schema`); default `inline`. */
  readonly schemaForm?: SchemaForm;
  /**
   * True when compact strict tools get real recursion: the enforced
   * providers (option `providers`) all take it (strictRecursionAllowed).
   */
  readonly strictCycles?: boolean;
  /**
   * Options `deprecated` and `output_only_comments` (schema-rules.ts);
   * default none of them.
   */
  readonly schemaRules?: SchemaRules;
  /**
   * Which tools without an `rpc_tool` option ask for an approval before
   * each call (option `unannotated_tools`, tool-approval.ts); default
   * `read-only-run`.
   */
  readonly unannotatedTools?: UnannotatedTools;
}

/** The default selection: every annotated method, named as annotated. */
export const annotatedTools: ToolSelection = {
  tools: "annotated",
  include: [],
  exclude: [],
  trimPrefix: "",
  namePrefix: "",
};

const identifier = "[A-Za-z_][A-Za-z0-9_]*";
const methodPattern = new RegExp(
  `^(\\*|${identifier}(\\.${identifier})*(\\.?\\*)?)$`,
);
const trimPattern = new RegExp(`^${identifier}(\\.${identifier})*\\.?$`);
const namePrefixPattern = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Why a value of `include=`/`exclude=` is invalid, or undefined. */
export function methodPatternProblem(value: string): string | undefined {
  return methodPattern.test(value)
    ? undefined
    : 'use a full method name (acme.crm.v1.CrmService.CreateAccount) or a prefix ending with "*" (acme.crm.v1.CrmService.*)';
}

/** Why a value of `trim_prefix=` is invalid, or undefined. */
export function trimPrefixProblem(value: string): string | undefined {
  return trimPattern.test(value)
    ? undefined
    : "use the start of a full method name, e.g. acme.crm.v1";
}

/** Why a value of `name_prefix=` is invalid, or undefined. */
export function namePrefixProblem(value: string): string | undefined {
  const longest = maxToolNameBytes - minDerivedNameBytes;
  return namePrefixPattern.test(value) && value.length <= longest
    ? undefined
    : `use 1 to ${longest} letters, digits, "_" or "-", starting with a letter or "_", e.g. crm_`;
}

/**
 * The selection the plugin options ask for: `tools`, `trim_prefix` and
 * `name_prefix` from the common option values, `include` and `exclude`
 * from the values of the repeatable ones.
 */
export function toolSelectionOf(
  common: Readonly<Record<string, string>>,
  lists: Readonly<Record<string, readonly string[]>>,
): ToolSelection {
  return {
    tools: common["tools"] === "all" ? "all" : "annotated",
    include: lists["include"] ?? [],
    exclude: lists["exclude"] ?? [],
    trimPrefix: common["trim_prefix"] ?? "",
    namePrefix: common["name_prefix"] ?? "",
    schemaForm: common["schema"] === "compact" ? "compact" : "inline",
    strictCycles: strictRecursionAllowed(providersOf(lists["providers"] ?? [])),
    schemaRules: schemaRulesOf(common),
    unannotatedTools: unannotatedToolsOf(common["unannotated_tools"]),
  };
}

/** One method that becomes a tool. */
export interface ToolCandidate {
  readonly file: DescFile;
  readonly service: DescService;
  readonly method: DescMethod;
  /** `acme.crm.v1.CrmService.CreateAccount`. */
  readonly fullName: string;
  /**
   * The tool as the model builder takes it: the final name (name prefix
   * included), the description (see methodDescription), the option's
   * timeout and hints as decoded here, and for a method
   * without an `rpc_tool` option the defaults: strict when the request
   * allows it ({@link allowedStrictSchema}), executed.
   */
  readonly definition: ToolDefinition;
  /** True when the method has no `rpc_tool` option. */
  readonly derived: boolean;
  /**
   * For a derived tool made strict: its strict schema in the inline form,
   * built and checked to choose that default, so that the model builder
   * does not build it again.
   */
  readonly strictInlineSchema?: SerializedSchema;
}

/** A tool schema in its canonical serialization, with its oneof groups. */
export interface SerializedSchema {
  readonly schemaJson: string;
  /** The tree `schemaJson` was written from (shared nodes frozen). */
  readonly schema: unknown;
  readonly oneofGroups: readonly OneofGroup[];
}

/**
 * The strict schema (inline form) of a tool of the request message when
 * the tool can be strict: the schema (with the fields `method`'s HTTP
 * paths bind) can be built and passes the OpenAI strict-mode checker;
 * else undefined.
 */
function allowedStrictSchema(
  request: DescMessage,
  method?: DescMethod,
  rules?: SchemaRules,
): SerializedSchema | undefined {
  try {
    const built = buildToolSchema(
      request,
      true,
      method,
      "inline",
      false,
      rules,
    );
    return checkOpenAiStrict(built.schema).length === 0
      ? {
          schemaJson: canonicalJson(built.schema),
          schema: built.schema,
          oneofGroups: built.oneofGroups,
        }
      : undefined;
  } catch (e) {
    if (e instanceof RootSchemaError) {
      return undefined;
    }
    throw e;
  }
}

function matches(pattern: string, fullName: string): boolean {
  return pattern.endsWith("*")
    ? fullName.startsWith(pattern.slice(0, -1))
    : fullName === pattern;
}

/** What one include or exclude pattern met, for its error. */
interface PatternUse {
  matched: number;
  selected: number;
  unannotated: number;
  streaming: number;
  notObject: number;
  excluded: number;
}

const noUses: readonly [string, PatternUse][] = [];

/** The patterns of `uses` that match `fullName`, with their uses. */
function matching(
  uses: ReadonlyMap<string, PatternUse>,
  fullName: string,
): readonly [string, PatternUse][] {
  if (uses.size === 0) {
    return noUses; // no include= or exclude=, the usual case: allocate nothing
  }
  return [...uses].filter(([p]) => matches(p, fullName));
}

/**
 * True when a request of type `message` is a JSON object, as a tool's
 * arguments are: false for the well-known types written as a string, a
 * number, a list or any value (wrappers, Duration, Timestamp, FieldMask,
 * Value, ListValue), and for Any, which has no shape a model could fill.
 */
function hasJsonObjectForm(message: DescMessage): boolean {
  const wkt = wellKnownSchema(message.typeName, false);
  return wkt === undefined || (wkt !== null && wkt["type"] === "object");
}

/** How many left-out methods a warning names before "and N more". */
const leftOutListed = 10;

function isStreamingIn(method: DescMethod): boolean {
  return (
    method.methodKind === "client_streaming" ||
    method.methodKind === "bidi_streaming"
  );
}

/**
 * The methods of `files` (the request's files to generate, not their
 * imports) that become tools under `selection`, in file, service and
 * method order, by method.
 *
 * Names: the `rpc_tool` name, else protoc-gen-go-mcp's
 * `(mcp.v1.tool_name)` (a warning names the methods where both are set
 * and differ), else derived from the full name ({@link deriveToolName});
 * the name prefix in front of any; a name
 * that providers would refuse, or one that another tool already has, is a
 * problem naming both methods (those tools are left out). An
 * `include`/`exclude` pattern that matches no method, an `include` pattern
 * that selects no tool, and a `trim_prefix` that trims no name are option
 * errors, thrown together.
 *
 * Annotated client- and bidi-streaming methods are returned: the model
 * builder reports them. Without an annotation (`tools=all`), those are
 * left out, and so are the methods whose request type has no JSON object
 * form (a `google.protobuf.BoolValue`, say): a warning to `warn` names
 * each kind (the first ten of them).
 */
export function selectTools(
  files: readonly DescFile[],
  selection: ToolSelection,
  problems: ProblemCollector,
  warn: (message: string) => void = () => {},
): Map<DescMethod, ToolCandidate> {
  const notObject: string[] = [];
  const streamingIn: string[] = [];
  const shortened: ShortenedName[] = [];
  const overridden: string[] = [];
  const includes = patternUses(selection.include);
  const excludes = patternUses(selection.exclude);
  const services = new Set<string>();
  let trimmed = 0;
  const selected = new Map<DescMethod, ToolCandidate>();
  const owners = new Map<string, { candidate: ToolCandidate; how: string }>();
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    for (let j = 0, list = file.services; j < list.length; j++) {
      const service = list[j]!;
      services.add(service.typeName);
      for (let k = 0, methods = service.methods; k < methods.length; k++) {
        const method = methods[k]!;
        const fullName = methodFullName(method);
        const included = matching(includes, fullName);
        const excluded = matching(excludes, fullName);
        included.forEach(([, use]) => use.matched++);
        excluded.forEach(([, use]) => use.matched++);
        const annotation = readToolDefinition(method);
        const count = (key: keyof PatternUse) =>
          included.forEach(([, use]) => use[key]++);
        if (excluded.length > 0) {
          count("excluded");
          continue;
        }
        if (includes.size > 0 && included.length === 0) {
          continue;
        }
        if (annotation === undefined && selection.tools === "annotated") {
          count("unannotated");
          continue;
        }
        if (annotation === undefined && isStreamingIn(method)) {
          count("streaming");
          streamingIn.push(fullName);
          continue;
        }
        if (annotation === undefined && !hasJsonObjectForm(method.input)) {
          count("notObject");
          notObject.push(`${fullName} (${method.input.typeName})`);
          continue;
        }
        count("selected");
        const at = {
          file: file.proto.name,
          element: `${service.name}.${method.name}`,
        };
        const mcpName = readMcpToolName(method);
        if (
          annotation !== undefined &&
          annotation.name !== "" &&
          mcpName !== undefined &&
          mcpName !== annotation.name
        ) {
          overridden.push(
            `${fullName} (${JSON.stringify(annotation.name)}, not ${JSON.stringify(mcpName)})`,
          );
        }
        if (
          annotation === undefined &&
          mcpName === undefined &&
          selection.trimPrefix !== "" &&
          fullName.startsWith(selection.trimPrefix)
        ) {
          trimmed++;
        }
        const named = toolName(fullName, annotation, selection, mcpName);
        if ("problem" in named) {
          problems.add({ ...at, message: named.problem });
          continue;
        }
        if (named.shortened) {
          shortened.push({
            fullName,
            pkg: file.proto.package,
            name: named.name,
          });
        }
        const candidate = createCandidate(
          { file, service, method, fullName },
          named.name,
          annotation,
          selection,
        );
        selected.set(method, candidate);
        if (isStreamingIn(method)) {
          continue; // refused by the model builder, under its own name
        }
        const previous = owners.get(named.name);
        if (previous === undefined) {
          owners.set(named.name, { candidate, how: named.how });
          continue;
        }
        selected.delete(method);
        problems.add({
          ...at,
          message: collision(named.name, named.how, previous),
        });
      }
    }
  }
  if (addOperationsTool(selected, owners, selection, problems)) {
    trimmed++;
  }
  throwOptionErrors(selection, includes, excludes, services, trimmed);
  warnLeftOut(streamingIn, notObject, warn);
  warnShortened(shortened, selection, warn);
  const overriddenWarning = mcpToolNameOverriddenWarning(overridden);
  if (overriddenWarning !== undefined) {
    warn(overriddenWarning);
  }
  return selected;
}

/** A use count of each pattern, all zero. */
function patternUses(patterns: readonly string[]): Map<string, PatternUse> {
  return new Map<string, PatternUse>(
    patterns.map((p) => [
      p,
      {
        matched: 0,
        selected: 0,
        unannotated: 0,
        streaming: 0,
        notObject: 0,
        excluded: 0,
      },
    ]),
  );
}

/**
 * The candidate of a selected method named `name`: the `rpc_tool` option's
 * description, strictness, execution, timeout and hints, or for a method
 * without one the defaults (strict when the request allows it, executed).
 */
function createCandidate(
  where: Pick<ToolCandidate, "file" | "service" | "method" | "fullName">,
  name: string,
  annotation: ToolDefinition | undefined,
  selection: ToolSelection,
): ToolCandidate {
  const method = where.method;
  const strictSchema =
    annotation === undefined
      ? allowedStrictSchema(method.input, method, selection.schemaRules)
      : undefined;
  return {
    ...where,
    derived: annotation === undefined,
    definition: {
      name,
      description: methodDescription(method, annotation?.description ?? ""),
      strict: annotation?.strict ?? strictSchema !== undefined,
      autoExecute: annotation?.autoExecute ?? true,
      ...(annotation?.timeout === undefined
        ? {}
        : { timeout: annotation.timeout }),
      ...(annotation?.hints === undefined ? {} : { hints: annotation.hints }),
      ...(annotation?.requiredScopes === undefined
        ? {}
        : { requiredScopes: annotation.requiredScopes }),
    },
    ...(strictSchema === undefined ? {} : { strictInlineSchema: strictSchema }),
  };
}

/**
 * Warns of the methods tools=all leaves out, named (and not only when no
 * tool is left: a run with other files' tools would drop them without a
 * word).
 */
function warnLeftOut(
  streamingIn: readonly string[],
  notObject: readonly string[],
  warn: (message: string) => void,
): void {
  const leftOut = (methods: readonly string[], what: string) => {
    if (methods.length > 0) {
      const more = methods.length - leftOutListed;
      warn(
        `tools=all leaves out ${methods.length} ${what}: ` +
          methods.slice(0, leftOutListed).join(", ") +
          (more > 0 ? `, and ${more} more` : ""),
      );
    }
  };
  leftOut(
    streamingIn,
    `client- or bidi-streaming method${streamingIn.length === 1 ? "" : "s"}, which a tool call cannot drive`,
  );
  leftOut(
    notObject,
    `method${notObject.length === 1 ? "" : "s"} whose request type has no JSON object form, which a tool's arguments must have`,
  );
}

/** Warns of the derived names shortened to fit, with the trim_prefix that would keep them whole. */
function warnShortened(
  shortened: readonly ShortenedName[],
  selection: ToolSelection,
  warn: (message: string) => void,
): void {
  const trim = trimSuggestion(shortened, selection);
  if (trim !== undefined) {
    warn(
      `tools=all shortened ${shortened.length} tool name${shortened.length === 1 ? "" : "s"} over ${maxToolNameBytes} bytes to a hash and the name's end (${JSON.stringify(shortened[0]!.name)}); ` +
        `option trim_prefix=${trim.prefix} would keep ${trim.whole === shortened.length ? (shortened.length === 1 ? "it" : "them all") : `${trim.whole} of them`} whole`,
    );
  }
}

/** A derived tool name shortened to fit (deriveToolName). */
interface ShortenedName {
  readonly fullName: string;
  /** The proto package of its method. */
  readonly pkg: string;
  readonly name: string;
}

/**
 * The `trim_prefix` (a proto package) that would keep the most of the
 * `shortened` names whole, and how many; undefined when trim_prefix is set
 * already or no package would keep one whole.
 */
function trimSuggestion(
  shortened: readonly ShortenedName[],
  selection: ToolSelection,
): { prefix: string; whole: number } | undefined {
  if (selection.trimPrefix !== "" || shortened.length === 0) {
    return undefined;
  }
  let best: { prefix: string; whole: number } | undefined;
  const packages = [...new Set(shortened.map((s) => s.pkg))]
    .filter((p) => p !== "")
    .sort(compareUtf8);
  for (const pkg of packages) {
    let whole = 0;
    for (const s of shortened) {
      const derived = deriveToolName(
        s.fullName,
        pkg,
        maxToolNameBytes - selection.namePrefix.length,
      );
      if (!("problem" in derived) && derived.trimmed && !derived.shortened) {
        whole++;
      }
    }
    if (whole > (best?.whole ?? 0)) {
      best = { prefix: pkg, whole };
    }
  }
  return best;
}

/**
 * Add google.longrunning.Operations.GetOperation as a derived tool when a
 * selected tool returns an Operation (operations-tool.ts): named as
 * tools=all names it, strict, executed when such a tool is. Returns true
 * when trim_prefix trimmed its name.
 */
function addOperationsTool(
  selected: Map<DescMethod, ToolCandidate>,
  owners: ReadonlyMap<string, { candidate: ToolCandidate; how: string }>,
  selection: ToolSelection,
  problems: ProblemCollector,
): boolean {
  const definitions = new Map(
    [...selected].map(([m, c]) => [m, c.definition] as const),
  );
  const lro = operationsTool(definitions);
  if (lro === undefined) {
    return false;
  }
  const { method, file } = lro;
  const fullName = methodFullName(method);
  const at = { file: file.proto.name, element: `Operations.${method.name}` };
  const named = toolName(fullName, undefined, selection);
  const previous = "problem" in named ? undefined : owners.get(named.name);
  if ("problem" in named || previous !== undefined) {
    problems.add({
      ...at,
      message:
        "problem" in named
          ? named.problem
          : collision(named.name, named.how, previous!),
    });
    return false;
  }
  selected.set(method, {
    file,
    service: method.parent,
    method,
    fullName,
    derived: true,
    definition: {
      name: named.name,
      description: lro.description,
      strict: true,
      autoExecute: lro.autoExecute,
    },
  });
  return (
    selection.trimPrefix !== "" && fullName.startsWith(selection.trimPrefix)
  );
}

type Named =
  { name: string; how: string; shortened: boolean } | { problem: string };

/**
 * The tool's name: the `rpc_tool` name (an empty one is a problem unless
 * `(mcp.v1.tool_name)` is set), else `mcpName`, else derived; the name
 * prefix in front.
 */
function toolName(
  fullName: string,
  annotation: ToolDefinition | undefined,
  selection: ToolSelection,
  mcpName?: string,
): Named {
  const prefix = selection.namePrefix;
  const withPrefix =
    prefix === "" ? "" : ` with name_prefix ${JSON.stringify(prefix)}`;
  if (
    annotation !== undefined &&
    (annotation.name !== "" || mcpName === undefined)
  ) {
    const own = toolNameProblem(annotation.name);
    return own !== undefined
      ? { problem: own }
      : givenName(annotation.name, "rpc_tool name", prefix, "");
  }
  if (mcpName !== undefined) {
    const own = mcpToolNameProblem(mcpName);
    return own !== undefined
      ? { problem: own }
      : givenName(
          mcpName,
          "(mcp.v1.tool_name)",
          prefix,
          "its (mcp.v1.tool_name)",
        );
  }
  const derived = deriveToolName(
    fullName,
    selection.trimPrefix,
    maxToolNameBytes - prefix.length,
  );
  if ("problem" in derived) {
    return derived;
  }
  const name = prefix + derived.name;
  const steps = [
    derived.trimmed
      ? `after trim_prefix ${JSON.stringify(selection.trimPrefix)}`
      : "",
    derived.shortened ? `shortened to fit ${maxToolNameBytes} bytes` : "",
    withPrefix.trim(),
  ].filter((s) => s !== "");
  const how = `derived from ${fullName}${steps.length > 0 ? `, ${steps.join(", ")}` : ""}`;
  const problem = toolNameProblem(name);
  return problem === undefined
    ? { name, how, shortened: derived.shortened }
    : {
        problem: `${problem}; it is ${how}: name the tool with an rpc_tool option`,
      };
}

/**
 * A name an option gives (`label`, e.g. "rpc_tool name"), with the name
 * prefix in front; `how` tells how it was named when no prefix is set.
 */
function givenName(
  given: string,
  label: string,
  prefix: string,
  how: string,
): Named {
  const name = prefix + given;
  if (name.length > maxToolNameBytes) {
    return {
      problem: `tool name ${JSON.stringify(name)} (name_prefix ${JSON.stringify(prefix)} and the ${label} ${JSON.stringify(given)}) is ${name.length} bytes, more than the ${maxToolNameBytes} model providers accept; shorten the ${label} or the name_prefix`,
    };
  }
  const withPrefix = `its ${label} with name_prefix ${JSON.stringify(prefix)}`;
  return { name, how: prefix === "" ? how : withPrefix, shortened: false };
}

function collision(
  name: string,
  how: string,
  previous: { candidate: ToolCandidate; how: string },
): string {
  const other = previous.candidate;
  const explain = (s: string) => (s === "" ? "" : ` (${s})`);
  const fix =
    how === "" && previous.how === ""
      ? "give each tool a unique name"
      : `name one of them with an rpc_tool option, or leave one out with exclude=${other.fullName}`;
  return `tool name ${JSON.stringify(name)}${explain(how)} is already used by ${other.service.name}.${other.method.name} in ${other.file.proto.name}${explain(previous.how)}; ${fix}`;
}

function throwOptionErrors(
  selection: ToolSelection,
  includes: ReadonlyMap<string, PatternUse>,
  excludes: ReadonlyMap<string, PatternUse>,
  services: ReadonlySet<string>,
  trimmed: number,
): void {
  const errors: string[] = [];
  const none = (key: string, pattern: string) => {
    const hint = services.has(pattern)
      ? `; to match every method of the service, write ${key}=${pattern}.*`
      : "; use the full name of a method of the files to generate, or a prefix ending with *";
    errors.push(
      `option "${key}=${pattern}" matches no method of the files to generate${hint}`,
    );
  };
  for (const [pattern, use] of includes) {
    if (use.matched === 0) {
      none("include", pattern);
    } else if (use.selected === 0) {
      const reasons = [
        use.unannotated > 0
          ? "without an rpc_tool option (tools=all takes them too)"
          : "",
        use.streaming > 0
          ? "client- or bidi-streaming, which a tool call cannot drive"
          : "",
        use.notObject > 0
          ? "of a request type with no JSON object form, which a tool's arguments must have"
          : "",
        use.excluded > 0 ? "excluded" : "",
      ].filter((r) => r !== "");
      errors.push(
        `option "include=${pattern}" selects no tool: the methods it matches are ${reasons.join(", or ")}`,
      );
    }
  }
  for (const [pattern, use] of excludes) {
    if (use.matched === 0) {
      none("exclude", pattern);
    }
  }
  if (selection.trimPrefix !== "" && trimmed === 0) {
    errors.push(
      selection.tools === "annotated"
        ? `option "trim_prefix=${selection.trimPrefix}" trims derived tool names, and tools=annotated derives none; set tools=all, or drop trim_prefix`
        : `option "trim_prefix=${selection.trimPrefix}" starts the full name of no method that becomes a tool without an rpc_tool name; use the start of one, e.g. the package name`,
    );
  }
  if (errors.length > 0) {
    throw GeneratorError.lines(errors);
  }
}
