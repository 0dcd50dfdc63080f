import { Code } from "@connectrpc/connect";
import {
  JsonNumber,
  compareBytes,
  isJsonMap,
  quote,
  quoteJson,
  sortedKeys,
  stringifyJson,
  tryParseJson,
  type JsonTree,
} from "./json.js";
import { NameIndex, isAliasName } from "./alias-names.js";
import { ToolError } from "./tool-error.js";
import { childPath } from "./violations.js";

/**
 * One field of a message type in {@link ResponseAliases.types}
 * (docs/runtime.md, "Response registration").
 */
export interface ResponseAliasField {
  /** The field's JSON name (responses are written with JSON names). */
  readonly field: string;
  /** The alias prefix of the strings the field holds; none when absent or "". */
  readonly prefix?: string | undefined;
  /** The full name of the message the field holds, when in the table. */
  readonly message?: string | undefined;
  /** True for a map field: its values are visited, in key byte order. */
  readonly map?: boolean | undefined;
  /**
   * True when any name registers, not only a UUID
   * (`google.longrunning.Operation.name`, prefix `operation`): see
   * {@link isAliasName}.
   */
  readonly anyValue?: boolean | undefined;
}

/** How one auto-executed tool's response registers its ids. */
export interface ResponseAliasTool {
  /** The response message (of each item, for a server-streaming tool). */
  readonly message: string;
  /** The prefix of the top-level entity's unannotated `id`, or "". */
  readonly idPrefix: string;
  /** The JSON name of the field holding the entity, "" for the response itself. */
  readonly idField: string;
}

/**
 * The response registration table of one generated file: message full
 * name → its fields to look at, in declaration order; tool name → its
 * response message and entity id rule. The same data as the vectors' JSON
 * (e2e/vectors/aliases/register-response-*.json).
 */
export interface ResponseAliases {
  /** Message full name → its aliased fields, in declaration order. */
  readonly types: Readonly<Record<string, readonly ResponseAliasField[]>>;
  /** Tool name → how its response registers. */
  readonly tools: Readonly<Record<string, ResponseAliasTool>>;
}

/**
 * One registration `registerResponse` would make: a UUID and the prefix it
 * would be numbered under (docs/store.md, "A call through a store").
 */
export type AliasRegistration = readonly [prefix: string, uuid: string];

/** Alias facts of one generated file (docs/runtime.md, "Alias manager"). */
export interface AliasConfig {
  /** Every prefix the protos declare. */
  readonly knownAliasPrefixes: readonly string[];
  /** How the responses of the auto-executed tools register their ids. */
  readonly responseAliases: ResponseAliases;
}

/**
 * Shows entity UUIDs to the model as short aliases (`acct-1`) and turns them
 * back into UUIDs. One per conversation. The contract is docs/runtime.md.
 */
