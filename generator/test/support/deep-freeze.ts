/**
 * `value`, frozen all the way down, as the schema builder freezes a
 * message's expansion that many tools share (build-schema.ts): what the
 * checks and the serializer take a frozen node to be.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    Object.freeze(value);
    Object.values(value).forEach(deepFreeze);
  }
  return value;
}
