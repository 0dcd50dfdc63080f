import type { DescField, DescMessage } from "../read/descriptors.js";
import { isWellKnown } from "./well-known.js";
import { heldMessage } from "./held-message.js";

/** Per message: whether a cycle of message types can be reached from it. */
const reachesCycleCache = new WeakMap<DescMessage, boolean>();

/** Messages whose search is in progress (on the current DFS path). */
const visiting = new Set<DescMessage>();

/**
 * True when a cycle of message types can be reached from `message` through
 * its message fields (singular, repeated, map values), well-known types
 * with their own JSON form aside, whatever options leave a field out. When
 * false, the schema builder's recursion stops (an ancestor on the path)
 * never apply below `message`, so its expansion does not depend on where it
 * is used.
 */
export function reachesCycle(message: DescMessage): boolean {
  const known = reachesCycleCache.get(message);
  if (known !== undefined) {
    return known;
  }
  visiting.add(message);
  let found = false;
  try {
    for (let i = 0, fields = message.fields; i < fields.length; i++) {
      const field = fields[i]!;
      const target = heldMessage(field);
      if (target === undefined || isWellKnown(target.typeName)) {
        continue;
      }
      // A message on the path reached again closes a cycle; a search done
      // before this one began has its answer.
      if (visiting.has(target) || reachesCycle(target)) {
        found = true;
      }
    }
  } finally {
    visiting.delete(message);
  }
  reachesCycleCache.set(message, found);
  return found;
}

/** Per message: the messages reachable from it through message fields. */
const reachableCache = new WeakMap<DescMessage, ReadonlySet<DescMessage>>();

/** The messages reachable from `message` (itself only through a cycle). */
function reachable(message: DescMessage): ReadonlySet<DescMessage> {
  const known = reachableCache.get(message);
  if (known !== undefined) {
    return known;
  }
  const out = new Set<DescMessage>();
  const pending = [message];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (let i = 0, fields = next.fields; i < fields.length; i++) {
      const target = heldMessage(fields[i]!);
      if (
        target !== undefined &&
        !isWellKnown(target.typeName) &&
        !out.has(target)
      ) {
        out.add(target);
        pending.push(target);
      }
    }
  }
  reachableCache.set(message, out);
  return out;
}

/**
 * True when `field` closes a cycle of message types: the message it holds
 * (singular, list element or map value; well-known types aside) leads back
 * to the message declaring it. In a tool's stop variant (docs/compat.md,
 * "$defs and $ref") the recursion is cut at such a field.
 */
export function closesCycle(field: DescField): boolean {
  const target = heldMessage(field);
  return (
    target !== undefined &&
    !isWellKnown(target.typeName) &&
    reachable(target).has(field.parent)
  );
}
