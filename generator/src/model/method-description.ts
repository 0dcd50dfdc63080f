import type { DescMethod } from "../descriptors.js";
import { methodLeadingComment } from "../schema/comments.js";

/** Comment lines that are directives to linters, not documentation. */
const directive = /^\s*(buf:lint:|@ignore-comment)/;

/**
 * A method's leading comment as a tool description: lines that are linter
 * directives (starting with `buf:lint:` or `@ignore-comment`) dropped, the
 * one space protoc keeps after `//` taken off each line, white space at the
 * end of lines and blank lines at either end removed.
 */
export function cleanMethodComment(comment: string): string {
  const lines = comment
    .split(/\r?\n/)
    .filter((line) => !directive.test(line))
    .map((line) => (line.startsWith(" ") ? line.slice(1) : line).trimEnd());
  while (lines.length > 0 && lines[0] === "") {
    lines.shift();
  }
  while (lines.length > 0 && lines[lines.length - 1] === "") {
    lines.pop();
  }
  return lines.join("\n");
}

/**
 * The description of a tool: `annotated` (the rpc_tool option's) when it is
 * not empty, else the method's cleaned leading comment
 * ({@link cleanMethodComment}), else one generated from the method's names:
 * `Calls CreateAccount of the gRPC service acme.crm.v1.CrmService.`
 */
export function methodDescription(
  method: DescMethod,
  annotated: string,
): string {
  if (annotated.trim() !== "") {
    return annotated;
  }
  const comment = cleanMethodComment(methodLeadingComment(method));
  if (comment !== "") {
    return comment;
  }
  return `Calls ${method.name} of the gRPC service ${method.parent.typeName}.`;
}
