import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import {
  buildModel,
  resolveRequestFiles,
} from "../../src/model/build-model.js";
import type { GeneratorModel, ToolModel } from "../../src/model/model.js";
import { toolSelectionOf } from "../../src/model/tool-selection.js";
import { parseOptions } from "../../src/options.js";

/** Build the model of a request, with the tool selection its options ask for. */
export function modelOf(request: CodeGeneratorRequest): GeneratorModel {
  const options = parseOptions(request.parameter);
  return buildModel(
    resolveRequestFiles(request).files,
    undefined,
    toolSelectionOf(options.common, options.lists),
    undefined,
    undefined,
    undefined,
    options.common["lenient_arguments"] === "true",
  );
}

/** The tool of the given name; throws when missing. */
export function toolOf(model: GeneratorModel, name: string): ToolModel {
  const tool = model.tools.find((t) => t.name === name);
  if (tool === undefined) {
    throw new Error(`no tool ${JSON.stringify(name)}`);
  }
  return tool;
}
