// What the suites' runners (e2e/go, e2e/go-migrate, e2e/py, runtimes/go
// scripts/run.mjs and others) share: running commands, steps, the Go
// tools, and the final "ok"/"FAILED" line.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * A runner for one suite. `label` starts its final line (`e2e-go: ok (…)`),
 * `cwd` is where commands run by default.
 */
export function createSuiteRunner({ label, cwd: defaultCwd }) {
  const started = Date.now();

  /** Run a command; resolves to {code, stdout, stderr} (captured when quiet). */
  function run(
    cmd,
    cmdArgs,
    { cwd = defaultCwd, env = process.env, quiet = false } = {},
  ) {
    return new Promise((resolve) => {
      const child = spawn(cmd, cmdArgs, {
        cwd,
        env,
        // stdin is never the terminal's: a server under test must not hold it.
        stdio: quiet
          ? ["ignore", "pipe", "pipe"]
          : ["ignore", "inherit", "inherit"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (d) => (stdout += d));
      child.stderr?.on("data", (d) => (stderr += d));
      child.on("error", (e) =>
        resolve({ code: -1, stdout, stderr: e.message }),
      );
      child.on("close", (code, signal) =>
        resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr }),
      );
    });
  }

  /** Fail the suite with a message. */
  function die(msg) {
    console.error(`\n${label}: FAILED: ${msg}`);
    process.exit(1);
  }

  /** Run a command that must succeed, else fail the suite naming it. */
  async function must(cmd, cmdArgs, opts) {
    const r = await run(cmd, cmdArgs, opts);
    if (r.code !== 0) {
      die(
        `${path.basename(cmd)} ${cmdArgs.slice(0, 3).join(" ")} failed (exit ${r.code})${r.stderr ? `:\n${r.stderr}` : ""}`,
      );
    }
    return r;
  }

  /** Print a step heading. */
  function step(name) {
    console.log(`\n== ${name}`);
  }

  /** End the suite successfully: the mode it ran (`--e2e`) and its wall time. */
  function finish(mode) {
    console.log(
      `\n${label}: ok (${mode.slice(2)}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    process.exit(0);
  }

  /**
   * Fail unless Go is on PATH, then install the Go code generators
   * (protoc-gen-go, -go-grpc, -connect-go) into `.tools/bin` of `repoRoot`.
   */
  async function prepareGo(repoRoot) {
    if ((await run("go", ["version"], { quiet: true })).code !== 0) {
      // Never skipped: without Go every mode fails.
      die(
        "Go toolchain not found (go is not on PATH); install Go 1.26 or later",
      );
    }
    step("Go code generators (generator/scripts/go-test.mjs --install-tools)");
    await must(
      "node",
      [
        path.join(repoRoot, "generator", "scripts", "go-test.mjs"),
        "--install-tools",
      ],
      { cwd: repoRoot },
    );
  }

  /**
   * The plugin and buf of the workspace (`node_modules/.bin`), failing the
   * suite with the fix when they or the built generator are missing.
   */
  function workspaceTools(repoRoot) {
    const bin = path.join(repoRoot, "node_modules", ".bin");
    const plugin = path.join(bin, "protoc-gen-ai-tools");
    const buf = path.join(bin, "buf");
    for (const p of [plugin, buf]) {
      if (!existsSync(p)) {
        die(`${p} not found: run \`npx -y pnpm@12.4.2 install\` first`);
      }
    }
    if (!existsSync(path.join(repoRoot, "generator", "dist", "index.js"))) {
      die(
        "generator/dist not built: run `npx -y pnpm@12.4.2 --filter protoc-gen-ai-tools build`",
      );
    }
    return { plugin, buf };
  }

  return { run, must, step, finish, die, prepareGo, workspaceTools };
}
