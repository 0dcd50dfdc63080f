import { readHttpPaths } from "../read/annotations.js";
import type { DescService } from "../read/descriptors.js";
import { compareUtf8 } from "../schema/canonical-json.js";
import { cleanComment, serviceLeadingComment } from "../schema/comments.js";
import { wellFormed } from "../schema/well-formed.js";
import { hashHead, maxToolNameBytes, wordTail } from "./derived-names.js";
import type { ToolModel } from "./model.js";

/**
 * The most functions a namespace holds before its service is split by
 * resource (OpenAI advises fewer than about 10 functions a namespace).
 */
export const maxNamespaceFunctions = 10;

/** The most function names a namespace's description lists. */
const listedFunctions = 8;

/** The longest service comment a description keeps, in characters. */
const maxSummary = 120;

/** A namespace's tool: the tool's name and its function's name in it. */
export interface NamespaceTool {
  readonly tool: string;
  /** The method's name (`CreateLink`): unique in its namespace. */
  readonly function: string;
}

/**
 * One namespace of the tool-search data (docs/tool-search.md): a gRPC
 * service's tools, or, for a service of more than
 * {@link maxNamespaceFunctions} tools, those of one resource of it.
 */
export interface ToolNamespace {
  /** Unique in the data, `^[a-zA-Z0-9_-]{1,64}$`: `LinkService`, `Instances_Disks`. */
  readonly name: string;
  /** What the model reads before any search: the service and its functions. */
  readonly description: string;
  /** The tools, in the model's (tool name) order. */
  readonly tools: readonly NamespaceTool[];
  /** The service's full name (not written: for messages and tests). */
  readonly service: string;
  /** The resource a split service's namespace holds, else "". */
  readonly resource: string;
}

/**
 * The namespaces of `tools` (sorted by name, as the model keeps them), in
 * the order of their first tool: one per service, named by the service's
 * short name (its full name with `.` → `_` where two services share a
 * short name, hash-shortened past 64 bytes as tool names are); a service
 * of more than {@link maxNamespaceFunctions} tools gets one namespace per
 * resource (`<Service>_<Resource>`, {@link resourceOf}), a group of one
 * resource staying whole whatever its size.
 */
export function toolNamespaces(tools: readonly ToolModel[]): ToolNamespace[] {
  const byService = new Map<DescService, ToolModel[]>();
  for (const tool of tools) {
    const list = byService.get(tool.service);
    if (list === undefined) byService.set(tool.service, [tool]);
    else list.push(tool);
  }
  const shortNames = new Map<string, number>();
  for (const service of byService.keys()) {
    shortNames.set(service.name, (shortNames.get(service.name) ?? 0) + 1);
  }
  const taken = new Set<string>();
  const out: ToolNamespace[] = [];
  for (const [service, own] of byService) {
    const base =
      shortNames.get(service.name) === 1
        ? service.name
        : service.typeName.replaceAll(".", "_");
    const summary = serviceSummary(service);
    const groups =
      own.length > maxNamespaceFunctions
        ? resourceGroups(service, own)
        : [{ resource: "", tools: own }];
    for (const group of groups) {
      const wanted =
        groups.length === 1 ? base : `${base}_${pascalWord(group.resource)}`;
      out.push({
        name: uniqueName(validName(wanted), taken),
        description: namespaceDescription(
          summary,
          groups.length === 1 ? "" : group.resource,
          group.tools,
        ),
        tools: group.tools.map((t) => ({
          tool: t.name,
          function: t.method.name,
        })),
        service: service.typeName,
        resource: groups.length === 1 ? "" : group.resource,
      });
    }
  }
  return out;
}

/**
 * The tools of one service grouped by {@link resourceOf}, groups in the
 * order of their first tool; resources that differ only by case or a
 * trailing "s" (`Link`, `Links`) are one group, named as its first tool's.
 */
function resourceGroups(
  service: DescService,
  tools: readonly ToolModel[],
): { resource: string; tools: ToolModel[] }[] {
  const collections = serviceCollections(service);
  const groups = new Map<string, { resource: string; tools: ToolModel[] }>();
  for (const tool of tools) {
    const resource = resourceOf(tool, collections);
    const key = resource.toLowerCase().replace(/(.)s$/, "$1");
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { resource, tools: [tool] });
    else group.tools.push(tool);
  }
  return [...groups.values()];
}

/**
 * The resource a tool acts on. From its method's first `(google.api.http)`
 * path: of the literal segments that name a collection (those the
 * service's paths follow with a variable, as `instances` in
 * `.../instances/{instance}/start` and `.../zones/{zone}/instances`), the
 * last one the method's name less its verb names (`workflows` for
 * SignalWorkflowExecution on `.../workflows/{id}/signal/{name}`), else
 * the last one. Without such a segment, the method's name less its verb
 * (`ListLinks` → `Links`), or the whole name when it is one word.
 */
export function resourceOf(
  tool: ToolModel,
  collections: ReadonlySet<string> = serviceCollections(tool.service),
): string {
  const noun = nameLessVerb(tool.method.name);
  const path = readHttpPaths(tool.method)[0];
  if (path !== undefined) {
    const literals = pathSegments(path).filter(
      (s) => !isWildcard(s) && collections.has(s),
    );
    const named = noun.toLowerCase();
    const last =
      [...literals].reverse().find((s) => names(named, s)) ??
      literals[literals.length - 1];
    if (last !== undefined) return last;
  }
  return noun;
}

