import type { ToolModel } from "../model/model.js";
import { cleanComment, fieldLeadingComment } from "../schema/comments.js";

/**
 * The text the search index reads for one tool: its name, its description,
 * the short names of its gRPC service and method (from the model, so a
 * hash-shortened tool name loses nothing), and each top-level request
 * field's name and leading comment. One part a line, in that order.
 */
export function toolSearchText(tool: ToolModel): string {
  const parts = [
    tool.name,
    tool.description,
    tool.service.name,
    tool.method.name,
  ];
  for (const field of tool.input.fields) {
    parts.push(field.name, cleanComment(fieldLeadingComment(field)));
  }
  return parts.filter((part) => part !== "").join("\n");
}
