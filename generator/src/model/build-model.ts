import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import {
  createDescriptors,
  type Descriptors,
} from "../read/create-descriptors.js";
import type { DescFile, DescMessage } from "../read/descriptors.js";
import { checkEditions } from "../read/editions.js";
import { checkOpenAiStrict } from "../providers/openai-strict.js";
import type { FormTrees } from "../providers/provider-forms.js";
import { strictRecursiveVariant, toolForms } from "../providers/tool-forms.js";
import {
  createProblemCollector,
  GeneratorError,
  type ProblemCollector,
} from "../errors.js";
import { canonicalJson, compareUtf8 } from "../schema/canonical-json.js";
import { wellFormed } from "../schema/well-formed.js";
import {
  buildToolSchema,
  parametersRecursion,
  RootSchemaError,
} from "../schema/build-schema.js";
import {
  checkAliasPrefixes,
  outputPrefix,
  requestAliasFields,
  responseFieldPrefixes,
} from "./alias-prefixes.js";
import type { GeneratorModel, ToolModel } from "./model.js";
import { aliasTables, type AliasTables } from "./alias-tables.js";
import { argumentTable } from "./argument-table.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { timeoutProblem, timeoutNanos } from "./tool-timeout.js";
import { reachesValidateRules } from "../schema/validate-rules.js";
import { toolNameProblem } from "./tool-names.js";
import { createOutputSchemaCache, mcpServices } from "./mcp-services.js";
import { toolHints } from "./tool-hints.js";
import { needsApproval } from "./tool-approval.js";
import { normalizedScopes, requiredScopesProblem } from "./required-scopes.js";
import { outputWrapKey } from "../schema/build-output-schema.js";
import {
  annotatedTools,
  selectTools,
  type SerializedSchema,
  type ToolCandidate,
  type ToolSelection,
} from "./tool-selection.js";
import { sortByUtf8 } from "./utf8-order.js";
import { toolSearchJson } from "./tool-search-data.js";

/** The files to generate, resolved against every file of the request. */
export interface RequestFiles {
  /** The files of `file_to_generate`, sorted by name. */
  readonly files: readonly DescFile[];
}

/**
 * Resolve the request's descriptors. A file of an edition the plugin does
 * not read is refused first (editions.ts).
 */
export function resolveRequestFiles(
  request: CodeGeneratorRequest,
): RequestFiles {
  checkEditions(request.protoFile);
  let descriptors: Descriptors;
  try {
    descriptors = createDescriptors(topologicalOrder(request.protoFile));
  } catch (e) {
    throw new GeneratorError(
      `cannot resolve the request's descriptors: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const names = [...new Set(request.fileToGenerate)].sort(compareUtf8);
  const files: DescFile[] = [];
  for (const name of names) {
    const file = descriptors.get(name);
    if (file === undefined) {
      throw new GeneratorError(
        `file_to_generate names ${JSON.stringify(name)}, which is not among the request's proto files`,
      );
    }
    files.push(file);
  }
  return { files };
}

/**
 * The files with every file after its dependencies, whatever order the
 * request lists them in (protoc sends them sorted; other callers may not).
 * Ties keep the request's order, so the result is deterministic.
 */
function topologicalOrder(
  files: readonly FileDescriptorProto[],
): FileDescriptorProto[] {
  const byName = new Map(files.map((f) => [f.name, f]));
  const done = new Set<string>();
  const out: FileDescriptorProto[] = [];
  const visit = (file: FileDescriptorProto, path: readonly string[]): void => {
    if (done.has(file.name)) {
      return;
    }
    if (path.includes(file.name)) {
      throw new GeneratorError(
        `import cycle: ${[...path, file.name].join(" → ")}`,
      );
    }
    for (const dep of [...file.dependency].sort(compareUtf8)) {
      const depFile = byName.get(dep);
      if (depFile === undefined) {
        throw new GeneratorError(
          `${file.name} imports ${JSON.stringify(dep)}, which the request does not contain`,
        );
      }
      visit(depFile, [...path, file.name]);
    }
    done.add(file.name);
    out.push(file);
  };
  [...files]
    .sort((a, b) => compareUtf8(a.name, b.name))
    .forEach((f) => visit(f, []));
  return out;
}

/**
 * The tool's schema in its canonical serialization, or why it cannot be
 * built, or why OpenAI strict mode refuses a strict one (unless
 * `enforceOpenAiStrict` is false). A derived strict tool's schema was
 * built by the selection already (tool-selection.ts) when the form is
 * the inline one.
 */
