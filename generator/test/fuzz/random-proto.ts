// Random valid proto files for the plugin fuzz test (fuzz-plugin.test.ts):
// messages nested and recursive, maps, oneofs, enums, well-known types,
// services with unary and streaming methods, and the annotations of
// proto/ai/tools/v1/annotations.proto with random values (tool names valid
// or not, alias prefixes mostly valid, sometimes not: the plugin must refuse
// those). One seed gives one file.

/** A small seeded generator (mulberry32): the same seed, the same file. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One of the items. */
  pick<T>(items: readonly T[]): T;
}

/** Create a generator from a 32-bit seed. */
export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

const scalars = [
  "double",
  "float",
  "int32",
  "int64",
  "uint32",
  "uint64",
  "sint32",
  "sint64",
  "fixed32",
  "fixed64",
  "sfixed32",
  "sfixed64",
  "bool",
  "string",
  "bytes",
];
const mapKeys = ["string", "int32", "int64", "uint32", "bool", "sfixed64"];
const wellKnown: Record<string, string> = {
  "google.protobuf.Timestamp": "google/protobuf/timestamp.proto",
  "google.protobuf.Duration": "google/protobuf/duration.proto",
  "google.protobuf.Struct": "google/protobuf/struct.proto",
  "google.protobuf.Value": "google/protobuf/struct.proto",
  "google.protobuf.ListValue": "google/protobuf/struct.proto",
  "google.protobuf.Any": "google/protobuf/any.proto",
  "google.protobuf.FieldMask": "google/protobuf/field_mask.proto",
  "google.protobuf.Empty": "google/protobuf/empty.proto",
  "google.protobuf.StringValue": "google/protobuf/wrappers.proto",
  "google.protobuf.Int64Value": "google/protobuf/wrappers.proto",
  "google.protobuf.BoolValue": "google/protobuf/wrappers.proto",
  "google.protobuf.DoubleValue": "google/protobuf/wrappers.proto",
  "google.protobuf.BytesValue": "google/protobuf/wrappers.proto",
};
const words = [
  "id",
  "name",
  "owner_id",
  "link",
  "page",
  "theme",
  "step",
  "value",
  "items",
  "kind",
  "data",
  "x",
  "url",
  "type",
  "class",
  "default",
  "async",
  "self",
  "len",
  "map",
  "string",
  "error",
];
/** Texts for annotation values: ordinary, odd, and hostile. */
const texts = [
  "",
  "acct",
  "link",
  "user",
  "team-x",
  "a b",
  'quote " and \\\\ backslash',
  "*/ /* `${x}` {{x}} <b>",
  "ünïcödé ✓",
  "line\\nbreak",
  "tab\\there",
  "-",
  "0",
  "x".repeat(70),
];
/** Alias prefixes the generator accepts. */
const goodPrefixes = [
  "acct",
  "link",
  "user",
  "team-x",
  "Acct_2",
  "v-2",
  "x".repeat(64),
];
/** Alias prefixes it refuses (proto string text: `\t` is a tab). */
const badPrefixes = [
  "a b",
  'a"b',
  "-",
  "0",
  "acct-",
  "9lives",
  "dot.name",
  "ünï",
  "tab\\there",
  "x".repeat(65),
];
const toolNames = [
  "links_create",
  "a",
  "A-b_c",
  "_x",
  "9lives",
  "has space",
  "dot.name",
  "",
  "x".repeat(64),
  "x".repeat(65),
  "ünï",
  "execute",
  "all_tools",
];

/** A proto string literal of s (s holds only escapes a proto string takes). */
function str(s: string): string {
  return `"${s.replace(/"/g, '\\"')}"`;
}

interface Msg {
  name: string; // full name inside the package, e.g. M1.M2
  depth: number;
}

/**
 * One random proto file (package `fz<seed>.v1`, a go_package under
 * example.com/fuzz) that protoc and buf accept.
 */
