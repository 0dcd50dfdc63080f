// Deterministic synthetic proto corpus for the benchmark.
//
// Every file is its own package (with go_package), holds one or two services
// and exactly RPCS_PER_FILE annotated RPCs: four entities per file, each with
// Create / Get / Update / Delete / List. The shapes are what real annotated
// APIs look like: entity messages with nested messages and enums, oneofs,
// maps, repeated fields, well-known types, alias_prefix on entity ids and
// cross references, list responses with repeated entities, and comments on
// everything. Like google.type, Temporal's common.v1 or Stripe's objects,
// each package has small value messages used at several places of one
// entity (Money, PostalAddress, Actor, Payload with bytes), and entities
// carry line items and audit entries built from them. Those value messages
// came with corpus version 2 (the default); version 1 is the corpus before
// them, kept byte for byte for comparisons with earlier figures.
//
// File i depends only on (seed, i), so the corpus of N files is a prefix of
// the corpus of M > N files: the sizes grow by adding files, not by
// reshuffling the ones already there.

export const RPCS_PER_FILE = 20;

/** Corpus versions: 2 (the default) adds the shared value messages. */
export const CORPUS_VERSIONS = [1, 2];

/**
 * The corpus version option `--corpus` gives in `text`; otherwise `fail`
 * is called with the versions there are and the text quoted (each script
 * prefixes and exits its own way).
 * @param {string} text
 * @param {(message: string) => never} fail
 * @returns {number}
 */
export function corpusVersionOf(text, fail) {
  const version = Number(text);
  if (!/^\d+$/.test(text) || !CORPUS_VERSIONS.includes(version)) {
    fail(
      `--corpus wants one of ${CORPUS_VERSIONS.join(", ")}, got ${JSON.stringify(text)}`,
    );
  }
  return version;
}

const DOMAINS = [
  "billing",
  "catalog",
  "crm",
  "docs",
  "fleet",
  "forms",
  "hiring",
  "inventory",
  "ledger",
  "maps",
  "media",
  "notify",
  "orders",
  "pages",
  "payments",
  "projects",
  "quotes",
  "search",
  "shipping",
  "support",
  "tasks",
  "tickets",
  "travel",
  "wiki",
  "workflow",
];

const ENTITIES = [
  "link",
  "step",
  "page",
  "theme",
  "invoice",
  "account",
  "contact",
  "order",
  "item",
  "shipment",
  "ticket",
  "comment",
  "task",
  "project",
  "document",
  "folder",
  "asset",
  "report",
  "rule",
  "policy",
  "vendor",
  "customer",
  "payment",
  "refund",
  "quote",
  "campaign",
  "segment",
  "webhook",
  "workflow",
  "run",
  "job",
  "schedule",
  "device",
  "location",
  "route",
  "driver",
  "article",
  "label",
  "form",
  "survey",
  "booking",
  "room",
  "lead",
  "deal",
];

const EXTRA_FIELDS = [
  ["string", "display_name", "Name shown in lists and pickers."],
  ["string", "summary", "One-line summary written by the author."],
  ["string", "external_ref", "Reference in the upstream system, free text."],
  ["int32", "revision", "Revision number, incremented on every update."],
  ["int64", "size_bytes", "Size of the stored content in bytes."],
  ["uint32", "position", "Zero-based position among its siblings."],
  ["bool", "pinned", "Whether it is pinned to the top of lists."],
  ["bool", "locked", "Locked entities reject updates until unlocked."],
  ["double", "weight", "Relative weight used when ranking."],
  [
    "float",
    "confidence",
    "Confidence in [0, 1] of the automatic classification.",
  ],
  [
    "sint64",
    "balance_micros",
    "Signed balance in micro units of the currency.",
  ],
  ["fixed64", "fingerprint", "Stable content fingerprint."],
  ["string", "locale", 'BCP-47 locale, e.g. "en-GB".'],
  ["string", "time_zone", 'IANA time zone, e.g. "Europe/Paris".'],
  ["bytes", "thumbnail", "Small PNG preview."],
];

