// The protovalidate stage (docs/runtime.md, "buf.validate"): the executor
// hands the decoded request of a tool with `validate` to its validator and
// refuses every violation before sending, field paths in proto names,
// messages aliasified. The runtime takes any validator of
// @bufbuild/protovalidate's shape (e2e-ts runs the library itself on the
// shared vectors); here one that reports what a rule on these fields would.
import { create } from "@bufbuild/protobuf";
import { buildPath } from "@bufbuild/protobuf/reflect";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ToolError,
  createExecutor,
  type RequestValidator,
  type RuleViolation,
} from "../src/index.js";
import { fieldPath } from "../src/request-validation.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";
import {
  FixupRequestSchema,
  ItemSchema,
} from "./src/gen/aitest/v1/vectors_pb.js";

let server: AitestServer;

beforeAll(async () => {
  server = await startAitestServer();
});

afterAll(async () => {
  await server.close();
});

const f = FixupRequestSchema.field;

describe("fieldPath", () => {
  it("writes proto names, [i] for list items, .key for map keys", () => {
    const at = (b: ReturnType<typeof buildPath>) => fieldPath(b.toPath());
    const root = () => buildPath(FixupRequestSchema);
    expect(at(root())).toBe("");
    expect(at(root().field(f.displayName))).toBe("display_name");
    expect(
      at(root().field(f.items).list(2).field(ItemSchema.field.ownerId)),
    ).toBe("items[2].owner_id");
    expect(at(root().field(f.labels).map("env"))).toBe("labels.env");
    expect(
      at(
        root()
          .field(f.itemsByNum)
          .map(7)
          .field(ItemSchema.field.children)
          .list(0),
      ),
    ).toBe("items_by_num.7.children[0]");
    expect(at(root().oneof(FixupRequestSchema.oneofs[0]!))).toBe("kind");
  });
});

describe("the executor's validation stage", () => {
  const uuid = "0a1b2c3d-0000-4000-8000-00000000000a";
  /** Reports the rules these tests break, as protovalidate would. */
  const validator: RequestValidator & { seen: number } = {
    seen: 0,
    validate(schema, message) {
      this.seen++;
      const req = message as ReturnType<
        typeof create<typeof FixupRequestSchema>
      >;
      const violations: RuleViolation[] = [];
      if (req.displayName === "") {
        violations.push({
          message: "value is required",
          field: buildPath(schema).field(f.displayName).toPath(),
        });
      }
      for (const [i, item] of req.items.entries()) {
        if (item.ownerId === uuid) {
          violations.push({
            message: `must not be ${uuid}`,
            field: buildPath(schema)
              .field(f.items)
              .list(i)
              .field(ItemSchema.field.ownerId)
              .toPath(),
          });
        }
      }
      if (req.count < 0) {
        violations.push({ message: "count: CEL failed", field: [] });
      }
      return violations.length === 0
        ? { kind: "valid" }
        : { kind: "invalid", violations };
    },
  };
  const methods = aitestMethods.map((m) =>
    m.tool.name === "fixup_loose" ? { ...m, validate: true } : m,
  );

  it("refuses every violation before sending, aliasified", async () => {
    const e = createExecutor(server.transport, {
      methods,
      aliases: aitestAliases,
      validator,
    });
    e.aliases.register("user", uuid);
    const before = server.calls.length;
    const err = await e
      .execute(
        "fixup_loose",
        `{"items":[{"name":"a"},{"owner_id":"user-1"}],"count":-1}`,
      )
      .then(
        () => undefined,
        (x: unknown) => x as ToolError,
      );
    expect(err).toBeInstanceOf(ToolError);
    expect([err!.reason, err!.code]).toEqual([
      "failed-validation",
      Code.InvalidArgument,
    ]);
    expect(err!.violations).toEqual([
      {
        field: "display_name",
        reason: "validation",
        message: "value is required",
      },
      {
        field: "items[1].owner_id",
        reason: "validation",
        message: "must not be user-1",
      },
      { field: "", reason: "validation", message: "count: CEL failed" },
    ]);
    expect(err!.message).toBe(
      'invalid arguments, nothing was sent:\n- "display_name": value is required\n- "items[1].owner_id": must not be user-1\n- count: CEL failed',
    );
    expect(server.calls.length).toBe(before);
  });

  it("sends a request that keeps the rules; tools without validate are not checked", async () => {
    const e = createExecutor(server.transport, {
      methods,
      aliases: aitestAliases,
      validator,
    });
    const seen = validator.seen;
    await e.execute("fixup_loose", `{"display_name":"d"}`);
    expect(validator.seen).toBe(seen + 1);
    await e.execute("fixup_strict", `{"display_name":""}`);
    expect(validator.seen).toBe(seen + 1);
    expect(server.calls.at(-1)?.method).toBe("EchoStrict");
  });

  it("makes one validator for every executor given the same function", async () => {
    let made = 0;
    const createValidator = () => {
      made++;
      return validator;
    };
    const seen = validator.seen;
    for (let i = 0; i < 3; i++) {
      const e = createExecutor(server.transport, {
        methods,
        aliases: aitestAliases,
        validator: createValidator,
      });
      await e.execute("fixup_loose", `{"display_name":"d"}`);
    }
    expect([made, validator.seen]).toEqual([1, seen + 3]);
  });

  it("shows a rule's id when its message is empty", async () => {
    const e = createExecutor(server.transport, {
      methods,
      aliases: aitestAliases,
      validator: {
        validate: () => ({
          kind: "invalid",
          violations: [{ message: "", ruleId: "count.even", field: [] }],
        }),
      },
    });
    const err = await e.execute("fixup_loose", `{}`).then(
      () => undefined,
      (x: unknown) => x as ToolError,
    );
    expect(err?.violations).toEqual([
      { field: "", reason: "validation", message: "count.even" },
    ]);
  });

  const cannotRun: Record<string, RequestValidator> = {
    "an error result": {
      validate: () => ({ kind: "error", error: new Error('no such rule "x"') }),
    },
    "a throw": {
      validate: () => {
        throw new Error('no such rule "x"');
      },
    },
  };
  it.each(Object.entries(cannotRun))(
    "a validator that cannot run its rules (%s): failed-validation, Internal, nothing sent",
    async (_, validator) => {
      const e = createExecutor(server.transport, {
        methods,
        aliases: aitestAliases,
        validator,
      });
      const before = server.calls.length;
      const err = await e.execute("fixup_loose", `{}`).then(
        () => undefined,
        (x: unknown) => x as ToolError,
      );
      expect([err?.reason, err?.code, err?.message]).toEqual([
        "failed-validation",
        Code.Internal,
        `cannot check the request's rules: no such rule "x"`,
      ]);
      expect(server.calls.length).toBe(before);
    },
  );
});
