import { describe, expect, it } from "vitest";
import type { GeneratorModel } from "../src/model/model.js";
import { generate, protocGenAiTools } from "../src/plugin.js";
import { buildToolSchema } from "../src/schema/build-schema.js";
import { canonicalJson } from "../src/schema/canonical-json.js";
import { compileRequest, type ProtoSources } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

const crm = `syntax = "proto3";
package acme.crm.v1;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/struct.proto";
option go_package = "example.com/acme/crm/v1;crmv1";

message Req { string id = 1; }
message Res { string id = 1; }

service CrmService {
  // buf:lint:ignore RPC_REQUEST_STANDARD_NAME
  // Creates an account.
  //
  // Owners only.
  //
  rpc CreateAccount(Req) returns (Res);
  rpc GetAccount(Req) returns (Res);
  // Streams changes.
  rpc WatchAccounts(Req) returns (stream Res);
  rpc ImportAccounts(stream Req) returns (Res);
  rpc SyncAccounts(stream Req) returns (stream Res);
  // Free-form tags.
  rpc Tag(google.protobuf.Struct) returns (Res);
  // Not the description: the annotation has one.
  rpc DeleteAccount(Req) returns (Res) {
    option (ai.tools.v1.rpc_tool) = {name: "accounts_delete", description: "Delete an account.", strict: false, auto_execute: false};
  }
}

service AuditService {
  rpc ListEvents(Req) returns (Res);
}
`;

const sources: ProtoSources = { "acme/crm/v1/crm.proto": crm };

/** The model of `sources` under the plugin parameter `parameter`. */
function model(parameter: string, protos = sources): GeneratorModel {
  return modelOf(compileRequest(protos, parameter));
}

function names(parameter: string, protos = sources): string[] {
  return model(parameter, protos).tools.map((t) => t.name);
}

/** The plugin's error for `sources` under `parameter` ("" when none). */
function errorOf(parameter: string, protos = sources): string {
  const res = protocGenAiTools.run(compileRequest(protos, parameter));
  if ((res.error ?? "") !== "") {
    expect(res.file).toEqual([]);
  }
  return res.error ?? "";
}

describe("tools=annotated (the default)", () => {
  it("makes only the annotated methods tools", () => {
    expect(names("target=go")).toEqual(["accounts_delete"]);
    expect(names("target=go,tools=annotated")).toEqual(["accounts_delete"]);
  });
});

