import type {
  DescMessage,
  GeneratorModel,
  ToolModel,
} from "protoc-gen-ai-tools";

/** Values per tool in the round trips: 200 nightly, 40 in .ci/run. */
export const valuesPerTool: number;

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

/** The plugin's model of a generator golden case (with its options.txt). */
export function modelOfCase(
  caseName: string,
  target: "go" | "ts" | "py",
): Promise<GeneratorModel>;

/**
 * The range of the integer field at a value path of `input`, from its
 * protobuf type; undefined where the testkit's int32 applies.
 */
export function integerRangeIn(
  input: DescMessage,
): (path: readonly string[]) => { min: number; max: number } | undefined;

/** `count` admitted values for each tool of a generator golden case. */
export function caseValues(options: {
  caseName: string;
  target: "go" | "ts" | "py";
  seed: number;
  count?: number;
}): Promise<{ tool: ToolModel; values: unknown[]; replaced: number }[]>;

/** Write `<out>/<case>.json` with the values of every tool of a case. */
export function writeCaseValues(options: {
  caseName: string;
  target: "go" | "ts" | "py";
  seed: number;
  out: string;
  count?: number;
}): Promise<void>;

/** Write the samples' and the golden cases' values of a suite into `out`. */
export function writeSuiteValues(options: {
  target: "go" | "ts" | "py";
  seed: number;
  out: string;
  count?: number;
}): Promise<void>;

/**
 * A schema with each FieldMask narrowed to masks the argument check takes
 * (empty, or its hint's example paths in lowerCamel), for generating values.
 */
export function withKnownMasks<T>(schema: T): T;