const MONEY_FIELDS = [
  ["amount", "Amount charged, in the account's currency."],
  ["tax_total", "Sum of the taxes of every line."],
  ["discount", "Discount granted; zero when none."],
  ["balance", "Amount still due."],
  ["budget", "Spending limit; unset means no limit."],
];

const ADDRESS_FIELDS = [
  ["billing_address", "Address invoices are sent to."],
  ["shipping_address", "Address goods are delivered to."],
  ["origin_address", "Where it starts from."],
];

const VERB_TEXT = {
  create: "Creates a new",
  get: "Fetches one",
  update: "Updates an existing",
  delete: "Deletes a",
  list: "Lists the",
};

// ---------------------------------------------------------------------------
// Seeded PRNG (mulberry32), one stream per file.

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeRng(seed, index) {
  const next = mulberry32(fnv1a(`${seed}:${index}`));
  return {
    next,
    bool: (p = 0.5) => next() < p,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    sample(list, n) {
      const copy = [...list];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, n);
    },
  };
}

// ---------------------------------------------------------------------------
// Naming helpers.

const pascal = (snake) =>
  snake
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");

function plural(word) {
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + "ies";
  if (/(s|x|ch|sh)$/.test(word)) return word + "es";
  return word + "s";
}

const aliasOpt = (prefix) =>
  `[(ai.tools.v1.tool_field) = {alias_prefix: "${prefix}"}]`;

// A tiny writer that numbers fields and keeps indentation.
class Block {
  constructor() {
    this.lines = [];
    this.depth = 0;
  }
  line(text = "") {
    this.lines.push(text === "" ? "" : "  ".repeat(this.depth) + text);
  }
  comment(text) {
    for (const l of text.split("\n")) this.line(`// ${l}`);
  }
  open(text) {
    this.line(`${text} {`);
    this.depth++;
  }
  close() {
    this.depth--;
    this.line("}");
  }
  toString() {
    return this.lines.join("\n") + "\n";
  }
}

// Writes `type name = n [opts];` with a leading comment, numbering fields.
function fieldWriter(b) {
  let n = 0;
  return (type, name, comment, opts = "", trailing = "") => {
    n++;
    if (comment) b.comment(comment);
    b.line(
      `${type} ${name} = ${n}${opts ? " " + opts : ""};${trailing ? " // " + trailing : ""}`,
    );
    return n;
  };
}

// ---------------------------------------------------------------------------
// One file.

// The value-message fields of an entity (corpus version 2).
function valueFields(f, rng, e) {
  f("Actor", "creator", `Who created the ${e}.`, "", "output only");
  f("Actor", "last_modifier", `Who last changed the ${e}.`);
  if (rng.bool(0.6)) f("Actor", "owner", `Who is responsible for the ${e}.`);
  for (const [name, comment] of rng.sample(MONEY_FIELDS, rng.int(1, 3)))
    f("Money", name, comment);
  for (const [name, comment] of rng.sample(ADDRESS_FIELDS, rng.int(0, 2)))
    f("PostalAddress", name, comment);
  f("Payload", "content", `Content of the ${e}, as the client encoded it.`);
  if (rng.bool(0.5))
    f("Payload", "details", "Integration-specific details, passed through.");
  f(
    "repeated LineItem",
    "line_items",
    `Billable lines of the ${e}, in display order.`,
  );
  if (rng.bool(0.5))
    f("repeated AuditEntry", "history", "Recent changes, newest first.");
}

