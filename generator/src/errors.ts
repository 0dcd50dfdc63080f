import { quoteJsonString } from "./schema/canonical-json.js";

/**
 * An error in the plugin's input: an option, a proto file or an annotation
 * the user can fix. The plugin reports its message through the
 * CodeGeneratorResponse and writes no file.
 */
export class GeneratorError extends Error {
  override name = "GeneratorError";

  /**
   * One problem: `message` as one line, whatever names from the request it
   * quotes (see {@link oneLine}).
   */
  constructor(message: string) {
    super(oneLine(message));
  }

  /** Several problems, one line each, in the order given. */
  static lines(problems: readonly string[]): GeneratorError {
    const error = new GeneratorError("");
    error.message = problems.map(oneLine).join("\n");
    return error;
  }
}

// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds, to escape them
const lineBreaking = /[\u0000-\u001f\u2028\u2029]/g;

/**
 * `text` with its control characters, U+2028 and U+2029 escaped as the
 * canonical JSON escapes them (`\n`, `\t`, `\u0004`, `\u2028`): an error
 * has one problem per line, and a name in a request that protoc or buf
 * did not write may hold a line break or worse.
 */
export function oneLine(text: string): string {
  return text.replace(lineBreaking, (c) => quoteJsonString(c).slice(1, -1));
}

/**
 * One problem found in a proto file, located by file and element
 * (`Service.Method`, `Message.field`).
 */
export interface Problem {
  /** The proto file, as named in the request (e.g. `links/v1/links.proto`). */
  readonly file: string;
  /** The element at fault, e.g. `LinkService.CreateLink`. */
  readonly element: string;
  /** What is wrong and how to fix it, lower-case. */
  readonly message: string;
}

/**
 * Collects problems so that one run reports all of them at once, in a
 * deterministic order.
 */
export interface ProblemCollector {
  /** Record a problem. */
  add(problem: Problem): void;
  /** Throw a GeneratorError listing every problem, if there is any. */
  throwIfAny(): void;
}

/** Create an empty problem collector. */
export function createProblemCollector(): ProblemCollector {
  const problems: Problem[] = [];
  return {
    add(problem) {
      problems.push(problem);
    },
    throwIfAny() {
      if (problems.length === 0) {
        return;
      }
      const lines = problems
        .map((p) => `${p.file}: ${p.element}: ${p.message}`)
        .sort();
      const unique = lines.filter(
        (line, i) => i === 0 || lines[i - 1] !== line,
      );
      throw GeneratorError.lines(unique);
    },
  };
}