export interface AliasManager {
  /**
   * The alias of uuid: a UUID already known keeps its alias (whatever its
   * prefix); a new one gets the next number of prefix, `prefix-1` first.
   */
  register(prefix: string, uuid: string): string;
  /** The UUID of a registered alias, else the input unchanged. */
  resolveAlias(alias: string): string;
  /**
   * Replace every registered value that is not a UUID (an operation name)
   * where it stands as a whole token (the characters around it are not
   * letters, digits, `_`, `.`, `/` or `-`), in one scan from left to right
   * taking the longest name at each place; then every registered UUID, in
   * one pass (a UUID counts only when no hex digit or `-` touches it). The
   * text need not be JSON.
   */
  aliasifyJson(json: string): string;
  /**
   * Replace every JSON string value that is exactly a registered alias by its
   * UUID; output is re-encoded with sorted keys and numbers as written.
   * Invalid JSON is returned unchanged. Throws {@link ToolError} (reason
   * `unknown-alias`) for a string value shaped like an alias of a known
   * prefix that is not registered.
   */
  resolveJson(json: string): string;
  /**
   * {@link AliasManager.resolveJson} without the check: unknown aliases are
   * left as written (Go's old `ResolveJSON`).
   */
  resolveJsonUnchecked(json: string): string;
  /**
   * Register the UUIDs of one response of the tool (one message of a
   * server-streaming tool), following its message type
   * (docs/runtime.md, "Response registration"): the top-level entity's `id`
   * under the tool's `idPrefix`, then every field with a prefix, depth
   * first, in declaration order, array items in order, map values in key
   * byte order; a field with `anyValue` registers any name
   * ({@link isAliasName}), not only UUIDs. Invalid JSON, or a tool without
   * an entry, registers nothing.
   */
  registerResponse(tool: string, json: string): void;
  /**
   * The registrations {@link AliasManager.registerResponse} would make for
   * this response, in order, without making them: each UUID not yet known,
   * once, with its prefix. A store-backed executor hands them to its
   * conversation store.
   */
  collectRegistrations(tool: string, json: string): AliasRegistration[];
  /**
   * The state as canonical JSON:
   * `{"aliases":{"acct-1":"<uuid>"},"counters":{"acct":1},"version":1}`.
   */
  exportState(): string;
  /**
   * Replace the state by one {@link AliasManager.exportState} wrote. Throws
   * an Error (state unchanged) on invalid JSON, a version other than 1, an
   * alias not `<prefix>-<n>` with n > 0, a value that is neither a UUID nor
   * a name ({@link isAliasName}), one value under two aliases, a negative
   * counter, or a counter lower than the highest alias number of its prefix.
   */
  restoreState(json: string): void;
  /** How many aliases the table holds. */
  aliasCount(): number;
}

/** Create an empty alias manager that knows the declared prefixes. */
export function createAliasManager(config: AliasConfig): AliasManager {
  return new Manager(config);
}

const uuidPattern =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Report whether c is a hex digit or `-`: what may not touch a UUID in text. */
function isUuidChar(c: number): boolean {
  return (
    c === 0x2d ||
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x66) ||
    (c >= 0x41 && c <= 0x46)
  );
}

/** Report whether s is 8-4-4-4-12 hexadecimal digits. */
export function isUuid(s: string): boolean {
  return uuidPattern.test(s);
}

/** Split `<prefix>-<digits>` at its last `-`; undefined for another shape. */
function splitAlias(s: string): [prefix: string, digits: string] | undefined {
  const i = s.lastIndexOf("-");
  if (i <= 0 || i === s.length - 1) {
    return undefined;
  }
  const digits = s.slice(i + 1);
  if (!/^[0-9]+$/.test(digits)) {
    return undefined;
  }
  return [s.slice(0, i), digits];
}

const maxListed = 20;

class Manager implements AliasManager {
  private readonly types: ReadonlyMap<string, readonly ResponseAliasField[]>;
  private readonly tools: ReadonlyMap<string, ResponseAliasTool>;
  private readonly declared: readonly string[];
  private counters = new Map<string, number>();
  private aliases = new Map<string, string>(); // alias → UUID
  private uuids = new Map<string, string>(); // UUID or name → alias
  // The values that are not UUIDs, for aliasifyJson's names pass.
  private readonly names = new NameIndex();
  private prefixes = new Set<string>();

  constructor(config: AliasConfig) {
    this.types = new Map(Object.entries(config.responseAliases.types));
    this.tools = new Map(Object.entries(config.responseAliases.tools));
    this.declared = [...config.knownAliasPrefixes];
    this.reset();
  }

  private reset(): void {
    this.counters = new Map();
    this.aliases = new Map();
    this.uuids = new Map();
    this.names.clear();
    this.prefixes = new Set(this.declared);
  }

  /** Record alias ↔ value, in both directions. */
  private set(alias: string, value: string): void {
    this.aliases.set(alias, value);
    this.uuids.set(value, alias);
    if (!isUuid(value)) {
      this.names.add(value);
    }
  }

  register(prefix: string, uuid: string): string {
    const known = this.uuids.get(uuid);
    if (known !== undefined) {
      return known;
    }
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    const alias = `${prefix}-${n}`;
    this.set(alias, uuid);
    this.prefixes.add(prefix);
    return alias;
  }

