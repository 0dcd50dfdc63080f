// Types for compile-templates.mjs (used by test/compile-templates.test.ts).

/**
 * The source of a function `(context, data, rt) => string` rendering
 * `source`; `name` is for messages; `partials` is the set of template
 * names a partial may refer to.
 */
export function compileTemplate(
  name: string,
  source: string,
  partials: ReadonlySet<string>,
): string;
