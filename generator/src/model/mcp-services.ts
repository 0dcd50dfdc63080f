import type { DescMessage } from "../read/descriptors.js";
import type { ProblemCollector } from "../errors.js";
import {
  buildOutputSchema,
  mcpOutputEncoding,
} from "../schema/build-output-schema.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { canonicalJson } from "../schema/canonical-json.js";
import type { McpServiceModel, ToolModel } from "./model.js";
import { sortByUtf8 } from "./utf8-order.js";

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
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
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
 * Report services whose MCP declarations would have the same names: they
 * are named after the service's short name (`RegisterTaskHandler` in Go,
 * `register_task_handler` in Python), so two services of one short name,
 * or of two that one language writes alike (`FooBar` and `Foo_bar` in
 * Python), would clash. `declaredNames` gives the names the MCP file
 * declares for a service, in the target's language. Once per service
 * whose names another service declares already. Checked only when MCP
 * files are generated.
 */
export function checkMcpServiceNames(
  services: readonly McpServiceModel[],
  problems: ProblemCollector,
  declaredNames: (service: McpServiceModel) => readonly string[],
): void {
  const owners = new Map<string, McpServiceModel>();
  for (const service of services) {
    const names = declaredNames(service);
    const taken = names.filter((n) => owners.has(n));
    if (taken.length === 0) {
      names.forEach((n) => owners.set(n, service));
      continue;
    }
    const first = owners.get(taken[0]!)!;
    problems.add({
      file: service.file,
      element: service.name,
      message:
        `the MCP file would declare ${taken.join(", ")} for service ${service.fullName} and for service ${first.fullName} (${first.file}): ` +
        `the names come from the service's short name; rename one of the services, leave one out (exclude=${service.fullName}.*), ` +
        `or generate the two packages in separate runs into separate output directories`,
    });
  }
}
