// The plugin fuzz test's worker thread: runs the built plugin (dist/) on the
// requests it is sent, as the plugin process does (readRequest, then
// protocGenAiTools.run), so that the test can stop an input that hangs.
// Message in: { id, bytes }. Message out: { id, ms, error } or
// { id, ms, files: [{ name, content }] } or { id, ms, readError } (bytes
// that are not a request: the process prints the message and exits 1) or
// { id, ms, thrown } (an exception out of run: a bug).
import { parentPort } from "node:worker_threads";
import { protocGenAiTools } from "../../dist/plugin.js";
import { readRequest } from "../../dist/read/read-request.js";

// Warnings go to stderr in the plugin process; here they are dropped.
const quiet = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) =>
  String(chunk).startsWith("protoc-gen-ai-tools: warning:")
    ? true
    : quiet(chunk, ...rest);

parentPort.on("message", ({ id, bytes }) => {
  const start = performance.now();
  let request;
  try {
    request = readRequest(bytes);
  } catch (e) {
    parentPort.postMessage({
      id,
      ms: performance.now() - start,
      readError: e instanceof Error ? e.message : String(e),
    });
    return;
  }
  try {
    const response = protocGenAiTools.run(request);
    parentPort.postMessage({
      id,
      ms: performance.now() - start,
      error: response.error,
      files: response.file.map((f) => ({ name: f.name, content: f.content })),
    });
  } catch (e) {
    parentPort.postMessage({
      id,
      ms: performance.now() - start,
      thrown: e instanceof Error ? (e.stack ?? e.message) : String(e),
    });
  }
});
