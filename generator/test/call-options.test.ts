import { describe, expect, it } from "vitest";
import { GeneratorError } from "../src/errors.js";
import { goDuration } from "../src/targets/go/go-call-tables.js";
import { generate } from "../src/plugin.js";
import { pyFloat } from "../src/targets/py/build-py-view.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";
import { buildRequest, goldenCases } from "./support/request.js";

// What the generated code carries for checking a call (CONTRACT30 G, J):
// the annotation's timeout, the validate flag and its library's import,
// and the options lenient_arguments, json_names and validate.

const header = `syntax = "proto3";
package t.v1;
import "ai/tools/v1/annotations.proto";
import "buf/validate/validate.proto";
option go_package = "example.com/t/v1;tv1";
`;

const protos = {
  "t/v1/calls.proto": `${header}
message Plain { string id = 1; }
message Checked { Inner inner = 1; }
message Inner { string email = 1 [(buf.validate.field).string.email = true]; }
service Calls {
  rpc Slow(Plain) returns (Plain) { option (ai.tools.v1.rpc_tool) = { name: "slow" auto_execute: true timeout: { seconds: 120 } }; }
  rpc Quick(Plain) returns (Plain) { option (ai.tools.v1.rpc_tool) = { name: "quick" auto_execute: true timeout: { nanos: 1500000 } }; }
  rpc Check(Checked) returns (Plain) { option (ai.tools.v1.rpc_tool) = { name: "check" auto_execute: true }; }
  rpc McpOnly(Checked) returns (Plain) { option (ai.tools.v1.rpc_tool) = { name: "mcp_only" timeout: { seconds: 5 } }; }
}
`,
};

const plainProtos = {
  "t/v1/plain.proto": `${header}
message Plain { string id = 1; }
service Calls {
  rpc Get(Plain) returns (Plain) { option (ai.tools.v1.rpc_tool) = { name: "get" auto_execute: true }; }
}
`,
};

function files(
  sources: Record<string, string>,
  parameter: string,
): Map<string, string> {
  const out = generate(compileRequest(sources, parameter), () => {});
  return new Map(out.map((f) => [f.name, f.content]));
}

describe("the model", () => {
  const model = modelOf(compileRequest(protos));

  it("reads the timeout annotation (field 5) in nanoseconds", () => {
    expect(toolOf(model, "slow").timeoutNanos).toBe(120_000_000_000n);
    expect(toolOf(model, "quick").timeoutNanos).toBe(1_500_000n);
    expect(toolOf(model, "check").timeoutNanos).toBeUndefined();
  });

  it("flags a request with buf.validate rules, however deep", () => {
    expect(toolOf(model, "check").validate).toBe(true);
    expect(toolOf(model, "slow").validate).toBe(false);
  });
});

