// The conversation every client runs against every server: links created,
// read back and listed through their aliases (the alias of one call
// resolves in the next), then the errors a model meets: an unknown alias,
// bad arguments, a server NOT_FOUND, an unknown tool.
import { expect } from "vitest";
import {
  expectOk,
  expectToolError,
  handleOf,
  uuidRe,
  type Expect,
} from "./checks.js";
import { call, newLinkArgs, type Outcome, type Step } from "./steps.js";

/** Options of a conversation: whose client, how the handle goes back. */
export interface ConversationOptions {
  readonly client?: number;
  readonly handle?: "meta" | "argument";
}

/** The steps of the conversation in workspace ws (9 calls). */
export function conversationSteps(
  ws: string,
  o: ConversationOptions = {},
): Step[] {
  const more = {
    ...(o.client === undefined ? {} : { client: o.client }),
    ...(o.handle === undefined ? {} : { handle: o.handle }),
  };
  return [
    // The first call carries no handle: the server mints one (2026-07-28).
    call("links_create", newLinkArgs(ws, 1), {
      ...(o.client === undefined ? {} : { client: o.client }),
    }),
    call("links_create", newLinkArgs(ws, 2), more),
    call("links_get", { id: "link-2" }, more),
    call("links_list", { workspace_id: ws, page_theme_id: null }, more),
    call("links_get", { id: "link-7" }, more),
    call("links_get", { id: 7 }, more),
    call("links_delete", { id: "link-2" }, more),
    call("links_get", { id: "link-2" }, more),
    call("links_nope", {}, more),
  ];
}

/** The number of steps of conversationSteps. */
export const conversationLength = 9;

/** Check what the conversation's steps answered. */
export function checkConversation(
  outcomes: readonly Outcome[],
  ws: string,
  schemas: Map<string, object>,
  e: Expect,
): void {
  expect(outcomes.length, e.label).toBe(conversationLength);
  const [create1, create2, get, list, unknownAlias, badArgs, del, gone, nope] =
    outcomes;
  const one = expectOk(create1, "links_create", schemas, e) as {
    link: { id: string; workspace_id: string };
  };
  const two = expectOk(create2, "links_create", schemas, e) as typeof one;
  expect([one.link.id, two.link.id], e.label).toEqual(["link-1", "link-2"]);
  expect(one.link.workspace_id, e.label).toBe(ws);
  const got = expectOk(get, "links_get", schemas, e) as {
    link: { id: string; target_url: string };
  };
  expect(got.link, e.label).toMatchObject({
    id: "link-2",
    target_url: "https://example.com/2",
  });
  const listed = expectOk(list, "links_list", schemas, e) as {
    links: { id: string }[];
  };
  expect(listed.links.map((l) => l.id).sort(), e.label).toEqual([
    "link-1",
    "link-2",
  ]);
  expect(expectToolError(unknownAlias, "links_get", e), e.label).toBe(
    'invalid arguments, nothing was sent:\n- "id": unknown alias "link-7"; valid link aliases: link-1, link-2',
  );
  expect(expectToolError(badArgs, "links_get", e), e.label).toMatch(
    /^invalid arguments, nothing was sent:\n- /,
  );
  expectOk(del, "links_delete", schemas, e);
  const text = expectToolError(gone, "links_get", e);
  expect(text, `${e.label}: a UUID in the NOT_FOUND text`).not.toMatch(uuidRe);
  // The executors' text: no JSON form (the details stay with the server's
  // application).
  expect(text, e.label).toBe(
    'rpc error: code = NotFound desc = link "link-2" not found',
  );
  expect(nope?.error?.code, `${e.label}: links_nope`).toBe(-32602);
  if (e.handles) {
    // One conversation: every successful call carried the same handle.
    const first = handleOf(create1);
    for (const o of [create2, get, list, del]) {
      expect(handleOf(o), e.label).toBe(first);
    }
  }
}

/**
 * The conversation, then a links_get of "link-1" from a client or
 * conversation that made no link: its aliases are its own.
 */
export function checkConversationThenStranger(
  outcomes: readonly Outcome[],
  ws: string,
  schemas: Map<string, object>,
  e: Expect,
): void {
  checkConversation(outcomes.slice(0, conversationLength), ws, schemas, e);
  const text = expectToolError(outcomes[conversationLength], "links_get", e);
  expect(text, `${e.label}: another conversation`).toMatch(
    /^invalid arguments, nothing was sent:\n- "id": unknown alias "link-1"/,
  );
}
