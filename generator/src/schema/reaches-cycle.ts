import type { DescMessage } from "../read/descriptors.js";
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