describe("timeouts the generator refuses", () => {
  it.each([
    ["{ seconds: 0 }", "timeout 0s, not more than zero"],
    ["{ seconds: -3 }", "timeout -3s, not more than zero"],
    ["{ seconds: 86401 }", "timeout 86401s, over one day"],
    [
      "{ seconds: 1 nanos: -5 }",
      "timeout { seconds: 1, nanos: -5 }, which is no valid google.protobuf.Duration",
    ],
  ])("%s", (timeout, what) => {
    const sources = {
      "t/v1/bad.proto": `${header}
message Plain { string id = 1; }
service Calls {
  rpc Get(Plain) returns (Plain) { option (ai.tools.v1.rpc_tool) = { name: "get" timeout: ${timeout} }; }
}
`,
    };
    let error: unknown;
    try {
      generate(compileRequest(sources, "target=ts"), () => {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GeneratorError);
    const message = (error as Error).message;
    expect(message).toContain("t/v1/bad.proto");
    expect(message).toContain("Calls.Get");
    expect(message).toContain(`tool "get" has ${what}`);
    expect(message).toContain(
      "set (ai.tools.v1.rpc_tool).timeout to more than zero and at most one day, e.g. timeout: { seconds: 30 }",
    );
  });

  it("takes exactly one day", () => {
    const sources = {
      "t/v1/day.proto": `${header}
message Plain { string id = 1; }
service Calls {
  rpc Get(Plain) returns (Plain) { option (ai.tools.v1.rpc_tool) = { name: "get" auto_execute: true timeout: { seconds: 86400 } }; }
}
`,
    };
    expect(files(sources, "target=go").get("ai_tools.gen.go")).toContain(
      `"get": 24 * time.Hour,`,
    );
  });
});

describe("TypeScript", () => {
  it("writes the table, timeoutMs, validate and the validator", () => {
    const out = files(protos, "target=ts,mcp=true");
    const main = out.get("ai_tools.gen.ts")!;
    expect(main).toContain(
      'import { createValidator } from "@bufbuild/protovalidate";',
    );
    expect(main).toContain("timeoutMs: 120000,");
    expect(main).toContain("timeoutMs: 1.5,");
    expect(main).toContain("validate: true,");
    expect(main).toContain(`arguments: '{"nodes":[{"fields":{"id":{}}}]}',`);
    // The function: one validator per process, shared by every executor.
    expect(main).toContain("validator: createValidator,");
    expect(main).toContain("maxResultBytes: options.maxResultBytes,");
    expect(main).not.toContain("lenientArguments");
    const mcp = out.get("ai_tools_mcp.gen.ts")!;
    expect(mcp).toContain(
      'import { createValidator } from "@bufbuild/protovalidate";',
    );
    expect(mcp).toContain("timeoutMs: 5000,");
    expect(mcp).toContain("validator: createValidator(),");
  });

  it("imports no validator without rules; passes the options", () => {
    const main = files(
      plainProtos,
      "target=ts,lenient_arguments=true,json_names=true",
    ).get("ai_tools.gen.ts")!;
    expect(main).not.toContain("protovalidate");
    expect(main).not.toContain("validate");
    expect(main).toContain("lenientArguments: true,");
    expect(main).toContain("jsonNames: true,");
  });

  it("refuses validate=true, a Go option", () => {
    expect(() => files(plainProtos, "target=ts,validate=true")).toThrow(
      'option "validate" applies to target=go, not target=ts',
    );
  });
});

describe("Python", () => {
  it("writes the table, timeout, validate and the validator", () => {
    const out = files(protos, "target=py,mcp=true");
    const main = out.get("ai_tools_gen.py")!;
    expect(main).toContain("\nimport protovalidate\n");
    expect(main).toContain("timeout=120.0,");
    expect(main).toContain("timeout=0.0015,");
    expect(main).toContain("validate=True,");
    expect(main).toContain(`arguments='{"nodes":[{"fields":{"id":{}}}]}',`);
    expect(main).toContain("validator=protovalidate,");
    expect(main).toContain("max_result_bytes=max_result_bytes,");
    // The MCP server makes its validator itself, on first need, and takes
    // lenient_arguments as its own option (McpToolServer).
    const mcp = out.get("ai_tools_mcp_gen.py")!;
    expect(mcp).not.toContain("protovalidate");
    expect(mcp).toContain("timeout=5.0,");
    expect(mcp).toContain("validate=True,");
  });

  it("imports no validator without rules; passes the options", () => {
    const main = files(
      plainProtos,
      "target=py,lenient_arguments=true,json_names=true",
    ).get("ai_tools_gen.py")!;
    expect(main).not.toContain("protovalidate");
    expect(main).toContain("lenient_arguments=True,");
    expect(main).toContain("json_names=True,");
  });

  it("writes floats as repr does", () => {
    expect([30, 0.5, 1.5, 0.0015, 1e-5, 1.5e-7, 1e-9].map(pyFloat)).toEqual([
      "30.0",
      "0.5",
      "1.5",
      "0.0015",
      "1e-05",
      "1.5e-07",
      "1e-09",
    ]);
  });
});

/** The import paths of a Go file's import block. */
function goImports(source: string): string[] {
  const block = /^import \(\n([\s\S]*?)\n\)/m.exec(source)?.[1] ?? "";
  const single = /^import ("[^"]+")$/m.exec(source)?.[1];
  return [...(single ?? block).matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

describe("Go", () => {
  it("writes the tables, constants and validator of the drop-in file", () => {
    const out = files(protos, "target=go,mcp=true");
    const main = out.get("ai_tools.gen.go")!;
    expect(main).toMatch(/\t"slow": +2 \* time\.Minute,/);
    expect(main).toMatch(/\t"quick": +1500 \* time\.Microsecond,/);
    expect(main).toContain(
      `"quick": "{\\"nodes\\":[{\\"fields\\":{\\"id\\":{}}}]}",`,
    );
    expect(main).toContain("\tlenientArguments = false\n");
    expect(main).toContain("\tjsonNames        = false\n");
    expect(main).toContain("var validateRequest func(proto.Message) error");
    expect(goImports(main)).not.toContain("buf.build/go/protovalidate");
    // The MCP file adds the MCP-only tool and sets up validation.
    const mcp = out.get("ai_tools_mcp.gen.go")!;
    expect(mcp).toContain(`\ttoolTimeouts["mcp_only"] = 5 * time.Second\n`);
    expect(mcp).toContain(`\ttoolArguments["mcp_only"] = "{`);
    expect(mcp).toContain(
      "\tvalidateRequest = func(m proto.Message) error { return protovalidate.Validate(m) }\n",
    );
    expect(goImports(mcp)).toContain("buf.build/go/protovalidate");
  });

  it("sets up validation in the drop-in file with validate=true", () => {
    const out = files(
      protos,
      "target=go,mcp=true,validate=true,lenient_arguments=true,json_names=true",
    );
    const main = out.get("ai_tools.gen.go")!;
    expect(goImports(main)).toContain("buf.build/go/protovalidate");
    expect(main).toContain(
      "var validateRequest = func(m proto.Message) error { return protovalidate.Validate(m) }",
    );
    expect(main).toContain("\tlenientArguments = true\n");
    expect(main).toContain("\tjsonNames        = true\n");
    // Set up once, in the drop-in file.
    const mcp = out.get("ai_tools_mcp.gen.go")!;
    expect(mcp).not.toContain("validateRequest =");
    expect(goImports(mcp)).not.toContain("buf.build/go/protovalidate");
    // Without rules, validate=true adds nothing.
    const plain = files(plainProtos, "target=go,validate=true");
    expect(goImports(plain.get("ai_tools.gen.go")!)).not.toContain(
      "buf.build/go/protovalidate",
    );
  });

  it("writes durations in their largest whole unit", () => {
    expect(
      [
        3_600_000_000_000n,
        90_000_000_000n,
        1_000_000_000n,
        1_500_000_000n,
        1_000n,
        7n,
      ].map(goDuration),
    ).toEqual([
      "time.Hour",
      "90 * time.Second",
      "time.Second",
      "1500 * time.Millisecond",
      "time.Microsecond",
      "7 * time.Nanosecond",
    ]);
  });

  // The drop-in promise (docs/compat.md): by default ai_tools.gen.go
  // imports only the standard library, gRPC, protobuf and the protos' own
  // Go packages, for every golden case.
  it.each(goldenCases())(
    "ai_tools.gen.go of case %s imports only std, grpc and protobuf",
    async (name) => {
      const request = await buildRequest(name);
      const out = generate(request, () => {});
      const main = out.find((f) => f.name === "ai_tools.gen.go");
      if (main === undefined) {
        return; // a case without tools (unannotated)
      }
      const own = new Set(
        request.protoFile.map((f) => f.options?.goPackage?.split(";")[0]),
      );
      const others = goImports(main.content).filter(
        (path) =>
          path.split("/")[0]!.includes(".") &&
          !path.startsWith("google.golang.org/grpc") &&
          !path.startsWith("google.golang.org/protobuf/") &&
          !path.startsWith("example.com/aitools/testgo/pb/") &&
          !own.has(path),
      );
      expect(others).toEqual([]);
    },
  );
});
