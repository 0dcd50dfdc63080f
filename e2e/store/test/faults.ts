// What the production-Redis runs share (issue 34): one worker per language
// with the same store flags, a conversation continued through the three,
// and the time until a worker serves again after a fault.
import { expect } from "vitest";
import {
  createLinkAsShown,
  createThemeAsShown,
  expectLinkAsShown,
  type Seen,
} from "./checks.js";
import {
  languages,
  spawnWorker,
  type Answer,
  type Language,
  type StoreFlags,
  type Worker,
} from "./workers.js";

/** One worker per language. */
export type WorkerSet = ReadonlyMap<Language, Worker>;

/** Spawn one worker of each language on grpc and Redis with the same store flags. */
export function spawnWorkerSet(
  grpc: string,
  redisUrl: string,
  store: StoreFlags,
): WorkerSet {
  return new Map(
    languages.map((l) => [l, spawnWorker(l, grpc, redisUrl, 8, store)]),
  );
}

/** Close every worker of sets; resolves with their exit codes. */
export function closeAll(...sets: (WorkerSet | undefined)[]): Promise<unknown> {
  return Promise.allSettled(
    sets.flatMap((s) => [...(s?.values() ?? [])].map((w) => w.close())),
  );
}

/**
 * Go on with a conversation in each language in turn: each makes a link
 * on the conversation's first theme (made by the first when there is none)
 * and reads the link the previous one made. Checks every result against
 * what was shown before.
 */
export async function continueAcross(
  set: WorkerSet,
  handle: string,
  seen: Seen,
  label: string,
): Promise<void> {
  for (const language of languages) {
    const w = set.get(language)!;
    const where = (tool: string) => `${label}: ${language} ${tool}`;
    if (seen.created.theme === 0) {
      await createThemeAsShown(w, handle, seen, "t", where);
    }
    if (seen.created.link > 0) {
      await expectLinkAsShown(
        w,
        handle,
        `link-${seen.created.link}`,
        seen,
        where,
      );
    }
    const title = `${label} ${language} ${seen.created.link}`;
    await createLinkAsShown(w, handle, seen, title, "theme-1", where);
  }
  expect(seen.problems, label).toEqual([]);
}

/** How a worker came back after a fault, see {@link untilServed}. */
export interface Served {
  /** Milliseconds from `since` to the first answer with a result. */
  readonly ms: number;
  /** The failed answers before it (each an error). */
  readonly failed: readonly Answer[];
  /** The answer with a result. */
  readonly answer: Answer;
}

/**
 * Send request every 100 ms until it is answered with a result (15 s at
 * most): how long since `since` (a performance.now()), and what failed
 * before. Every failure must be store-unavailable (never a wrong result).
 */
export async function untilServed(
  w: Worker,
  since: number,
  ask: () => Promise<Answer>,
): Promise<Served> {
  const failed: Answer[] = [];
  for (;;) {
    const answer = await ask();
    if (answer.result !== undefined) {
      return { ms: performance.now() - since, failed, answer };
    }
    expect(
      answer.error?.reason,
      `${w.language}: ${JSON.stringify(answer)}`,
    ).toBe("store-unavailable");
    failed.push(answer);
    if (performance.now() - since > 15_000) {
      throw new Error(
        `${w.language} worker not served again within 15 s: ${JSON.stringify(answer)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A hash as `redis-cli HGETALL` prints it (field and value on alternate lines). */
export function parseHash(out: string): Record<string, string> {
  const lines = out === "" ? [] : out.split("\n");
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < lines.length; i += 2) {
    fields[lines[i]!] = lines[i + 1]!;
  }
  return fields;
}

/** A duration for the notes: `412 ms`. */
export const ms = (n: number): string => `${n.toFixed(0)} ms`;