  resolveAlias(alias: string): string {
    return this.aliases.get(alias) ?? alias;
  }

  aliasCount(): number {
    return this.aliases.size;
  }

  aliasifyJson(json: string): string {
    if (this.uuids.size === 0) {
      return json;
    }
    // Names first: a name may hold a registered UUID.
    const named = this.names.aliasify(json, (name) =>
      isUuid(name) ? undefined : this.uuids.get(name),
    );
    return this.aliasifyUuids(named);
  }

  /** aliasifyJson's UUID pass. */
  private aliasifyUuids(json: string): string {
    // One pass like the Go loop: cheap checks of the four dashes first.
    let out = "";
    let done = 0;
    const n = json.length;
    for (let i = 0; i + 36 <= n; i++) {
      if (
        json.charCodeAt(i + 8) !== 0x2d ||
        json.charCodeAt(i + 13) !== 0x2d ||
        json.charCodeAt(i + 18) !== 0x2d ||
        json.charCodeAt(i + 23) !== 0x2d ||
        (i > 0 && isUuidChar(json.charCodeAt(i - 1))) ||
        (i + 36 < n && isUuidChar(json.charCodeAt(i + 36)))
      ) {
        continue;
      }
      const candidate = json.slice(i, i + 36);
      const alias = this.uuids.get(candidate);
      if (alias === undefined || !isUuid(candidate)) {
        continue;
      }
      out += json.slice(done, i) + alias;
      done = i + 36;
      i = done - 1;
    }
    return done === 0 ? json : out + json.slice(done);
  }

  resolveJson(json: string): string {
    return this.resolve(json, true);
  }

  resolveJsonUnchecked(json: string): string {
    return this.resolve(json, false);
  }

  private resolve(json: string, checked: boolean): string {
    const v = tryParseJson(json);
    if (v === undefined) {
      return json;
    }
    return stringifyJson(this.resolveValue(v, "", checked));
  }