describe("tools=all", () => {
  const all = model("target=go,tools=all");

  it("makes every unary and server-streaming method a tool, and skips client and bidi streams", () => {
    expect(all.tools.map((t) => [t.name, t.serverStreaming])).toEqual([
      ["accounts_delete", false],
      ["acme_crm_v1_AuditService_ListEvents", false],
      ["acme_crm_v1_CrmService_CreateAccount", false],
      ["acme_crm_v1_CrmService_GetAccount", false],
      ["acme_crm_v1_CrmService_Tag", false],
      ["acme_crm_v1_CrmService_WatchAccounts", true],
    ]);
  });

  it("describes a tool by its annotation, else its cleaned comment, else its names", () => {
    const description = (name: string) => toolOf(all, name).description;
    expect(description("accounts_delete")).toBe("Delete an account.");
    expect(description("acme_crm_v1_CrmService_CreateAccount")).toBe(
      "Creates an account.\n\nOwners only.",
    );
    expect(description("acme_crm_v1_CrmService_WatchAccounts")).toBe(
      "Streams changes.",
    );
    expect(description("acme_crm_v1_CrmService_GetAccount")).toBe(
      "Calls GetAccount of the gRPC service acme.crm.v1.CrmService.",
    );
  });

  it("executes unannotated tools, strict where the schema allows it", () => {
    const flags = (name: string) => {
      const t = toolOf(all, name);
      return [t.strict, t.autoExecute];
    };
    expect(flags("acme_crm_v1_CrmService_CreateAccount")).toEqual([true, true]);
    expect(flags("acme_crm_v1_CrmService_WatchAccounts")).toEqual([true, true]);
    // A Struct request has no strict form: non-strict, not an error.
    expect(flags("acme_crm_v1_CrmService_Tag")).toEqual([false, true]);
    // The annotation's own flags stay.
    expect(flags("accounts_delete")).toEqual([false, false]);
    expect(all.executors.map((t) => t.name)).not.toContain("accounts_delete");
  });

  const levels = Array.from(
    { length: 12 },
    (_, i) =>
      `message L${i} { ${i < 11 ? `L${i + 1} next = 1;` : "string leaf = 1;"} }`,
  ).join("\n");
  const deep = `syntax = "proto3";
package deep.v1;
${levels}
service DeepService { rpc Dig(L0) returns (L0); }
`;

  it("makes a request too deep inline strict, with $defs to fit OpenAI's 10 levels", () => {
    const tool = model("target=go,tools=all", { "deep/v1/deep.proto": deep })
      .tools[0]!;
    expect([tool.name, tool.strict]).toEqual(["deep_v1_DeepService_Dig", true]);
    expect(tool.schemaJson).toContain('"$defs":{"deep.v1.L1":');
  });

  it("writes a derived strict tool's schema in the form asked for", () => {
    // The inline strict schema that made the tool strict is reused only
    // for schema=inline.
    const texts = (["inline", "compact"] as const).map((form) => {
      const tool = model(`target=go,tools=all,schema=${form}`, {
        "deep/v1/deep.proto": deep,
      }).tools[0]!;
      expect(tool.strict).toBe(true);
      const built = buildToolSchema(tool.input, true, tool.method, form);
      expect(tool.schemaJson).toBe(canonicalJson(built.schema));
      expect(tool.oneofGroups).toEqual(built.oneofGroups);
      return tool.schemaJson;
    });
    expect(texts[0]).not.toBe(texts[1]);
  });

  it("takes only the files to generate, not their imports", () => {
    const request = compileRequest(
      {
        ...sources,
        "acme/app/v1/app.proto": `syntax = "proto3";
package acme.app.v1;
import "acme/crm/v1/crm.proto";
service AppService { rpc Touch(acme.crm.v1.Req) returns (acme.crm.v1.Res); }
`,
      },
      "target=go,tools=all",
    );
    request.fileToGenerate = ["acme/app/v1/app.proto"];
    expect(modelOf(request).tools.map((t) => t.name)).toEqual([
      "acme_app_v1_AppService_Touch",
    ]);
  });

  const wrappers = `syntax = "proto3";
package acme.wkt.v1;
option go_package = "example.com/acme/wkt/v1;wktv1";
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/wrappers.proto";
message Res { string id = 1; }
service WktService {
  rpc SetFlag(google.protobuf.BoolValue) returns (Res);
  rpc Ping(google.protobuf.Empty) returns (Res);
  rpc Wait(google.protobuf.Duration) returns (Res);
  rpc Put(google.protobuf.Struct) returns (Res);
  rpc Raw(google.protobuf.Any) returns (Res);
  rpc Values(google.protobuf.ListValue) returns (Res);
}
`;

  it("leaves out the methods whose request is no JSON object, with one warning", () => {
    const warnings: string[] = [];
    const files = generate(
      compileRequest(
        { "acme/wkt/v1/wkt.proto": wrappers },
        "target=go,tools=all",
      ),
      (w) => warnings.push(w),
    );
    expect(files.map((f) => f.name)).toEqual(["ai_tools.gen.go"]);
    const tools = files[0]!.content.match(/^\tName: +"([^"]+)"/gm);
    expect(tools?.map((t) => t.replace(/^\tName: +/, ""))).toEqual([
      '"acme_wkt_v1_WktService_Ping"',
      '"acme_wkt_v1_WktService_Put"',
    ]);
    expect(warnings).toEqual([
      "tools=all leaves out 4 methods whose request type has no JSON object form, which a tool's arguments must have: " +
        "acme.wkt.v1.WktService.SetFlag (google.protobuf.BoolValue), acme.wkt.v1.WktService.Wait (google.protobuf.Duration), " +
        "acme.wkt.v1.WktService.Raw (google.protobuf.Any), acme.wkt.v1.WktService.Values (google.protobuf.ListValue)",
    ]);
    // Named by include=, such a method is no tool either, and says why.
    expect(
      errorOf("target=go,tools=all,include=acme.wkt.v1.WktService.SetFlag", {
        "acme/wkt/v1/wkt.proto": wrappers,
      }),
    ).toBe(
      'option "include=acme.wkt.v1.WktService.SetFlag" selects no tool: the methods it matches are of a request type with no JSON object form, which a tool\'s arguments must have',
    );
  });

  it("names ten left-out methods in its warning, then counts the rest", () => {
    const rpcs = Array.from(
      { length: 12 },
      (_, i) => `  rpc Set${i}(google.protobuf.StringValue) returns (Res);`,
    ).join("\n");
    const warnings: string[] = [];
    generate(
      compileRequest(
        {
          "acme/many/v1/many.proto": `syntax = "proto3";
package acme.many.v1;
option go_package = "example.com/acme/many/v1;manyv1";
import "google/protobuf/wrappers.proto";
message Res { string id = 1; }
service ManyService {
  rpc Get(Res) returns (Res);
${rpcs}
}
`,
        },
        "target=go,tools=all",
      ),
      (w) => warnings.push(w),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^tools=all leaves out 12 methods /);
    expect(warnings[0]).toContain(
      "acme.many.v1.ManyService.Set9 (google.protobuf.StringValue), and 2 more",
    );
    expect(warnings[0]).not.toContain("Set10");
  });

  it("names the streaming methods it leaves out, with one warning", () => {
    const reflection = `syntax = "proto3";
package acme.reflect.v1;
message Req { string id = 1; }
service ReflectionService {
  rpc Info(stream Req) returns (stream Req);
}
`;
    const warned = (protos: ProtoSources, parameter: string): string[] => {
      const warnings: string[] = [];
      generate(compileRequest(protos, parameter), (w) => warnings.push(w));
      return warnings;
    };
    // Alone, nothing is written: the warning says why.
    expect(
      warned({ "acme/reflect/v1/r.proto": reflection }, "target=go,tools=all"),
    ).toEqual([
      "tools=all leaves out 1 client- or bidi-streaming method, which a tool call cannot drive: acme.reflect.v1.ReflectionService.Info",
    ]);
    // Beside other tools, the same.
    expect(
      warned(
        { ...sources, "acme/reflect/v1/r.proto": reflection },
        "target=go,tools=all",
      ),
    ).toEqual([
      "tools=all leaves out 3 client- or bidi-streaming methods, which a tool call cannot drive: acme.crm.v1.CrmService.ImportAccounts, acme.crm.v1.CrmService.SyncAccounts, acme.reflect.v1.ReflectionService.Info",
    ]);
    // tools=annotated takes no unannotated method: nothing is left out.
    expect(
      warned({ "acme/reflect/v1/r.proto": reflection }, "target=go"),
    ).toEqual([]);
  });

  it("keeps refusing an annotated method whose request is no JSON object", () => {
    expect(
      errorOf("target=go", {
        "acme/wkt/v1/wkt.proto": `syntax = "proto3";
package acme.wkt.v1;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/wrappers.proto";
message Res { string id = 1; }
service WktService {
  rpc SetFlag(google.protobuf.BoolValue) returns (Res) {
    option (ai.tools.v1.rpc_tool) = {name: "set_flag", description: "Set the flag."};
  }
}
`,
      }),
    ).toContain(
      "request type google.protobuf.BoolValue has no JSON object form; use a request message with fields",
    );
  });

  it("writes the tools in every target", () => {
    for (const target of ["go", "ts", "py"]) {
      const res = protocGenAiTools.run(
        compileRequest(sources, `target=${target},tools=all`),
      );
      expect(res.error ?? "", target).toBe("");
      expect(res.file[0]!.content).toContain(
        "acme_crm_v1_CrmService_WatchAccounts",
      );
    }
  });
});

