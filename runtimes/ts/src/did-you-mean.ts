import { quote } from "./json.js";

/** How many valid fields an unknown-field message lists. */
const fieldsListed = 20;

/**
 * What an unknown-field message says after the unknown name:
 * `did you mean "id"? valid fields: id, title` (the first 20, then
 * `, and <N> more`), without the question when nothing is close, or
 * `no fields are valid here`.
 */
export function validFieldsNote(key: string, names: readonly string[]): string {
  if (names.length === 0) {
    return "no fields are valid here";
  }
  const guess = didYouMean(key, names);
  let list = names.slice(0, fieldsListed).join(", ");
  if (names.length > fieldsListed) {
    list += `, and ${names.length - fieldsListed} more`;
  }
  return `${guess === undefined ? "" : `did you mean ${quote(guess)}? `}valid fields: ${list}`;
}

/**
 * The candidate a mistyped key most likely meant (docs/runtime.md,
 * "Unknown fields"), or undefined: the first candidate equal to the key
 * ignoring ASCII case, `_` and `-` (`dueTime` → `due_time`); else the one
 * at the smallest edit distance (optimal string alignment: a swap of two
 * neighbours is one edit; code points, ASCII-lowercased), if
 * that is at most max(1, ⌊n/3⌋) for a key of n code points; ties go to the
 * first in order.
 */
export function didYouMean(
  key: string,
  candidates: readonly string[],
): string | undefined {
  const k = normalized(key);
  const same = candidates.find((c) => normalized(c) === k);
  if (same !== undefined) {
    return same;
  }
  const a = [...asciiLower(key)];
  const limit = Math.max(1, Math.floor(a.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(a, [...asciiLower(c)]);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function normalized(s: string): string {
  return asciiLower(s).replace(/[_-]/g, "");
}

/**
 * The optimal string alignment distance of two code point arrays: inserts,
 * deletes, replacements and swaps of two adjacent code points cost 1.
 */
function editDistance(a: readonly string[], b: readonly string[]): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, before[j - 2]! + 1);
      }
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}