function entityMessage(b, rng, e, others, domain, v2) {
  const E = pascal(e);
  const ref = others[0];
  const ref2 = others[1];
  b.comment(
    `A ${e} in the ${domain} domain.\n\nCreated with ${domain}_${e}_create and addressed by its id everywhere else.`,
  );
  b.open(`message ${E}`);
  const f = fieldWriter(b);
  f("string", "id", `Unique identifier of the ${e} (UUID).`, aliasOpt(e));
  f(
    "string",
    "workspace_id",
    `Workspace that owns the ${e}. Never aliased: it stays a raw UUID.`,
  );
  f(
    "string",
    `${ref}_id`,
    `The ${ref} this ${e} belongs to.`,
    aliasOpt(ref),
    "cross reference",
  );
  f("string", "title", `Human readable title of the ${e}.`);
  f("State", "state", `Lifecycle state of the ${e}.`);
  f(
    "google.protobuf.Timestamp",
    "create_time",
    "When it was created.",
    "",
    "output only",
  );
  f("google.protobuf.Timestamp", "update_time", "When it was last updated.");
  if (rng.bool(0.6))
    f(
      "google.protobuf.Duration",
      "retention",
      "How long it is kept after deletion.",
    );
  if (rng.bool(0.7))
    f(
      "google.protobuf.Struct",
      "metadata",
      "Free-form metadata set by integrations.",
    );
  f(
    "google.protobuf.StringValue",
    "note",
    "Optional note; unset and empty are different.",
  );
  if (rng.bool(0.5))
    f(
      "google.protobuf.Int32Value",
      "priority",
      "Priority from 1 (highest) to 5; unset when not prioritised.",
    );
  if (rng.bool(0.4))
    f(
      "google.protobuf.BoolValue",
      "archived",
      "Archived flag; unset means inherit from the parent.",
    );
  if (v2) valueFields(f, rng, e);
  f("map<string, string>", "labels", "Key/value labels used for filtering.");
  f("repeated string", "tags", "Tags, lower case, without the leading '#'.");
  f("repeated Attachment", "attachments", `Files attached to the ${e}.`);
  f(
    "map<string, Reference>",
    "related",
    `Related entities, keyed by relation name.`,
  );
  if (rng.bool(0.5))
    f(
      `repeated string`,
      `${ref2}_ids`,
      `Every ${ref2} linked to this ${e}.`,
      aliasOpt(ref2),
    );
  const extras = rng.sample(EXTRA_FIELDS, rng.int(1, 4));
  for (const [t, name, c] of extras) f(t, name, c);
  if (rng.bool(0.5))
    f("optional double", "score", "Relevance score, absent when never scored.");
  b.comment("Where the entity points to.");
  b.open("oneof target");
  f("string", "url", "An external URL.");
  f("FileRef", "file", "A file stored in the workspace.");
  f("string", `linked_${ref}_id`, `Another ${ref}.`, aliasOpt(ref));
  b.close();
  b.line();
  b.comment(`Lifecycle state of a ${e}.`);
  b.open("enum State");
  b.line("STATE_UNSPECIFIED = 0;");
  b.line("STATE_DRAFT = 1;");
  b.line("STATE_ACTIVE = 2;");
  if (rng.bool(0.6)) b.line("STATE_SUSPENDED = 3;");
  b.line("STATE_ARCHIVED = 4;");
  b.close();
  b.line();
  b.comment(`A file attached to a ${e}.`);
  b.open("message Attachment");
  const a = fieldWriter(b);
  a("string", "id", "Attachment id (UUID).", aliasOpt("attachment"));
  a("string", "name", "File name including the extension.");
  a("int64", "size_bytes", "Size in bytes.");
  a("string", "mime_type", 'MIME type, e.g. "image/png".');
  a("Checksum", "checksum", "Integrity checksum.");
  a("google.protobuf.Timestamp", "upload_time", "When it was uploaded.");
  b.line();
  b.comment("Content checksum.");
  b.open("message Checksum");
  const c = fieldWriter(b);
  c("Algorithm", "algorithm", "Hash algorithm.");
  c("string", "hex", "Lower-case hex digest.");
  b.line();
  b.open("enum Algorithm");
  b.line("ALGORITHM_UNSPECIFIED = 0;");
  b.line("ALGORITHM_SHA256 = 1;");
  b.line("ALGORITHM_CRC32C = 2;");
  b.close();
  b.close();
  if (v2) {
    a("Actor", "uploader", "Who uploaded it.");
    a("Payload", "preview", "Preview rendered by the server; unset when none.");
  }
  b.close();
  if (v2) lineItemAndAuditEntry(b, e);
  b.close();
  b.line();
}

