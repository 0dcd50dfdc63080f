import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import {
  buildModel,
  resolveRequestFiles,
} from "../../src/model/build-model.js";
import type { GeneratorModel, ToolModel } from "../../src/model/model.js";

/** Build the model of a request. */
export function modelOf(request: CodeGeneratorRequest): GeneratorModel {
  return buildModel(resolveRequestFiles(request).files);
}

/** The tool of the given name; throws when missing. */
export function toolOf(model: GeneratorModel, name: string): ToolModel {
  const tool = model.tools.find((t) => t.name === name);
  if (tool === undefined) {
    throw new Error(`no tool ${JSON.stringify(name)}`);
  }
  return tool;
}
