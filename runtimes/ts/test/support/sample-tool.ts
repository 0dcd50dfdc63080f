import type { AgentTool } from "../../src/index.js";

/** A strict tool with the shapes the generator emits. */
export const sampleTool: AgentTool = {
  name: "links_create",
  description: "Create a short link.",
  strict: true,
  parameters: {
    type: "object",
    properties: {
      url: { type: "string", description: "The target URL." },
      pageThemeId: {
        type: ["string", "null"],
        description: "Use a theme alias.",
      },
      tags: {
        type: "array",
        items: {
          type: "object",
          properties: { key: { type: "string" }, value: { type: "string" } },
          required: ["key", "value"],
          additionalProperties: false,
        },
      },
    },
    required: ["url", "pageThemeId", "tags"],
    additionalProperties: false,
  },
};
