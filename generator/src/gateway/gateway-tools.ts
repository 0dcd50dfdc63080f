import {
  create,
  createFileRegistry,
  type FileRegistry,
} from "@bufbuild/protobuf";
import {
  FileDescriptorSetSchema,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import type { Transport } from "@connectrpc/connect";
import { defineTool, type AliasConfig } from "@protoc-gen-ai-tools/runtime";
import type { McpToolMethod } from "@protoc-gen-ai-tools/runtime/mcp";
import type { GeneratorModel, ToolModel } from "../model/model.js";
import {
  responseAliasField,
  toolMethodData,
} from "../targets/ts/build-ts-view.js";

/** One service's tools, as a generated `forwardTo<Service>Client` adds them. */
export interface GatewayToolSet {
  readonly methods: readonly McpToolMethod[];
  readonly aliases: AliasConfig;
  readonly transport: Transport;
}

/**
 * protobuf-es descriptors of `files` (any order: sorted imports first, as
 * createFileRegistry needs), for the runtime's (de)serialization.
 */
export function gatewayRegistry(
  files: readonly FileDescriptorProto[],
): FileRegistry {
  const byName = new Map(files.map((f) => [f.name, f]));
  const sorted: FileDescriptorProto[] = [];
  const seen = new Set<string>();
  const visit = (file: FileDescriptorProto | undefined) => {
    if (file === undefined || seen.has(file.name)) {
      return;
    }
    seen.add(file.name);
    file.dependency.forEach((d) => visit(byName.get(d)));
    sorted.push(file);
  };
  files.forEach(visit);
  return createFileRegistry(create(FileDescriptorSetSchema, { file: sorted }));
}

/**
 * The alias facts of the MCP tools, as the generated MCP file writes them
 * (the same JSON shaping: responseAliasField leaves "" and false out).
 */
export function gatewayAliases(model: GeneratorModel): AliasConfig {
  const tables = model.mcpAliasTables;
  return {
    knownAliasPrefixes: [...tables.knownAliasPrefixes],
    responseAliases: {
      types: Object.fromEntries(
        tables.responseAliasTypes.map(([name, fields]) => [
          name,
          fields.map(responseAliasField),
        ]),
      ),
      tools: Object.fromEntries(
        tables.toolResponseAliases.map(([name, tool]) => [name, { ...tool }]),
      ),
    },
  } as unknown as AliasConfig;
}

/**
 * A tool of the model as the runtime's McpToolMethod, its method from
 * `registry`; its provider forms only with `forms` (a registration with a
 * provider lists one; without, they would be held for nothing: 7.5 MB of
 * text on Compute Engine's 988 tools).
 */
function toolMethod(
  tool: ToolModel,
  serviceName: string,
  registry: FileRegistry,
  forms: boolean,
): McpToolMethod {
  const method = registry
    .getService(serviceName)
    ?.methods.find((m) => m.name === tool.method.name);
  if (method === undefined) {
    throw new Error(`no descriptor for ${serviceName}.${tool.method.name}`);
  }
  return {
    tool: defineTool(
      tool.name,
      tool.description,
      tool.strict,
      tool.schemaJson,
      forms ? tool.formsJson : undefined,
    ),
    method,
    outputSchema: tool.outputSchemaJson,
    outputWrapKey: tool.outputWrapKey,
    readOnlyHint: tool.hints.readOnly,
    destructiveHint: tool.hints.destructive,
    idempotentHint: tool.hints.idempotent,
    openWorldHint: tool.hints.openWorld,
    ...(tool.requiredScopes.length > 0
      ? { requiredScopes: [...tool.requiredScopes] }
      : {}),
    ...Object.fromEntries(toolMethodData(tool)),
  };
}

/**
 * The tool sets of the model's MCP services, one per service in the
 * model's order, each calling through `transport`; the tools carry their
 * provider forms only with `forms`.
 */
export function gatewayToolSets(
  model: GeneratorModel,
  registry: FileRegistry,
  transport: Transport,
  forms = false,
): GatewayToolSet[] {
  const aliases = gatewayAliases(model);
  return model.mcpServices.map((service) => ({
    methods: service.tools.map((t) =>
      toolMethod(t, service.fullName, registry, forms),
    ),
    aliases,
    transport,
  }));
}
