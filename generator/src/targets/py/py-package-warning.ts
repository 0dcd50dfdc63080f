import type { GeneratorModel } from "../../model/model.js";
import { repeatedDirectory } from "../../model/repeated-directory.js";
import { pyProtoModule } from "./py-names.js";

/**
 * A warning when `py_package` ends with the directory of a proto file whose
 * `_pb2` module the generated files import (`gen.shop.v1` for
 * `shop/v1/shop.proto`, which makes the import
 * `gen.shop.v1.shop.v1.shop_pb2`): it is the package of the folder
 * grpcio-tools writes into, not of one file's directory. Undefined when it
 * looks right or nothing is imported from it.
 */
export function pyPackageWarning(
  model: GeneratorModel,
  pyPackage: string,
  mcp: boolean,
): string | undefined {
  if (pyPackage === "") {
    return undefined;
  }
  // The modules of the request and response types, and with mcp=true of
  // the services (their _pb2_grpc); the protobuf package's are not ours.
  const tools = mcp
    ? [...model.executors, ...model.mcpServices.flatMap((s) => s.tools)]
    : model.executors;
  const files = [
    ...tools.flatMap((t) => [t.input.file, t.output.file]),
    ...(mcp ? model.mcpServices.map((s) => s.service.file) : []),
  ]
    .map((f) => f.proto.name)
    .filter((f) => !f.startsWith("google/protobuf/"));
  const file = repeatedDirectory(pyPackage.split("."), files);
  if (file === undefined) {
    return undefined;
  }
  const depth = file.split("/").length - 1;
  const parent = pyPackage.split(".").slice(0, -depth).join(".");
  const module = pyProtoModule(file);
  return `py_package ${JSON.stringify(pyPackage)} ends with the directory of ${file}, so the generated code imports ${pyPackage}.${module}; py_package is the package of the folder grpcio-tools writes into (its --python_out), under which it writes ${module.replace(/\./g, "/")}.py: ${parent === "" ? "if that folder is on sys.path, leave py_package out" : `if that folder is ${parent}, use py_package=${parent}`}`;
}
