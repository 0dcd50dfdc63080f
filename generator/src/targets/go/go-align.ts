/**
 * gofmt's alignment of key-value lines in a composite literal. gofmt puts
 * every key of an alignment section in a column as wide as the longest
 * `key:` plus one space. A section ends where go/printer's exprList
 * heuristic breaks it: a line whose key (or whole entry) is too long for
 * one line, or a key whose size differs too much from the geometric mean of
 * the keys before it, when either key is over 40 bytes.
 */
export interface KeyValueLine {
  /** The key as printed, e.g. `"linkId"` or `Name`. */
  readonly key: string;
  /** The value as printed. */
  readonly value: string;
}

const infinity = 1e6;
const smallSize = 40;
const ratioThreshold = 2.5;

function byteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** Runes, as text/tabwriter counts cell width (a surrogate pair is one). */
function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * For each line, the key with its colon and the padding gofmt prints before
 * the value (`"id":          `).
 */
export function alignKeys(lines: readonly KeyValueLine[]): string[] {
  const sections: number[][] = [];
  let current: number[] = [];
  let lnsum = 0;
  let count = 0;
  let size = 0;
  lines.forEach((line, i) => {
    const prevSize = size;
    // Only whether the entry exceeds one line (1e6 bytes) matters: count
    // bytes only where the UTF-16 length leaves that open.
    const whole =
      (line.key.length + line.value.length) * 3 + 2 <= infinity
        ? 0
        : byteLength(line.key) + 2 + byteLength(line.value);
    size = whole <= infinity ? byteLength(line.key) : 0;
    let useFF = true;
    if (prevSize > 0 && size > 0) {
      if (count === 0 || (prevSize <= smallSize && size <= smallSize)) {
        useFF = false;
      } else {
        const geomean = Math.exp(lnsum / count);
        const ratio = size / geomean;
        useFF = ratioThreshold * ratio <= 1 || ratioThreshold <= ratio;
      }
    }
    if (i > 0 && useFF) {
      sections.push(current);
      current = [];
      lnsum = 0;
      count = 0;
    }
    current.push(i);
    if (size > 0) {
      lnsum += Math.log(size);
      count++;
    }
  });
  sections.push(current);

  const out: string[] = new Array<string>(lines.length);
  for (let j = 0; j < sections.length; j++) {
    const section = sections[j]!;
    const width = Math.max(...section.map((i) => runeCount(lines[i]!.key) + 1));
    for (let k = 0; k < section.length; k++) {
      const i = section[k]!;
      const cell = lines[i]!.key + ":";
      out[i] = cell + " ".repeat(width - runeCount(cell) + 1);
    }
  }
  return out;
}
