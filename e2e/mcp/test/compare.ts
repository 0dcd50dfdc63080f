// Comparing answers: every difference named by its JSON path, with both
// values; between languages, float fields within float32 precision.

/**
 * Whether a and b are the same number, or the same float32: the languages
 * write a `float` field's value with different digits (protobuf-es its
 * double value, 3.3999999521443642e+38 where Go writes 3.4e+38; Python
 * 2.8026e-45 where Go writes 3e-45), all of them the same float32.
 */
function sameNumber(a: number, b: number): boolean {
  return a === b || Math.fround(a) === Math.fround(b);
}

/**
 * The differences between a (of la) and b (of lb), each
 * `path: la <json> / lb <json>`. Numbers are compared as float32 (two
 * languages: see sameNumber), or exactly with `exact`
 * (the text and the structured content of one result; -0 equals 0 as in
 * JSON, where Python reads the text's -0 as the integer 0).
 */
export function differences(
  a: unknown,
  b: unknown,
  la: string,
  lb: string,
  path = "$",
  exact = false,
): string[] {
  if (typeof a === "number" && typeof b === "number") {
    const same = exact ? a === b : sameNumber(a, b);
    return same ? [] : [show(path, a, b, la, lb)];
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [show(path, a, b, la, lb)];
    return a.flatMap((x, i) =>
      differences(x, b[i], la, lb, `${path}[${i}]`, exact),
    );
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) =>
      differences(a[k], b[k], la, lb, `${path}.${k}`, exact),
    );
  }
  return a === b ? [] : [show(path, a, b, la, lb)];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function show(
  path: string,
  a: unknown,
  b: unknown,
  la: string,
  lb: string,
): string {
  const j = (v: unknown) =>
    v === undefined ? "(absent)" : Object.is(v, -0) ? "-0" : JSON.stringify(v);
  return `${path}: ${la} ${j(a)} / ${lb} ${j(b)}`;
}

/** A date-time string (RFC 3339), as the test server stamps records. */
const dateTimeRe = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/**
 * A value with what differs between runs replaced: the run's workspace id
 * by `<ws>` (also inside strings) and, when records is set (not a sample
 * echoed), date-time strings by `<time>` and the slug the server draws by
 * `<slug>`.
 */
export function normalize(v: unknown, ws: string, records: boolean): unknown {
  if (typeof v === "string") {
    if (records && dateTimeRe.test(v)) return "<time>";
    return v.split(ws).join("<ws>");
  }
  if (Array.isArray(v)) return v.map((x) => normalize(x, ws, records));
  if (isObject(v)) {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        records && k === "slug" ? "<slug>" : normalize(x, ws, records),
      ]),
    );
  }
  return v;
}

/**
 * A result's text with what differs between runs replaced, as normalize
 * does for records: the workspace id, `…_time` values and the slug.
 */
export function normalizeText(text: string, ws: string): string {
  return text
    .split(ws)
    .join("<ws>")
    .replace(/"(\w+_time)":"[^"]*"/g, '"$1":"<time>"')
    .replace(/"slug":"[^"]*"/g, '"slug":"<slug>"');
}
