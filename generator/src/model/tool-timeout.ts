import type { ToolTimeout } from "../read/annotations.js";

/** One day, the longest `timeout` a tool may have, in nanoseconds. */
const maxNanos = 86_400n * 1_000_000_000n;

/** The duration in nanoseconds. */
export function timeoutNanos(timeout: ToolTimeout): bigint {
  return timeout.seconds * 1_000_000_000n + BigInt(timeout.nanos);
}

/**
 * Why the `timeout` of tool `name` cannot be used, or undefined: it must
 * be a valid google.protobuf.Duration of more than zero and at most a day.
 */
export function timeoutProblem(
  name: string,
  timeout: ToolTimeout,
): string | undefined {
  const nanos = timeoutNanos(timeout);
  const valid =
    timeout.nanos > -1_000_000_000 &&
    timeout.nanos < 1_000_000_000 &&
    (timeout.seconds === 0n ||
      timeout.nanos === 0 ||
      timeout.seconds > 0n === timeout.nanos > 0);
  if (valid && nanos > 0n && nanos <= maxNanos) {
    return undefined;
  }
  const shown = valid
    ? `${formatSeconds(nanos)}`
    : `{ seconds: ${timeout.seconds}, nanos: ${timeout.nanos} }`;
  return `tool ${JSON.stringify(name)} has timeout ${shown}, ${valid ? (nanos > 0n ? "over one day" : "not more than zero") : "which is no valid google.protobuf.Duration"}; set (ai.tools.v1.rpc_tool).timeout to more than zero and at most one day, e.g. timeout: { seconds: 30 }`;
}

/** `1.5s`, `-2s`, `0s`: a duration as protobuf JSON writes it. */
function formatSeconds(nanos: bigint): string {
  const negative = nanos < 0n;
  const abs = negative ? -nanos : nanos;
  const whole = abs / 1_000_000_000n;
  const frac = (abs % 1_000_000_000n)
    .toString()
    .padStart(9, "0")
    .replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${frac === "" ? "" : `.${frac}`}s`;
}
