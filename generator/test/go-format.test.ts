import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alignKeys } from "../src/targets/go/go-align.js";
import { goCamelCase } from "../src/targets/go/go-camel-case.js";
import { goPackageName, goPascalCase } from "../src/targets/go/go-names.js";
import { goQuote, goRawQuote } from "../src/targets/go/go-quote.js";
import { wellFormed } from "../src/schema/well-formed.js";

// These tests hold the Go helpers to the real Go toolchain: strconv.Quote and
// gofmt decide what is right, not hand-written expectations.

function withTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-go-"));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tricky = [
  "",
  "plain",
  'quote " and back \\ slash',
  "<b> & </b>",
  "tab\there\nnew line\r\u0007\b\f\v",
  "\u0000\u001f\u007f",
  "unicode é ü 漢字 🙂",
  "\u00a0nbsp \u2028 line sep \u2029 para sep \u200b zwsp \ufeff bom",
  "\u0301 combining, \u{1f1eb}\u{1f1f7} flag, \u{e0001} tag",
  '"""triple"""',
  "lone \ud800 surrogate",
];

describe("goQuote", () => {
  it("matches strconv.Quote", () => {
    const inputs = [
      ...tricky,
      ...fc.sample(fc.string({ unit: "binary", maxLength: 30 }), {
        numRuns: 300,
        seed: 7,
      }),
    ].map(wellFormed); // model text is well-formed
    const got = withTempDir((dir) => {
      writeFileSync(join(dir, "in.json"), JSON.stringify(inputs));
      writeFileSync(
        join(dir, "main.go"),
        `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

func main() {
	data, _ := os.ReadFile(os.Args[1])
	var in []string
	if err := json.Unmarshal(data, &in); err != nil {
		panic(err)
	}
	for _, s := range in {
		fmt.Println(strconv.Quote(s))
	}
}
`,
      );
      return execFileSync("go", ["run", "main.go", "in.json"], {
        cwd: dir,
        encoding: "utf8",
      });
    });
    expect(inputs.map(goQuote).join("\n") + "\n").toBe(got);
  });
});

describe("goRawQuote", () => {
  it("writes a literal Go reads back as the string, raw where it can", () => {
    const inputs = [
      ...tricky,
      '{"a":"b","c":[1,2]}',
      "back `quote`",
      "Zürich",
      ...fc.sample(fc.string({ unit: "binary", maxLength: 30 }), {
        numRuns: 300,
        seed: 9,
      }),
    ].map(wellFormed);
    const literals = inputs.map(goRawQuote);
    expect(literals.slice(tricky.length, tricky.length + 3)).toEqual([
      '`{"a":"b","c":[1,2]}`',
      goQuote("back `quote`"),
      "`Zürich`",
    ]);
    const got = withTempDir((dir) => {
      writeFileSync(
        join(dir, "main.go"),
        `package main

import (
	"encoding/json"
	"os"
)

var in = []string{
${literals.map((l) => `\t${l},\n`).join("")}}

func main() {
	_ = json.NewEncoder(os.Stdout).Encode(in)
}
`,
      );
      expect(
        execFileSync("gofmt", ["-l", "main.go"], {
          cwd: dir,
          encoding: "utf8",
        }),
      ).toBe("");
      return execFileSync("go", ["run", "main.go"], {
        cwd: dir,
        encoding: "utf8",
      });
    });
    expect(JSON.parse(got)).toEqual(inputs);
  });
});

describe("alignKeys", () => {
  it("pads keys exactly as gofmt aligns a composite literal", () => {
    const keyArb = fc.oneof(
      fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,10}$/),
      fc.stringMatching(/^[a-z][a-z_]{30,90}$/),
    );
    const literals = fc.sample(
      fc.array(keyArb, { minLength: 1, maxLength: 12 }),
      { numRuns: 60, seed: 11 },
    );
    const sources = literals.map((keys, n) => {
      const lines = keys.map((k, i) => ({
        key: goQuote(`${k}${i}`),
        value: goQuote(k.slice(0, 5)),
      }));
      const padded = alignKeys(lines);
      const body = lines.map((l, i) => `\t${padded[i]}${l.value},\n`).join("");
      return `var m${n} = map[string]string{\n${body}}\n`;
    });
    const source = "package p\n\n" + sources.join("\n");
    const formatted = withTempDir((dir) => {
      writeFileSync(join(dir, "p.go"), source);
      return execFileSync("gofmt", [join(dir, "p.go")], { encoding: "utf8" });
    });
    expect(source).toBe(formatted);
  });

  it("breaks alignment at an entry too long for one line, as gofmt does", () => {
    const lines = [
      { key: "Name", value: '"a"' },
      { key: "Description", value: goQuote("d".repeat(1_000_001)) },
      { key: "Strict", value: "true" },
      { key: "Parameters", value: 'json.RawMessage("{}")' },
    ];
    const padded = alignKeys(lines);
    const source = `package p\n\nvar v = T{\n${lines.map((l, i) => `\t${padded[i]}${l.value},\n`).join("")}}\n`;
    const formatted = withTempDir((dir) => {
      writeFileSync(join(dir, "p.go"), source);
      return execFileSync("gofmt", [join(dir, "p.go")], {
        encoding: "utf8",
        maxBuffer: 1 << 24,
      });
    });
    expect(padded).toEqual([
      "Name: ",
      "Description: ",
      "Strict:     ",
      "Parameters: ",
    ]);
    expect(source === formatted).toBe(true);
  });

  it("aligns the AgentTool literal keys", () => {
    const padded = alignKeys([
      { key: "Name", value: '"a"' },
      { key: "Description", value: '"b"' },
      { key: "Strict", value: "true" },
      { key: "Parameters", value: 'json.RawMessage("{}")' },
    ]);
    expect(padded).toEqual([
      "Name:        ",
      "Description: ",
      "Strict:      ",
      "Parameters:  ",
    ]);
  });
});

describe("Go names", () => {
  it("PascalCases tool names on _ and -", () => {
    expect(goPascalCase("page_themes_update")).toBe("PageThemesUpdate");
    expect(goPascalCase("__a_b_")).toBe("AB");
    expect(goPascalCase("links-create")).toBe("LinksCreate");
    expect(goPascalCase("getURL")).toBe("GetURL");
  });

  it("camel-cases proto names like protoc-gen-go", () => {
    expect(goCamelCase("create_link_request")).toBe("CreateLinkRequest");
    expect(goCamelCase("CreateLink")).toBe("CreateLink");
    expect(goCamelCase("_private")).toBe("XPrivate");
    expect(goCamelCase("v2_api")).toBe("V2Api");
    expect(goCamelCase("foo_1_bar")).toBe("Foo_1Bar");
  });

  it("reads go_package", () => {
    expect(goPackageName("example.com/links/v1;linksv1")).toEqual({
      importPath: "example.com/links/v1",
      name: "linksv1",
    });
    expect(goPackageName("example.com/links/v1")).toEqual({
      importPath: "example.com/links/v1",
      name: "v1",
    });
    expect(goPackageName("example.com/my-pkg")).toEqual({
      importPath: "example.com/my-pkg",
      name: "my_pkg",
    });
  });
});
