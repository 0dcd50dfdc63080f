import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseOptions } from "../src/options.js";
import { generate } from "../src/plugin.js";
import { targets, type TargetEntry } from "../src/targets/registry.js";
import { buildRequest } from "./support/request.js";

const templatesDir = join(import.meta.dirname, "..", "..", "templates");

describe("target registry", () => {
  it("has one entry per template folder, each with an entry template", () => {
    const folders = readdirSync(templatesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(Object.keys(targets).sort()).toEqual(folders);
    for (const name of folders) {
      expect(readdirSync(join(templatesDir, name))).toContain("file.hbs");
    }
  });

  it("fills each target's own options with their defaults", () => {
    const common = {
      mcp: "false",
      tools: "annotated",
      unannotated_tools: "read-only-run",
      trim_prefix: "",
      name_prefix: "",
      schema: "inline",
      lenient_arguments: "false",
      deprecated: "drop",
      output_only_comments: "false",
      json_names: "false",
      tool_search: "false",
    };
    const lists = { include: [], exclude: [], providers: [] };
    expect(parseOptions("")).toEqual({
      target: "go",
      common,
      lists,
      values: {
        validate: "false",
        go_connect: "false",
        go_mcp_compat: "false",
      },
    });
    expect(parseOptions("target=ts")).toEqual({
      target: "ts",
      common,
      lists,
      values: { ts_import_path: "." },
    });
    expect(parseOptions("target=py,py_package=app.gen,mcp=true")).toEqual({
      target: "py",
      common: { ...common, mcp: "true" },
      lists,
      values: { py_package: "app.gen" },
    });
  });

  it("lists every target's options when a key is unknown", () => {
    expect(() => parseOptions("tsimport=x")).toThrow(
      'unknown option "tsimport"; valid options: target, mcp, tools, unannotated_tools, include, exclude, trim_prefix, name_prefix, schema, lenient_arguments, deprecated, output_only_comments, json_names, tool_search, providers, validate, go_connect, go_mcp_compat, ts_import_path, py_package, M<file>.proto',
    );
    expect(() => parseOptions("unannotated_tools=never")).toThrow(
      'invalid value "never" for option "unannotated_tools"; valid values: read-only-run, run, ask',
    );
    expect(() => parseOptions("target=rust")).toThrow(
      'invalid value "rust" for option "target"; valid values: go, ts, py',
    );
    expect(() => parseOptions("py_package=a.b")).toThrow(
      'option "py_package" applies to target=py, not target=go',
    );
  });

  it("refuses mcp=true, naming the target, where no MCP view exists", async () => {
    for (const target of Object.keys(targets) as (keyof typeof targets)[]) {
      const entry: TargetEntry = targets[target];
      const request = await buildRequest("executors", {
        parameter: `target=${target},mcp=true`,
      });
      if (entry.buildMcpView === undefined) {
        expect(() => generate(request)).toThrow(
          `option "mcp=true" is not supported for target=${target} yet`,
        );
      } else {
        expect(generate(request).map((f) => f.name)).toHaveLength(2);
      }
    }
    expect(() => parseOptions("mcp=yes")).toThrow(
      'invalid value "yes" for option "mcp"; valid values: true, false',
    );
  });
});
