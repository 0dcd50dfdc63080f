import { createHash } from "node:crypto";
import type { DescMethod } from "../read/descriptors.js";

/** The longest tool name every provider accepts, in bytes. */
export const maxToolNameBytes = 64;

/** Length of the hash head of a shortened name (before its `_`). */
const hashHeadLength = 10;

/**
 * The shortest room a derived name needs: a hash head, `_` and one byte of
 * the name's tail.
 */
export const minDerivedNameBytes = hashHeadLength + 2;

/** The full name of a method: `acme.crm.v1.CrmService.CreateAccount`. */
export function methodFullName(method: DescMethod): string {
  return `${method.parent.typeName}.${method.name}`;
}

/**
 * The head of a shortened name: the SHA-256 of `name`, read as a big-endian
 * unsigned integer and written in lowercase base 36, first 10 characters
 * (as protoc-gen-go-mcp shortens). When that starts with a digit, which
 * Gemini refuses at the start of a name, the head is `h` followed by its
 * first 9 characters instead.
 */
export function hashHead(name: string): string {
  const digest = createHash("sha256").update(name, "utf8").digest("hex");
  const text = BigInt(`0x${digest}`).toString(36);
  return /^[a-z]/.test(text)
    ? text.slice(0, hashHeadLength)
    : `h${text.slice(0, hashHeadLength - 1)}`;
}

/** A tool name derived from a method's full name. */
export interface DerivedName {
  /** The name, without any name prefix. */
  readonly name: string;
  /** True when the name was too long and is a hash head plus its tail. */
  readonly shortened: boolean;
  /** True when `trimPrefix` was taken off the full name. */
  readonly trimmed: boolean;
}

/**
 * The tool name of a method without an `rpc_tool` name: its full name with
 * `trimPrefix` taken off when it starts with it (and the `.` that follows
 * the prefix, if any), then `.` → `_`. A name longer than `maxBytes` (64
 * less the length of the name prefix) becomes the hash head of that name
 * ({@link hashHead}), `_`, and the longest tail that fits starting at a
 * word ({@link wordTail}): the most specific part, service and method, is
 * kept, never cut inside a word when a word start fits.
 *
 * Returns a problem (lower-case, ending with the fix) when trimming leaves
 * nothing or a name that does not start with a letter.
 */
export function deriveToolName(
  fullName: string,
  trimPrefix: string,
  maxBytes: number = maxToolNameBytes,
): DerivedName | { readonly problem: string } {
  let rest = fullName;
  const trimmed = trimPrefix !== "" && fullName.startsWith(trimPrefix);
  if (trimmed) {
    rest = fullName.slice(trimPrefix.length);
    if (rest.startsWith(".")) {
      rest = rest.slice(1);
    }
    const fix = `make trim_prefix shorter, or name the tool with an rpc_tool option`;
    if (rest === "") {
      return {
        problem: `trim_prefix ${JSON.stringify(trimPrefix)} leaves nothing of the method's name ${JSON.stringify(fullName)}; ${fix}`,
      };
    }
    if (!/^[A-Za-z]/.test(rest)) {
      return {
        problem: `trim_prefix ${JSON.stringify(trimPrefix)} leaves ${JSON.stringify(rest)} of the method's name ${JSON.stringify(fullName)}, which does not start with a letter; ${fix}`,
      };
    }
  }
  const name = rest.replaceAll(".", "_");
  if (name.length <= maxBytes) {
    return { name, shortened: false, trimmed };
  }
  const tail = wordTail(name, maxBytes - hashHeadLength - 1);
  return { name: `${hashHead(name)}_${tail}`, shortened: true, trimmed };
}

/**
 * The longest tail of `name` of at most `room` bytes that starts at a word:
 * after a `_`, or at an upper-case letter that follows a lower-case letter
 * or a digit (`…_Service_CreateAccount` → `CreateAccount`), never at a `_`.
 * Without such a start, the last `room` bytes, less a leading `_`.
 */
export function wordTail(name: string, room: number): string {
  for (let i = Math.max(1, name.length - room); i < name.length; i++) {
    const before = name[i - 1]!;
    const at = name[i]!;
    if (at === "_") {
      continue;
    }
    if (before === "_" || (/[A-Z]/.test(at) && /[a-z0-9]/.test(before))) {
      return name.slice(i);
    }
  }
  return name.slice(name.length - room).replace(/^_+/, "");
}
