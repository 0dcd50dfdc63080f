// Fuzzing the runtime's alias manager, argument fix-up and executor with
// random JSON (issue 12, point 6; docs/runtime.md is the contract). A quick
// regression run under `pnpm test`; a timed run under FUZZ_SECONDS
// (fuzz-budget.ts). Cases fast-check found are kept in `examples`.
import { createRouterTransport } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ToolError,
  createAliasManager,
  createExecutor,
  type AliasManager,
} from "../src/index.js";
import { quoteJson } from "../src/json.js";
import { fuzzTimeout, runProperty } from "./fuzz-budget.js";
import {
  jsonText,
  prefix,
  registrations,
  uuid,
  uuidPool,
  object,
  write,
} from "./fuzz-arbitraries.js";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";
import { FixupService } from "./src/gen/aitest/v1/vectors_pb.js";

const properties = 4;
const timeout = fuzzTimeout(properties);

/** Every UUID-shaped run of text touching no hex digit or `-`. */
function uuidsIn(text: string): string[] {
  return [
    ...text.matchAll(
      /(?<![0-9a-fA-F-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9a-fA-F-])/g,
    ),
  ].map((m) => m[0]);
}

interface Exported {
  aliases: Record<string, string>;
  counters: Record<string, number>;
}

function stateOf(m: AliasManager): Exported {
  return JSON.parse(m.exportState()) as Exported;
}

function managerWith(regs: readonly [string, string][]): AliasManager {
  const m = createAliasManager(aitestAliases);
  for (const [p, u] of regs) m.register(p, u);
  return m;
}

/**
 * The invariants registration keeps: one alias per UUID and one UUID per
 * alias, and per prefix exactly the aliases 1..counter (no gap).
 */
function expectConsistent(m: AliasManager): void {
  const { aliases, counters } = stateOf(m);
  const uuids = Object.values(aliases);
  expect(new Set(uuids).size).toBe(uuids.length);
  const expected = Object.entries(counters)
    .flatMap(([p, n]) => Array.from({ length: n }, (_, i) => `${p}-${i + 1}`))
    .sort();
  expect(Object.keys(aliases).sort()).toEqual(expected);
}

/**
 * aliasify(resolve(x)) gives back x (as resolve re-encodes it) when every
 * registered alias is written by the JSON encoder as itself.
 */
function aliasesPlain(m: AliasManager): boolean {
  return Object.keys(stateOf(m).aliases).every(
    (a) => quoteJson(a) === `"${a}"` && uuidsIn(a).length === 0,
  );
}

function expectToolError(e: unknown, reasons: readonly string[]): ToolError {
  if (!(e instanceof ToolError) || !reasons.includes(e.reason)) {
    throw new Error(
      `expected a ToolError (${reasons.join(", ")}), got ${String(e)}`,
      {
        cause: e,
      },
    );
  }
  return e;
}

