import type { ToolModel } from "../model/model.js";
import { toolNamespaces } from "../model/tool-namespaces.js";
import type { DescMessage } from "../read/descriptors.js";
import { compareUtf8 } from "../schema/canonical-json.js";
import {
  enumValueLeadingComment,
  fieldLeadingComment,
  messageLeadingComment,
} from "../schema/comments.js";
import { tokenize } from "./tokenize.js";

/** How deep the request's message fields are followed for comments. */
const commentDepth = 3;
/** A word must be mentioned this many times in the API's distinct comments. */
const minMentions = 3;
/**
 * The tools holding a word fall in at most this many namespaces, and in at
 * most a {@link namespaceShare} of the API's: a corner of a big API. In a
 * small one a word is held by a large part of it (in a vectors case of 5
 * Vertex AI services, "off" and "them" went to its prediction tools).
 */
const maxNamespaces = 2;
const namespaceShare = 1 / 20;
/** At most this many words get an association (the most mentioned). */
const maxWords = 1000;

/**
 * Association expansion (docs/tool-search.md, "Search index"): `queryTerms`
 * entries for words of the API's own comments that the index does not
 * hold. A tool's unindexed text is the comments of its request's fields,
 * of the messages those fields carry (followed {@link commentDepth} levels
 * deep, whatever their package but google.protobuf's) and of those
 * messages' fields, and of the
 * values of the enums they use. A word of that text (lower case, not a stop
 * word, not starting with a digit, at least two letters) that is neither an
 * index term nor a key of `known` stands for one index term when it is a
 * concept of a corner of the API: it is mentioned at least {@link minMentions}
 * times in the API's distinct comments (each comment counted once, however
 * many tools carry it), and the tools whose text holds it belong to at most
 * {@link maxNamespaces} namespaces (model/tool-namespaces.ts), at most a
 * twentieth of the API's (no entries for an API of fewer than 20). Its term is
 * the word of those tools' service names and method names less their verb
 * (what the tools act on; the verb is the query's own) with the highest
 * `idf × share of those tools named by it` (ties by bytes): "surge" in
 * Compute's comments is held by the instance group managers' tools, so it
 * stands for `managers`. Computed from the API's protos alone; at most
 * {@link maxWords} words, the most mentioned. Deterministic.
 */
export function associatedTerms(
  tools: readonly ToolModel[],
  idf: ReadonlyMap<string, number>,
  known: ReadonlySet<string>,
  stopWords: ReadonlySet<string>,
): Map<string, string[]> {
  const namespaces = toolNamespaces(tools);
  const namespaceLimit = Math.min(
    maxNamespaces,
    Math.floor(namespaces.length * namespaceShare),
  );
  if (namespaceLimit < 1) return new Map();
  const namespaceOf = new Map<string, string>();
  for (const namespace of namespaces) {
    for (const tool of namespace.tools) {
      namespaceOf.set(tool.tool, namespace.name);
    }
  }
  const mentions = new Map<string, number>();
  // Each distinct comment's candidate words, counted once (many tools
  // share a message, so its comments are read once).
  const wordsOf = new Map<string, Set<string>>();
  const toolsHolding = new Map<string, number[]>();
  tools.forEach((tool, i) => {
    const words = new Set<string>();
    for (const comment of unindexedComments(tool.input)) {
      let tokens = wordsOf.get(comment);
      if (tokens === undefined) {
        const all = tokenize(comment).filter(
          (w) =>
            w.length > 1 &&
            !/^[0-9]/.test(w) &&
            !stopWords.has(w) &&
            !idf.has(w) &&
            !known.has(w),
        );
        for (const w of all) mentions.set(w, (mentions.get(w) ?? 0) + 1);
        tokens = new Set(all);
        wordsOf.set(comment, tokens);
      }
      for (const w of tokens) words.add(w);
    }
    for (const w of words) {
      const list = toolsHolding.get(w) ?? [];
      list.push(i);
      toolsHolding.set(w, list);
    }
  });
  const nameTerms = tools.map(
    (tool) =>
      new Set(
        [
          ...tokenize(tool.service.name),
          ...tokenize(tool.method.name).slice(1),
        ].filter((t) => idf.has(t)),
      ),
  );
  const words = [...toolsHolding.keys()]
    .filter(
      (w) =>
        mentions.get(w)! >= minMentions &&
        new Set(
          toolsHolding.get(w)!.map((i) => namespaceOf.get(tools[i]!.name)),
        ).size <= namespaceLimit,
    )
    .sort((a, b) => mentions.get(b)! - mentions.get(a)! || compareUtf8(a, b))
    .slice(0, maxWords);
  const table = new Map<string, string[]>();
  for (const w of words.sort(compareUtf8)) {
    const named = new Map<string, number>();
    for (const i of toolsHolding.get(w)!) {
      for (const term of nameTerms[i]!) {
        named.set(term, (named.get(term) ?? 0) + 1);
      }
    }
    let best: string | undefined;
    let bestScore = 0;
    for (const [term, count] of named) {
      const score = count * idf.get(term)!;
      if (
        score > bestScore ||
        (score === bestScore &&
          best !== undefined &&
          compareUtf8(term, best) < 0)
      ) {
        best = term;
        bestScore = score;
      }
    }
    if (best !== undefined) table.set(w, [best]);
  }
  return table;
}

/**
 * The comments of a request the index does not read: its fields', and,
 * {@link commentDepth} levels deep, the leading comments of the messages
 * its fields carry and their fields' comments, and the comments of the
 * values of every enum those fields use. Each message once.
 */
function unindexedComments(request: DescMessage): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (message: DescMessage, depth: number) => {
    // google.protobuf's types are documented for protobuf, not the API.
    if (
      seen.has(message.typeName) ||
      message.file.proto.package === "google.protobuf"
    ) {
      return;
    }
    seen.add(message.typeName);
    if (depth > 0) out.push(messageLeadingComment(message));
    for (const field of message.fields) {
      out.push(fieldLeadingComment(field));
      if (field.enum !== undefined) {
        for (const value of field.enum.values) {
          out.push(enumValueLeadingComment(value));
        }
      }
      if (field.message !== undefined && depth < commentDepth) {
        visit(field.message, depth + 1);
      }
    }
  };
  visit(request, 0);
  return out.filter((comment) => comment !== "");
}