  private resolveValue(v: JsonTree, path: string, checked: boolean): JsonTree {
    if (typeof v === "string") {
      const uuid = this.aliases.get(v);
      if (uuid !== undefined) {
        return uuid;
      }
      const parts = checked ? splitAlias(v) : undefined;
      if (parts !== undefined && this.prefixes.has(parts[0])) {
        throw this.unknownAlias(v, parts[0], path);
      }
      return v;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        v[i] = this.resolveValue(v[i] as JsonTree, `${path}[${i}]`, checked);
      }
      return v;
    }
    if (isJsonMap(v)) {
      for (const key of sortedKeys(v)) {
        v[key] = this.resolveValue(
          v[key] as JsonTree,
          childPath(path, key),
          checked,
        );
      }
    }
    return v;
  }

  private unknownAlias(alias: string, prefix: string, path: string): ToolError {
    const numbers: number[] = [];
    for (const known of this.aliases.keys()) {
      const parts = splitAlias(known);
      if (parts !== undefined && parts[0] === prefix) {
        numbers.push(Number(parts[1]));
      }
    }
    const head = `unknown alias ${quote(alias)}`;
    let message: string;
    if (numbers.length === 0) {
      message = `${head}; no ${prefix} aliases exist yet: call a tool that returns ${prefix}s first`;
    } else {
      numbers.sort((a, b) => a - b);
      let list = numbers
        .slice(0, maxListed)
        .map((n) => `${prefix}-${n}`)
        .join(", ");
      if (numbers.length > maxListed) {
        list += `, … (${numbers.length - maxListed} more)`;
      }
      message = `${head}; valid ${prefix} aliases: ${list}`;
    }
    // The manager's own message names the field; the violation (an
    // executor's line) has it apart.
    return new ToolError(
      `${head} in field ${quote(path)}${message.slice(head.length)}`,
      {
        reason: "unknown-alias",
        code: Code.InvalidArgument,
        violations: [{ field: path, reason: "unknown-alias", message }],
      },
    );
  }

  registerResponse(tool: string, json: string): void {
    for (const [prefix, uuid] of this.collectRegistrations(tool, json)) {
      this.register(prefix, uuid);
    }
  }

  collectRegistrations(tool: string, json: string): AliasRegistration[] {
    const out: AliasRegistration[] = [];
    const entry = this.tools.get(tool);
    if (entry === undefined) {
      return out;
    }
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch {
      return out;
    }
    const seen = new Set<string>();
    const add = (prefix: string, uuid: string) => {
      if (!this.uuids.has(uuid) && !seen.has(uuid)) {
        seen.add(uuid);
        out.push([prefix, uuid]);
      }
    };
    if (entry.idPrefix !== "") {
      const entities = entry.idField === "" ? v : field(v, entry.idField);
      for (const entity of Array.isArray(entities) ? entities : [entities]) {
        const id = field(entity, "id");
        if (typeof id === "string" && isUuid(id)) {
          add(entry.idPrefix, id);
        }
      }
    }
    this.walk(v, entry.message, add);
    return out;
  }

  /** Hand the prefixed strings of v, a JSON value of message type, to add. */
  private walk(
    v: unknown,
    message: string,
    add: (prefix: string, uuid: string) => void,
  ): void {
    const fields = this.types.get(message);
    if (fields === undefined || !isObject(v)) {
      return;
    }
    for (const f of fields) {
      const x = field(v, f.field);
      if (x === undefined || x === null) {
        continue;
      }
      const values = Array.isArray(x)
        ? x
        : f.map === true && isObject(x)
          ? Object.keys(x)
              .sort(compareBytes)
              .map((k) => x[k])
          : [x];
      for (const item of values) {
        if (
          f.prefix &&
          typeof item === "string" &&
          (isUuid(item) || (f.anyValue === true && isAliasName(item)))
        ) {
          add(f.prefix, item);
        }
        if (f.message) {
          this.walk(item, f.message, add);
        }
      }
    }
  }

  exportState(): string {
    const aliases = [...this.aliases.keys()]
      .sort(compareBytes)
      .map(
        (a) =>
          `${quoteJson(a, true)}:${quoteJson(this.aliases.get(a) as string, true)}`,
      );
    const counters = [...this.counters.keys()]
      .sort(compareBytes)
      .map((p) => `${quoteJson(p, true)}:${this.counters.get(p) as number}`);
    return `{"aliases":{${aliases.join(",")}},"counters":{${counters.join(",")}},"version":1}`;
  }

  restoreState(json: string): void {
    const state = readState(json);
    if (state.version !== 1) {
      throw restoreError(`unsupported version ${state.version}`);
    }
    const seen = new Map<string, string>();
    const highest = new Map<string, number>();
    for (const alias of [...state.aliases.keys()].sort(compareBytes)) {
      const uuid = state.aliases.get(alias) as string;
      const parts = splitAlias(alias);
      if (
        parts === undefined ||
        !/^[1-9][0-9]*$/.test(parts[1]) ||
        !Number.isSafeInteger(Number(parts[1]))
      ) {
        throw restoreError(`invalid alias ${quote(alias)}`);
      }
      if (!isUuid(uuid) && !isAliasName(uuid)) {
        throw restoreError(
          `alias ${quote(alias)} maps to ${quote(uuid)}, neither a UUID nor a name`,
        );
      }
      const other = seen.get(uuid);
      if (other !== undefined) {
        throw restoreError(
          `${isUuid(uuid) ? "UUID" : "name"} ${quote(uuid)} has two aliases: ${quote(other)} and ${quote(alias)}`,
        );
      }
      seen.set(uuid, alias);
      const [prefix, digits] = parts;
      highest.set(prefix, Math.max(highest.get(prefix) ?? 0, Number(digits)));
    }
    const prefixes = [
      ...new Set([...state.counters.keys(), ...highest.keys()]),
    ].sort(compareBytes);
    for (const prefix of prefixes) {
      const n = state.counters.get(prefix) ?? 0;
      const high = highest.get(prefix) ?? 0;
      if (n < 0) {
        throw restoreError(`negative counter ${n} for ${quote(prefix)}`);
      }
      if (n < high) {
        throw restoreError(
          `counter ${n} for ${quote(prefix)} is lower than its highest alias ${prefix}-${high}`,
        );
      }
    }
    this.reset();
    for (const [alias, uuid] of state.aliases) {
      this.set(alias, uuid);
    }
    for (const [prefix, n] of state.counters) {
      this.counters.set(prefix, n);
      this.prefixes.add(prefix);
    }
  }
}

