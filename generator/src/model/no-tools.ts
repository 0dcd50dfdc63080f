import { readToolDefinition } from "../read/annotations.js";
import type { DescFile, DescMethod } from "../read/descriptors.js";
import type { ToolSelection } from "./tool-selection.js";

const drivable = (m: DescMethod): boolean =>
  m.methodKind === "unary" || m.methodKind === "server_streaming";

/** How many file names the warning lists before "and N more". */
const filesListed = 3;

/**
 * The warning for a run that writes no file because no method of `files`
 * (the files to generate) has an `rpc_tool` option, with `tools=annotated`:
 * on a first run, annotations forgotten or set on other files than those
 * generated. Undefined when the files have no method a tool call can
 * drive (unary or server-streaming: nothing to expose) or some method is
 * annotated (then the selection left it out).
 */
export function noToolsWarning(
  files: readonly DescFile[],
  selection: ToolSelection,
): string | undefined {
  if (selection.tools !== "annotated") {
    return undefined;
  }
  const methods = (f: DescFile) =>
    f.services.flatMap((s) => s.methods).filter(drivable);
  const all = files.flatMap(methods);
  if (
    all.length === 0 ||
    all.some((m) => readToolDefinition(m) !== undefined)
  ) {
    return undefined;
  }
  const names = files
    .filter((f) => methods(f).length > 0)
    .map((f) => f.proto.name);
  const more = names.length - filesListed;
  const listed =
    names.slice(0, filesListed).join(", ") +
    (more > 0 ? `, and ${more} more` : "");
  return (
    `no method of ${listed} has option (ai.tools.v1.rpc_tool), so no file was written; ` +
    `annotate each method to expose (import "ai/tools/v1/annotations.proto", then option (ai.tools.v1.rpc_tool) = {name: "get_order", description: "..."} in the rpc's body), ` +
    `or pass tools=all to expose every method`
  );
}
