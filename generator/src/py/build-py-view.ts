import type { ProblemCollector } from "../errors.js";
import { GeneratorError } from "../errors.js";
import type { GeneratorModel } from "../model/model.js";
import type { PluginOptions } from "../options.js";

/** What the Python templates (templates/py/*.hbs) print. */
export interface PyFileView {
  /** Always "ai_tools_gen.py". */
  readonly fileName: string;
}

/** Shape the model for the Python templates. */
export function buildPyView(
  model: GeneratorModel,
  options: PluginOptions,
  problems: ProblemCollector,
): PyFileView {
  void model;
  void options;
  void problems;
  throw new GeneratorError('target "py" is not supported yet; supported targets: go');
}