// Nested messages of an entity built from the value messages (version 2).
function lineItemAndAuditEntry(b, e) {
  b.line();
  b.comment(`A billable line of a ${e}.`);
  b.open("message LineItem");
  const l = fieldWriter(b);
  l("string", "sku", "Stock keeping unit of the product.");
  l("string", "description", "What the line is for, shown on documents.");
  l("int32", "quantity", "Number of units; at least 1.");
  l("Money", "unit_price", "Price of one unit, before tax.");
  l("Money", "tax", "Tax for the whole line.");
  l("Money", "total", "Line total, tax included.");
  l("Reference", "product", "The product or service sold.");
  b.close();
  b.line();
  b.comment(`One change to a ${e}.`);
  b.open("message AuditEntry");
  const h = fieldWriter(b);
  h("Actor", "actor", "Who made the change.");
  h("google.protobuf.Timestamp", "time", "When the change was made.");
  h("google.protobuf.FieldMask", "changed", "Fields the change touched.");
  h("Payload", "before", "The changed fields before the change.");
  b.close();
}

function rpcMessages(b, rng, e, others, domain) {
  const E = pascal(e);
  const Es = pascal(plural(e));
  const es = plural(e);
  const ref = others[0];
  const msgs = {};

  // Create
  b.comment(`Request for ${domain}_${e}_create.`);
  b.open(`message Create${E}Request`);
  let f = fieldWriter(b);
  f("string", "workspace_id", "Workspace to create it in.");
  f(E, e, `The ${e} to create. Its id is ignored.`);
  f("string", `${ref}_id`, `Parent ${ref}.`, aliasOpt(ref));
  f(
    "string",
    "request_id",
    "Idempotency key; retries with the same key create one entity.",
    "[(ai.tools.v1.tool_field) = {skip: true}]",
  );
  if (rng.bool(0.5))
    f(
      "bool",
      "validate_only",
      "Validate the request without creating anything.",
    );
  b.close();
  b.line();
  b.comment(`Response of ${domain}_${e}_create.`);
  b.open(`message Create${E}Response`);
  f = fieldWriter(b);
  f(E, e, `The created ${e}, with its id.`);
  if (rng.bool(0.5))
    f("repeated string", "warnings", "Non-fatal validation warnings.");
  b.close();
  b.line();
  msgs.create = [`Create${E}Request`, `Create${E}Response`];

  // Get: some APIs return the entity itself.
  b.comment(`Request for ${domain}_${e}_get.`);
  b.open(`message Get${E}Request`);
  f = fieldWriter(b);
  f("string", "id", `Id of the ${e} to fetch.`, aliasOpt(e));
  f(
    "google.protobuf.FieldMask",
    "read_mask",
    "Fields to return; all when empty.",
  );
  b.close();
  b.line();
  if (rng.bool(0.5)) {
    msgs.get = [`Get${E}Request`, E];
  } else {
    b.comment(`Response of ${domain}_${e}_get.`);
    b.open(`message Get${E}Response`);
    f = fieldWriter(b);
    f(E, e, `The ${e}.`);
    f("google.protobuf.Timestamp", "read_time", "Snapshot time of the read.");
    b.close();
    b.line();
    msgs.get = [`Get${E}Request`, `Get${E}Response`];
  }

  // Update
  b.comment(`Request for ${domain}_${e}_update.`);
  b.open(`message Update${E}Request`);
  f = fieldWriter(b);
  f("string", "id", `Id of the ${e} to update.`, aliasOpt(e));
  f(E, e, "New values; only the fields in update_mask are read.");
  f(
    "google.protobuf.FieldMask",
    "update_mask",
    "Fields to update.",
    `[(ai.tools.v1.tool_field) = {usage_notes: "List snake_case field paths, e.g. [\\"title\\", \\"labels\\"]."}]`,
  );
  if (rng.bool(0.5))
    f("bool", "allow_missing", "Create it when it does not exist.");
  f("string", "etag", "Optimistic concurrency token from the last read.");
  b.close();
  b.line();
  b.comment(`Response of ${domain}_${e}_update.`);
  b.open(`message Update${E}Response`);
  f = fieldWriter(b);
  f(E, e, `The updated ${e}.`);
  f("google.protobuf.Timestamp", "update_time", "Commit time of the update.");
  b.close();
  b.line();
  msgs.update = [`Update${E}Request`, `Update${E}Response`];

  // Delete: some return Empty, some an acknowledgement with the id.
  b.comment(`Request for ${domain}_${e}_delete.`);
  b.open(`message Delete${E}Request`);
  f = fieldWriter(b);
  f("string", "id", `Id of the ${e} to delete.`, aliasOpt(e));
  f("bool", "force", "Also delete children.", "", "dangerous");
  f("string", "etag", "Optimistic concurrency token from the last read.");
  b.close();
  b.line();
  if (rng.bool(0.3)) {
    msgs.delete = [`Delete${E}Request`, "google.protobuf.Empty"];
  } else {
    b.comment(`Response of ${domain}_${e}_delete.`);
    b.open(`message Delete${E}Response`);
    f = fieldWriter(b);
    f("string", "id", `Id of the deleted ${e}.`, aliasOpt(e));
    f("bool", "deleted", "False when it was already gone.");
    f("google.protobuf.Timestamp", "purge_time", "When it is purged for good.");
    b.close();
    b.line();
    msgs.delete = [`Delete${E}Request`, `Delete${E}Response`];
  }

  // List
  b.comment(`Request for ${domain}_${e}_list.`);
  b.open(`message List${Es}Request`);
  f = fieldWriter(b);
  f("string", "workspace_id", "Workspace to list from.");
  f("string", `${ref}_id`, `Only ${es} of this ${ref}.`, aliasOpt(ref));
  f("repeated string", "ids", `Only these ${es}.`, aliasOpt(e));
  f("int32", "page_size", "Maximum results per page (1-100).");
  f(
    "string",
    "page_token",
    "Token from a previous page.",
    `[(ai.tools.v1.tool_field) = {description: "Opaque token copied from next_page_token; empty for the first page."}]`,
  );
  f(
    "string",
    "filter",
    "Filter expression.",
    `[(ai.tools.v1.tool_field) = {usage_notes: "Example: state = ACTIVE AND labels.team = \\"core\\""}]`,
  );
  f("SortOrder", "order", "Sort order.");
  if (rng.bool(0.5))
    f(
      "google.protobuf.Timestamp",
      "updated_after",
      "Only entities updated after this time.",
    );
  b.close();
  b.line();
  b.comment(`Response of ${domain}_${e}_list.`);
  b.open(`message List${Es}Response`);
  f = fieldWriter(b);
  f(`repeated ${E}`, es, `The ${es} on this page.`);
  f(
    "string",
    "next_page_token",
    "Token for the next page; empty on the last page.",
  );
  f("int32", "total_size", "Total number of matches.");
  if (rng.bool(0.5))
    f(
      "map<string, Reference>",
      "referenced",
      "Entities referenced by the results, by id.",
    );
  b.close();
  b.line();
  msgs.list = [`List${Es}Request`, `List${Es}Response`];

  return msgs;
}

