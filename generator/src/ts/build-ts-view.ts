import type { ProblemCollector } from "../errors.js";
import { GeneratorError } from "../errors.js";
import type { GeneratorModel } from "../model/model.js";
import type { PluginOptions } from "../options.js";

/** What the TypeScript templates (templates/ts/*.hbs) print. */
export interface TsFileView {
  /** Always "ai_tools.gen.ts". */
  readonly fileName: string;
}

/** Shape the model for the TypeScript templates. */
export function buildTsView(
  model: GeneratorModel,
  options: PluginOptions,
  problems: ProblemCollector,
): TsFileView {
  void model;
  void options;
  void problems;
  throw new GeneratorError('target "ts" is not supported yet; supported targets: go');
}

/** Format generated TypeScript as prettier does. */
export function formatTs(source: string): string {
  return source;
}