describe("fuzz: alias manager", () => {
  it(
    "resolve: never throws but unknown-alias, invents no UUID, aliasify gives the input back",
    async () => {
      await runProperty(
        "resolve",
        fc.property(registrations, jsonText, (regs, input) => {
          const m = managerWith(regs);
          const registered = new Set(Object.values(stateOf(m).aliases));
          const canonical =
            createAliasManager(aitestAliases).resolveJsonUnchecked(input);
          const unchecked = m.resolveJsonUnchecked(input);
          const known = new Set(uuidsIn(canonical));
          for (const u of uuidsIn(unchecked)) {
            expect(known.has(u) || registered.has(u)).toBe(true);
          }
          let resolved: string;
          try {
            resolved = m.resolveJson(input);
          } catch (e) {
            const err = expectToolError(e, ["unknown-alias"]);
            expect(err.message).toMatch(/^unknown alias "/);
            return;
          }
          expect(resolved).toBe(unchecked);
          if (aliasesPlain(m) && m.aliasifyJson(canonical) === canonical) {
            expect(m.aliasifyJson(resolved)).toBe(canonical);
          }
          if (aliasesPlain(m)) {
            for (const u of uuidsIn(m.aliasifyJson(input))) {
              expect(registered.has(u)).toBe(false);
            }
          }
        }),
        properties,
        300,
        [
          [[["acct", uuidPool[0]!]], `{"a":"acct-1","b":"${uuidPool[0]}"}`],
          [[["acct", uuidPool[0]!]], `{"a":["acct-1", "acct-2"]}`],
          [[], `{"x":"acct-01"`],
        ],
      );
    },
    timeout,
  );

  it(
    "registration: never throws, numbers without gaps, registers only UUIDs it was given",
    async () => {
      const op = fc.oneof(
        fc.tuple(fc.constant("register" as const), prefix, uuid),
        fc.tuple(
          fc.constant("response" as const),
          fc.constantFrom(
            ...Object.keys(aitestAliases.responseAliases.tools),
            "no_such_tool",
          ),
          fc.oneof(
            object.map((d) => write(d)),
            jsonText,
          ),
        ),
      );
      await runProperty(
        "registration",
        fc.property(fc.array(op, { maxLength: 8 }), (ops) => {
          const m = createAliasManager(aitestAliases);
          const offered = new Set<string>();
          for (const [kind, a, b] of ops) {
            if (kind === "register") {
              offered.add(b);
              const before = stateOf(m).aliases;
              const got = m.register(a, b);
              const known = Object.entries(before).find(([, u]) => u === b);
              expect(got).toBe(known === undefined ? got : known[0]);
              expect(m.resolveAlias(got)).toBe(b);
            } else {
              const parsed =
                createAliasManager(aitestAliases).resolveJsonUnchecked(b);
              for (const u of uuidsIn(parsed)) offered.add(u);
              m.registerResponse(a, b);
            }
            expectConsistent(m);
          }
          for (const u of Object.values(stateOf(m).aliases)) {
            expect(offered.has(u)).toBe(true);
          }
          const copy = createAliasManager(aitestAliases);
          copy.restoreState(m.exportState());
          expect(copy.exportState()).toBe(m.exportState());
        }),
        properties,
        300,
      );
    },
    timeout,
  );

  it(
    "restoreState: takes a consistent state or refuses it, leaving the state as it was",
    async () => {
      const mutation = fc.oneof(
        fc.tuple(fc.constant("alias"), fc.string({ maxLength: 8 }), uuid),
        fc.tuple(
          fc.constant("alias"),
          prefix.map((p) => `${p}-3`),
          fc.string(),
        ),
        fc.tuple(fc.constant("counter"), prefix, fc.jsonValue()),
        fc.tuple(fc.constant("version"), fc.constant(""), fc.jsonValue()),
        fc.tuple(
          fc.constant("drop"),
          fc.constantFrom("aliases", "counters", "version"),
          fc.constant(null),
        ),
        fc.tuple(
          fc.constant("key"),
          fc.constantFrom("Aliases", "VERSION", "extra"),
          fc.jsonValue(),
        ),
      );
      const state = fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .tuple(registrations, fc.array(mutation, { maxLength: 3 }))
            .map(([regs, muts]) => {
              const s = JSON.parse(managerWith(regs).exportState()) as Record<
                string,
                unknown
              >;
              const part = (name: string): Record<string, unknown> => {
                const p = s[name];
                if (typeof p === "object" && p !== null) {
                  return p as Record<string, unknown>;
                }
                const fresh: Record<string, unknown> = {};
                s[name] = fresh;
                return fresh;
              };
              for (const [kind, k, v] of muts) {
                if (kind === "alias") part("aliases")[k] = v;
                if (kind === "counter") part("counters")[k] = v;
                if (kind === "version") s["version"] = v;
                if (kind === "drop") delete s[k];
                if (kind === "key") s[k] = v;
              }
              return JSON.stringify(s);
            }),
        },
        { weight: 1, arbitrary: jsonText },
        {
          weight: 1,
          arbitrary: fc
            .tuple(registrations, fc.nat(), fc.string({ maxLength: 2 }))
            .map(([regs, at, insert]) => {
              const t = managerWith(regs).exportState();
              const i = at % t.length;
              return t.slice(0, i) + insert + t.slice(i + 1);
            }),
        },
      );
      await runProperty(
        "restore",
        fc.property(registrations, state, (regs, input) => {
          const m = managerWith(regs);
          const before = m.exportState();
          try {
            m.restoreState(input);
          } catch (e) {
            expect(e).toBeInstanceOf(Error);
            expect((e as Error).message).toMatch(/^restore alias state: /);
            expect(m.exportState()).toBe(before);
            return;
          }
          // Taken: one UUID per alias, counters at least the highest
          // number, and a new registration never reissues an alias.
          const { aliases, counters } = stateOf(m);
          const uuids = Object.values(aliases);
          expect(new Set(uuids).size).toBe(uuids.length);
          for (const a of Object.keys(aliases)) {
            const i = a.lastIndexOf("-");
            expect(counters[a.slice(0, i)] ?? 0).toBeGreaterThanOrEqual(
              Number(a.slice(i + 1)),
            );
          }
          for (const p of [...Object.keys(counters), "acct"]) {
            const fresh = "ffffffff-ffff-4fff-bfff-ffffffffffff";
            if (uuids.includes(fresh)) continue;
            const copy = createAliasManager(aitestAliases);
            copy.restoreState(m.exportState());
            const got = copy.register(p, fresh);
            expect(aliases[got]).toBeUndefined();
          }
        }),
        properties,
        300,
        [
          [
            [],
            `{"aliases":{"acct-1":"${uuidPool[0]}"},"counters":{"acct":0},"version":1}`,
          ],
          [
            [],
            `{"aliases":{"acct-1":"${uuidPool[0]}","acct-2":"${uuidPool[0]}"},"counters":{"acct":2},"version":1}`,
          ],
          [[], `{"version":1.0}`],
          [[], `null`],
        ],
      );
    },
    timeout,
  );
});

