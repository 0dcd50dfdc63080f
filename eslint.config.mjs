// The one linter of the TypeScript packages: typescript-eslint's type-checked
// recommended rules over each package's sources and tests, and ESLint's
// recommended rules over the Node scripts (.mjs). `pnpm run lint` at the
// root runs every package's `lint` script (`eslint .`, this config).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = import.meta.dirname;

/**
 * The workspace's package directories, from the `packages` globs of
 * pnpm-workspace.yaml (`generator`, `runtimes/*`, …).
 */
function workspaceDirs() {
  const yaml = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const list = /^packages:\n((?:\s+-\s+\S+\n)+)/m.exec(yaml)?.[1] ?? "";
  return [...list.matchAll(/-\s+(\S+)/g)].flatMap(([, glob]) =>
    glob.endsWith("/*")
      ? readdirSync(join(root, glob.slice(0, -2)), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => `${glob.slice(0, -2)}/${e.name}`)
      : [glob],
  );
}

/**
 * The TypeScript packages (those with a tsconfig.json) and, for each, the
 * project covering its sources and tests, `tsconfig.test.json` when it has
 * one: the type information of the rules comes from it.
 */
const packages = workspaceDirs()
  .filter((dir) => existsSync(join(root, dir, "tsconfig.json")))
  .map((dir) => [
    dir,
    existsSync(join(root, dir, "tsconfig.test.json"))
      ? "tsconfig.test.json"
      : "tsconfig.json",
  ]);

export default defineConfig(
  {
    // A disable comment that no longer disables anything fails the lint.
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    // Generated code (protoc-gen-es, this plugin, tsc) and installed code.
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/gen/**",
      "**/*_pb.ts",
      "**/ai_tools.gen.ts",
    ],
  },
  {
    files: ["**/*.ts", "**/*.mts"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    rules: {
      // Not a disabled rule: `const { key: _, ...rest } = o` is how a copy of
      // `o` without `key` is written; the rest is used, `_` names the key.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { ignoreRestSiblings: true },
      ],
    },
  },
  packages.map(([dir, project]) => ({
    files: [`${dir}/**/*.ts`],
    languageOptions: {
      parserOptions: {
        project: `${dir}/${project}`,
        tsconfigRootDir: root,
      },
    },
  })),
  {
    files: ["**/*.mjs"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    // Vitest configs and hand-written declarations of .mjs scripts are in
    // no project: linted without type information.
    files: ["**/vitest*.config.ts", "**/*.d.mts"],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
