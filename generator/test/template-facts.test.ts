import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import type { GeneratorModel } from "../src/model/model.js";
import {
  goFileIdentifiers,
  goLocalNames,
} from "../src/targets/go/go-imports.js";
import { goMcpLocalNames } from "../src/targets/go/build-go-mcp-view.js";
import {
  goCompatDeclarations,
  goCompatLocalNames,
} from "../src/targets/go/go-mcp-compat.js";
import { goPascalCase } from "../src/targets/go/go-names.js";
import { pyFileIdentifiers } from "../src/targets/py/py-names.js";
import { tsMcpFileIdentifiers } from "../src/targets/ts/build-ts-mcp-view.js";
import { tsFileIdentifiers } from "../src/targets/ts/build-ts-view.js";
import { buildRequest } from "./support/request.js";
import { modelOf } from "./support/model.js";

// The generator keeps lists of what the templates declare (identifiers a
// tool name must not take, local names an import must not shadow). These
// tests read the rendered files of a case using every feature (executors
// in two packages, aliases, server streaming) and fail when a template
// declares a name its list lacks, or a list keeps a name no template
// declares any more.

const featureCase = "executors";
let model: GeneratorModel;
const out: Record<string, string> = {};

beforeAll(async () => {
  for (const target of ["go", "ts", "py"]) {
    const request = await buildRequest(featureCase, {
      parameter: `target=${target}`,
    });
    model ??= modelOf(request);
    out[target] = generate(request)[0]!.content;
  }
});

/** The first capture group that took part in each match of `pattern`. */
function matches(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) =>
    m.slice(1).find((g) => g !== undefined)!,
  );
}

const sorted = (names: Iterable<string>): string[] =>
  [...new Set(names)].sort();

