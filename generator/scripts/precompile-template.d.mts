// Types for precompile-template.mjs (used by test/precompile-templates.test.ts).

/**
 * The source of the precompiled template specification of `source` (a
 * JavaScript object literal for Handlebars' runtime `template()`); `name`
 * is for messages; `partials` is the set of template names a partial may
 * refer to.
 */
export function precompileTemplate(
  name: string,
  source: string,
  partials: ReadonlySet<string>,
): string;
