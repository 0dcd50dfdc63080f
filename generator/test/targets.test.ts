import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseOptions } from "../src/options.js";
import { targets } from "../src/targets.js";

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
    expect(parseOptions("")).toEqual({ target: "go", values: {} });
    expect(parseOptions("target=ts")).toEqual({
      target: "ts",
      values: { ts_import_path: "." },
    });
    expect(parseOptions("target=py,py_package=app.gen")).toEqual({
      target: "py",
      values: { py_package: "app.gen" },
    });
  });

  it("lists every target's options when a key is unknown", () => {
    expect(() => parseOptions("tsimport=x")).toThrow(
      'unknown option "tsimport"; valid options: target, ts_import_path, py_package',
    );
    expect(() => parseOptions("target=rust")).toThrow(
      'invalid value "rust" for option "target"; valid values: go, ts, py',
    );
    expect(() => parseOptions("py_package=a.b")).toThrow(
      'option "py_package" applies to target=py, not target=go',
    );
  });
});
