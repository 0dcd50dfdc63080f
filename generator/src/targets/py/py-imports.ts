/**
 * Python import statements and name orders, written the way ruff writes
 * them: its isort (rule I001) sorts, `ruff format` wraps at 88 columns, and
 * RUF022 orders `__all__`, so the generated module is clean as generated.
 */

/** ruff format's default line length. */
export const pyLineLength = 88;

/** The indent of a statement in a block (ruff format's). */
export const pyBlockIndent = "    ";

/** One module the generated file imports, and the name it is bound to. */
export interface PyImport {
  /** The full module path, `temporal.api.common.v1.message_pb2`. */
  readonly module: string;
  /** The local name: the module's last part, or an `as` name. */
  readonly name: string;
}

/**
 * The import statements of `imports`, in ruff's isort order within one
 * section: `import m [as n]` statements first (top-level modules), then
 * `from p import …`. The members of one package imported under their own
 * names share one statement (`from google.protobuf import empty_pb2,
 * timestamp_pb2`); each `as` import is a statement of its own. A `from`
 * statement longer than 88 columns is wrapped as ruff format wraps it, one
 * member a line with a trailing comma. With `indent` (in a block: `try:`),
 * every line starts with it, and it counts towards the 88 columns.
 */
export function pyImportStatements(
  imports: readonly PyImport[],
  indent = "",
): string[] {
  const straight: PyImport[] = [];
  const byParent = new Map<string, PyImport[]>();
  for (const imp of imports) {
    const dot = imp.module.lastIndexOf(".");
    if (dot < 0) {
      straight.push(imp);
      continue;
    }
    const parent = imp.module.slice(0, dot);
    const list = byParent.get(parent) ?? [];
    list.push(imp);
    byParent.set(parent, list);
  }

  const statements = straight
    .sort(
      (a, b) =>
        natordIgnoreCase(a.module, b.module) ||
        compareAsNames(a.module, a.name, b.module, b.name),
    )
    .map((imp) =>
      imp.name === imp.module
        ? `${indent}import ${imp.module}`
        : `${indent}import ${imp.module} as ${imp.name}`,
    );

  interface FromStatement {
    parent: string;
    /** [member, as name or undefined], sorted. */
    members: (readonly [string, string | undefined])[];
  }
  const froms: FromStatement[] = [];
  for (const [parent, list] of byParent) {
    const plain: (readonly [string, undefined])[] = [];
    for (const imp of list) {
      const member = imp.module.slice(parent.length + 1);
      if (imp.name === member) plain.push([member, undefined]);
      else froms.push({ parent, members: [[member, imp.name]] });
    }
    if (plain.length > 0) {
      froms.push({ parent, members: plain.sort(compareMembers) });
    }
  }
  froms.sort(
    (a, b) =>
      natordIgnoreCase(a.parent, b.parent) ||
      compareMembers(a.members[0]!, b.members[0]!),
  );
  for (const { parent, members } of froms) {
    const names = members.map(([m, as]) =>
      as === undefined ? m : `${m} as ${as}`,
    );
    const line = `${indent}from ${parent} import ${names.join(", ")}`;
    statements.push(
      line.length <= pyLineLength
        ? line
        : [
            `${indent}from ${parent} import (`,
            ...names.map((n) => `${indent}    ${n},`),
            `${indent})`,
          ].join("\n"),
    );
  }
  return statements;
}

/**
 * isort's member order: CONSTANTS (longer than one character, upper case),
 * then Classes (a capital first), then the rest; each case-insensitively,
 * then case-sensitively, in natural order; a member without `as` first.
 */
function compareMembers(
  [a, asA]: readonly [string, string | undefined],
  [b, asB]: readonly [string, string | undefined],
): number {
  return (
    isortType(a) - isortType(b) ||
    natordIgnoreCase(a, b) ||
    compareAsNames(a, asA, b, asB)
  );
}

function compareAsNames(
  a: string,
  asA: string | undefined,
  b: string,
  asB: string | undefined,
): number {
  if (asA === asB || (asA === a && asB === b)) return 0;
  if (asA === undefined || asA === a) return -1;
  if (asB === undefined || asB === b) return 1;
  return natordIgnoreCase(asA, asB);
}

/**
 * The kind isort (and RUF022's isort-style order) gives a name: 0 for a
 * CONSTANT (more than one character, every letter upper case), 1 for a
 * Class (upper-case first letter), 2 for anything else (`A` is a Class).
 */
export function isortType(name: string): number {
  if (name.length > 1 && /[A-Z]/.test(name) && !/[a-z]/.test(name)) return 0;
  return /^[A-Z]/.test(name) ? 1 : 2;
}

/** ruff's order of names: lower-cased natural order, then natural order. */
export function natordIgnoreCase(a: string, b: string): number {
  return natord(a.toLowerCase(), b.toLowerCase()) || natord(a, b);
}

/**
 * Natural order, as the `natord` crate ruff sorts with: character by
 * character, except that runs of digits compare as numbers (a run with a
 * leading zero compares digit by digit, as a fraction).
 */
export function natord(a: string, b: string): number {
  let i = 0;
  let j = 0;
  const digit = (c: string | undefined) =>
    c !== undefined && c >= "0" && c <= "9";
  for (;;) {
    const ca = a[i];
    const cb = b[j];
    if (ca === undefined || cb === undefined) {
      return ca === cb ? 0 : ca === undefined ? -1 : 1;
    }
    if (digit(ca) && digit(cb)) {
      let ei = i;
      while (digit(a[ei])) ei++;
      let ej = j;
      while (digit(b[ej])) ej++;
      const ra = a.slice(i, ei);
      const rb = b.slice(j, ej);
      let d: number;
      if (ra.startsWith("0") || rb.startsWith("0")) {
        // Fractional: left-aligned, digit by digit, the shorter first.
        d = ra < rb ? -1 : ra > rb ? 1 : 0;
      } else {
        d =
          ra.length !== rb.length
            ? ra.length - rb.length
            : ra < rb
              ? -1
              : ra > rb
                ? 1
                : 0;
      }
      if (d !== 0) return d < 0 ? -1 : 1;
      i = ei;
      j = ej;
      continue;
    }
    if (ca !== cb) return ca < cb ? -1 : 1;
    i++;
    j++;
  }
}
