import type { GeneratorModel } from "../../model/model.js";
import { repeatedDirectory } from "../../model/repeated-directory.js";
import { esModulePath } from "./ts-names.js";

/**
 * A warning when `ts_import_path` seems to name something else than the
 * folder protoc-gen-es writes into (its out, relative to this plugin's):
 * a file (`./gen/shop_pb.js`) or the directory of a proto file whose
 * `_pb.js` the generated files import (`./gen/shop/v1`, which makes the
 * import `./gen/shop/v1/shop/v1/shop_pb.js`). Undefined when it looks right
 * or nothing is imported from it.
 */
export function tsImportPathWarning(
  model: GeneratorModel,
  tsImportPath: string,
  mcp: boolean,
): string | undefined {
  const files = [
    ...model.executors.map((t) => t.service),
    ...(mcp ? model.mcpServices.map((s) => s.service) : []),
  ].map((s) => s.file.proto.name);
  if (files.length === 0) {
    return undefined;
  }
  let folder = tsImportPath;
  let segments = folder.split("/").filter((s) => s !== "." && s !== "..");
  const namesFile = /(_pb|\.[cm]?[jt]s)$/.test(segments.at(-1) ?? "");
  if (namesFile) {
    folder = folder.slice(0, folder.lastIndexOf("/"));
    segments = segments.slice(0, -1);
  }
  const file = repeatedDirectory(segments, files);
  if (file !== undefined) {
    folder = folder.slice(0, folder.length - file.lastIndexOf("/") - 1);
  }
  if (!namesFile && file === undefined) {
    return undefined;
  }
  const example = file ?? files[0]!;
  const what = namesFile
    ? "names a file"
    : `ends with the directory of ${file}`;
  const written = esModulePath(".", example).slice(2).replace(/\.js$/, ".ts");
  return `ts_import_path ${JSON.stringify(tsImportPath)} ${what}, so the generated code imports ${JSON.stringify(esModulePath(tsImportPath, example))}; ts_import_path is the folder protoc-gen-es writes into (its out), relative to this plugin's out, under which it writes ${written}: if that folder is ${folder}, use ts_import_path=${folder}`;
}