function describe(rng, verb, e, domain) {
  const es = plural(e);
  const base = {
    create: `${VERB_TEXT.create} ${e} in the ${domain} workspace and returns it with its id.`,
    get: `${VERB_TEXT.get} ${e} by id, with its attachments and related entities.`,
    update: `${VERB_TEXT.update} ${e}. Only the fields named in update_mask change.`,
    delete: `${VERB_TEXT.delete} ${e}. Use force to delete its children as well.`,
    list: `${VERB_TEXT.list} ${es} of a workspace, newest first, one page at a time.`,
  }[verb];
  const extra = rng.pick([
    "",
    verb === "list"
      ? " Use filter to narrow large result sets."
      : " Prefer this over searching when the id is known.",
    verb === "list"
      ? ""
      : ` Call ${domain}_${e}_list first if you do not know the id.`,
    ' Set state to \\"ACTIVE\\" to publish.',
    ' Ids are aliases like \\"' + e + '-1\\"; never invent them.',
  ]);
  return base + extra;
}

// The value messages every version-2 file declares, shaped like
// google.type.Money and PostalAddress, an audit actor and Temporal's Payload.
function valueMessages(b) {
  let f;
  b.comment(
    "An amount of money in one currency (shaped like google.type.Money).",
  );
  b.open("message Money");
  f = fieldWriter(b);
  f("string", "currency_code", 'ISO 4217 currency code, e.g. "EUR".');
  f("int64", "units", "Whole units of the amount.");
  f(
    "int32",
    "nanos",
    "Nano units of the amount, between -999,999,999 and +999,999,999, with the sign of units.",
  );
  b.close();
  b.line();
  b.comment("A postal address (shaped like google.type.PostalAddress).");
  b.open("message PostalAddress");
  f = fieldWriter(b);
  f("string", "region_code", 'CLDR region code of the country, e.g. "CH".');
  f("string", "postal_code", "Postal code; not every country uses one.");
  f("string", "administrative_area", "State, province or prefecture.");
  f("string", "locality", "City or town.");
  f(
    "repeated string",
    "address_lines",
    "Unstructured lines below the locality, most specific first.",
  );
  f("repeated string", "recipients", "People or companies at the address.");
  b.close();
  b.line();
  b.comment("Who did something: a user, a service account or the system.");
  b.open("message Actor");
  f = fieldWriter(b);
  f("string", "user_id", "User id; empty for the system.", aliasOpt("user"));
  f("string", "display_name", "Name shown in the audit log.");
  f("string", "email", "Contact e-mail address, when it has one.");
  f("Kind", "kind", "What sort of actor it is.");
  b.line();
  b.open("enum Kind");
  b.line("KIND_UNSPECIFIED = 0;");
  b.line("KIND_USER = 1;");
  b.line("KIND_SERVICE_ACCOUNT = 2;");
  b.line("KIND_SYSTEM = 3;");
  b.close();
  b.close();
  b.line();
  b.comment(
    "Opaque data with its encoding (shaped like Temporal's common.v1.Payload).",
  );
  b.open("message Payload");
  f = fieldWriter(b);
  f(
    "map<string, bytes>",
    "metadata",
    'Encoding metadata, e.g. "encoding": "json/plain".',
  );
  f("bytes", "data", "The encoded data.");
  b.close();
  b.line();
}

