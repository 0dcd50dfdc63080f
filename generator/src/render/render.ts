import type HandlebarsApi from "handlebars";
import runtime from "handlebars/runtime.js";
import { templates } from "../gen/templates.js";

/** Renders one language's templates; built once per process. */
export interface Renderer {
  /**
   * Render an entry template, `<language>/<entry>` (default `file`), with
   * `view`.
   */
  render(view: object, entry?: string): string;
}

const cache = new Map<string, Renderer>();

// Handlebars' runtime: its API without the compiler (handlebars/runtime.d.ts
// declares no exports, so it is typed as the whole API).
const Handlebars = runtime as unknown as typeof HandlebarsApi;

/**
 * Create the renderer of a language, on Handlebars' runtime. Every
 * `templates/<language>/*.hbs` is a partial `<language>/<name>`; any of
 * them can be an entry point (`file` is the main one). The templates were
 * precompiled at build time (scripts/embed-templates.mjs) with the options
 * they are written for: they print finished code, so nothing is
 * HTML-escaped, and a value the view lacks is an error.
 */
export function createRenderer(language: string): Renderer {
  const cached = cache.get(language);
  if (cached !== undefined) {
    return cached;
  }
  const hbs = Handlebars.create();
  const entries = new Map<string, HandlebarsApi.TemplateDelegate>();
  for (const [name, spec] of Object.entries(templates)) {
    if (name.startsWith(`${language}/`)) {
      const template = hbs.template(spec);
      hbs.registerPartial(name, template);
      entries.set(name, template);
    }
  }
  const renderer: Renderer = {
    render: (view, entry = "file") => {
      const template = entries.get(`${language}/${entry}`);
      if (template === undefined) {
        throw new Error(
          `no template ${JSON.stringify(`${language}/${entry}`)}`,
        );
      }
      return template(view);
    },
  };
  cache.set(language, renderer);
  return renderer;
}
