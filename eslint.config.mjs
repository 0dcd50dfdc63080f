// The one linter of the TypeScript packages: typescript-eslint's type-checked
// recommended rules over each package's sources and tests, and ESLint's
// recommended rules over the Node scripts (.mjs). `pnpm run lint` at the
// root runs every package's `lint` script (`eslint .`, this config).
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The TypeScript packages and, for each, the project covering its sources
 * and tests: the type information of the rules comes from it.
 */
const packages = {
  generator: "tsconfig.test.json",
  "runtimes/ts": "tsconfig.test.json",
  "e2e/server": "tsconfig.test.json",
  "e2e/testkit": "tsconfig.test.json",
  "e2e/ts": "tsconfig.json",
  "examples/ts": "tsconfig.json",
};

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
  Object.entries(packages).map(([dir, project]) => ({
    files: [`${dir}/**/*.ts`],
    languageOptions: {
      parserOptions: {
        project: `${dir}/${project}`,
        tsconfigRootDir: import.meta.dirname,
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
