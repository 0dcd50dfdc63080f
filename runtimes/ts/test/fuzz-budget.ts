// How long the fuzz tests run. Without FUZZ_SECONDS (`pnpm test`), each
// property runs its kept cases (`examples`) and a fixed number of generated
// ones from a fixed seed: a quick, repeatable regression test. With
// FUZZ_SECONDS (`pnpm fuzz`, CI's fuzz step), the properties share that many
// seconds, each generating cases from a fresh seed until its share is spent.
import fc from "fast-check";

const seconds = Number(process.env["FUZZ_SECONDS"] ?? "0");

/** Whether this is a timed fuzz run (FUZZ_SECONDS set) rather than `test`. */
export const fuzzing = Number.isFinite(seconds) && seconds > 0;

/** The vitest timeout of one property: its share of the budget and a margin. */
export function fuzzTimeout(properties: number): number {
  return fuzzing ? (seconds * 1000) / properties + 60_000 : 60_000;
}

/**
 * Run a property: regression mode (fixed seed, `runs` cases) or a share of
 * the fuzz budget. Throws fast-check's report (seed, path, counterexample)
 * on a failure; logs the number of cases run when fuzzing.
 */
export async function runProperty<Ts extends [unknown, ...unknown[]]>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  properties: number,
  runs: number,
  examples: Ts[] = [],
): Promise<void> {
  const params: fc.Parameters<Ts> = fuzzing
    ? {
        numRuns: Number.MAX_SAFE_INTEGER,
        interruptAfterTimeLimit: (seconds * 1000) / properties,
        markInterruptAsFailure: false,
        examples,
      }
    : { numRuns: runs, seed: 20261201, examples };
  const details = await fc.check(property, params);
  if (fuzzing) {
    console.log(
      `fuzz ${name}: ${details.numRuns} cases (seed ${details.seed})`,
    );
  }
  if (details.failed) {
    throw new Error(`fuzz ${name}: ${fc.defaultReportMessage(details)}`);
  }
}
