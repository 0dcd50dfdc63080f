import Handlebars from "handlebars";
import { templates } from "./gen/templates.js";

/** Renders one language's templates; built once per process. */
export interface Renderer {
  /** Render the entry template `<language>/file` with `view`. */
  render(view: object): string;
}

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
  const hbs = Handlebars.create();
  let entry: string | undefined;
  for (const [name, source] of Object.entries(templates)) {
    if (!name.startsWith(`${language}/`)) {
      continue;
    }
    hbs.registerPartial(name, source);
    if (name === `${language}/file`) {
      entry = source;
    }
  }
  if (entry === undefined) {
    throw new Error(`no template ${JSON.stringify(`${language}/file`)}`);
  }
  const template = hbs.compile(entry, {
    noEscape: true,
    strict: true,
    preventIndent: true,
  });
  const renderer: Renderer = {
    render: (view) => template(view),
  };
  cache.set(language, renderer);
  return renderer;
}
