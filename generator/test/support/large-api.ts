/**
 * Test helper: a synthetic proto set in the shape of a large real API
 * (Temporal's: `temporal.api.workflowservice.v1`, its messages in sibling
 * packages `temporal.api.common.v1`, `…enums.v1`, `…workflow.v1`, …, two
 * services whose request/response files share the name
 * `request_response.proto`). Temporal's protos are on no package registry,
 * so this set is written here, deterministically.
 *
 * `largeApiProtos(goModule)` returns the files by name; every file has a
 * go_package under `goModule`. The WorkflowService has `workflowRpcs` RPCs,
 * every one annotated: most with auto_execute, some server-streaming, some
 * taking google.protobuf.Empty or answering with a message of another
 * package, with alias prefixes and well-known types throughout.
 */

import { nightly } from "./nightly.js";

/** The proto package root of the set. */
const root = "temporal/api";

/**
 * How many RPCs WorkflowService declares: 120 in the nightly run, 30 (each
 * verb on five nouns: every kind of RPC the set has) in `.ci/run`'s smoke.
 */
export const workflowRpcs = nightly ? 120 : 30;

/** How many RPCs OperatorService declares. */
export const operatorRpcs = 6;

const nouns = [
  "WorkflowExecution",
  "Schedule",
  "Namespace",
  "TaskQueue",
  "Batch",
  "WorkerDeployment",
  "ActivityExecution",
  "SearchAttribute",
  "Nexus",
  "WorkflowRule",
  "WorkerVersioning",
  "Callback",
  "Update",
  "Signal",
  "Query",
  "Snapshot",
  "History",
  "Memo",
  "Link",
  "Timer",
];
const verbs = ["Describe", "List", "Start", "Update", "Delete", "Watch"];

/** The name and options of the i-th WorkflowService RPC. */
interface Rpc {
  readonly name: string;
  readonly tool: string;
  readonly autoExecute: boolean;
  readonly serverStreaming: boolean;
  /** The request type's full name (with a leading dot when not local). */
  readonly request: string;
  readonly response: string;
}

function snake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

function workflowRpc(i: number): Rpc {
  const verb = verbs[i % verbs.length]!;
  const noun = nouns[Math.floor(i / verbs.length) % nouns.length]!;
  const name = `${verb}${noun}`;
  const streaming = verb === "Watch";
  return {
    name,
    tool: snake(name),
    // One in seven is a plain tool, without executor.
    autoExecute: i % 7 !== 3,
    serverStreaming: streaming,
    // Deletes take the common WorkflowExecution, a message of another
    // package; one in eleven takes Empty.
    request:
      i % 11 === 5
        ? ".google.protobuf.Empty"
        : verb === "Delete" && i % 4 === 0
          ? ".temporal.api.common.v1.WorkflowExecution"
          : `${name}Request`,
    response:
      verb === "Describe" && i % 3 === 0
        ? ".temporal.api.workflow.v1.WorkflowExecutionInfo"
        : i % 13 === 8
          ? ".google.protobuf.Empty"
          : `${name}Response`,
  };
}

function header(pkg: string, goModule: string, imports: string[]): string {
  const dir = pkg.replace(/\./g, "/");
  const goName = pkg.split(".").at(-2)!;
  return [
    'syntax = "proto3";',
    "",
    `package ${pkg};`,
    "",
    ...imports.map((i) => `import "${i}";`),
    "",
    `option go_package = "${goModule}/${dir};${goName}";`,
    "",
  ].join("\n");
}

const tf = (opts: string) => `[(ai.tools.v1.tool_field) = { ${opts} }]`;

