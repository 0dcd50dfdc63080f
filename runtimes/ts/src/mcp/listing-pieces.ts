import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/** The characters written at once (the pieces' JSON text gathered). */
const writeChars = 1 << 16;

/** What stands for the `tools` array in the message's JSON text. */
const marker = "\u0000tools";

/**
 * The JSON text of a message whose result lists tools (`tools/list`), in
 * pieces: the message without its tools, then each tool's. Joined they are
 * `JSON.stringify(message)` to the byte. Undefined for another message.
 */
export function listingPieces(
  message: JSONRPCMessage,
): Iterable<string> | undefined {
  const result = (message as { result?: unknown }).result;
  if (typeof result !== "object" || result === null) {
    return undefined;
  }
  const tools = (result as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) {
    return undefined;
  }
  const text = JSON.stringify({
    ...message,
    result: { ...result, tools: marker },
  });
  const key = `"tools":${JSON.stringify(marker)}`;
  const at = text.lastIndexOf(key);
  if (at === -1) {
    return undefined;
  }
  return (function* () {
    yield `${text.slice(0, at)}"tools":[`;
    for (let i = 0; i < tools.length; i++) {
      yield (i === 0 ? "" : ",") + (JSON.stringify(tools[i]) ?? "null");
    }
    yield `]${text.slice(at + key.length)}`;
  })();
}

/**
 * The stdio transport of `serveStdio`: as the SDK's, but a `tools/list`
 * answer is serialized a tool at a time and written a piece at a time,
 * each piece once the one before is written, never as one string. A
 * large API's listing (Compute Engine's 988 tools: 19.7 MB of JSON, a
 * string of twice that in memory when one character is beyond Latin-1,
 * and a write buffer of three bytes a character) then costs little memory
 * beyond the tools themselves (bench/README.md, "Gateway"). What is
 * written meanwhile (other messages, {@link writeInTurn}'s lines) waits
 * its turn, so no line comes between the pieces.
 */
export class ListingStdioTransport extends StdioServerTransport {
  private readonly out: Writable;
  private ended = false;
  /** The writes under way that span turns, and those waiting behind them. */
  private pending: Promise<void> | undefined;

  /** The transport over `input` and `out`. */
  constructor(input: Readable, out: Writable) {
    super(input, out);
    this.out = out;
  }

  /** Close once the writes under way are done. */
  override async close(): Promise<void> {
    this.ended = true;
    await this.pending;
    return super.close();
  }

  /** A tools/list answer in pieces; other messages as the SDK's, in turn. */
  override send(message: JSONRPCMessage): Promise<void> {
    const pieces = this.ended ? undefined : listingPieces(message);
    if (pieces === undefined) {
      return this.inTurn(() => super.send(message), false);
    }
    return this.inTurn(() => writePieces(this.out, pieces), true);
  }

  /** Write `text` to the output in turn with the messages. */
  writeInTurn(text: string): void {
    this.inTurn(() => written(this.out, text), false).catch(() => undefined);
  }

  /**
   * Run `write` now when nothing is being written (one write is ordered by
   * the stream), else once the writes before it are done; `spans`: it
   * writes over several turns, and what comes later waits for it.
   */
  private inTurn(write: () => Promise<void>, spans: boolean): Promise<void> {
    if (this.pending === undefined && !spans) {
      return write();
    }
    const turn =
      this.pending === undefined ? write() : this.pending.then(write);
    const settled = turn.catch(() => undefined);
    this.pending = settled;
    void settled.then(() => {
      if (this.pending === settled) {
        this.pending = undefined;
      }
    });
    return turn;
  }
}

/**
 * Write `pieces` and a newline to `out`, a few at a write, each write once
 * the one before is done (its buffer, three bytes a character, let go).
 */
async function writePieces(
  out: Writable,
  pieces: Iterable<string>,
): Promise<void> {
  let chunk = "";
  for (const piece of pieces) {
    chunk += piece;
    if (chunk.length >= writeChars) {
      await written(out, chunk);
      chunk = "";
    }
  }
  await written(out, `${chunk}\n`);
}

/** Write `text` to `out`; settles once it is written. */
function written(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(text, (error) => {
      if (error) {
        reject(error);
      } else {
        resolve();
      }
    });
  });
}
