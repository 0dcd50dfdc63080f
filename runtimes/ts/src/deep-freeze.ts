/**
 * Freeze `v` and every object and array it reaches, and return it. An
 * object already frozen is taken as frozen throughout (its parts are not
 * visited again), so freezing a value that shares frozen parts costs only
 * its own new objects.
 */
export function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    for (const key of Object.keys(v)) {
      deepFreeze((v as Record<string, unknown>)[key]);
    }
    Object.freeze(v);
  }
  return v;
}