function toolSchemaText(
  candidate: ToolCandidate,
  selection: ToolSelection,
  enforceOpenAiStrict: boolean,
): SerializedSchema | { readonly problem: string } {
  const { definition: def, method } = candidate;
  if (
    def.strict &&
    candidate.strictInlineSchema !== undefined &&
    (selection.schemaForm ?? "inline") === "inline"
  ) {
    return candidate.strictInlineSchema;
  }
  let schema;
  try {
    schema = buildToolSchema(
      method.input,
      def.strict,
      method,
      selection.schemaForm,
      selection.strictCycles,
      selection.schemaRules,
      parametersRecursion(def.strict),
    );
  } catch (e) {
    if (e instanceof RootSchemaError) {
      return { problem: e.message };
    }
    throw e;
  }
  if (def.strict && enforceOpenAiStrict) {
    const violations = checkOpenAiStrict(schema.schema);
    if (violations.length > 0) {
      return {
        problem:
          `strict tool ${JSON.stringify(def.name)} would be refused by OpenAI strict mode: ` +
          violations.map((v) => `${v.path}: ${v.message}`).join("; ") +
          `; simplify the request message ${method.input.typeName} or set strict: false`,
      };
    }
  }
  return {
    schemaJson: canonicalJson(schema.schema),
    schema: schema.schema,
    oneofGroups: schema.oneofGroups,
  };
}

/**
 * The files to generate, then those of tools added from imports (the
 * GetOperation of long-running operations: operations-tool.ts).
 */
function toolFilesOf(
  files: readonly DescFile[],
  selected: ReadonlyMap<unknown, ToolCandidate>,
): DescFile[] {
  const toolFiles = [...files];
  for (const candidate of selected.values()) {
    if (!toolFiles.includes(candidate.file)) {
      toolFiles.push(candidate.file);
    }
  }
  return toolFiles;
}

/**
 * Why a selected method cannot be a tool before its schema is built: a
 * name providers refuse, a client- or bidi-streaming method, a name
 * another tool has (`byName`), a timeout out of range; else undefined.
 */
function candidateProblem(
  candidate: ToolCandidate,
  byName: ReadonlyMap<string, ToolModel>,
): string | undefined {
  const def = candidate.definition;
  const method = candidate.method;
  const nameProblem = toolNameProblem(def.name);
  if (nameProblem !== undefined) {
    return nameProblem;
  }
  if (
    method.methodKind === "client_streaming" ||
    method.methodKind === "bidi_streaming"
  ) {
    return `tool ${JSON.stringify(def.name)} is a ${method.methodKind.replace("_", "-")} method, which a tool call cannot drive; remove the rpc_tool option or make the method unary or server-streaming`;
  }
  const previous = byName.get(def.name);
  if (previous !== undefined) {
    return `tool name ${JSON.stringify(def.name)} is already used by ${previous.element} in ${previous.file}; give each tool a unique name`;
  }
  return (
    (def.timeout === undefined
      ? undefined
      : timeoutProblem(def.name, def.timeout)) ??
    requiredScopesProblem(def.name, def.requiredScopes ?? [])
  );
}

/**
 * The response field prefixes of all tools, merged (a field one tool
 * leaves unprefixed stays so; else the first prefix wins), sorted by field.
 */
function mergedResponsePrefixes(
  tools: readonly ToolModel[],
): [string, string][] {
  const merged = new Map<string, string>();
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    for (const [field, prefix] of tool.responseFieldPrefixes) {
      if (prefix === "") {
        merged.set(field, "");
      } else if (!merged.has(field)) {
        merged.set(field, prefix);
      }
    }
  }
  return sortByUtf8([...merged], ([field]) => field);
}

/**
 * Build the model: every RPC of the files to generate that `selection`
 * makes a tool (by default the annotated ones), with its schema and alias
 * facts. Problems in the protos are collected and thrown together as one
 * GeneratorError. A strict tool OpenAI strict mode refuses is one of them
 * unless `enforceOpenAiStrict` is false (`providers=` without openai).
 * Warnings (methods `tools=all` leaves out) go to `warn`. Each tool, once
 * built, goes to `checkTool` with the schema tree its text was written
 * from and its provider forms (the provider checks, provider-checks.ts). `lenientArguments`
 * (lenient_arguments=true) writes JSON names into the argument tables.
 */
