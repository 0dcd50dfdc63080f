import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import { beforeAll, describe, expect, it } from "vitest";
import { GeneratorError } from "../src/errors.js";
import type { GeneratorModel } from "../src/model/model.js";
import { toolNamespaces } from "../src/model/tool-namespaces.js";
import { generate } from "../src/plugin.js";
import { goRawQuote } from "../src/targets/go/go-quote.js";
import { pyQuote } from "../src/targets/py/py-quote.js";
import { tsStringExpr } from "../src/targets/ts/ts-doc.js";
import { compileRequest } from "./support/compile.js";
import { modelOf } from "./support/model.js";
import { buildRequest, caseOptions } from "./support/request.js";

// The option tool_search=true (docs/tool-search.md): the tool-search data's
// JSON, the namespaces and their split rule, the same text in every target,
// determinism and the generated names' clashes (real APIs' namespaces:
// tool-search-real-apis.test.ts).

const quiet = (): void => {};

function withParameter(
  request: CodeGeneratorRequest,
  parameter: string,
): CodeGeneratorRequest {
  return { ...request, parameter };
}

function mainFile(request: CodeGeneratorRequest): string {
  return generate(request, quiet)[0]!.content;
}

interface Data {
  version: number;
  namespaces: {
    name: string;
    description: string;
    tools: { tool: string; function: string }[];
  }[];
  index: { version: number; names: string[] };
}

