import { create } from "@bufbuild/protobuf";
import {
  CodeGeneratorResponse_Feature,
  CodeGeneratorResponseSchema,
  type CodeGeneratorRequest,
  type CodeGeneratorResponse,
} from "@bufbuild/protobuf/wkt";
import type { Plugin } from "@bufbuild/protoplugin";
import { createProblemCollector, GeneratorError } from "./errors.js";
import { supportedEditions } from "./read/editions.js";
import { buildModel, resolveRequestFiles } from "./model/build-model.js";
import { noToolsWarning } from "./model/no-tools.js";
import { toolSearchNameProblems } from "./model/tool-search-data.js";
import { toolSelectionOf } from "./model/tool-selection.js";
import { parseOptions } from "./options.js";
import { createToolChecker, providersOf } from "./providers/provider-checks.js";
import { createRenderer } from "./render/render.js";
import {
  targets,
  type TargetEntry,
  type TargetView,
} from "./targets/registry.js";
import { version } from "./version.js";

/** A generated file: path relative to the output root, and its content. */
export interface GeneratedFile {
  readonly name: string;
  readonly content: string;
}

/**
 * Writes a warning to stderr, the one channel a protoc plugin has besides
 * its response (protoc and buf pass it through).
 */
export function writeWarning(message: string): void {
  process.stderr.write(`protoc-gen-ai-tools: warning: ${message}\n`);
}

/**
 * The model of a request, as {@link generate} builds it: the parsed
 * options, the files to generate, the tool selection, the model, and the
 * problem collector and provider checker that still hold its findings
 * (call `checker.finish(model.tools)` when the model has tools). The MCP
 * gateway (gateway/) builds its tools with it from an in-memory request.
 */
export function buildRequestModel(
  request: CodeGeneratorRequest,
  warn: (message: string) => void = writeWarning,
) {
  const options = parseOptions(request.parameter);
  const { files } = resolveRequestFiles(request);
  const problems = createProblemCollector();
  const providers = providersOf(options.lists["providers"] ?? []);
  const checker = createToolChecker(providers, problems, warn);
  const selection = toolSelectionOf(options.common, options.lists);
  const model = buildModel(
    files,
    problems,
    selection,
    providers.includes("openai"),
    warn,
    (tool, schema, forms) => checker.check(tool, schema, forms),
    options.common["lenient_arguments"] === "true",
  );
  return { options, files, problems, checker, selection, model };
}

/**
 * Run the generator on a request. Throws GeneratorError for bad input.
 * Returns no file when no method becomes a tool (none annotated, with a
 * warning, or none selected by `tools`, `include` and `exclude`). Warnings (limits that hold
 * per model request, see providers=; methods `tools=all` leaves out) go to
 * `warn`, by default stderr.
 */
export function generate(
  request: CodeGeneratorRequest,
  warn: (message: string) => void = writeWarning,
): GeneratedFile[] {
  const { options, files, problems, checker, selection, model } =
    buildRequestModel(request, warn);
  if (model.tools.length === 0) {
    const why = noToolsWarning(files, selection);
    if (why !== undefined) {
      warn(why);
    }
    return [];
  }
  checker.finish(model.tools);
  const entry: TargetEntry = targets[options.target];
  const mcp = options.common["mcp"] === "true";
  if (mcp && entry.buildMcpView === undefined) {
    throw new GeneratorError(
      `option "mcp=true" is not supported for target=${options.target} yet`,
    );
  }
  // The target's own options and the common ones (lenient_arguments,
  // json_names), whose keys differ.
  const values = { ...options.common, ...options.values };
  if (options.common["tool_search"] === "true") {
    toolSearchNameProblems(model.tools, problems);
  }
  const views: [TargetView, string][] = [
    [entry.buildView(model, values, problems), "file"],
  ];
  if (mcp) {
    views.push([entry.buildMcpView!(model, values, problems), "mcp-file"]);
  }
  problems.throwIfAny();
  const optionWarning = entry.optionWarning?.(model, options.values, mcp);
  if (optionWarning !== undefined) {
    warn(optionWarning);
  }
  const renderer = createRenderer(options.target);
  return views.map(([view, template]) => {
    const text = renderer.render(view, template);
    return {
      name: view.fileName,
      content:
        entry.postProcess === undefined ? text : entry.postProcess(text, view),
    };
  });
}

/** proto3 `optional` and Editions, as protoc and buf read the response. */
const supportedFeatures = BigInt(
  CodeGeneratorResponse_Feature.PROTO3_OPTIONAL |
    CodeGeneratorResponse_Feature.SUPPORTS_EDITIONS,
);

/**
 * The protoc plugin. Bad input is reported in the response's `error` field
 * (protoc and buf print it and fail), with no file written; an unexpected
 * failure is reported the same way, marked as a bug, without a stack trace.
 */
export const protocGenAiTools: Plugin = {
  name: "protoc-gen-ai-tools",
  version: `v${version}`,
  run(request: CodeGeneratorRequest): CodeGeneratorResponse {
    const features = {
      supportedFeatures,
      minimumEdition: supportedEditions.minimum,
      maximumEdition: supportedEditions.maximum,
    };
    try {
      const files = generate(request);
      return create(CodeGeneratorResponseSchema, {
        ...features,
        file: files.map((f) => ({ name: f.name, content: f.content })),
      });
    } catch (e) {
      const message =
        e instanceof GeneratorError
          ? e.message
          : `internal error (please report it with the proto that caused it): ${e instanceof Error ? e.message : String(e)}`;
      return create(CodeGeneratorResponseSchema, {
        ...features,
        error: message,
      });
    }
  },
};