describe("include= and exclude=", () => {
  it("select methods by full name or by a prefix ending with *", () => {
    expect(
      names("target=go,tools=all,include=acme.crm.v1.CrmService.Get*"),
    ).toEqual(["acme_crm_v1_CrmService_GetAccount"]);
    expect(
      names(
        "target=go,tools=all,include=acme.crm.v1.AuditService.ListEvents,include=acme.crm.v1.CrmService.Tag",
      ),
    ).toEqual([
      "acme_crm_v1_AuditService_ListEvents",
      "acme_crm_v1_CrmService_Tag",
    ]);
    expect(
      names(
        "target=go,tools=all,include=acme.crm.v1.CrmService.*,exclude=acme.crm.v1.CrmService.DeleteAccount,exclude=acme.crm.v1.CrmService.Create*,exclude=acme.crm.v1.CrmService.Get*",
      ),
    ).toEqual([
      "acme_crm_v1_CrmService_Tag",
      "acme_crm_v1_CrmService_WatchAccounts",
    ]);
  });

  it("apply to annotated tools too", () => {
    expect(
      names("target=go,exclude=acme.crm.v1.CrmService.DeleteAccount"),
    ).toEqual([]);
    expect(
      names("target=go,tools=all,exclude=acme.crm.v1.CrmService.DeleteAccount"),
    ).not.toContain("accounts_delete");
  });

  it("refuse an entry that matches no method, naming it", () => {
    expect(
      errorOf(
        "target=go,tools=all,include=acme.crm.v1.CrmService.Nope,exclude=acme.crm.v1.CrmService,exclude=other.*",
      ),
    ).toBe(
      [
        'option "include=acme.crm.v1.CrmService.Nope" matches no method of the files to generate; use the full name of a method of the files to generate, or a prefix ending with *',
        'option "exclude=acme.crm.v1.CrmService" matches no method of the files to generate; to match every method of the service, write exclude=acme.crm.v1.CrmService.*',
        'option "exclude=other.*" matches no method of the files to generate; use the full name of a method of the files to generate, or a prefix ending with *',
      ].join("\n"),
    );
  });

  it("refuse an include entry that selects no tool, saying why", () => {
    expect(errorOf("target=go,include=acme.crm.v1.CrmService.GetAccount")).toBe(
      'option "include=acme.crm.v1.CrmService.GetAccount" selects no tool: the methods it matches are without an rpc_tool option (tools=all takes them too)',
    );
    expect(
      errorOf(
        "target=go,tools=all,include=acme.crm.v1.CrmService.SyncAccounts",
      ),
    ).toBe(
      'option "include=acme.crm.v1.CrmService.SyncAccounts" selects no tool: the methods it matches are client- or bidi-streaming, which a tool call cannot drive',
    );
    expect(
      errorOf(
        "target=go,tools=all,include=acme.crm.v1.AuditService.*,exclude=acme.crm.v1.AuditService.ListEvents",
      ),
    ).toBe(
      'option "include=acme.crm.v1.AuditService.*" selects no tool: the methods it matches are excluded',
    );
  });

  it("refuse a pattern that is not a method name or prefix", () => {
    expect(errorOf("target=go,include=acme.*.Get")).toBe(
      'invalid value "acme.*.Get" for option "include"; use a full method name (acme.crm.v1.CrmService.CreateAccount) or a prefix ending with "*" (acme.crm.v1.CrmService.*)',
    );
    expect(errorOf("target=go,tools=all,tools=all")).toBe(
      'option "tools" is given more than once',
    );
    expect(errorOf("target=go,tools=every")).toBe(
      'invalid value "every" for option "tools"; valid values: annotated, all',
    );
  });
});

