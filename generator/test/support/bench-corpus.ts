/** A file of the benchmark corpus. */
export interface CorpusFile {
  readonly path: string;
  readonly content: string;
}

/** scripts/bench/corpus.mjs (untyped). */
interface CorpusModule {
  readonly generateCorpus: (
    seed: string,
    files: number,
    version?: number,
  ) => CorpusFile[];
}

const corpusModule = "../../scripts/bench/corpus.mjs";

/**
 * The benchmark corpus (scripts/bench/corpus.mjs): `files` files of seed
 * `seed`, corpus `version` (default 2).
 */
export const { generateCorpus } = (await import(
  corpusModule
)) as unknown as CorpusModule;
