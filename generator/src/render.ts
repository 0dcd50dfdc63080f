import { createRequire } from "node:module";
import { templates } from "./gen/templates.js";

/** Renders one language's templates; built once per process. */
export interface Renderer {
  /** Render the entry template `<language>/file` with `view`. */
  render(view: object): string;
}

type TemplateFn = (context: object) => string;

interface HandlebarsRuntime {
  create(): HandlebarsRuntime;
  template(spec: object): TemplateFn;
  registerPartial(name: string, partial: TemplateFn): void;
}

// Only the Handlebars runtime: the templates were precompiled at build time
// (scripts/embed-templates.mjs).
const runtime = createRequire(import.meta.url)(
  "handlebars/runtime",
) as HandlebarsRuntime;

const cache = new Map<string, Renderer>();

/**
 * Create the renderer of a language. Every `templates/<language>/*.hbs` is
 * registered as partial `<language>/<name>`; `file` is the entry point.
 * Templates print finished text, so nothing is HTML-escaped.
 */
export function createRenderer(language: string): Renderer {
  const cached = cache.get(language);
  if (cached !== undefined) {
    return cached;
  }
  const hbs = runtime.create();
  let entry: TemplateFn | undefined;
  for (const [name, spec] of Object.entries(templates)) {
    if (!name.startsWith(`${language}/`)) {
      continue;
    }
    const template = hbs.template(spec);
    hbs.registerPartial(name, template);
    if (name === `${language}/file`) {
      entry = template;
    }
  }
  if (entry === undefined) {
    throw new Error(`no template ${JSON.stringify(`${language}/file`)}`);
  }
  const template = entry;
  const renderer: Renderer = {
    render: (view) => template(view),
  };
  cache.set(language, renderer);
  return renderer;
}