/** The message pair of a WorkflowService RPC, in request_response.proto. */
function messages(rpc: Rpc, i: number): string {
  const out: string[] = [];
  if (!rpc.request.startsWith(".")) {
    out.push(
      `// ${rpc.name}Request asks for ${rpc.name}.`,
      `message ${rpc.name}Request {`,
      `  // The namespace the call runs in.`,
      `  string namespace = 1 ${tf('alias_prefix: "ns" usage_notes: "A namespace alias, such as ns-1."')};`,
      `  temporal.api.common.v1.WorkflowExecution execution = 2;`,
      `  string identity = 3;`,
      `  string request_id = 4 ${tf("skip: true")};`,
      `  int32 maximum_page_size = 5;`,
      `  bytes next_page_token = 6;`,
      `  google.protobuf.Timestamp start_time_filter = 7;`,
      `  google.protobuf.Duration execution_timeout = 8;`,
      `  temporal.api.enums.v1.WorkflowExecutionStatus status = 9;`,
      `  temporal.api.common.v1.Payloads input = 10;`,
      `  map<string, string> labels = 11;`,
      ...(i % 2 === 0
        ? [
            `  google.protobuf.FieldMask update_mask = 12;`,
            `  google.protobuf.Int64Value first_event_id = 13;`,
            `  oneof target {`,
            `    string schedule_id = 14 ${tf('alias_prefix: "sched"')};`,
            `    temporal.api.taskqueue.v1.TaskQueue task_queue = 15;`,
            `  }`,
          ]
        : [
            `  google.protobuf.Struct details = 12;`,
            `  repeated string run_ids = 13 ${tf('alias_prefix: "run"')};`,
          ]),
      `}`,
      "",
    );
  }
  if (!rpc.response.startsWith(".")) {
    out.push(
      `// ${rpc.name}Response answers ${rpc.name}.`,
      `message ${rpc.name}Response {`,
      `  string id = 1;`,
      `  repeated temporal.api.workflow.v1.WorkflowExecutionInfo executions = 2;`,
      `  temporal.api.namespace.v1.NamespaceInfo namespace_info = 3;`,
      `  google.protobuf.Timestamp create_time = 4 [(google.api.field_behavior) = OUTPUT_ONLY];`,
      `  bytes next_page_token = 5;`,
      `}`,
      "",
    );
  }
  return out.join("\n");
}

function method(rpc: Rpc, description: string): string {
  const ret = rpc.serverStreaming ? `stream ${rpc.response}` : rpc.response;
  return [
    `  // ${rpc.name} is ${description}.`,
    `  rpc ${rpc.name}(${rpc.request}) returns (${ret}) {`,
    `    option (ai.tools.v1.rpc_tool) = {`,
    `      name: "${rpc.tool}"`,
    `      description: "${rpc.name}: ${description}."`,
    `      strict: ${rpc.tool.length % 2 === 0}`,
    `      auto_execute: ${rpc.autoExecute}`,
    `    };`,
    `  }`,
  ].join("\n");
}

const wkt = [
  "google/protobuf/duration.proto",
  "google/protobuf/empty.proto",
  "google/protobuf/field_mask.proto",
  "google/protobuf/struct.proto",
  "google/protobuf/timestamp.proto",
  "google/protobuf/wrappers.proto",
];