/** `ListLinks` → `Links`; a one-word name stays whole. */
function nameLessVerb(name: string): string {
  const words = name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g);
  return words === null || words.length < 2 ? name : words.slice(1).join("");
}

/**
 * True when `noun` (lower case) holds the collection `segment`, plural or
 * singular: `workerdeployment` holds `worker-deployments`, `policy`
 * `policies`, `timeseries` `timeSeries`.
 */
function names(noun: string, segment: string): boolean {
  const flat = segment.toLowerCase().replace(/[-_.]/g, "");
  const singular = flat.endsWith("ies")
    ? `${flat.slice(0, -3)}y`
    : flat.replace(/(.)s$/, "$1");
  // A one- or two-letter segment (`ns`) would be found in any name.
  return flat.length > 2 && (noun.includes(flat) || noun.includes(singular));
}

/**
 * The literal segments the `(google.api.http)` paths of a service's
 * methods follow with a variable: its collections (`projects`, `zones`,
 * `instances`).
 */
export function serviceCollections(service: DescService): Set<string> {
  const out = new Set<string>();
  for (const method of service.methods) {
    for (const path of readHttpPaths(method)) {
      const segments = pathSegments(path);
      segments.forEach((s, i) => {
        const next = segments[i + 1];
        if (!isWildcard(s) && next !== undefined && isWildcard(next)) {
          out.add(s);
        }
      });
    }
  }
  return out;
}

/**
 * The segments of a path template (google/api/http.proto, "Path template
 * syntax"), its custom verb left out: a variable `{name}` is `*`, one with
 * a pattern (`{name=projects/*}`) is the pattern's segments.
 */
function pathSegments(template: string): string[] {
  const withoutVerb = template.replace(/:[^/{}]*$/, "");
  const flat = withoutVerb.replace(
    /\{([^}=]*)(?:=([^}]*))?\}/g,
    (_, _name: string, pattern: string | undefined) => pattern ?? "*",
  );
  return flat.split("/").filter((s) => s !== "");
}

function isWildcard(segment: string): boolean {
  return segment === "*" || segment === "**";
}

/**
 * `customJobs` → `CustomJobs`, `worker-deployments` → `WorkerDeployments`;
 * characters a name refuses dropped.
 */
function pascalWord(word: string): string {
  return word
    .split(/[-_.]+/)
    .map((part) => part.replace(/[^A-Za-z0-9]/g, ""))
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** A name of at most 64 bytes: shortened as a long tool name is. */
function validName(name: string): string {
  if (name.length <= maxToolNameBytes) return name;
  return `${hashHead(name)}_${wordTail(name, maxToolNameBytes - 11)}`;
}

/** `name`, or `name_2`, `name_3`… (shortened to fit) when taken. */
function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  for (let n = 2; taken.has(out); n++) {
    const suffix = `_${n}`;
    out = name.slice(0, maxToolNameBytes - suffix.length) + suffix;
  }
  taken.add(out);
  return out;
}

/**
 * The end of a sentence: `.`, `!` or `?` before white space or the end,
 * not the last dot of an abbreviation (`a.k.a.`, `e.g.`).
 */
const sentenceEnd = /(?<![.\s][A-Za-z])[.!?](?=\s|$)/;

/**
 * The first sentence of the service's leading comment (cleaned, one line,
 * from its first paragraph with a sentence's end, at most
 * {@link maxSummary} characters, cut at a word), else
 * `Tools of the <full name> service.`
 */
export function serviceSummary(service: DescService): string {
  const paragraphs = cleanComment(serviceLeadingComment(service))
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p !== "");
  // A heading above the service (Compute's "Services") is no sentence.
  const paragraph =
    paragraphs.find((p) => sentenceEnd.test(p)) ?? paragraphs[0] ?? "";
  if (paragraph === "") {
    return `Tools of the ${service.typeName} service.`;
  }
  const end = paragraph.search(sentenceEnd);
  const sentence = end < 0 ? `${paragraph}.` : paragraph.slice(0, end + 1);
  if (sentence.length <= maxSummary) {
    return wellFormed(sentence);
  }
  const cut = sentence.slice(0, maxSummary - 3);
  const space = cut.lastIndexOf(" ");
  return wellFormed(`${space > 0 ? cut.slice(0, space) : cut}...`);
}

/**
 * `<summary> Functions: A, B.` (`Functions on <resource>:` for a split
 * service's namespace), the names in byte order; past
 * {@link maxNamespaceFunctions} names, the first {@link listedFunctions}
 * and `and N more`.
 */
function namespaceDescription(
  summary: string,
  resource: string,
  tools: readonly ToolModel[],
): string {
  const names = tools.map((t) => t.method.name).sort(compareUtf8);
  const listed =
    names.length <= maxNamespaceFunctions
      ? names.join(", ")
      : `${names.slice(0, listedFunctions).join(", ")} and ${names.length - listedFunctions} more`;
  const on = resource === "" ? "" : ` on ${resource}`;
  return `${summary} Functions${on}: ${listed}.`;
}