/**
 * Generates file number `index` (0-based) of the corpus.
 * @returns {{path: string, content: string, tools: number, services: number}}
 */
export function generateFile(seed, index, version = 2) {
  if (!CORPUS_VERSIONS.includes(version))
    throw new Error(
      `unknown corpus version ${JSON.stringify(version)}; valid: ${CORPUS_VERSIONS.join(", ")}`,
    );
  const v2 = version === 2;
  const rng = makeRng(seed, index);
  const domain = `${DOMAINS[index % DOMAINS.length]}${index}`;
  const Domain = pascal(domain);
  const pkg = `bench.${domain}.v1`;
  const path = `bench/${domain}/v1/${domain}.proto`;
  const entities = rng.sample(ENTITIES, 4);

  const b = new Block();
  b.line(
    `// Synthetic benchmark API #${index} (seed ${JSON.stringify(seed)}). Generated; do not edit.`,
  );
  b.line('syntax = "proto3";');
  b.line();
  b.line(`package ${pkg};`);
  b.line();
  for (const imp of [
    "ai/tools/v1/annotations.proto",
    "google/protobuf/duration.proto",
    "google/protobuf/empty.proto",
    "google/protobuf/field_mask.proto",
    "google/protobuf/struct.proto",
    "google/protobuf/timestamp.proto",
    "google/protobuf/wrappers.proto",
  ]) {
    b.line(`import "${imp}";`);
  }
  b.line();
  b.line(
    `option go_package = "example.com/bench/gen/${domain}/v1;${domain}v1";`,
  );
  b.line();

  // Shared messages.
  b.comment("A reference to another entity, of any kind.");
  b.open("message Reference");
  let f = fieldWriter(b);
  f(
    "string",
    "id",
    "Id of the referenced entity; its kind says which prefix applies.",
  );
  f("string", "kind", 'Entity kind, e.g. "' + entities[0] + '".');
  f("string", "display_name", "Name to show.");
  f(
    `string`,
    `${entities[1]}_id`,
    `Set when the reference is to a ${entities[1]}.`,
    aliasOpt(entities[1]),
  );
  b.close();
  b.line();
  b.comment("A file stored in the workspace.");
  b.open("message FileRef");
  f = fieldWriter(b);
  f("string", "file_id", "File id.", aliasOpt("file"));
  f("string", "path", "Path inside the workspace, '/'-separated.");
  f("google.protobuf.UInt64Value", "version", "Version; latest when unset.");
  b.close();
  b.line();
  if (v2) valueMessages(b);
  b.comment("Sort order for list calls.");
  b.open("enum SortOrder");
  b.line("SORT_ORDER_UNSPECIFIED = 0;");
  b.line("SORT_ORDER_NEWEST_FIRST = 1; // default");
  b.line("SORT_ORDER_OLDEST_FIRST = 2;");
  b.line("SORT_ORDER_TITLE = 3;");
  b.close();
  b.line();

  const rpcs = [];
  entities.forEach((e, i) => {
    const others = [entities[(i + 1) % 4], entities[(i + 2) % 4]];
    entityMessage(b, rng, e, others, domain, v2);
    const msgs = rpcMessages(b, rng, e, others, domain);
    for (const verb of ["create", "get", "update", "delete", "list"]) {
      const method =
        verb === "list"
          ? `List${pascal(plural(e))}`
          : `${pascal(verb)}${pascal(e)}`;
      rpcs.push({
        entityIndex: i,
        method,
        req: msgs[verb][0],
        res: msgs[verb][1],
        name: `${domain}_${e}_${verb}`,
        description: describe(rng, verb, e, domain),
        strict: rng.bool(0.5),
        autoExecute: rng.bool(0.7),
      });
    }
  });

  // One or two services.
  const split = rng.bool(0.5);
  const services = split
    ? [
        [`${Domain}Service`, rpcs.filter((r) => r.entityIndex < 2)],
        [`${Domain}AdminService`, rpcs.filter((r) => r.entityIndex >= 2)],
      ]
    : [[`${Domain}Service`, rpcs]];
  for (const [name, list] of services) {
    b.comment(`${name} manages ${domain} entities.`);
    b.open(`service ${name}`);
    for (const r of list) {
      b.comment(r.description.replace(/\\"/g, '"'));
      b.open(`rpc ${r.method}(${r.req}) returns (${r.res})`);
      const opts = [`name: "${r.name}"`, `description: "${r.description}"`];
      // Leave false flags out sometimes, as people do.
      if (r.strict || rng.bool(0.5)) opts.push(`strict: ${r.strict}`);
      if (r.autoExecute || rng.bool(0.5))
        opts.push(`auto_execute: ${r.autoExecute}`);
      b.line(`option (ai.tools.v1.rpc_tool) = {${opts.join(", ")}};`);
      b.close();
    }
    b.close();
    b.line();
  }

  if (rpcs.length !== RPCS_PER_FILE)
    throw new Error(`file ${index}: ${rpcs.length} rpcs`);
  return {
    path,
    content: b.toString(),
    tools: rpcs.length,
    services: services.length,
  };
}

/** The first `files` files of the corpus for `seed`. */
export function generateCorpus(seed, files, version = 2) {
  return Array.from({ length: files }, (_, i) =>
    generateFile(seed, i, version),
  );
}