export function randomProto(seed: number): { name: string; text: string } {
  const r = createRandom(seed);
  // Most files use the annotations well (and must generate); the others
  // are hostile (and must be refused clearly, or generate).
  const hostile = r.chance(0.35);
  const pkg = `fz${seed >>> 0}.v1`;
  const imports = new Set<string>(["ai/tools/v1/annotations.proto"]);
  const messages: Msg[] = [];
  const enums: string[] = [];
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}${++counter}`;

  const typeOf = (owner: Msg): string => {
    const roll = r.int(10);
    if (roll < 4) return r.pick(scalars);
    if (roll < 6 && messages.length > 0) {
      // Any message so far: itself, a parent, a sibling: recursion.
      return r.pick(messages).name;
    }
    if (roll < 7 && enums.length > 0) return r.pick(enums);
    if (roll < 9) {
      const wkt = r.pick(Object.keys(wellKnown));
      imports.add(wellKnown[wkt]!);
      return wkt;
    }
    return owner.name;
  };

  const fieldOptions = (): string => {
    const opts: string[] = [];
    if (r.chance(0.3)) {
      const parts: string[] = [];
      if (r.chance(0.2)) parts.push(`skip: ${r.chance(0.5)}`);
      if (r.chance(0.7)) {
        const bad = hostile && r.chance(0.25);
        parts.push(
          `alias_prefix: ${str(r.pick(bad ? badPrefixes : goodPrefixes))}`,
        );
      }
      if (r.chance(0.3)) parts.push(`usage_notes: ${str(r.pick(texts))}`);
      if (r.chance(0.3)) parts.push(`description: ${str(r.pick(texts))}`);
      opts.push(`(ai.tools.v1.tool_field) = {${parts.join(" ")}}`);
    }
    if (r.chance(0.1)) {
      imports.add("google/api/field_behavior.proto");
      opts.push(
        `(google.api.field_behavior) = ${r.pick(["OUTPUT_ONLY", "REQUIRED", "IDENTIFIER", "IMMUTABLE"])}`,
      );
    }
    if (r.chance(0.05)) opts.push(`json_name = ${str(fresh("jn"))}`);
    if (r.chance(0.05)) opts.push("deprecated = true");
    return opts.length === 0 ? "" : ` [${opts.join(", ")}]`;
  };

  const enumText = (name: string, indent: string): string => {
    const upper = name.replace(/\./g, "_").toUpperCase();
    const values = [`${indent}  ${upper}_UNSPECIFIED = 0;`];
    const n = r.int(4);
    for (let i = 1; i <= n; i++) {
      values.push(
        `${indent}  ${upper}_${r.pick(["A", "B", "C"])}${i} = ${r.chance(0.2) ? -i : i};`,
      );
    }
    if (r.chance(0.1)) {
      values.unshift(`${indent}  option allow_alias = true;`);
      values.push(`${indent}  ${upper}_ALIAS = 0;`);
    }
    return `${indent}enum ${name.split(".").pop()} {\n${values.join("\n")}\n${indent}}\n`;
  };

  const messageText = (full: string, depth: number): string => {
    const indent = "  ".repeat(depth);
    const self: Msg = { name: full, depth };
    messages.push(self);
    const short = full.split(".").pop()!;
    let body = "";
    // Nested types first, so fields may use them.
    const nested = depth < 3 ? r.int(depth === 0 ? 3 : 2) : 0;
    for (let i = 0; i < nested; i++) {
      if (r.chance(0.3)) {
        const e = `${full}.${fresh("E")}`;
        enums.push(e);
        body += enumText(e, indent + "  ");
      } else {
        body += messageText(`${full}.${fresh("M")}`, depth + 1);
      }
    }
    let number = 1;
    const used = new Set<string>();
    const fieldName = (): string => {
      let n = r.pick(words);
      if (used.has(n) || r.chance(0.3)) n = `${n}_${counter++}`;
      used.add(n);
      return n;
    };
    const nFields = r.int(7);
    for (let i = 0; i < nFields; i++) {
      const roll = r.int(10);
      const name = fieldName();
      const no = r.chance(0.05) ? 536_870_911 - number++ : number++;
      if (roll === 0) {
        const v = typeOf(self);
        body += `${indent}  map<${r.pick(mapKeys)}, ${v === "bytes" ? "string" : v}> ${name} = ${no}${fieldOptions()};\n`;
      } else if (roll === 1) {
        const members = 1 + r.int(3);
        let oneof = `${indent}  oneof ${fieldName()} {\n`;
        for (let j = 0; j < members; j++) {
          oneof += `${indent}    ${typeOf(self)} ${fieldName()} = ${number++}${fieldOptions()};\n`;
        }
        body += `${oneof}${indent}  }\n`;
      } else {
        const label = r.pick(["", "", "repeated ", "optional "]);
        body += `${indent}  ${label}${typeOf(self)} ${name} = ${no}${fieldOptions()};\n`;
      }
    }
    if (r.chance(0.1)) body += `${indent}  reserved ${number + 5};\n`;
    return `${indent}message ${short} {\n${body}${indent}}\n`;
  };

  let top = "";
  const nTop = 1 + r.int(4);
  for (let i = 0; i < nTop; i++) {
    if (r.chance(0.2)) {
      const e = fresh("TopEnum");
      enums.push(e);
      top += enumText(e, "");
    } else {
      top += messageText(fresh("Msg"), 0);
    }
  }

  const topMessages = messages.filter((m) => m.depth === 0);
  const typeForRpc = (): string => {
    if (r.chance(0.15)) {
      const wkt = r.pick(
        hostile
          ? ["google.protobuf.Timestamp", "google.protobuf.Value"]
          : ["google.protobuf.Empty", "google.protobuf.Struct"],
      );
      imports.add(wellKnown[wkt]!);
      return wkt;
    }
    if (topMessages.length === 0) {
      imports.add(wellKnown["google.protobuf.Empty"]!);
      return "google.protobuf.Empty";
    }
    return r.pick(r.chance(0.8) ? topMessages : messages).name;
  };

  let services = "";
  const nServices = 1 + r.int(2);
  for (let s = 0; s < nServices; s++) {
    let rpcs = "";
    const nRpcs = 1 + r.int(4);
    for (let i = 0; i < nRpcs; i++) {
      const streaming = r.pick(
        hostile ? ["", "server", "client"] : ["", "", "", "server"],
      );
      const input = typeForRpc();
      const output = typeForRpc();
      let opts: string;
      if (r.chance(0.85)) {
        const parts = [
          `name: ${str(!hostile || r.chance(0.6) ? `t${seed >>> 0}_${s}_${i}` : r.pick(toolNames))}`,
        ];
        if (r.chance(0.8)) parts.push(`description: ${str(r.pick(texts))}`);
        if (r.chance(0.5)) parts.push(`strict: ${r.chance(0.5)}`);
        if (r.chance(0.5)) parts.push(`auto_execute: ${r.chance(0.7)}`);
        opts = ` {\n    option (ai.tools.v1.rpc_tool) = {${parts.join(" ")}};\n  }`;
      } else {
        opts = " {}";
      }
      rpcs += `  rpc ${fresh("Do")}(${streaming === "client" ? "stream " : ""}${input}) returns (${streaming === "server" ? "stream " : ""}${output})${opts}\n`;
    }
    services += `service ${fresh("Service")} {\n${rpcs}}\n`;
  }

  const head = [
    `syntax = "proto3";`,
    `package ${pkg};`,
    ...[...imports].sort().map((i) => `import ${str(i)};`),
    `option go_package = "example.com/fuzz/fz${seed >>> 0}v1;fz${seed >>> 0}v1";`,
    "",
  ].join("\n");
  return {
    name: `fz${seed >>> 0}/v1/fuzz.proto`,
    text: `${head}\n${top}\n${services}`,
  };
}
