/**
 * A memo of a pure function of a string, for values that repeat within a
 * request (descriptions, keys, patterns). It forgets everything once it
 * holds `limit` entries, so a long-running process (the library API, a
 * watch mode) keeps at most that many, whatever it generates.
 */
export function createStringMemo<T>(
  compute: (key: string) => T,
  limit = 50_000,
): (key: string) => T {
  const values = new Map<string, T>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined && !values.has(key)) {
      if (values.size >= limit) {
        values.clear();
      }
      value = compute(key);
      values.set(key, value);
    }
    return value as T;
  };
}
