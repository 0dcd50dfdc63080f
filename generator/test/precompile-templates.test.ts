import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runInThisContext } from "node:vm";
import Handlebars from "handlebars";
import { beforeAll, describe, expect, it } from "vitest";
import { precompileTemplate } from "../scripts/precompile-template.mjs";
import { createProblemCollector } from "../src/errors.js";
import { parseOptions } from "../src/options.js";
import { createRenderer } from "../src/render/render.js";
import { targets, type TargetEntry } from "../src/targets/registry.js";
import { modelOf } from "./support/model.js";
import { buildRequest, paths } from "./support/request.js";

// The templates are precompiled at build time (scripts/embed-templates.mjs)
// and run on Handlebars' runtime; they must print exactly what Handlebars
// compiling them at run time prints with the options the templates are
// written for.
const options = { noEscape: true, strict: true, preventIndent: true };

/** Render `entry` of `sources` with Handlebars itself. */
function handlebars(
  sources: Record<string, string>,
  entry: string,
  view: unknown,
): string {
  const hbs = Handlebars.create();
  for (const [name, source] of Object.entries(sources)) {
    hbs.registerPartial(name, hbs.compile(source, options));
  }
  return hbs.compile(sources[entry]!, options)(view);
}

/** Render `entry` of `sources` precompiled, on a Handlebars runtime. */
function compiled(
  sources: Record<string, string>,
  entry: string,
  view: unknown,
): string {
  const names = new Set(Object.keys(sources));
  const hbs = Handlebars.create();
  for (const [name, source] of Object.entries(sources)) {
    const spec = runInThisContext(
      `(${precompileTemplate(name, source, names)})`,
    ) as TemplateSpecification;
    hbs.registerPartial(name, hbs.template(spec));
  }
  return (hbs.partials[entry] as Handlebars.TemplateDelegate)(view);
}

describe("precompiled templates", () => {
  const sources = {
    "t/main": [
      "{{#if flag}}A{{else}}not A{{/if}}",
      "{{#each list}}",
      "  {{> t/item}}",
      "{{else}}",
      "empty",
      "{{/each}}",
      "{{#each obj}}{{@key}}={{this}}{{#if @first}}(first){{/if}}{{#if @last}}(last){{/if}} {{@index}};{{/each}}",
      "{{> t/ctx sub}}",
      "{{#each nested}}{{#each this}}{{this}}{{#if @last}}|{{/if}}{{/each}}{{/each}}",
      "{{a.b}}{{{raw}}}{{! a comment }}",
      "{{~#if zero}}zero{{else}}no zero{{/if~}}",
      "  {{fn}} {{#if empty}}full{{else}}empty{{/if}} {{#each absent}}x{{/each}}",
      "",
    ].join("\n"),
    "t/item": "item {{name}} of {{@root.title}}{{#if @last}} (last){{/if}}\n",
    "t/ctx": "{{x}}-{{@root.title}}\n",
  };
  const views = [
    {
      flag: 1,
      a: { b: 1 },
      list: [{ name: "x" }, { name: "y" }],
      obj: { k: "v", l: 2, m: null },
      sub: { x: "X" },
      nested: [["1", "2"], new Set(["3"]), []],
      raw: "<&>",
      zero: 0,
      fn() {
        return "called";
      },
      empty: [],
      absent: undefined,
      title: "T",
    },
    {
      flag: "",
      a: { b: null },
      list: [],
      obj: {},
      sub: { x: 0 },
      nested: [],
      raw: null,
      zero: 1,
      fn: false,
      empty: ["e"],
      absent: null,
      title: "",
    },
  ];

  it.each(views.map((v, i) => [i, v]))(
    "print what Handlebars prints (view %i)",
    (_, view) => {
      expect(compiled(sources, "t/main", view)).toBe(
        handlebars(sources, "t/main", view),
      );
    },
  );

  it("throw on a printed value the view lacks, as Handlebars' strict mode", () => {
    const lacking = { "t/x": "{{#if a}}{{b}}{{/if}}" };
    expect(() => handlebars(lacking, "t/x", { a: true })).toThrow(
      /"b" not defined/,
    );
    expect(() => compiled(lacking, "t/x", { a: true })).toThrow(
      /"b" not defined/,
    );
  });

  it("refuse helpers other than if and each, and unknown partials", () => {
    for (const [source, helper] of [
      ["{{#with a}}{{/with}}", "with"],
      ["{{#unless a}}{{/unless}}", "unless"],
      ["{{lookup a b}}", "lookup"],
      ["{{log a}}", "log"],
      ["{{#list a}}{{/list}}", "list"],
    ]) {
      expect(() =>
        precompileTemplate("t/x", source!, new Set(["t/x"])),
      ).toThrow(
        `"t/x": You specified knownHelpersOnly, but used the unknown helper ${helper}`,
      );
    }
    expect(() =>
      precompileTemplate("t/x", "{{> (a)}}", new Set(["t/x"])),
    ).toThrow('"t/x":1:0: a dynamic partial is not supported');
    expect(() =>
      precompileTemplate(
        "t/x",
        "{{#if a}}{{> t/missing}}{{/if}}",
        new Set(["t/x"]),
      ),
    ).toThrow('"t/x": no partial "t/missing"');
  });
});

describe("each target's templates", () => {
  const templateDir = join(paths.generator, "..", "templates");
  const views: [string, string, object][] = [];

  beforeAll(async () => {
    for (const target of ["go", "ts", "py"] as const) {
      for (const caseName of ["executors", "mcp"]) {
        const request = await buildRequest(caseName, {
          parameter: `target=${target}`,
        });
        const model = modelOf(request);
        const values = parseOptions(request.parameter).values;
        const entry: TargetEntry = targets[target];
        const problems = createProblemCollector();
        views.push([target, "file", entry.buildView(model, values, problems)]);
        views.push([
          target,
          "mcp-file",
          entry.buildMcpView!(model, values, problems),
        ]);
      }
    }
  }, 120_000);

  it("print what Handlebars prints for the views of the executors and mcp cases", () => {
    expect(views.length).toBe(12);
    for (const [target, entry, view] of views) {
      const dir = join(templateDir, target);
      const sources = Object.fromEntries(
        readdirSync(dir)
          .filter((f) => f.endsWith(".hbs"))
          .map((f) => [
            `${target}/${f.slice(0, -".hbs".length)}`,
            readFileSync(join(dir, f), "utf8"),
          ]),
      );
      expect(createRenderer(target).render(view, entry)).toBe(
        handlebars(sources, `${target}/${entry}`, view),
      );
    }
  });
});