export function buildModel(
  files: readonly DescFile[],
  problems: ProblemCollector = createProblemCollector(),
  selection: ToolSelection = annotatedTools,
  enforceOpenAiStrict = true,
  warn: (message: string) => void = () => {},
  checkTool: (
    tool: ToolModel,
    schema: unknown,
    forms: FormTrees,
  ) => void = () => {},
  lenientArguments = false,
): GeneratorModel {
  checkAliasPrefixes(files, problems);
  const outputSchemas = createOutputSchemaCache();
  const selected = selectTools(files, selection, problems, warn);
  const tools: ToolModel[] = [];
  const byName = new Map<string, ToolModel>();
  // Tools share response types; each one's walk is done once.
  const prefixesByResponse = new Map<DescMessage, Map<string, string>>();
  const toolFiles = toolFilesOf(files, selected);
  for (let i = 0; i < toolFiles.length; i++) {
    const file = toolFiles[i]!;
    for (let j = 0, services = file.services; j < services.length; j++) {
      const service = services[j]!;
      for (let k = 0, methods = service.methods; k < methods.length; k++) {
        const method = methods[k]!;
        const candidate = selected.get(method);
        if (candidate === undefined) {
          continue;
        }
        const def = candidate.definition;
        const element = `${service.name}.${method.name}`;
        const at = { file: file.proto.name, element };
        const refused = candidateProblem(candidate, byName);
        if (refused !== undefined) {
          problems.add({ ...at, message: refused });
          continue;
        }
        const timeout = def.timeout;
        const built = toolSchemaText(candidate, selection, enforceOpenAiStrict);
        if ("problem" in built) {
          problems.add({ ...at, message: built.problem });
          continue;
        }
        const forms = toolForms({
          message: method.input,
          strict: def.strict,
          method,
          form: selection.schemaForm ?? "inline",
          strictCycles: selection.strictCycles ?? false,
          rules: selection.schemaRules,
          parameters: built.schema as JsonSchema,
          parametersJson: built.schemaJson,
        });
        if ("problem" in forms) {
          problems.add({
            ...at,
            message: `strict tool ${JSON.stringify(def.name)} cannot be sent to Anthropic with strict: Anthropic's SDK (transform_schema) refuses ${forms.problem.path}: ${forms.problem.message}; set strict: false`,
          });
          continue;
        }
        const aliasFields = requestAliasFields(method.input);
        const prefix = outputPrefix(method.output, aliasFields);
        let responsePrefixes = prefixesByResponse.get(method.output);
        if (responsePrefixes === undefined) {
          responsePrefixes = responseFieldPrefixes(method.output);
          prefixesByResponse.set(method.output, responsePrefixes);
        }
        // From the schema tree, which the model does not keep: a strict
        // tool sent in two variants (recursive and stop) gets the table of
        // the recursive one that also takes the stop's empty objects.
        const recursive = def.strict
          ? strictRecursiveVariant(forms.forms, built.schema as JsonSchema)
          : undefined;
        const argumentsJson = argumentTable(
          recursive ?? (built.schema as JsonSchema),
          method.input,
          def.strict,
          lenientArguments,
          method,
          recursive !== undefined,
        );
        const hints = toolHints(method, def.hints);
        const tool: ToolModel = {
          name: def.name,
          description: wellFormed(def.description),
          strict: def.strict,
          autoExecute: def.autoExecute,
          schemaJson: built.schemaJson,
          formsJson: forms.formsJson,
          argumentsJson,
          timeoutNanos:
            timeout === undefined ? undefined : timeoutNanos(timeout),
          validate: reachesValidateRules(method.input),
          oneofGroups: built.oneofGroups,
          file: file.proto.name,
          element,
          service,
          method,
          input: method.input,
          output: method.output,
          serverStreaming: method.methodKind === "server_streaming",
          requestAliasFields: aliasFields,
          outputPrefix: prefix,
          responseFieldPrefixes: responsePrefixes,
          involvesAliases:
            aliasFields.length > 0 ||
            responsePrefixes.size > 0 ||
            prefix !== "",
          get outputSchemaJson() {
            return outputSchemas.get(
              method.output,
              method.methodKind === "server_streaming",
            );
          },
          outputWrapKey: outputWrapKey(
            method.output,
            method.methodKind === "server_streaming",
          ),
          hints,
          requiredScopes: normalizedScopes(def.requiredScopes ?? []),
          needsApproval: needsApproval(
            candidate.derived,
            def.autoExecute,
            hints,
            selection.unannotatedTools,
          ),
        };
        byName.set(def.name, tool);
        tools.push(tool);
        checkTool(tool, built.schema, forms.forms);
      }
    }
  }
  problems.throwIfAny();

  sortByUtf8(tools, (t) => t.name);
  const executors = tools.filter((t) => t.autoExecute);

  const tables = aliasTables(tools, executors);
  let mcpTables: AliasTables | undefined;
  let toolSearch: string | undefined;
  return {
    tools,
    executors,
    hasAliases: tools.some((t) => t.involvesAliases),
    hasExecutors: executors.length > 0,
    responseFieldPrefixes: mergedResponsePrefixes(tools),
    toolOutputPrefix: executors
      .filter((t) => t.outputPrefix !== "")
      .map((t) => [t.name, t.outputPrefix] as const),
    ...tables,
    mcpServices: mcpServices(tools),
    get mcpAliasTables() {
      return (mcpTables ??= aliasTables(tools, tools));
    },
    get toolSearchJson() {
      return (toolSearch ??= toolSearchJson(tools));
    },
  };
}
