/**
 * The command line of `node dist/main.js`.
 */
export interface CliOptions {
  /** The port to listen on; 0 lets the OS choose one. */
  port: number;
}

/** The usage line printed with a command line error. */
export const usage = "usage: node dist/main.js [--port N]";

/**
 * Parses the arguments after the script name: `--port N` or `--port=N`,
 * N from 0 to 65535. Throws an Error naming the offending argument.
 */
export function parseCliOptions(args: readonly string[]): CliOptions {
  const options: CliOptions = { port: 0 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    let value: string | undefined;
    if (arg === "--port") {
      value = args[++i];
      if (value === undefined) {
        throw new Error(`missing value for "--port"`);
      }
    } else if (arg.startsWith("--port=")) {
      value = arg.slice("--port=".length);
    } else {
      throw new Error(`unknown argument ${JSON.stringify(arg)}`);
    }
    if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
      throw new Error(
        `invalid port ${JSON.stringify(value)}: want an integer from 0 to 65535`,
      );
    }
    options.port = Number(value);
  }
  return options;
}
