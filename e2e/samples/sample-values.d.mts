import type { GeneratorModel, ToolModel } from "protoc-gen-ai-tools";

/** The plugin's model of e2e/proto for a target. */
export function modelOfTestApi(target: "go" | "ts" | "py"): GeneratorModel;

/** `count` admitted values for each samples_echo_* tool. */
export function sampleValues(options: {
  target: "go" | "ts" | "py";
  seed: number;
  count?: number;
}): { tool: ToolModel; values: unknown[]; replaced: number }[];

/** Write `<out>/<tool>.json` for each samples_echo_* tool. */
export function writeSampleValues(options: {
  target: "go" | "ts" | "py";
  seed: number;
  out: string;
  count?: number;
}): void;
