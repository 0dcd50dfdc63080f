// Type errors the generated API keeps. Not a vitest file: `tsc -p
// tsconfig.json` (this package's build and test) checks it, and each
// `@ts-expect-error` fails that check when the line below it compiles, so
// that the generated file's types never decay into `any` (the schemas are
// JSON text to type-check fast, docs/benchmarks.md, "Type-checking the
// generated code"; what stays typed is checked here).
import type { Transport } from "@connectrpc/connect";
import type { AgentTool, ToolMethod } from "@protoc-gen-ai-tools/runtime";
import {
  allTools,
  createExecutor,
  linksCreate,
  responseAliases,
} from "../src/gen/ai_tools.gen.js";
import { LinkService } from "../src/gen/linkhub/v1/links_pb.js";

/** Never called: its body is what tsc checks. */
export async function wrongArgumentTypes(transport: Transport): Promise<void> {
  // @ts-expect-error createExecutor needs a transport
  createExecutor();
  // @ts-expect-error an address is not a Transport
  createExecutor("localhost:50051");
  // @ts-expect-error maxResultBytes is a number
  createExecutor(transport, { maxResultBytes: "1024" });
  const executor = createExecutor(transport);
  // @ts-expect-error the arguments are JSON text, not an object
  await executor.execute("links_create", { target_url: "https://x" });
  // @ts-expect-error the tool name is a string
  await executor.execute(linksCreate, "{}");
  // @ts-expect-error the tools are read-only
  linksCreate.strict = false;
  // @ts-expect-error parameters are a JSON object, not text
  const text: string = linksCreate.parameters;
  // @ts-expect-error forms are provider forms, not text
  const forms: string | undefined = linksCreate.forms;
  // @ts-expect-error allTools returns tools, not names
  const names: string[] = allTools();
  // @ts-expect-error a response alias table holds no numbers
  const types: number = responseAliases.types;
  const method: ToolMethod = {
    tool: linksCreate,
    method: LinkService.method.createLink,
  };
  // @ts-expect-error a tool method's method is a method, not its service
  const wrong: ToolMethod = { tool: linksCreate, method: LinkService };
  const tool: AgentTool = method.tool;
  void [text, forms, names, types, wrong, tool];
}