describe("lists of template facts", () => {
  it("goFileIdentifiers: the Go templates' package-level names", () => {
    const go = out["go"]!;
    const marker = "\n// The rest of this file is the runtime";
    expect(go).toContain(marker);
    const [templatePart, runtimePart] = go.split(marker) as [string, string];
    const declaredIn = (text: string): string[] => [
      ...matches(text, /^func (\w+)/gm),
      ...matches(text, /^func \(\w+ \*?\w+\) (\w+)/gm),
      ...matches(text, /^(?:var|type|const) (\w+)/gm),
      ...matches(text, /^const \(\n((?:\t.*\n)*?)\)/gm).flatMap((block) =>
        matches(block, /^\t(\w+)/gm),
      ),
    ];
    const toolNames = new Set(
      model.tools.flatMap((t) => [
        goPascalCase(t.name),
        `Execute${goPascalCase(t.name)}`,
      ]),
    );
    // Every name a template declares is listed...
    const fromTemplates = declaredIn(templatePart).filter(
      (n) => !toolNames.has(n),
    );
    expect(sorted(goFileIdentifiers)).toEqual(
      expect.arrayContaining(sorted(fromTemplates)),
    );
    // ...and every listed name is still declared (a runtime method such as
    // GetAliasManager stays reserved, as the replaced plugin reserved it).
    const everywhere = new Set(declaredIn(go));
    expect(goFileIdentifiers.filter((n) => !everywhere.has(n))).toEqual([]);
    expect(runtimePart).toContain("func (e *Executor) GetAliasManager()");
  });

  it("goLocalNames: the local names of the Go templates' methods", () => {
    const go = out["go"]!;
    const bodies = matches(
      go,
      /^func \(e \*Executor\) Execute\w+\((.*?)\n}\n/gms,
    ).join("\n");
    const locals = [
      "e",
      ...matches(bodies, /(\w+) \w+\.Context/g),
      ...matches(bodies, /(\w+) string/g),
      ...matches(bodies, /(?:^|\s)(\w+)(?:, \w+)* :?=/gm),
      ...matches(bodies, /(?:^|\s)\w+, (\w+) :?=/gm),
      ...matches(bodies, /\bvar (\w+)/g),
    ];
    expect(sorted(goLocalNames)).toEqual(sorted(locals));
  });

  // The template's declarations and the parameters and locals of its
  // functions, in the MCP file of case `name`.
  async function mcpTemplateNames(name: string) {
    const request = await buildRequest(name, {
      parameter: "target=go",
    });
    const mcp = generate(request).find(
      (f) => f.name === "ai_tools_mcp.gen.go",
    )!.content;
    const marker = "\n// The rest of this file is the MCP part of the runtime";
    expect(mcp).toContain(marker);
    const templatePart = mcp.split(marker)[0]!;
    const declared = [
      ...matches(templatePart, /^func (\w+)/gm),
      ...matches(templatePart, /^(?:var|type|const) (\w+)/gm),
    ];
    const locals = [
      ...matches(
        templatePart,
        /[(,] ?(\w+) (?:\*?\w+\.\w+|\.\.\.\w+|string|\*Executor|MCPServer|LLMProvider)\b/g,
      ),
      ...matches(templatePart, /(?:^|\s)(\w+) :?=/gm),
      ...matches(templatePart, /func\((\w+) \*grpc\.Server\)/g),
    ];
    return { declared, locals };
  }

  it("goMcpLocalNames and the Go MCP file's package-level names", async () => {
    const { declared, locals } = await mcpTemplateNames("mcp");
    // The template declares only the per-service functions and init...
    expect(
      declared.filter(
        (n) =>
          !/^(Register\w+Handler|ForwardTo\w+Client|\w+MCPTools|init)$/.test(n),
      ),
    ).toEqual([]);
    // ...whose parameters and locals are listed.
    // (a `var <s>MCPTools = ...` reads as a local)
    expect(sorted(goMcpLocalNames)).toEqual(
      sorted(locals.filter((n) => !declared.includes(n))),
    );
  });

  it("go_mcp_compat's names and locals (case mcpcompat)", async () => {
    const { declared, locals } = await mcpTemplateNames("mcpcompat");
    expect(
      declared.filter(
        (n) =>
          // goCompatNames: <S>Server, <S>Client, <s>GRPCServer, <s>Unimplemented
          !/^(Register\w+Handler(WithProvider|OpenAI)?|ForwardTo(Connect)?\w+Client|(Connect)?\w+Client|\w+Server|\w+Unimplemented|\w+MCPTools|init)$/.test(
            n,
          ) && !goCompatDeclarations.names.includes(n),
      ),
    ).toEqual([]);
    expect(
      sorted(
        locals.filter(
          // the aliases' and constants' "Name =" read as locals
          (n) =>
            !goMcpLocalNames.includes(n) &&
            !goCompatDeclarations.names.includes(n) &&
            !declared.includes(n), // type <S>Client = ...
        ),
      ),
    ).toEqual(sorted([...goCompatLocalNames]));
  });

  it("tsFileIdentifiers: the TypeScript file's own names", () => {
    const ts = out["ts"]!;
    const toolConsts = new Set(
      matches(ts, /^export const (\w+): AgentTool = defineTool/gm),
    );
    const declared = [
      ...matches(
        ts,
        /^(?:export )?(?:const|function|class|type|interface) (\w+)/gm,
      ),
      ...matches(
        ts,
        /^import (?:type )?\{([^}]*)\} from "(?:@protoc-gen-ai-tools\/runtime|@connectrpc\/connect)";/gm,
      ).flatMap((list) =>
        list
          .split(",")
          .map((s) => s.trim().replace(/^type /, ""))
          .filter((s) => s !== "")
          .map((s) => s.split(/\s+as\s+/).pop()!),
      ),
    ];
    // createValidator is imported only when a tool validates its request
    // (call-options.test.ts), which this case's tools do not.
    expect(sorted(tsFileIdentifiers)).toEqual(
      sorted([
        ...declared.filter((n) => !toolConsts.has(n)),
        "createValidator",
      ]),
    );
  });

  it("tsMcpFileIdentifiers: the TypeScript MCP file's own names", async () => {
    // The mcp case has tools only MCP executes: mcpAliasConfig is declared.
    const request = await buildRequest("mcp", { parameter: "target=ts" });
    const mcp = generate(request).find(
      (f) => f.name === "ai_tools_mcp.gen.ts",
    )!.content;
    // Per service: its tools, register…Handler, forwardTo…Client and the
    // service descriptor imported from its _pb file.
    const perService = new Set([
      ...matches(mcp, /^export const (\w+): readonly McpToolMethod\[\]/gm),
      ...matches(
        mcp,
        /^export function ((?:register\w+Handler|forwardTo\w+Client))\(/gm,
      ),
    ]);
    const declared = [
      ...matches(
        mcp,
        /^(?:export )?(?:const|function|class|type|interface) (\w+)/gm,
      ),
      ...matches(mcp, /^import \* as (\w+) from /gm),
      ...matches(
        mcp,
        /^import (?:type )?\{([^}]*)\} from "(?:@protoc-gen-ai-tools\/runtime(?:\/mcp)?|@connectrpc\/connect)";/gm,
      ).flatMap((list) =>
        list
          .split(",")
          .map((s) => s.trim().replace(/^type /, ""))
          .filter((s) => s !== "")
          .map((s) => s.split(/\s+as\s+/).pop()!),
      ),
    ];
    expect(perService.size).toBeGreaterThan(0);
    expect(sorted(tsMcpFileIdentifiers)).toEqual(
      sorted([
        ...declared.filter((n) => !perService.has(n)),
        "createValidator",
      ]),
    );
  });

  it("pyFileIdentifiers: the Python module's own names", () => {
    const py = out["py"]!;
    const toolConsts = new Set(
      matches(py, /^(\w+) = AgentTool(?:\.from_json)?\(/gm),
    );
    const declared = [
      ...matches(py, /^(\w+)(?::[^=\n]*)? =/gm),
      ...matches(py, /^(?:def|class) (\w+)/gm),
      // (the runtime's imports are indented in their try block)
      ...matches(py, /^(?: {4})?import (\w+)$/gm),
      ...matches(
        py,
        /^(?: {4})?from ai_tools_runtime import (?:\(([^)]*)\)|(.*))$/gm,
      ).flatMap((list) =>
        list
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== ""),
      ),
    ];
    expect(sorted(pyFileIdentifiers)).toEqual(
      sorted(declared.filter((n) => !toolConsts.has(n))),
    );
  });
});