describe("tool_search=true on the golden case toolsearch", () => {
  let request: CodeGeneratorRequest;
  let model: GeneratorModel;
  const options = caseOptions("toolsearch");

  beforeAll(async () => {
    request = await buildRequest("toolsearch", { parameter: "" });
    model = modelOf(withParameter(request, options));
  }, 60_000);

  it("writes version 1 with every key, each tool in one namespace", () => {
    const data = JSON.parse(model.toolSearchJson) as Data;
    expect(Object.keys(data)).toEqual(["index", "namespaces", "version"]);
    expect(data.version).toBe(1);
    expect(data.index.version).toBe(2);
    for (const ns of data.namespaces) {
      expect(Object.keys(ns)).toEqual(["description", "name", "tools"]);
      expect(ns.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      for (const t of ns.tools)
        expect(Object.keys(t)).toEqual(["function", "tool"]);
    }
    const listed = data.namespaces.flatMap((ns) => ns.tools.map((t) => t.tool));
    expect(listed.sort()).toEqual(model.tools.map((t) => t.name));
    expect(data.index.names).toEqual(model.tools.map((t) => t.name));
  });

  it("splits a service of more than 10 tools by resource, not one of one resource", () => {
    const data = JSON.parse(model.toolSearchJson) as Data;
    expect(
      data.namespaces.map((ns) => [
        ns.name,
        ns.tools.map((t) => t.function).join(" "),
      ]),
    ).toEqual([
      ["LibraryService_Health", "CheckHealth"],
      [
        "LibraryService_Books",
        "CreateBook DeleteBook GetBook ListBooks MoveBook UpdateBook",
      ],
      [
        "LibraryService_Shelves",
        "CreateShelf DeleteShelf GetShelf ListShelves MergeShelves",
      ],
      ["NoteService", "AddNote ListNotes"],
      [
        "VolumeService",
        "AggregatedList Attach Delete Detach Get GetIamPolicy Insert List Resize SetLabels Snapshot",
      ],
    ]);
    expect(data.namespaces.map((ns) => ns.description)).toEqual([
      "The library API: shelves of books, e.g. a reading room. Functions on Health: CheckHealth.",
      "The library API: shelves of books, e.g. a reading room. Functions on books: CreateBook, DeleteBook, GetBook, ListBooks, MoveBook, UpdateBook.",
      "The library API: shelves of books, e.g. a reading room. Functions on shelves: CreateShelf, DeleteShelf, GetShelf, ListShelves, MergeShelves.",
      "Tools of the aitools.test.toolsearch.v1.NoteService service. Functions: AddNote, ListNotes.",
      "The Volumes API. Functions: AggregatedList, Attach, Delete, Detach, Get, GetIamPolicy, Insert, List and 3 more.",
    ]);
  });

  it("writes the same JSON text into the TypeScript, Go and Python files", () => {
    const json = model.toolSearchJson;
    const ts = mainFile(withParameter(request, `target=ts,${options}`));
    expect(ts).toContain(
      `export const toolSearch: ToolSearch = defineToolSearch(\n  ${tsStringExpr(json).doc as string},\n);`,
    );
    expect(ts).toMatch(/\n {2}defineToolSearch,\n/);
    expect(ts).toMatch(/\n {2}type ToolSearch,\n/);
    const go = mainFile(withParameter(request, `target=go,${options}`));
    expect(go).toContain(
      `var ToolSearchData = DefineToolSearch(${goRawQuote(json)})`,
    );
    const py = mainFile(withParameter(request, `target=py,${options}`));
    expect(py).toContain(
      `TOOL_SEARCH: ToolSearch = define_tool_search(\n    ${pyQuote(json)}\n)`,
    );
    expect(py).toContain('    "TOOL_SEARCH",\n');
  });

  it("is deterministic: the same text again, whatever the order of the request's files", () => {
    const again = modelOf(
      withParameter(
        { ...request, protoFile: [...request.protoFile].reverse() },
        options,
      ),
    );
    expect(again.toolSearchJson).toBe(model.toolSearchJson);
    const go = withParameter(request, `target=go,${options}`);
    expect(mainFile(go)).toBe(mainFile(go));
  });

  it("changes nothing without the option", () => {
    for (const target of ["ts", "go", "py"]) {
      const off = mainFile(
        withParameter(request, `target=${target},tools=all`),
      );
      expect(off).not.toMatch(/toolSearch|ToolSearch|TOOL_SEARCH|tool_search/);
    }
  });
});

describe("namespace names", () => {
  const notes = (pkg: string): string => `syntax = "proto3";
package ${pkg};
option go_package = "example.com/x/${pkg.replaceAll(".", "/")}";
message Note { string text = 1; }
// Notes of ${pkg}.
service NoteService { rpc AddNote(Note) returns (Note); }
`;

  it("are the services' full names where two packages share a short name", () => {
    const model = modelOf(
      compileRequest(
        {
          "a/v1/notes.proto": notes("a.v1"),
          "b/v1/notes.proto": notes("b.v1"),
        },
        "target=go,tools=all",
      ),
    );
    const data = JSON.parse(model.toolSearchJson) as Data;
    expect(data.namespaces.map((ns) => ns.name)).toEqual([
      "a_v1_NoteService",
      "b_v1_NoteService",
    ]);
    expect(data.namespaces[0]!.description).toBe(
      "Notes of a.v1. Functions: AddNote.",
    );
  });
});

describe("the resource of a method", () => {
  const rpc = (name: string, path: string): string =>
    `  rpc ${name}(Req) returns (Req) { option (google.api.http) = {post: "${path}" body: "*"}; }\n`;
  const api = `syntax = "proto3";
package res.v1;
import "google/api/annotations.proto";
option go_package = "example.com/x/res/v1;resv1";
message Req { string ns = 1; string id = 2; string name = 3; }
service RunService {
${rpc("GetWorkflow", "/v1/namespaces/{ns}/workflows/{id}")}${rpc("ListWorkflows", "/v1/namespaces/{ns}/workflows")}${rpc("SignalWorkflowExecution", "/v1/namespaces/{ns}/workflows/{id}/signal/{name}")}${rpc("UpdateNamespace", "/v1/namespaces/{ns}/update")}${rpc("UpdateWorkflowExecution", "/v1/namespaces/{ns}/workflows/{id}/update/{name}")}${rpc("DescribeNamespace", "/v1/namespaces/{ns}")}${rpc("ListWorkerDeployments", "/v1/namespaces/{ns}/worker-deployments")}${rpc("GetWorkerDeployment", "/v1/namespaces/{ns}/worker-deployments/{name}")}${rpc("ReadTimeSeries", "/v1/{name=namespaces/*/timeSeries/*}:read")}${rpc("ListTimeSeries", "/v1/{name=namespaces/*}/timeSeries")}${rpc("PollTaskQueue", "/v1/namespaces/{ns}/stop")}}
`;

  it("is the collection the method's name holds, else the path's last, in <Service>_<Resource>", () => {
    const model = modelOf(
      compileRequest({ "res/v1/res.proto": api }, "target=go,tools=all"),
    );
    const split = toolNamespaces(model.tools).map((ns) => [
      ns.name,
      ns.tools.map((t) => t.function).join(" "),
    ]);
    expect(split).toEqual([
      [
        "RunService_Namespaces",
        "DescribeNamespace PollTaskQueue UpdateNamespace",
      ],
      [
        "RunService_WorkerDeployments",
        "GetWorkerDeployment ListWorkerDeployments",
      ],
      [
        "RunService_Workflows",
        "GetWorkflow ListWorkflows SignalWorkflowExecution UpdateWorkflowExecution",
      ],
      ["RunService_TimeSeries", "ListTimeSeries ReadTimeSeries"],
    ]);
  });
});

describe("the generated name's clash with a tool", () => {
  const proto = (tool: string): Record<string, string> => ({
    "clash/v1/clash.proto": `syntax = "proto3";
package clash.v1;
import "ai/tools/v1/annotations.proto";
option go_package = "example.com/x/clash/v1;clashv1";
message Req { string q = 1; }
service ClashService {
  rpc Search(Req) returns (Req) {
    option (ai.tools.v1.rpc_tool) = {name: "${tool}", description: "Search."};
  }
}
`,
  });

  it.each([
    ["ts", "tool_search", "the TypeScript constant toolSearch"],
    ["py", "tool_search", "the Python constant TOOL_SEARCH"],
    ["go", "tool_search_data", "the Go identifier ToolSearchData"],
    // Names of the inlined tool-search runtime: reserved with the option.
    ["go", "rank_tools", "the Go identifier RankTools"],
    ["go", "with_search_first", "the Go identifier WithSearchFirst"],
  ])(
    "target=%s refuses tool %s with tool_search=true only",
    (target, tool, what) => {
      const request = compileRequest(proto(tool), `target=${target}`);
      expect(generate(request, quiet)).toHaveLength(1);
      const on = withParameter(request, `target=${target},tool_search=true`);
      expect(() => generate(on, quiet)).toThrow(GeneratorError);
      expect(() => generate(on, quiet)).toThrow(
        `tool name "${tool}" becomes ${what}`,
      );
    },
  );
});

describe("a tool named as the tool search's own tool", () => {
  const proto: Record<string, string> = {
    "own/v1/own.proto": `syntax = "proto3";
package own.v1;
import "ai/tools/v1/annotations.proto";
option go_package = "example.com/x/own/v1;ownv1";
message Req { string q = 1; }
service OwnService {
  rpc Search(Req) returns (Req) {
    option (ai.tools.v1.rpc_tool) = {name: "search_tools", description: "Search."};
  }
  rpc Call(Req) returns (Req) {
    option (ai.tools.v1.rpc_tool) = {name: "call_tool", description: "Call."};
  }
  rpc Find(Req) returns (Req) {
    option (ai.tools.v1.rpc_tool) = {name: "tool_search", description: "Find."};
  }
}
`,
  };
  const fix = (exclude: string) =>
    `; rename the tool with an rpc_tool option or name_prefix, or leave it out with exclude=own.v1.OwnService.${exclude}`;

  it.each(["ts", "go", "py"])(
    "target=%s refuses search_tools and call_tool with tool_search=true only, with the other problems",
    (target) => {
      const request = compileRequest(proto, `target=${target}`);
      expect(generate(request, quiet)).toHaveLength(1);
      const on = withParameter(request, `target=${target},tool_search=true`);
      let message = "";
      try {
        generate(on, quiet);
      } catch (e) {
        expect(e).toBeInstanceOf(GeneratorError);
        message = (e as Error).message;
      }
      const lines = message.split("\n");
      expect(lines).toContain(
        `own/v1/own.proto: OwnService.Call: tool name "call_tool" clashes with the tool search's own tool of that name (tool_search=true: the search-first MCP server's tool that calls a found tool)${fix("Call")}`,
      );
      expect(lines).toContain(
        `own/v1/own.proto: OwnService.Search: tool name "search_tools" clashes with the tool search's own tool of that name (tool_search=true: the search function of deferred requests and of the search-first MCP server)${fix("Search")}`,
      );
      // tool_search's clash with a generated name, in the same error.
      expect(
        lines.some((l) => l.includes('tool name "tool_search" becomes')),
      ).toBe(true);
      expect(lines).toHaveLength(3);
    },
  );

  it("is generated with name_prefix", () => {
    const request = compileRequest(
      proto,
      "target=go,tool_search=true,name_prefix=own_",
    );
    expect(generate(request, quiet)).toHaveLength(1);
  });
});
