import type { DescMessage, DescMethod } from "@bufbuild/protobuf";
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import type { ProblemCollector } from "../errors.js";
import {
  buildOutputSchema,
  mcpOutputEncoding,
} from "../schema/build-output-schema.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { canonicalJson } from "../schema/canonical-json.js";
import type { McpServiceModel, ToolModel } from "./model.js";
import { sortByUtf8 } from "./utf8-order.js";

/** The MCP tool annotations of a method (docs/mcp.md, "Tools as listed"). */
export function mcpHints(method: DescMethod): {
  readOnlyHint: boolean;
  idempotentHint: boolean;
} {
  const level = method.idempotency;
  const readOnly = level === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS;
  return {
    readOnlyHint: readOnly,
    idempotentHint:
      readOnly || level === MethodOptions_IdempotencyLevel.IDEMPOTENT,
  };
}

/**
 * A cache of output schemas in their canonical serialization, by response
 * message and streaming: tools that share a response type build it once.
 */
export interface OutputSchemaCache {
  get(message: DescMessage, serverStreaming: boolean): string;
}

/** Create an empty output schema cache. */
export function createOutputSchemaCache(): OutputSchemaCache {
  const cache = new Map<string, string>();
  const shared = new Map<string, JsonSchema>();
  return {
    get(message, serverStreaming) {
      const key = `${serverStreaming ? "stream " : ""}${message.typeName}`;
      let json = cache.get(key);
      if (json === undefined) {
        json = canonicalJson(
          buildOutputSchema(message, serverStreaming, mcpOutputEncoding, shared)
            .schema,
        );
        cache.set(key, json);
      }
      return json;
    },
  };
}

/**
 * The services with at least one tool, sorted by full name, each with its
 * tools sorted by name.
 */
export function mcpServices(tools: readonly ToolModel[]): McpServiceModel[] {
  const byFullName = new Map<string, ToolModel[]>();
  for (const tool of tools) {
    const fullName = tool.service.typeName;
    const list = byFullName.get(fullName);
    if (list === undefined) {
      byFullName.set(fullName, [tool]);
    } else {
      list.push(tool);
    }
  }
  return sortByUtf8(
    [...byFullName.values()].map((own): McpServiceModel => {
      const service = own[0]!.service;
      return {
        fullName: service.typeName,
        name: service.name,
        file: service.file.proto.name,
        service,
        tools: sortByUtf8([...own], (t) => t.name),
      };
    }),
    (s) => s.fullName,
  );
}

/**
 * Report services that share a short name: the MCP functions are named
 * after it (`Register<Service>Handler`), so they would clash. Checked only
 * when MCP files are generated.
 */
export function checkMcpServiceNames(
  services: readonly McpServiceModel[],
  problems: ProblemCollector,
): void {
  const byName = new Map<string, McpServiceModel>();
  for (const service of services) {
    const first = byName.get(service.name);
    if (first === undefined) {
      byName.set(service.name, service);
      continue;
    }
    problems.add({
      file: service.file,
      element: service.name,
      message:
        `service ${service.fullName} has the short name of service ${first.fullName} (${first.file}), ` +
        `and MCP functions are named after it (Register${service.name}Handler, ForwardTo${service.name}Client); ` +
        `rename one of the services, or generate the two packages in separate runs into separate output directories`,
    });
  }
}