describe("fuzz: executor", () => {
  it(
    "execute: a result or a documented ToolError, no registered UUID shown, none invented",
    async () => {
      // The real Connect router in memory, serving the vectors' echo service.
      const transport = createRouterTransport(({ service }) => {
        service(FixupService, {
          echoStrict: (req) => req,
          echoLoose: (req) => req,
        });
      });
      const tool = fc.constantFrom("fixup_strict", "fixup_loose", "nope");
      await runProperty(
        "execute",
        fc.asyncProperty(
          registrations,
          tool,
          jsonText,
          async (regs, name, args) => {
            const executor = createExecutor(transport, {
              methods: aitestMethods,
              aliases: aitestAliases,
            });
            for (const [p, u] of regs) executor.aliases.register(p, u);
            const m = executor.aliases;
            let shown: string;
            try {
              shown = await executor.execute(name, args);
            } catch (e) {
              const err = expectToolError(e, [
                "unknown-tool",
                "unknown-alias",
                "invalid-arguments",
              ]);
              shown = err.message;
            }
            // Registered before the call, or by its response.
            const registered = new Set(Object.values(stateOf(m).aliases));
            if (aliasesPlain(m)) {
              for (const u of uuidsIn(shown)) {
                expect(registered.has(u)).toBe(false);
              }
            }
            const given = new Set(
              uuidsIn(
                createAliasManager(aitestAliases).resolveJsonUnchecked(args),
              ),
            );
            for (const u of uuidsIn(shown)) {
              expect(given.has(u) || registered.has(u)).toBe(true);
            }
          },
        ),
        properties,
        200,
        [
          [
            [["user", uuidPool[1]!]],
            "fixup_strict",
            `{"item":{"owner_id":"user-1"}}`,
          ],
          [[], "fixup_strict", `{"data":"YQ=","timeout":"1.5s"}`],
          [[], "fixup_loose", `{"extra":"{\\"a\\":1}","list":["1","x"]}`],
          // Found by fuzzing: 1e400 in a Value reached the server as
          // Infinity, and the echoed response could not be encoded.
          [[], "fixup_strict", `{"value_map":{"labels":1e400}}`],
        ],
      );
    },
    timeout,
  );
});

describe("fuzz: found cases", () => {
  it("a number past the double range is refused before the call", async () => {
    let calls = 0;
    const transport = createRouterTransport(({ service }) => {
      service(FixupService, {
        echoStrict: (req) => (calls++, req),
        echoLoose: (req) => (calls++, req),
      });
    });
    const executor = createExecutor(transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
    });
    for (const [tool, args, path] of [
      ["fixup_strict", `{"value_map":{"labels":1e400}}`, "value_map.labels"],
      ["fixup_loose", `{"extra":-1e400}`, "extra"],
      ["fixup_loose", `{"attrs":{"a":[1,1e999]}}`, "attrs.a[1]"],
      ["fixup_strict", `{"extra":"1e400"}`, "extra"],
      ["fixup_strict", `{"values":[${"9".repeat(400)}]}`, "values[0]"],
    ] as const) {
      const err = await executor.execute(tool, args).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ToolError);
      expect((err as ToolError).reason).toBe("invalid-arguments");
      expect((err as ToolError).message).toMatch(
        new RegExp(
          `^invalid arguments, nothing was sent:\\n- "${path.replace(/[[\]]/g, "\\$&")}": number `,
        ),
      );
    }
    expect(calls).toBe(0);
  });
});