describe("trim_prefix=", () => {
  it("trims derived names, not annotated ones", () => {
    expect(names("target=go,tools=all,trim_prefix=acme.crm.v1")).toEqual([
      "AuditService_ListEvents",
      "CrmService_CreateAccount",
      "CrmService_GetAccount",
      "CrmService_Tag",
      "CrmService_WatchAccounts",
      "accounts_delete",
    ]);
    expect(
      names("target=go,tools=all,trim_prefix=acme.crm.v1.CrmService."),
    ).toContain("CreateAccount");
  });

  it("is refused when it trims nothing, or leaves a name without a letter first", () => {
    expect(errorOf("target=go,trim_prefix=acme.crm.v1")).toBe(
      'option "trim_prefix=acme.crm.v1" trims derived tool names, and tools=annotated derives none; set tools=all, or drop trim_prefix',
    );
    expect(errorOf("target=go,tools=all,trim_prefix=other.v1")).toBe(
      'option "trim_prefix=other.v1" starts the full name of no method that becomes a tool without an rpc_tool name; use the start of one, e.g. the package name',
    );
    expect(
      errorOf(
        "target=go,tools=all,trim_prefix=acme.crm.v1.CrmService.Tag,include=acme.crm.v1.CrmService.Tag",
      ),
    ).toBe(
      `acme/crm/v1/crm.proto: CrmService.Tag: trim_prefix "acme.crm.v1.CrmService.Tag" leaves nothing of the method's name "acme.crm.v1.CrmService.Tag"; make trim_prefix shorter, or name the tool with an rpc_tool option`,
    );
  });
});

