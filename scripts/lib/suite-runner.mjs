// What the end-to-end suites' runners (e2e/go/scripts/run.mjs,
// e2e/py/scripts/run.mjs) share: running commands, steps, and the final
// "ok"/"FAILED" line.
import { spawn } from "node:child_process";
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

  return { run, must, step, finish, die };
}
