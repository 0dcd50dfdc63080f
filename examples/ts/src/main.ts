// Plays a short conversation with the linkhub.v1 test API (e2e/proto/linkhub)
// through the generated executor, and prints what the model sees: the tools
// it is given, the results of its calls (ids as aliases), and the error a
// mistake of its own earns it.
//
// The calls are scripted; in an application they come from the model's
// response. Run the test server, then the example:
//
//   node ../../e2e/server/dist/main.js --port 8080 &
//   bash generate.sh && npx tsc && node dist/main.js 127.0.0.1:8080
import { Code } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { toOpenAiResponsesTool, ToolError } from "@protoc-gen-ai-tools/runtime";
import { allTools, createExecutor } from "./gen/ai_tools.gen.js";

/** One tool call of the model, as the OpenAI Responses API returns it. */
interface FunctionCall {
  readonly name: string;
  readonly arguments: string;
}

/** The user's workspace: an id without alias_prefix stays a UUID. */
const workspace = "5f0c1f7e-3b7a-4d2e-9a61-2c8e4b1d7a90";

const addr = process.argv[2] ?? "127.0.0.1:8080";
const executor = createExecutor(
  createGrpcTransport({ baseUrl: `http://${addr}` }), // addr: "127.0.0.1:8080"
);
const tools = allTools().map(toOpenAiResponsesTool); // or toAnthropicTool, toGeminiFunctionDeclaration

console.log(`tools the model is given (${tools.length}):`);
for (const t of tools) {
  console.log(`  ${t.name}${t.strict ? " (strict)" : ""}: ${t.description}`);
}

const calls: FunctionCall[] = [
  modelCall("page_themes_create", {
    workspace_id: workspace,
    name: "Spring",
    background_color: "#ffeedd",
    font: "Inter",
    palette: [{ key: "accent", value: "#ff0066" }],
  }),
  modelCall("links_create", {
    workspace_id: workspace,
    target_url: "https://example.com/spring",
    slug: "spring",
    page_theme_id: "theme-1",
    labels: [],
    title: "Spring sale",
    expire_after: "86400s",
  }),
  modelCall("links_create", {
    workspace_id: workspace,
    target_url: "https://example.com/summer",
    slug: "summer",
    page_theme_id: "theme-1",
    labels: [],
    title: null,
    expire_after: null,
  }),
  modelCall("links_list", {
    workspace_id: workspace,
    page_theme_id: "theme-1",
  }),
  // The model's mistake: an alias it never saw.
  modelCall("links_get", { id: "link-7" }),
];
for (const call of calls) {
  console.log(`\nmodel: ${call.name} ${call.arguments}`);
  // for each function call the model makes:
  let output: string;
  let failure = "";
  try {
    output = await executor.execute(call.name, call.arguments); // JSON, ids as aliases
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    output = e.message; // written for the model; e.reason and e.code say why
    failure = `a ToolError: ${e.reason}, ${e.code === undefined ? "no code" : Code[e.code]}`;
  }
  console.log(`tool:  ${output}`);
  if (failure !== "") console.log(`       (${failure})`);
}

/** A call's arguments written as the model would: one JSON object. */
function modelCall(name: string, args: Record<string, unknown>): FunctionCall {
  return { name, arguments: JSON.stringify(args) };
}
