// Compiles a Handlebars template to the source of a plain JavaScript
// function (a CompiledTemplate of src/render/template-runtime.ts), for
// embed-templates.mjs. The templates only print and iterate, so the
// function is a run of string concatenations, `for` loops in the runtime's
// `each` and `if`s: far less work per printed value than Handlebars' own
// runtime (an options object, a helper call and a frame per block), which
// for 2,000 tools took most of the render time (issue 13, point 3).
//
// Handlebars parses the template (with its whitespace control, so
// standalone lines are stripped exactly as it strips them), and the
// compiled code keeps Handlebars' semantics under the options the
// templates are written for (noEscape, strict, preventIndent). What the
// templates do not use (helpers other than if and each, hashes, block
// params, `../`, dynamic partials) is refused here, at build time.
import Handlebars from "handlebars";

// Handlebars' built-in helpers: a one-part path named like one is a helper
// call in Handlebars, never a lookup.
const builtins = new Set([
  "blockHelperMissing",
  "each",
  "helperMissing",
  "if",
  "log",
  "lookup",
  "unless",
  "with",
]);

/**
 * The source of a function `(context, data, rt) => string` rendering
 * `source`; `name` is for messages; `partials` is the set of template
 * names a partial may refer to.
 */
export function compileTemplate(name, source, partials) {
  const ast = Handlebars.parse(source);
  let vars = 0;
  const fail = (node, what) => {
    const at = node.loc
      ? `:${node.loc.start.line}:${node.loc.start.column}`
      : "";
    throw new Error(
      `${name}${at}: ${what} is not supported by compile-templates.mjs`,
    );
  };

  // A path's value, from context `ctx` or frame `data`; `strict` throws on
  // a missing last part, as Handlebars' strict mode does for printed values.
  const path = (node, ctx, data, strict) => {
    if (node.type !== "PathExpression") fail(node, node.type);
    if (node.depth !== 0) fail(node, "a `../` path");
    if (node.parts.length === 0) {
      if (node.data) fail(node, "`@` alone");
      return ctx;
    }
    let code = node.data ? data : ctx;
    node.parts.forEach((part, i) => {
      const fn =
        strict && i === node.parts.length - 1 ? "rt.strict" : "rt.lookup";
      code = `${fn}(${code}, ${JSON.stringify(part)})`;
    });
    return code;
  };

  const param = (node, ctx, data) => {
    if (node.hash !== undefined || node.params.length !== 1) {
      fail(node, `${node.path.original} without exactly one argument`);
    }
    return path(node.params[0], ctx, data, false);
  };

  // Statements appending to `out`, in a function whose context is `ctx`
  // and data frame `data`.
  const program = (prog, ctx, data) => {
    if (prog.blockParams !== undefined) fail(prog, "a block parameter");
    const lines = [];
    for (const node of prog.body) {
      switch (node.type) {
        case "ContentStatement":
          if (node.value !== "")
            lines.push(`out += ${JSON.stringify(node.value)};`);
          break;
        case "CommentStatement":
          break;
        case "MustacheStatement": {
          if (node.params.length > 0 || node.hash !== undefined)
            fail(node, "a helper call");
          const p = node.path;
          // A one-part path that is not scoped (`this.x`, `./x`), `@` or
          // not, may name a helper in Handlebars.
          if (
            p.type === "PathExpression" &&
            p.parts.length === 1 &&
            !/^\.|this\b/.test(p.original) &&
            builtins.has(p.parts[0])
          ) {
            fail(node, `{{${p.original}}}`);
          }
          lines.push(`out += rt.print(${path(p, ctx, data, true)}, ${ctx});`);
          break;
        }
        case "BlockStatement": {
          const helper = node.path.original;
          const c = `c${++vars}`;
          const d = `d${vars}`;
          const block = (p, cc, dd) =>
            `(${cc}, ${dd}) => {\n let out = "";\n${program(p, cc, dd)}\n return out;\n}`;
          if (helper === "if") {
            const value = param(node, ctx, data);
            lines.push(
              `if (rt.truthy(${value}, ${ctx})) {\n${program(node.program, ctx, data)}\n}` +
                (node.inverse
                  ? ` else {\n${program(node.inverse, ctx, data)}\n}`
                  : ""),
            );
          } else if (helper === "each") {
            const value = param(node, ctx, data);
            const inverse = node.inverse
              ? block(node.inverse, c, d)
              : "undefined";
            lines.push(
              `out += rt.each(${value}, ${ctx}, ${data}, ${block(node.program, c, d)}, ${inverse});`,
            );
          } else {
            fail(node, `{{#${helper}}}`);
          }
          break;
        }
        case "PartialStatement": {
          if (node.name.type !== "PathExpression")
            fail(node, "a dynamic partial");
          if (node.hash !== undefined || node.params.length > 1)
            fail(node, "a partial with a hash");
          const partial = node.name.original;
          if (!partials.has(partial)) {
            throw new Error(
              `${JSON.stringify(name)}: no partial ${JSON.stringify(partial)}`,
            );
          }
          // preventIndent: a standalone partial's indent is content before it.
          if (node.indent) lines.push(`out += ${JSON.stringify(node.indent)};`);
          const context =
            node.params.length === 1
              ? path(node.params[0], ctx, data, false)
              : ctx;
          lines.push(
            `out += rt.partial(${JSON.stringify(partial)}, ${context}, ${data});`,
          );
          break;
        }
        default:
          fail(node, node.type);
      }
    }
    return lines.join("\n");
  };

  return `(context, data, rt) => {\n let out = "";\n${program(ast, "context", "data")}\n return out;\n}`;
}
