// Scenario 5: server errors reach the caller as ToolErrors with the gRPC
// code and details; and bad input from the model (not JSON, wrong shape,
// unknown tool, two oneof members) is refused before any request is sent.
import { ToolError } from "@protoc-gen-ai-tools/runtime";
import { Code, ConnectError } from "@connectrpc/connect";
import { expect, it } from "vitest";
import {
  FieldViolationSchema,
  ResourceInfoSchema,
} from "../src/gen/linkhub/v1/control_pb.js";
import { CreateStepRequestSchema } from "../src/gen/linkhub/v1/workflows_pb.js";
import { GetLinkRequestSchema } from "../src/gen/linkhub/v1/links_pb.js";
import type { DescMessage } from "@bufbuild/protobuf";
import {
  Model,
  createLinks,
  expectRecordedFrom,
  linkIds,
  newUUID,
  recorded,
  resetServer,
  toolError,
  useServer,
  want,
} from "./support.js";

const env = useServer();

/** The details of a server error, decoded (as ConnectError decodes them). */
function details(err: ToolError, schema: DescMessage) {
  const ce = new ConnectError(err.message, err.code);
  ce.details = [...err.details];
  return ce.findDetails(schema);
}

it("server errors keep their code, an aliased message and raw details", async () => {
  await resetServer(env);
  const ws = newUUID();
  const m = new Model(env, ws);
  await createLinks(m, ws, 2);
  const ids = await linkIds(env, ws);

  await m.call("links_delete", `{"id":"link-2"}`);
  const from = (await recorded(env)).length;
  let err = await toolError(m.executor.execute("links_get", `{"id":"link-2"}`));
  expect([err.reason, err.code]).toEqual(["server-error", Code.NotFound]);
  // The model reads the alias, not the UUID the server wrote.
  expect(err.message).toContain(`link "link-2" not found`);
  expect(err.message).not.toContain(ids[1]!);
  expect(details(err, ResourceInfoSchema)).toMatchObject([
    { resourceType: "link", resourceId: ids[1] },
  ]);
  err = await toolError(
    m.executor.execute(
      "steps_create",
      `{"link_id":"link-2","send_email":null,"open_link":null,"wait":{"duration":"60s"}}`,
    ),
  );
  expect(err.code).toBe(Code.NotFound);
  await expectRecordedFrom(env, from, [
    want("linkhub.v1.LinkService/GetLink", GetLinkRequestSchema, {
      id: ids[1]!,
    }),
    want("linkhub.v1.WorkflowService/CreateStep", CreateStepRequestSchema, {
      linkId: ids[1]!,
      action: { case: "wait", value: { duration: { seconds: 60n } } },
    }),
  ]);

  err = await toolError(
    m.executor.execute(
      "links_create",
      JSON.stringify({
        workspace_id: ws,
        target_url: "ftp://example.com/file",
        slug: null,
        page_theme_id: "",
        labels: [],
        title: null,
        expire_after: null,
      }),
    ),
  );
  let msg = `target_url "ftp://example.com/file" is not an absolute http(s) URL`;
  expect([err.reason, err.code]).toEqual([
    "server-error",
    Code.InvalidArgument,
  ]);
  expect(err.message).toContain(msg);
  expect(details(err, FieldViolationSchema)).toMatchObject([
    { field: "target_url", description: msg },
  ]);
  err = await toolError(
    m.executor.execute(
      "links_update",
      `{"id":"link-1","target_url":"not a url","update_mask":"targetUrl"}`,
    ),
  );
  msg = `target_url "not a url" is not an absolute http(s) URL`;
  expect(err.code).toBe(Code.InvalidArgument);
  expect(details(err, FieldViolationSchema)).toMatchObject([
    { field: "target_url", description: msg },
  ]);

  err = await toolError(
    m.executor.execute(
      "steps_create",
      `{"link_id":"link-1","send_email":null,"open_link":null,"wait":null}`,
    ),
  );
  expect([err.reason, err.code]).toEqual([
    "server-error",
    Code.InvalidArgument,
  ]);
  expect(err.details).toHaveLength(1);
});

it("bad input is refused with a clear ToolError and nothing is sent", async () => {
  await resetServer(env);
  const ws = newUUID();
  const m = new Model(env, ws);
  await createLinks(m, ws, 1);
  const before = (await recorded(env)).length;
  const cases: [string, string, string, RegExp][] = [
    [
      "links_get",
      `{"id": "link-1"`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- .*JSON/,
    ],
    [
      "links_get",
      `id=link-1`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- .*JSON/,
    ],
    [
      "links_get",
      ``,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- /,
    ],
    [
      "links_get",
      `["link-1"]`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- expected a JSON object/,
    ],
    [
      "links_get",
      `"link-1"`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- expected a JSON object/,
    ],
    [
      "links_get",
      `null`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- /,
    ],
    [
      "links_get",
      `{"id":{"nested":"link-1"}}`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- .*id/,
    ],
    [
      "links_create",
      `{"workspace_id":42,"target_url":"https://example.com","page_theme_id":"","labels":[]}`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- .*workspace/i,
    ],
    [
      "links_update",
      `{"id":"link-1","title":["a"],"update_mask":"title"}`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- .*title/,
    ],
    [
      "links_create",
      `{"workspace_id":"w","target_url":"https://example.com","page_theme_id":"","labels":"x"}`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- .*labels/,
    ],
    [
      "steps_create",
      `{"link_id":"link-1","send_email":{"to":"a@example.com","subject":"s"},"open_link":{"link_id":"link-1"},"wait":null}`,
      "invalid-arguments",
      /^invalid arguments, nothing was sent:\n- "open_link": "send_email" and "open_link" are members of oneof "action": set only one$/,
    ],
    [
      "links_frobnicate",
      `{}`,
      "unknown-tool",
      /^no auto-executor for tool: links_frobnicate$/,
    ],
    ["", `{}`, "unknown-tool", /^no auto-executor for tool: $/],
    [
      "__proto__",
      `{}`,
      "unknown-tool",
      /^no auto-executor for tool: __proto__$/,
    ],
  ];
  for (const [tool, args, reason, msg] of cases) {
    const err = await toolError(
      m.executor.execute(tool, args),
      `${tool} ${args}`,
    );
    expect(err.reason, `${tool} ${args}: ${err.message}`).toBe(reason);
    expect(err.message, `${tool} ${args}`).toMatch(msg);
    expect(err.code).toBe(
      reason === "unknown-tool" ? Code.NotFound : Code.InvalidArgument,
    );
  }
  expect(m.executor.canExecute("links_frobnicate")).toBe(false);
  expect((await recorded(env)).length, "a bad call reached the server").toBe(
    before,
  );
});
