import { toolNameProblem } from "./tool-names.js";

/**
 * The names protoc-gen-go-mcp accepts in `(mcp.v1.tool_name)` (their
 * `ValidateToolName`): stricter than ours, lower-case only.
 */
export const mcpToolNamePattern = /^[a-z_][a-z0-9_-]{0,63}$/;

const option = "(mcp.v1.tool_name)";

/**
 * Why a value of protoc-gen-go-mcp's `(mcp.v1.tool_name)` cannot name a
 * tool (their rule, then ours), or undefined when it can. An explicit
 * empty value is refused, as they refuse it.
 */
export function mcpToolNameProblem(name: string): string | undefined {
  const fix = `, or name the tool with (ai.tools.v1.rpc_tool).name, which takes precedence`;
  if (name === "") {
    return `option ${option} is empty; set a name such as "links_create", or remove the option to keep the derived name${fix}`;
  }
  if (mcpToolNamePattern.test(name) && toolNameProblem(name) === undefined) {
    return undefined;
  }
  return (
    `option ${option} ${JSON.stringify(name)} is not a tool name; ` +
    `use 1 to 64 lower-case letters, digits, "_" or "-", starting with a lower-case letter or "_" (${mcpToolNamePattern.source}, protoc-gen-go-mcp's rule)${fix}`
  );
}

/** How many methods the warning names before "and N more". */
const listed = 10;

/**
 * The warning for the methods whose `(ai.tools.v1.rpc_tool).name` and
 * `(mcp.v1.tool_name)` differ (each as `full.Method ("ours", not
 * "theirs")`): ours names the tool. Undefined when there is none.
 */
export function mcpToolNameOverriddenWarning(
  methods: readonly string[],
): string | undefined {
  if (methods.length === 0) {
    return undefined;
  }
  const more = methods.length - listed;
  return (
    `(ai.tools.v1.rpc_tool).name names the tool, not ${option}, on ${methods.length} method${methods.length === 1 ? "" : "s"} where they differ: ` +
    methods.slice(0, listed).join(", ") +
    (more > 0 ? `, and ${more} more` : "") +
    `; drop one of the two names, or make them equal`
  );
}
