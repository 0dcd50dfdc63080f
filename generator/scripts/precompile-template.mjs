// Precompiles one template with Handlebars' precompiler, for
// embed-templates.mjs, under the options the templates are written for.
import Handlebars from "handlebars";

/**
 * The options of every template: they print finished code, so nothing is
 * HTML-escaped (`noEscape`); a printed value the view lacks is an error, not
 * an empty string (`strict`); a standalone partial's indent is printed once
 * before it, not added to each of its lines (`preventIndent`); the only
 * helpers are Handlebars' `if` and `each` (`knownHelpersOnly`), so a typo
 * in a block's name fails here, at build time.
 */
export function templateOptions() {
  // A new object each time: Handlebars adds to the options it is given.
  return {
    noEscape: true,
    strict: true,
    preventIndent: true,
    knownHelpersOnly: true,
    knownHelpers: {
      if: true,
      each: true,
      unless: false,
      with: false,
      lookup: false,
      log: false,
    },
  };
}

/**
 * The source of the precompiled template specification of `source` (a
 * JavaScript object literal for Handlebars' runtime `template()`); `name`
 * is for messages; `partials` is the set of template names a partial may
 * refer to.
 */
export function precompileTemplate(name, source, partials) {
  for (const node of partialsOf(Handlebars.parse(source))) {
    if (node.name.type !== "PathExpression") {
      throw new Error(
        `${JSON.stringify(name)}${at(node)}: a dynamic partial is not supported`,
      );
    }
    if (!partials.has(node.name.original)) {
      throw new Error(
        `${JSON.stringify(name)}: no partial ${JSON.stringify(node.name.original)}`,
      );
    }
  }
  try {
    return Handlebars.precompile(source, templateOptions());
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`${JSON.stringify(name)}: ${message}`, { cause: e });
  }
}

/** The partial statements of a parsed template, at any depth. */
function partialsOf(node) {
  const found = [];
  const visit = (n) => {
    if (n === null || typeof n !== "object") return;
    if (n.type === "PartialStatement" || n.type === "PartialBlockStatement") {
      found.push(n);
    }
    for (const key of ["body", "program", "inverse"]) {
      const child = n[key];
      if (Array.isArray(child)) child.forEach(visit);
      else visit(child);
    }
  };
  visit(node);
  return found;
}

/** `:line:column` of a node, when Handlebars recorded it. */
function at(node) {
  return node.loc ? `:${node.loc.start.line}:${node.loc.start.column}` : "";
}
