import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonStr } from "../src/providers/python-str.js";
import { paths } from "./support/request.js";

// python-str.ts writes what Python's str() writes for a JSON value read by
// json.loads (the Anthropic strict form's descriptions,
// anthropic-strict-form.ts): checked against the repository's Python
// (<repo>/.venv, scripts/python-env.sh; $AI_TOOLS_PYTHON overrides it).

const venv = join(resolve(paths.generator, ".."), ".venv", "bin", "python");
const python = process.env.AI_TOOLS_PYTHON ?? venv;

const values: unknown[] = [
  0,
  -0,
  7,
  -12,
  2 ** 53 + 2,
  2 ** 63,
  1e21,
  -1e22,
  1.5,
  0.1,
  0.0001,
  0.00001,
  1.5e-7,
  123456789.125,
  1e15 + 0.5,
  1e16,
  5e-324,
  1.7976931348623157e308,
  true,
  false,
  null,
  "",
  "plain text: ^[a-z]+$ {x}",
  "it's",
  'say "hi"',
  `both ' and "`,
  "back\\slash",
  "tab\tnew\nline\rret",
  "\u0001\u001f\u007f\u0085",
  "é ü 中文 😀",
  "\u00a0\u2028\u2029\u200b\ufeff",
  [],
  [1, "a", true, null, 2.5, ["it's"], { k: "v\\d" }],
  {},
  { b: 1, a: [false], "c'": { d: null } },
];

describe("pythonStr", () => {
  it("writes what Python's str() writes for each JSON value", () => {
    expect(
      existsSync(python),
      `${python}: run bash scripts/python-env.sh`,
    ).toBe(true);
    const run = spawnSync(
      python,
      [
        "-c",
        "import json, sys\nprint(json.dumps([str(v) for v in json.loads(sys.stdin.read())]))",
      ],
      { input: JSON.stringify(values), encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    const expected = JSON.parse(run.stdout) as string[];
    // Object keys in the order given: Python's dict keeps the text's order.
    expect(values.map((v) => pythonStr(v, true))).toEqual(expected);
  });

  it("writes object keys in canonical order unless asked to keep them", () => {
    expect(pythonStr({ b: 1, a: 2 })).toBe("{'a': 2, 'b': 1}");
    expect(pythonStr({ b: 1, a: 2 }, true)).toBe("{'b': 1, 'a': 2}");
  });
});
