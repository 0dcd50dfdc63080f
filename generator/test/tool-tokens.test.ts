import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import {
  anthropicToolList,
  countO200k,
  openAiToolList,
  toolListTokens,
} from "../scripts/bench/tool-tokens.mjs";

// The token counter of scripts/tokens.mjs (`pnpm bench`). The fixed strings
// and their o200k_base token ids are published examples, checked by hand
// once: "tiktoken is great!" from OpenAI's cookbook notebook "How to count
// tokens with tiktoken" (o200k_base), and the gpt-4o example of
// tutorialexample.com's "Python tiktoken tutorial". A tokenizer upgrade that
// changes them fails here.

describe("o200k_base token counter", () => {
  it("gives the published token ids and counts", () => {
    expect(encode("tiktoken is great!")).toEqual([
      83, 8251, 2488, 382, 2212, 0,
    ]);
    expect(countO200k("tiktoken is great!")).toBe(6);
    expect(encode("this is a test example, tutorialexample.com")).toEqual([
      851, 382, 261, 1746, 4994, 11, 24000, 18582, 1136,
    ]);
    expect(countO200k("this is a test example, tutorialexample.com")).toBe(9);
  });

  it("counts special-token text as ordinary text", () => {
    // "<|endoftext|>" in a description must not throw or become one token.
    expect(countO200k("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("writes the provider tool lists without whitespace", () => {
    const tools = [
      {
        name: "crm_contact_get",
        description: "Fetches one contact.",
        strict: true,
        schemaJson:
          '{"additionalProperties":false,"properties":{"id":{"type":"string"}},"required":["id"],"type":"object"}',
      },
    ];
    expect(openAiToolList(tools)).toBe(
      '[{"type":"function","function":{"name":"crm_contact_get","description":"Fetches one contact.","parameters":{"additionalProperties":false,"properties":{"id":{"type":"string"}},"required":["id"],"type":"object"},"strict":true}}]',
    );
    expect(anthropicToolList(tools)).toBe(
      '[{"name":"crm_contact_get","description":"Fetches one contact.","input_schema":{"additionalProperties":false,"properties":{"id":{"type":"string"}},"required":["id"],"type":"object"}}]',
    );
    expect(toolListTokens(tools)).toEqual({
      openai: countO200k(openAiToolList(tools)),
      anthropic: countO200k(anthropicToolList(tools)),
    });
  });
});
