import type { ToolModel } from "../model/model.js";
import { cleanComment, messageLeadingComment } from "../schema/comments.js";

/**
 * The text the search index reads for one tool, one part a line: its
 * name, its description, the short names of its gRPC service and method
 * (from the model, so a hash-shortened tool name loses nothing), each
 * top-level request field's name, and the leading comment of each
 * message-typed top-level field's message when that message is of the
 * request's own proto package (the resource a Create or Update carries:
 * Compute's Address says "static external IP").
 *
 * Left out, measured on the query sets (docs/tool-search.md, "Measured"):
 * the fields' comments (long, alike across tools: recall@5 rose 3 to 5
 * points without them and the index halved), the service comment, the
 * request and response messages' comments and the HTTP paths (each lowered
 * recall on at least one API).
 */
export function toolSearchText(tool: ToolModel): string {
  const parts = [
    tool.name,
    tool.description,
    tool.service.name,
    tool.method.name,
  ];
  const ownPackage = tool.input.file.proto.package;
  for (const field of tool.input.fields) {
    parts.push(field.name);
    if (
      field.fieldKind === "message" &&
      field.message.file.proto.package === ownPackage
    ) {
      parts.push(cleanComment(messageLeadingComment(field.message)));
    }
  }
  return parts.filter((part) => part !== "").join("\n");
}
