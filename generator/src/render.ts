import handlebarsRuntime from "handlebars/runtime.js";
import { templates } from "./gen/templates.js";

/** Renders one language's templates; built once per process. */
export interface Renderer {
  /**
   * Render an entry template, `<language>/<entry>` (default `file`), with
   * `view`.
   */
  render(view: object, entry?: string): string;
}

type TemplateFn = (context: object) => string;

interface HandlebarsRuntime {
  create(): HandlebarsRuntime;
  template(spec: object): TemplateFn;
  registerPartial(name: string, partial: TemplateFn): void;
}

// Only the Handlebars runtime: the templates were precompiled at build time
// (scripts/embed-templates.mjs). Imported statically, so that the bundle
// (scripts/bundle.mjs) holds it.
const runtime = handlebarsRuntime as HandlebarsRuntime;

const cache = new Map<string, Renderer>();

/**
 * Create the renderer of a language. Every `templates/<language>/*.hbs` is
 * registered as partial `<language>/<name>`; any of them can be an entry
 * point (`file` is the main one).
 * Templates print finished text, so nothing is HTML-escaped.
 */
export function createRenderer(language: string): Renderer {
  const cached = cache.get(language);
  if (cached !== undefined) {
    return cached;
  }
  const hbs = runtime.create();
  const entries = new Map<string, TemplateFn>();
  for (const [name, spec] of Object.entries(templates)) {
    if (!name.startsWith(`${language}/`)) {
      continue;
    }
    const template = hbs.template(spec);
    hbs.registerPartial(name, template);
    entries.set(name, template);
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
