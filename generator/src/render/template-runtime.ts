/**
 * What the compiled templates (src/gen/templates.ts, written by
 * scripts/compile-templates.mjs from templates/<language>/*.hbs) call: the
 * few Handlebars behaviours the templates use, with Handlebars' semantics
 * under the options the templates were written for (`noEscape`, `strict`,
 * `preventIndent`): strict lookups for printed values, lenient ones for the
 * arguments of `if`, `each` and partials, `if`'s and `each`'s truth rules,
 * `@root` and each's `@index`, `@first`, `@last`, `@key`.
 */

/** Handlebars' `@data` frame. */
export type TemplateData = Readonly<Record<string, unknown>>;

/** A compiled template or block: its text for a context and data frame. */
export type TemplateBlock = (context: unknown, data: TemplateData) => string;

/** A compiled template, given the runtime to call. */
export type CompiledTemplate = (
  context: unknown,
  data: TemplateData,
  rt: TemplateRuntime,
) => string;

/** The functions compiled templates call. */
export interface TemplateRuntime {
  /** A property, or undefined; only own properties (Handlebars' default). */
  readonly lookup: (parent: unknown, name: string) => unknown;
  /** A printed property: throws when `parent` lacks it (strict mode). */
  readonly strict: (parent: unknown, name: string) => unknown;
  /** A printed value's text: functions are called, null prints nothing. */
  readonly print: (value: unknown, context: unknown) => unknown;
  /** `{{#if value}}`: true unless falsy (0 too) or an empty array. */
  readonly truthy: (value: unknown, context: unknown) => boolean;
  /** `{{#each value}}`…`{{else}}`…`{{/each}}`. */
  readonly each: (
    value: unknown,
    context: unknown,
    data: TemplateData,
    fn: TemplateBlock,
    inverse: TemplateBlock | undefined,
  ) => string;
  /** `{{> name}}` with `context`, in the same data frame. */
  readonly partial: (
    name: string,
    context: unknown,
    data: TemplateData,
  ) => string;
}

/**
 * Handlebars' lookupProperty: inherited properties are denied (it logs the
 * denial once; the generator's views are plain objects, so never do).
 */
function lookup(parent: unknown, name: string): unknown {
  const result = (parent as Record<string, unknown>)[name];
  if (result == null || Object.hasOwn(parent as object, name)) {
    return result;
  }
  return undefined;
}

function strict(parent: unknown, name: string): unknown {
  if (!parent || !(name in (Object(parent) as object))) {
    throw new Error(`"${name}" not defined in the template's context`);
  }
  return lookup(parent, name);
}

function call(value: unknown, context: unknown): unknown {
  return typeof value === "function"
    ? (value as (this: unknown) => unknown).call(context)
    : value;
}

/** Create the runtime of one set of templates, keyed by partial name. */
export function createTemplateRuntime(
  templates: ReadonlyMap<string, CompiledTemplate>,
): TemplateRuntime {
  const rt: TemplateRuntime = {
    lookup,
    strict,
    print: (value, context) => {
      const v = call(value, context);
      return v == null ? "" : v;
    },
    truthy: (value, context) => {
      const v = call(value, context);
      return !(!v || (Array.isArray(v) && v.length === 0));
    },
    each: (value, context, data, fn, inverse) => {
      const list = call(value, context);
      const frame: Record<string, unknown> = { ...data, _parent: data };
      let out = "";
      let i = 0;
      const iteration = (
        key: unknown,
        index: number,
        last: boolean,
        v: unknown,
      ) => {
        frame["key"] = key;
        frame["index"] = index;
        frame["first"] = index === 0;
        frame["last"] = last;
        out += fn(v, frame);
      };
      if (list && typeof list === "object") {
        if (Array.isArray(list)) {
          for (const n = list.length; i < n; i++) {
            if (i in list) {
              iteration(i, i, i === list.length - 1, list[i]);
            }
          }
        } else if (Symbol.iterator in list) {
          const iterator = (list as Iterable<unknown>)[Symbol.iterator]();
          let current = iterator.next();
          while (current.done !== true) {
            const next = iterator.next();
            iteration(i, i, next.done === true, current.value);
            current = next;
            i++;
          }
        } else {
          const keys = Object.keys(list);
          for (; i < keys.length; i++) {
            const key = keys[i]!;
            iteration(
              key,
              i,
              i === keys.length - 1,
              (list as Record<string, unknown>)[key],
            );
          }
        }
      }
      if (i === 0 && inverse !== undefined) {
        out = inverse(context, data);
      }
      return out;
    },
    partial: (name, context, data) => {
      const template = templates.get(name);
      if (template === undefined) {
        throw new Error(`no partial ${JSON.stringify(name)}`);
      }
      return template(context, data, rt);
    },
  };
  return rt;
}