/** Report whether v is a plain JSON object (of JSON.parse). */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The own property of v named by a table's JSON name, when v is an object
 * (never a prototype's): under that name, else under the proto name it
 * stands for (`ownerId` → `owner_id`), as the executors write results by
 * default; the tables read either naming.
 */
function field(v: unknown, jsonName: string): unknown {
  if (!isObject(v)) {
    return undefined;
  }
  if (Object.hasOwn(v, jsonName)) {
    return v[jsonName];
  }
  const protoName = protoNameOf(jsonName);
  return protoName !== jsonName && Object.hasOwn(v, protoName)
    ? v[protoName]
    : undefined;
}

/** protoNameOf's answers, by JSON name (the tables' names: a bounded set). */
const protoNames = new Map<string, string>();

/** The proto name a JSON name comes from: each upper-case letter as `_` and its lower case. */
function protoNameOf(jsonName: string): string {
  let name = protoNames.get(jsonName);
  if (name === undefined) {
    name = jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    protoNames.set(jsonName, name);
  }
  return name;
}

function restoreError(what: string): Error {
  return new Error(`restore alias state: ${what}`);
}

interface State {
  aliases: Map<string, string>;
  counters: Map<string, number>;
  version: number;
}

/**
 * Read the state object as Go's json.Unmarshal reads it into a struct: keys
 * matched case-insensitively, unknown keys and nulls ignored, a value of the
 * wrong type an error.
 */
function readState(json: string): State {
  const v = tryParseJson(json);
  const state: State = { aliases: new Map(), counters: new Map(), version: 0 };
  if (v === undefined) {
    throw restoreError("invalid JSON: not a JSON value");
  }
  if (v === null) {
    return state;
  }
  if (!isJsonMap(v)) {
    throw restoreError("invalid JSON: the state is not an object");
  }
  for (const key of Object.keys(v)) {
    const value = v[key] as JsonTree;
    if (value === null) {
      continue;
    }
    switch (key.toLowerCase()) {
      case "aliases":
        if (!isJsonMap(value)) {
          throw restoreError(`invalid JSON: "aliases" is not an object`);
        }
        state.aliases = new Map();
        for (const alias of Object.keys(value)) {
          const uuid = value[alias] as JsonTree;
          if (uuid !== null && typeof uuid !== "string") {
            throw restoreError(
              `invalid JSON: alias ${quote(alias)} does not map to a string`,
            );
          }
          state.aliases.set(alias, uuid ?? "");
        }
        break;
      case "counters":
        if (!isJsonMap(value)) {
          throw restoreError(`invalid JSON: "counters" is not an object`);
        }
        state.counters = new Map();
        for (const prefix of Object.keys(value)) {
          const n = value[prefix] as JsonTree;
          state.counters.set(
            prefix,
            n === null ? 0 : readInt(n, `counter ${quote(prefix)}`),
          );
        }
        break;
      case "version":
        state.version = readInt(value, `"version"`);
        break;
    }
  }
  return state;
}

function readInt(v: JsonTree, what: string): number {
  if (v instanceof JsonNumber && /^-?[0-9]+$/.test(v.text)) {
    const n = Number(v.text);
    if (Number.isSafeInteger(n)) {
      return n;
    }
  }
  throw restoreError(`invalid JSON: ${what} is not an integer`);
}