describe("name_prefix=", () => {
  it("goes in front of every name, derived or annotated", () => {
    expect(
      names(
        "target=go,tools=all,name_prefix=crm_,include=acme.crm.v1.CrmService.Get*,include=acme.crm.v1.CrmService.DeleteAccount",
      ),
    ).toEqual(["crm_accounts_delete", "crm_acme_crm_v1_CrmService_GetAccount"]);
  });

  it("shortens derived names to fit in 64 bytes with it", () => {
    const prefix = "p".repeat(30) + "_";
    const [name] = names(
      `target=go,tools=all,name_prefix=${prefix},include=acme.crm.v1.CrmService.CreateAccount`,
    );
    // 31 bytes of prefix, a hash head of 10, "_" and the longest tail of
    // at most 22 bytes that starts at a word.
    expect(name).toHaveLength(63);
    expect(name!.startsWith(prefix)).toBe(true);
    expect(name!.slice(prefix.length)).toMatch(
      /^[a-z][a-z0-9]{9}_Service_CreateAccount$/,
    );
  });

  it("is refused when it makes an annotated name longer than 64 bytes", () => {
    const prefix = "p".repeat(50) + "_";
    expect(errorOf(`target=go,name_prefix=${prefix}`)).toBe(
      `acme/crm/v1/crm.proto: CrmService.DeleteAccount: tool name "${prefix}accounts_delete" (name_prefix "${prefix}" and the rpc_tool name "accounts_delete") is 66 bytes, more than the 64 model providers accept; shorten the rpc_tool name or the name_prefix`,
    );
  });

  it("is refused when it is not the start of a valid name", () => {
    expect(errorOf("target=go,name_prefix=9x")).toBe(
      'invalid value "9x" for option "name_prefix"; use 1 to 52 letters, digits, "_" or "-", starting with a letter or "_", e.g. crm_',
    );
  });
});