/** The proto files of the set, by name, for a Go module path. */
export function largeApiProtos(goModule: string): Record<string, string> {
  const files: Record<string, string> = {};
  const add = (
    pkg: string,
    file: string,
    imports: string[],
    body: string[],
  ) => {
    files[`${pkg.replace(/\./g, "/")}/${file}`] =
      header(pkg, goModule, imports) + body.join("\n") + "\n";
  };
  const p = (name: string) => `${root}/${name}`;

  add(
    "temporal.api.enums.v1",
    "workflow.proto",
    [],
    [
      "// WorkflowExecutionStatus is where a workflow execution stands.",
      "enum WorkflowExecutionStatus {",
      "  WORKFLOW_EXECUTION_STATUS_UNSPECIFIED = 0;",
      "  WORKFLOW_EXECUTION_STATUS_RUNNING = 1;",
      "  WORKFLOW_EXECUTION_STATUS_COMPLETED = 2;",
      "  WORKFLOW_EXECUTION_STATUS_FAILED = 3;",
      "}",
    ],
  );
  add(
    "temporal.api.enums.v1",
    "task_queue.proto",
    [],
    [
      "// TaskQueueKind is the kind of a task queue.",
      "enum TaskQueueKind {",
      "  TASK_QUEUE_KIND_UNSPECIFIED = 0;",
      "  TASK_QUEUE_KIND_NORMAL = 1;",
      "  TASK_QUEUE_KIND_STICKY = 2;",
      "}",
    ],
  );
  add(
    "temporal.api.common.v1",
    "message.proto",
    ["ai/tools/v1/annotations.proto", "google/protobuf/duration.proto"],
    [
      "// WorkflowExecution names one run of a workflow.",
      "message WorkflowExecution {",
      `  string workflow_id = 1 ${tf('alias_prefix: "wf"')};`,
      `  string run_id = 2 ${tf('alias_prefix: "run"')};`,
      "}",
      "",
      "// Payload is one encoded value.",
      "message Payload {",
      "  map<string, bytes> metadata = 1;",
      "  bytes data = 2;",
      "}",
      "",
      "// Payloads are encoded values.",
      "message Payloads {",
      "  repeated Payload payloads = 1;",
      "}",
      "",
      "// RetryPolicy says how a failed activity is retried.",
      "message RetryPolicy {",
      "  google.protobuf.Duration initial_interval = 1;",
      "  double backoff_coefficient = 2;",
      "  int32 maximum_attempts = 3;",
      "}",
    ],
  );
  add(
    "temporal.api.taskqueue.v1",
    "message.proto",
    [p("enums/v1/task_queue.proto")],
    [
      "// TaskQueue names a task queue.",
      "message TaskQueue {",
      "  string name = 1;",
      "  temporal.api.enums.v1.TaskQueueKind kind = 2;",
      "}",
    ],
  );
  add(
    "temporal.api.namespace.v1",
    "message.proto",
    ["ai/tools/v1/annotations.proto"],
    [
      "// NamespaceInfo describes a namespace.",
      "message NamespaceInfo {",
      `  string id = 1 ${tf('alias_prefix: "ns"')};`,
      "  string name = 2;",
      "  string description = 3;",
      "}",
    ],
  );
  add(
    "temporal.api.workflow.v1",
    "message.proto",
    [
      p("common/v1/message.proto"),
      p("enums/v1/workflow.proto"),
      p("taskqueue/v1/message.proto"),
      "google/protobuf/timestamp.proto",
    ],
    [
      "// WorkflowExecutionInfo describes a workflow execution.",
      "message WorkflowExecutionInfo {",
      "  string id = 1;",
      "  temporal.api.common.v1.WorkflowExecution execution = 2;",
      "  google.protobuf.Timestamp start_time = 3;",
      "  temporal.api.enums.v1.WorkflowExecutionStatus status = 4;",
      "  temporal.api.taskqueue.v1.TaskQueue task_queue = 5;",
      "  temporal.api.common.v1.RetryPolicy retry_policy = 6;",
      "}",
    ],
  );

  const rpcs = Array.from({ length: workflowRpcs }, (_, i) => workflowRpc(i));
  const requestResponseImports = [
    "ai/tools/v1/annotations.proto",
    "google/api/field_behavior.proto",
    p("common/v1/message.proto"),
    p("enums/v1/workflow.proto"),
    p("namespace/v1/message.proto"),
    p("taskqueue/v1/message.proto"),
    p("workflow/v1/message.proto"),
    ...wkt.filter((f) => !f.endsWith("empty.proto")),
  ];
  add(
    "temporal.api.workflowservice.v1",
    "request_response.proto",
    requestResponseImports,
    rpcs.map((rpc, i) => messages(rpc, i)),
  );
  add(
    "temporal.api.workflowservice.v1",
    "service.proto",
    [
      "ai/tools/v1/annotations.proto",
      p("common/v1/message.proto"),
      p("workflow/v1/message.proto"),
      p("workflowservice/v1/request_response.proto"),
      "google/protobuf/empty.proto",
    ],
    [
      "// WorkflowService runs and inspects workflows.",
      "service WorkflowService {",
      rpcs.map((rpc) => method(rpc, "a workflow call")).join("\n\n"),
      "}",
    ],
  );

  // A second service whose messages live in a file of the same name, in a
  // sibling package: request_response_pb2 twice.
  const ops = Array.from({ length: operatorRpcs }, (_, i) => {
    const name = `${["Add", "Remove", "List"][i % 3]}${["SearchAttributes", "Cluster"][Math.floor(i / 3)]}`;
    return {
      name,
      tool: `operator_${snake(name)}`,
      autoExecute: true,
      serverStreaming: false,
      request: `${name}Request`,
      response: `${name}Response`,
    } satisfies Rpc;
  });
  add(
    "temporal.api.operatorservice.v1",
    "request_response.proto",
    ["ai/tools/v1/annotations.proto"],
    ops.map((rpc) =>
      [
        `// ${rpc.name}Request asks for ${rpc.name}.`,
        `message ${rpc.name}Request {`,
        `  string namespace = 1 ${tf('alias_prefix: "ns"')};`,
        `  map<string, int32> search_attributes = 2;`,
        `}`,
        "",
        `// ${rpc.name}Response answers ${rpc.name}.`,
        `message ${rpc.name}Response {`,
        `  string id = 1;`,
        `}`,
        "",
      ].join("\n"),
    ),
  );
  add(
    "temporal.api.operatorservice.v1",
    "service.proto",
    [
      "ai/tools/v1/annotations.proto",
      p("operatorservice/v1/request_response.proto"),
    ],
    [
      "// OperatorService administers a cluster.",
      "service OperatorService {",
      ops.map((rpc) => method(rpc, "an operator call")).join("\n\n"),
      "}",
    ],
  );
  return files;
}
