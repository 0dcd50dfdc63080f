// The conversation store vectors (e2e/vectors/store/layout.json) and the
// Lua scripts' one committed copy (runtimes/go/redisstore/*.lua), which the
// package's generate step embeds into src/gen/redis-scripts.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const storeVectorsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../e2e/vectors/store",
);

export interface LayoutCase {
  name: string;
  handle: string;
  keyPrefix: string;
  key: string;
  epoch: string;
  steps: { register: [string, string][]; state: string }[];
  hash: Record<string, string>;
}

export interface LayoutRefusal {
  name: string;
  setup: Record<string, string> | null;
  registerEpoch?: string;
  load?: boolean;
  error: string;
}

export interface LayoutVectors {
  scripts: Record<string, string>;
  cases: LayoutCase[];
  refusals: LayoutRefusal[];
}

export const layout = JSON.parse(
  readFileSync(path.join(storeVectorsDir, "layout.json"), "utf8"),
) as LayoutVectors;

const scriptsDir = path.resolve(
  storeVectorsDir,
  "../../../runtimes/go/redisstore",
);

/** The text of a committed script (`create.lua`, …). */
export function canonicalScript(name: string): string {
  return readFileSync(path.join(scriptsDir, name), "utf8");
}

/** One step of a loaded-tools case: one operation and what it returns. */
export interface LoadedToolsStep {
  loadTools?: string[];
  loadedTools?: true;
  register?: [string, string][];
  load?: true;
  loaded?: string[];
  state?: string;
}

export interface LoadedToolsCase {
  name: string;
  handle: string;
  keyPrefix: string;
  key: string;
  epoch: string;
  steps: LoadedToolsStep[];
  hash: Record<string, string>;
}

export interface LoadedToolsRefusal {
  name: string;
  setup: Record<string, string> | null;
  loadTools?: { epoch: string; names: string[] };
  loadedTools?: true;
  error: string;
}

export interface LoadedToolsVectors {
  scripts: Record<string, string>;
  cases: LoadedToolsCase[];
  refusals: LoadedToolsRefusal[];
}

/** e2e/vectors/store/loaded-tools.json (docs/store.md, "Loaded tools"). */
export const loadedToolsVectors = JSON.parse(
  readFileSync(path.join(storeVectorsDir, "loaded-tools.json"), "utf8"),
) as LoadedToolsVectors;
