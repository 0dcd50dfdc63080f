/**
 * An error in the plugin's input: an option, a proto file or an annotation
 * the user can fix. The plugin reports its message through the
 * CodeGeneratorResponse and writes no file.
 */
export class GeneratorError extends Error {
  override name = "GeneratorError";
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
      throw new GeneratorError(unique.join("\n"));
    },
  };
}
