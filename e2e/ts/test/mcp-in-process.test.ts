// The generator's mcp case (src/gen/mcpdemo, mcp=true) served in process
// with register<Service>Handler to the official client: tools that only MCP
// executes (no auto_execute: each asks the approve hook first) register
// their ids too, a server stream is
// wrapped as {"messages": …}, a Timestamp response as {"value": …}; every
// result valid against its outputSchema (ajv).
import { randomUUID } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import {
  createMcpToolServer,
  serveStdio,
} from "@protoc-gen-ai-tools/runtime/mcp";
import { expect, it } from "vitest";
import {
  registerNoteServiceHandler,
  registerTagServiceHandler,
} from "../src/gen/mcpdemo/ai_tools_mcp.gen.js";
import {
  NoteSchema,
  TagSchema,
  type Note,
} from "../src/gen/mcpdemo/mcpdemo/v1/notes_pb.js";
import { callOk } from "./mcp-support.js";

it("mcpdemo in process: every tool registers its ids, results wrapped and valid", async () => {
  const notes = new Map<string, Note>();
  const newNote = (text: string) => {
    const n = create(NoteSchema, { id: randomUUID(), text, views: 7n });
    notes.set(n.id, n);
    return n;
  };
  const tagIds = [randomUUID(), randomUUID()];
  const approved: string[] = [];
  const server = createMcpToolServer({
    approve: (r) => {
      approved.push(r.tool);
      return Promise.resolve(true);
    },
  });
  registerNoteServiceHandler(server, {
    createNote: (req) => newNote(req.text),
    getNote: (req) => notes.get(req.noteId)!,
    putNote: (req) => {
      notes.set(req.id, req);
      return req;
    },
    // eslint-disable-next-line @typescript-eslint/require-await -- Connect's server-streaming handler is an async generator; this one has nothing to await
    async *watchNotes(req) {
      for (let i = 0; i < req.count; i++) yield newNote(`watched ${i}`);
    },
  });
  registerTagServiceHandler(server, {
    listTags: () => ({
      tags: tagIds.map((id, i) => create(TagSchema, { id, name: `tag ${i}` })),
    }),
    now: () => timestampNow(),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(server, { transport: serverSide });
  const client = new Client(
    { name: "e2e-ts", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(clientSide);

  // tags_list and notes_watch have no auto_execute: approved, MCP
  // registers them.
  const tags = await callOk(client, "tags_list", {});
  expect(tags.structuredContent).toEqual({
    tags: [
      { id: "tag-1", name: "tag 0" },
      { id: "tag-2", name: "tag 1" },
    ],
  });
  const watched = await callOk(client, "notes_watch", { count: 2 });
  expect(approved).toEqual(["tags_list", "notes_watch"]);
  expect(watched.structuredContent).toEqual({
    messages: [
      { id: "note-1", text: "watched 0", views: "7" },
      { id: "note-2", text: "watched 1", views: "7" },
    ],
  });
  const got = await callOk(client, "notes_get", { note_id: "note-2" });
  expect(got.structuredContent).toEqual({
    id: "note-2",
    text: "watched 1",
    views: "7",
  });
  const put = await callOk(client, "notes_put", {
    id: "note-1",
    text: "changed",
    views: "1",
  });
  expect(put.structuredContent).toEqual({
    id: "note-1",
    text: "changed",
    views: "1",
  });
  expect([...notes.values()].map((n) => n.text)).toContain("changed");
  const created = await callOk(client, "notes_create", { text: "new" });
  expect(created.structuredContent).toMatchObject({ id: "note-3" });
  const now = await callOk(client, "tags_now", {});
  expect(Object.keys(now.structuredContent!)).toEqual(["value"]);
  expect(now.structuredContent!["value"]).toMatch(/^\d{4}-\d\d-\d\dT/);
  await client.close();
});
