// The turn loops of docs/tool-search.md "Use it", compiled against the
// official SDKs' types (tsc -p tsconfig.test.json) and run by
// tool-search-loops.test.ts against a stub of each provider. The lines of
// the page's TypeScript blocks are these lines (imports aside), in order.
import type Anthropic from "@anthropic-ai/sdk";
import type {
  MessageParam,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import {
  parseSearchArguments,
  ToolError,
  type ConversationExecutor,
  type DeferredTools,
} from "../../src/index.js";

/** What the loops share: the SDK client, the tools, the conversation. */
export interface LoopContext {
  readonly deferred: DeferredTools;
  readonly executor: Pick<ConversationExecutor, "execute">;
  readonly handle: string;
}

/** What a call gives the model: its result, or a ToolError's text. */
async function forModel<T>(run: () => Promise<T>): Promise<T | string> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ToolError) return e.message; // invalid-arguments, conversation-full, …
    throw e;
  }
}

/** OpenAI Responses with client tool search, until the model answers. */
export async function openAiResponsesLoop(
  { deferred, executor, handle }: LoopContext,
  openai: OpenAI,
  question: string,
): Promise<string> {
  const input: ResponseInputItem[] = [{ role: "user", content: question }];
  const tools = await deferred.openAiResponses(handle, { search: "client" }); // the same every turn
  for (;;) {
    const response = await openai.responses.create({
      model: "gpt-5.4",
      input,
      tools,
    });
    // Sent back as received (a function_call keeps its namespace); the
    // cast: the SDK types output and input items apart.
    input.push(...(response.output as ResponseInputItem[]));
    let called = false;
    for (const item of response.output) {
      if (item.type === "tool_search_call" && item.execution === "client") {
        called = true;
        const found = await forModel(async () => {
          const { query, limit } = parseSearchArguments(item.arguments);
          return (await deferred.search(handle, query, limit)).found;
        });
        const loaded = typeof found === "string" ? [] : found; // the output has no text
        input.push(deferred.openAiToolSearchOutput(item.call_id ?? "", loaded));
      } else if (item.type === "function_call") {
        called = true;
        const { namespace, name, call_id } = item;
        const output = await forModel(() => {
          const tool =
            namespace === undefined ? name : deferred.toolOf(namespace, name);
          return executor.execute(handle, tool, item.arguments);
        });
        input.push({ type: "function_call_output", call_id, output });
      }
    }
    if (!called) return response.output_text;
  }
}

/** Anthropic with client search (search_tools), until the model answers. */
export async function anthropicLoop(
  { deferred, executor, handle }: LoopContext,
  anthropic: Anthropic,
  question: string,
): Promise<MessageParam["content"]> {
  const messages: MessageParam[] = [{ role: "user", content: question }];
  const tools = await deferred.anthropic(handle, { search: "client" }); // the same every turn
  for (;;) {
    const response = await anthropic.messages.create({
      model: "claude-sonnet-5",
      max_tokens: 4096,
      messages,
      tools,
    });
    messages.push({ role: "assistant", content: response.content });
    const uses = response.content.filter((block) => block.type === "tool_use");
    if (uses.length === 0) return response.content;
    const results: ToolResultBlockParam[] = [];
    for (const use of uses) {
      const content = await forModel(async () => {
        if (use.name !== "search_tools")
          return executor.execute(handle, use.name, JSON.stringify(use.input));
        const { query, limit } = parseSearchArguments(use.input);
        return deferred.anthropicToolReferences(
          (await deferred.search(handle, query, limit)).found,
        );
      });
      results.push({ type: "tool_result", tool_use_id: use.id, content });
    }
    messages.push({ role: "user", content: results });
  }
}

/** OpenAI Chat Completions with search_tools, until the model answers. */
export async function openAiChatLoop(
  { deferred, executor, handle }: LoopContext,
  openai: OpenAI,
  question: string,
): Promise<string | null> {
  const messages: ChatCompletionMessageParam[] = [
    { role: "user", content: question },
  ];
  for (;;) {
    const tools = await deferred.openAiChat(handle); // always-loaded, search_tools, then the loaded ones
    const completion = await openai.chat.completions.create({
      model: "gpt-5.4",
      messages,
      tools,
    });
    const message = completion.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content;
    for (const call of message.tool_calls) {
      if (call.type !== "function") continue;
      const { name, arguments: args } = call.function;
      const content = await forModel(async () => {
        if (name !== "search_tools")
          return executor.execute(handle, name, args);
        const { query, limit } = parseSearchArguments(args);
        return deferred.searchToolsResult(
          (await deferred.search(handle, query, limit)).found,
        );
      });
      messages.push({ role: "tool", tool_call_id: call.id, content });
    }
  }
}
