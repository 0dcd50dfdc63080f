// The three languages side by side, each over stdio with the TypeScript
// client: the same tools listed (as the plugin's model says, and the same
// on every connection), and the same answers to the same calls against the
// shared gRPC server (the workspace id and record times aside), texts byte
// for byte.
import { randomUUID } from "node:crypto";
import { modelOfTestApi, sampleValues } from "@protoc-gen-ai-tools/e2e-samples";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { comparable, outputSchemas, validatorOf } from "./checks.js";
import { connectTs, listTs, runTs } from "./clients.js";
import { differences, normalize, normalizeText } from "./compare.js";
import { languages, startHttp, type LanguageName } from "./languages.js";
import {
  call,
  newLinkArgs,
  type ListedTool,
  type Outcome,
  type Step,
} from "./steps.js";

const names: LanguageName[] = ["go", "py", "ts"];
const grpc = inject("grpc");
const clients = new Map<LanguageName, Client>();
const listings = new Map<LanguageName, ListedTool[]>();
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  await Promise.all(
    names.map(async (name) => {
      const client = await connectTs(languages[name].stdio(grpc), "2025-11-25");
      closers.push(() => client.close());
      clients.set(name, client);
      listings.set(name, await listTs(client));
    }),
  );
});
afterAll(async () => {
  await Promise.allSettled(closers.map((close) => close()));
});

/** The differences of each language's value from the first language's. */
function acrossLanguages(
  values: Map<LanguageName, unknown>,
  path = "$",
): string[] {
  const [first, ...rest] = names;
  return rest.flatMap((name) =>
    differences(values.get(first!), values.get(name), first!, name, path),
  );
}

describe("tools/list", () => {
  it("lists the same tools in every language", () => {
    const byTool = new Map<LanguageName, unknown>();
    for (const name of names) {
      byTool.set(
        name,
        Object.fromEntries(
          comparable(listings.get(name)!).map((t) => [t.name, t]),
        ),
      );
    }
    expect(acrossLanguages(byTool)).toEqual([]);
    for (const name of names) {
      expect(
        listings.get(name)!.map((t) => t.name),
        name,
      ).toEqual(listings.get(names[0]!)!.map((t) => t.name));
    }
  });

  it("lists the plugin model's tools: names sorted, descriptions, schemas, hints", () => {
    const model = modelOfTestApi("go");
    const expected = [...model.tools]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((t) => {
        // Every generated tool lists all four hints, false ones too.
        const hints = {
          readOnlyHint: t.hints.readOnly,
          destructiveHint: t.hints.destructive,
          idempotentHint: t.hints.idempotent,
          openWorldHint: t.hints.openWorld,
        };
        return {
          name: t.name,
          description: t.description,
          inputSchema: JSON.parse(t.schemaJson) as unknown,
          outputSchema: JSON.parse(t.outputSchemaJson) as unknown,
          annotations: hints,
        };
      });
    for (const name of names) {
      expect(comparable(listings.get(name)!), name).toEqual(expected);
    }
  });

  it("lists the same tools on every connection and revision (deterministic)", async () => {
    await Promise.all(
      names.map(async (name) => {
        const again = await connectTs(
          languages[name].stdio(grpc),
          "2026-07-28",
        );
        clients.set(`${name}-again` as LanguageName, again);
        expect(await listTs(again), name).toEqual(listings.get(name));
      }),
    );
  });

  it("lists the same tools over HTTP with the handle argument (2026-07-28)", async () => {
    const byTool = new Map<LanguageName, unknown>();
    await Promise.all(
      names.map(async (name) => {
        const http = await startHttp(languages[name], grpc, [
          "--handle-argument",
        ]);
        closers.push(() => http.close());
        const client = await connectTs(http.url, "2026-07-28");
        closers.push(() => client.close());
        const tools = comparable(await listTs(client));
        byTool.set(name, Object.fromEntries(tools.map((t) => [t.name, t])));
      }),
    );
    expect(acrossLanguages(byTool)).toEqual([]);
  });

  it("has output schemas that compile as JSON Schema 2020-12 (ajv, strict)", () => {
    for (const t of listings.get(names[0]!)!) {
      expect(() => validatorOf(t.outputSchema ?? {}), t.name).not.toThrow();
    }
  });
});

