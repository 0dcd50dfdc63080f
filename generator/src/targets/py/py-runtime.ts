import { pyQuote } from "./py-quote.js";

/** The PyPI distribution of the Python runtime, imported as `ai_tools_runtime`. */
export const pyRuntimeDistribution = "protoc-gen-ai-tools-runtime";

/**
 * The message of the ImportError a generated module raises when it cannot
 * import the runtime (templates/py/runtime-imports.hbs): what is missing
 * and the pip line that installs it, with `extra` when the module needs
 * one (`mcp`). Quoted parts of one Python string, one a line, each short
 * enough for 88 columns.
 */
export function pyRuntimeMissing(fileName: string, extra?: string): string[] {
  const requirement =
    extra === undefined
      ? pyRuntimeDistribution
      : `'${pyRuntimeDistribution}[${extra}]'`;
  const what =
    extra === undefined
      ? "the protoc-gen-ai-tools runtime"
      : `the protoc-gen-ai-tools runtime with ${extra}`;
  return [`${fileName} needs ${what}: `, `pip install ${requirement}`].map(
    pyQuote,
  );
}
