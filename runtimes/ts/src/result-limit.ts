import { Code } from "@connectrpc/connect";
import { ToolError } from "./tool-error.js";

/**
 * The default of `maxResultBytes`: about the 25,000-token cap common MCP
 * clients apply to a tool result.
 */
export const defaultMaxResultBytes = 100_000;

const askForLess = "ask for less (a smaller page size or a filter)";

/**
 * Throw an Error naming the option for a `maxResultBytes` below 0 (0: no
 * limit) or a `timeoutMs` below 0 (0: no deadline), or one that is no
 * number.
 */
export function checkCallLimits(options: {
  readonly maxResultBytes?: number | undefined;
  readonly timeoutMs?: number | undefined;
}): void {
  const { maxResultBytes, timeoutMs } = options;
  if (
    maxResultBytes !== undefined &&
    !(Number.isSafeInteger(maxResultBytes) && maxResultBytes >= 0)
  ) {
    throw new Error(
      `maxResultBytes must be 0 (no limit) or a positive whole number of bytes, got ${String(maxResultBytes)}`,
    );
  }
  if (
    timeoutMs !== undefined &&
    !(Number.isFinite(timeoutMs) && timeoutMs >= 0)
  ) {
    throw new Error(
      `timeoutMs must be 0 (no deadline) or a positive number of milliseconds, got ${String(timeoutMs)}`,
    );
  }
}

/**
 * Refuse a result text (as the model would see it) over max UTF-8 bytes
 * (0: no limit) with a ToolError `result-too-large`; return it otherwise.
 */
export function checkResultSize(text: string, max: number): string {
  if (max > 0 && text.length * 3 > max) {
    const bytes = utf8Length(text);
    if (bytes > max) {
      throw new ToolError(
        `result too large: ${bytes} bytes, over the limit of ${max}; ${askForLess}`,
        { reason: "result-too-large", code: Code.ResourceExhausted },
      );
    }
  }
  return text;
}

/** The ToolError of a stream cancelled once its text passed max bytes. */
export function streamTooLarge(max: number): ToolError {
  return new ToolError(
    `result too large: more than ${max} bytes; ${askForLess}`,
    { reason: "result-too-large", code: Code.ResourceExhausted },
  );
}

/** The UTF-8 length of s (a surrogate pair is 4 bytes). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      n += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
    }
  }
  return n;
}