describe("shortened names", () => {
  const long = `syntax = "proto3";
package acme.examples.internal.proto.examplepb;
option go_package = "example.com/acme/examplepb;examplepb";
message Req { string id = 1; }
service CamelCaseServiceName {
  rpc GetStatus(Req) returns (Req);
  rpc Ok(Req) returns (Req);
}
`;
  const warnings = (parameter: string): string[] => {
    const out: string[] = [];
    generate(
      compileRequest({ "acme/examplepb/e.proto": long }, parameter),
      (w) => out.push(w),
    );
    return out;
  };

  it("suggest the trim_prefix that would keep them whole", () => {
    const all = names("target=go,tools=all", {
      "acme/examplepb/e.proto": long,
    });
    // GetStatus's name is too long; Ok's fits.
    const shortened = all.find((n) => n.endsWith("_GetStatus"));
    expect(shortened!.length).toBeLessThanOrEqual(64);
    expect(shortened).toMatch(/^[a-z][a-z0-9]{9}_[A-Za-z]/);
    expect(all).toContain(
      "acme_examples_internal_proto_examplepb_CamelCaseServiceName_Ok",
    );
    expect(warnings("target=go,tools=all")).toEqual([
      `tools=all shortened 1 tool name over 64 bytes to a hash and the name's end (${JSON.stringify(shortened)}); option trim_prefix=acme.examples.internal.proto.examplepb would keep it whole`,
    ]);
    // Nothing to suggest once trim_prefix is set.
    expect(
      warnings(
        "target=go,tools=all,trim_prefix=acme.examples.internal.proto.examplepb",
      ),
    ).toEqual([]);
  });

  it("say nothing when no package would keep one whole", () => {
    expect(
      warnings(`target=go,tools=all,name_prefix=${"p".repeat(45)}_`),
    ).toEqual([]);
  });
});

describe("collisions of derived names", () => {
  const dotted = (pkg: string) => `syntax = "proto3";
package ${pkg};
message Req {}
service S { rpc M(Req) returns (Req); }
`;

  it("fail generation, naming both methods", () => {
    expect(
      errorOf("target=go,tools=all", {
        "a/b_c/s.proto": dotted("a.b_c"),
        "a_b/c/s.proto": dotted("a_b.c"),
      }),
    ).toBe(
      'a_b/c/s.proto: S.M: tool name "a_b_c_S_M" (derived from a_b.c.S.M) is already used by S.M in a/b_c/s.proto (derived from a.b_c.S.M); name one of them with an rpc_tool option, or leave one out with exclude=a.b_c.S.M',
    );
  });

  it("after trim_prefix and name_prefix, saying so", () => {
    expect(
      errorOf("target=go,tools=all,trim_prefix=acme.v1,name_prefix=x_", {
        "acme/v1/s.proto": dotted("acme.v1"),
        "s.proto": `syntax = "proto3";
message Req {}
service S { rpc M(Req) returns (Req); }
`,
      }),
    ).toBe(
      's.proto: S.M: tool name "x_S_M" (derived from S.M, with name_prefix "x_") is already used by S.M in acme/v1/s.proto (derived from acme.v1.S.M, after trim_prefix "acme.v1", with name_prefix "x_"); name one of them with an rpc_tool option, or leave one out with exclude=acme.v1.S.M',
    );
  });

  it("after shortening, with an annotated name", () => {
    const pkg = "acme.contracts.lifecycle.management.v1";
    const service = "ContractRenewalNotificationService";
    const shortened = names("target=go,tools=all", {
      "long.proto": dotted(pkg).replace("service S", `service ${service}`),
    })[0]!;
    expect(shortened.length).toBeLessThanOrEqual(64);
    const annotated = `syntax = "proto3";
package other.v1;
import "ai/tools/v1/annotations.proto";
message Req {}
service T {
  rpc N(Req) returns (Req) {
    option (ai.tools.v1.rpc_tool) = {name: "${shortened}", description: "d"};
  }
}
`;
    expect(
      errorOf("target=go,tools=all", {
        "long.proto": dotted(pkg).replace("service S", `service ${service}`),
        "other.proto": annotated,
      }),
    ).toBe(
      `other.proto: T.N: tool name "${shortened}" is already used by ${service}.M in long.proto (derived from ${pkg}.${service}.M, shortened to fit 64 bytes); name one of them with an rpc_tool option, or leave one out with exclude=${pkg}.${service}.M`,
    );
  });
});