/** The calls every language answers, in workspace ws. */
function callSteps(ws: string): Step[] {
  const [strict, loose] = sampleValues({ target: "go", seed: 4242, count: 8 });
  return [
    call("page_themes_create", {
      workspace_id: ws,
      name: "dark",
      background_color: "#000000",
      font: "Inter",
      palette: [{ key: "fg", value: "#ffffff" }],
    }),
    call("page_themes_list", { workspace_id: ws }),
    call("page_themes_update", {
      id: "theme-1",
      name: "darker",
      background_color: null,
      font: "Mono",
    }),
    call("links_create", { ...newLinkArgs(ws, 1), page_theme_id: "theme-1" }),
    call("links_update", {
      id: "link-1",
      status: "LINK_STATUS_PAUSED",
      title: "renamed",
      update_mask: "title,status",
    }),
    call("steps_create", {
      link_id: "link-1",
      send_email: { to: "a@example.com", subject: "hi" },
      open_link: null,
      wait: null,
    }),
    call("steps_create", {
      link_id: "link-1",
      send_email: null,
      open_link: null,
      wait: { duration: "1.500s" },
    }),
    call("steps_list", { link_id: "link-1" }),
    call("ping", {}),
    call("links_get", { id: "theme-1" }),
    call("links_get", { id: 7 }),
    call("links_delete", { id: "link-1" }),
    call("links_get", { id: "link-1" }),
    call("links_nope", {}),
    ...strict!.values.map((v) =>
      call(strict!.tool.name, v as Record<string, unknown>),
    ),
    ...loose!.values.map((v) =>
      call(loose!.tool.name, v as Record<string, unknown>),
    ),
  ];
}

/**
 * An outcome with what differs between runs replaced; a record's text too,
 * to be compared byte for byte.
 */
function comparableOutcome(o: Outcome, ws: string, tool: string): unknown {
  const times = !tool.startsWith("samples_echo_");
  if (o.error !== undefined) return { error: o.error };
  const r = o.result!;
  if (r.isError === true) {
    return { isError: true, text: normalize(r.content[0]?.text, ws, times) };
  }
  return {
    structuredContent: normalize(r.structuredContent, ws, times),
    // Every text is written byte for byte alike (docs/mcp.md, "Calls"
    // step 4): key and map-key order, Any's @type first, -0, float digits.
    text: times
      ? normalizeText(r.content[0]?.text ?? "", ws)
      : (r.content[0]?.text ?? ""),
  };
}

describe("tools/call", () => {
  it("answers the same calls the same in every language", async () => {
    const answers = new Map<LanguageName, unknown[]>();
    const textVsStructured: string[] = [];
    await Promise.all(
      names.map(async (name) => {
        const ws = randomUUID();
        const steps = callSteps(ws);
        const outcomes = await runTs([clients.get(name)!], steps);
        const schemas = outputSchemas(listings.get(name)!);
        answers.set(
          name,
          outcomes.map((o, i) => {
            const tool = (steps[i] as { name: string }).name;
            const r = o.result;
            if (r !== undefined && r.isError !== true) {
              const validate = validatorOf(schemas.get(tool) ?? {});
              expect(
                validate(r.structuredContent),
                `${name}: ${tool}: ${JSON.stringify(validate.errors)}`,
              ).toBe(true);
              textVsStructured.push(
                ...differences(
                  JSON.parse(r.content[0]!.text!),
                  r.structuredContent,
                  "text",
                  "structuredContent",
                  `${name}, call ${i} (${tool}): $`,
                  true,
                ),
              );
            }
            return { tool, ...(comparableOutcome(o, ws, tool) as object) };
          }),
        );
      }),
    );
    expect(textVsStructured).toEqual([]);
    const first = answers.get(names[0]!)!;
    expect(first.filter((a) => "error" in (a as object)).length).toBe(1);
    expect(acrossLanguages(answers)).toEqual([]);
  });
});
