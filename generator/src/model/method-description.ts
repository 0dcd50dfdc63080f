import type { DescMethod } from "../read/descriptors.js";
import { cleanComment, methodLeadingComment } from "../schema/comments.js";

/**
 * The description of a tool: `annotated` (the rpc_tool option's) when it is
 * not empty, else the method's leading comment cleaned as fields' comments
 * are ({@link cleanComment}: linter directives dropped, the common
 * indentation taken off, blank lines at either end removed), else one
 * generated from the method's names: `Calls CreateAccount of the gRPC
 * service acme.crm.v1.CrmService.`
 */
export function methodDescription(
  method: DescMethod,
  annotated: string,
): string {
  if (annotated.trim() !== "") {
    return annotated;
  }
  const comment = cleanComment(methodLeadingComment(method));
  if (comment !== "") {
    return comment;
  }
  return generatedMethodDescription(method);
}

/**
 * The description of a method with neither an annotated description nor
 * a comment, made from its names (the MCP gateway counts the tools with
 * it: a server's descriptors often carry no comments).
 */
export function generatedMethodDescription(method: DescMethod): string {
  return `Calls ${method.name} of the gRPC service ${method.parent.typeName}.`;
}
