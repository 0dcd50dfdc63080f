import { templates } from "../gen/templates.js";
import {
  createTemplateRuntime,
  type CompiledTemplate,
} from "./template-runtime.js";

/** Renders one language's templates; built once per process. */
export interface Renderer {
  /**
   * Render an entry template, `<language>/<entry>` (default `file`), with
   * `view`.
   */
  render(view: object, entry?: string): string;
}

const cache = new Map<string, Renderer>();

/**
 * Create the renderer of a language. Every `templates/<language>/*.hbs` is
 * a partial `<language>/<name>`; any of them can be an entry point (`file`
 * is the main one). The templates were compiled at build time
 * (scripts/compile-templates.mjs) with Handlebars' semantics: templates
 * print finished text, so nothing is HTML-escaped.
 */
export function createRenderer(language: string): Renderer {
  const cached = cache.get(language);
  if (cached !== undefined) {
    return cached;
  }
  const entries = new Map<string, CompiledTemplate>();
  for (const [name, template] of Object.entries(templates)) {
    if (name.startsWith(`${language}/`)) {
      entries.set(name, template);
    }
  }
  const rt = createTemplateRuntime(entries);
  const renderer: Renderer = {
    render: (view, entry = "file") => {
      const template = entries.get(`${language}/${entry}`);
      if (template === undefined) {
        throw new Error(
          `no template ${JSON.stringify(`${language}/${entry}`)}`,
        );
      }
      // Handlebars' @root: the entry template's context.
      return template(view, { root: view }, rt);
    },
  };
  cache.set(language, renderer);
  return renderer;
}
