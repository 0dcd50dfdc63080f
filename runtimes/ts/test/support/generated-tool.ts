import { defineTool, type AgentTool } from "../../src/index.js";

/**
 * A tool declared as generated code declares it: its schema and provider
 * forms as JSON text (`forms` absent: a tool written by hand).
 */
export function generatedTool(tool: {
  name: string;
  description: string;
  strict: boolean;
  parameters: object;
  forms?: object;
}): AgentTool {
  return tool.forms === undefined
    ? defineTool(
        tool.name,
        tool.description,
        tool.strict,
        JSON.stringify(tool.parameters),
      )
    : defineTool(
        tool.name,
        tool.description,
        tool.strict,
        JSON.stringify(tool.parameters),
        JSON.stringify(tool.forms),
      );
}
