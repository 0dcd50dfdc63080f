import { compareUtf8 } from "../schema/canonical-json.js";

/**
 * A UTF-16 surrogate: the only code units whose UTF-16 order differs from
 * the UTF-8 (code point) order.
 */
const surrogate = /[\ud800-\udfff]/;

/**
 * Sort `items` in place by `key`, in {@link compareUtf8}'s order. Without
 * surrogates in the keys (type, field and tool names are ASCII) the
 * engine's own string comparison gives that order, several times faster
 * on the thousands of names of a large API.
 */
export function sortByUtf8<T>(items: T[], key: (item: T) => string): T[] {
  if (items.some((item) => surrogate.test(key(item)))) {
    return items.sort((a, b) => compareUtf8(key(a), key(b)));
  }
  return items.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/** Sort strings in place in {@link compareUtf8}'s order (see sortByUtf8). */
export function sortUtf8(strings: string[]): string[] {
  if (strings.some((s) => surrogate.test(s))) {
    return strings.sort(compareUtf8);
  }
  return strings.sort();
}
