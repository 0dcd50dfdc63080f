// What the mixed-language run checks: the tools' arguments, what the model
// was shown in a conversation (checked as it comes), and a conversation's
// Redis hash (docs/store.md, "Key layout") against what was shown and the
// server's data.
import { expect } from "vitest";
import type { ServerData } from "./linkhub.js";
import type { Answer, Worker } from "./workers.js";

/** UUIDs (8-4-4-4-12 hex) anywhere in a text. */
export const uuidRe =
  /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;

/** A string value that is exactly an alias of a declared prefix. */
export const aliasRe = /"(link|theme|step)-[0-9]+"/;

/** A link as the model reads it (proto field names). */
export interface ShownLink {
  readonly id: string;
  readonly title: string;
  readonly page_theme_id: string;
}

/** A page theme as the model reads it. */
export interface ShownTheme {
  readonly id: string;
  readonly name: string;
}

/** links_create's arguments (strict form: every field present). */
export function linkArgs(ws: string, title: string, theme: string): object {
  return {
    workspace_id: ws,
    target_url: `https://example.com/${encodeURIComponent(title)}`,
    slug: null,
    page_theme_id: theme,
    labels: [],
    title,
    expire_after: null,
  };
}

/** page_themes_create's arguments. */
export function themeArgs(ws: string, name: string): object {
  return {
    workspace_id: ws,
    name,
    background_color: "",
    font: "",
    palette: [],
  };
}

/** The answer's result, or an Error naming the call and the answer. */
export function resultOf<T>(a: Answer, what: string): T {
  if (a.result === undefined) {
    throw new Error(`${what}: ${JSON.stringify(a)}`);
  }
  return a.result as T;
}

/**
 * What the model was shown in one conversation, by whichever worker: the
 * title of each alias (from creates, gets and lists) and each link's theme
 * alias. A contradiction is a problem, kept to be reported at the end.
 */
export class Seen {
  /** alias → title (links) or name (themes), as first shown. */
  readonly titles = new Map<string, string>();
  /** link alias → its theme alias, as first shown. */
  readonly themeOf = new Map<string, string>();
  readonly problems: string[] = [];
  /** How many links and themes this conversation created. */
  readonly created = { link: 0, theme: 0 };
  /** The aliases creates showed: each create must show a new one. */
  readonly createdAliases = new Set<string>();

  constructor(
    /** The conversation's workspace: its id is the one UUID shown. */
    readonly ws: string,
  ) {}

  /** The highest number shown for a prefix (0: none yet). */
  top(prefix: "link" | "theme"): number {
    let n = 0;
    for (const alias of this.titles.keys()) {
      const [p, k] = alias.split("-");
      if (p === prefix) n = Math.max(n, Number(k));
    }
    return n;
  }

  /** A result shown to the model, in `where` (tool and worker). */
  result(where: string, result: unknown): void {
    const text = JSON.stringify(result);
    for (const u of text.match(uuidRe) ?? []) {
      if (u !== this.ws) this.problems.push(`${where}: the model saw ${u}`);
    }
  }

  /** An alias shown with a title (and, for a link, its theme alias). */
  show(where: string, alias: string, title: string, theme?: string): void {
    const known = this.titles.get(alias);
    if (known === undefined) this.titles.set(alias, title);
    else if (known !== title) {
      this.problems.push(`${where}: ${alias} is ${title}, was ${known}`);
    }
    if (theme === undefined) return;
    const knownTheme = this.themeOf.get(alias);
    if (knownTheme === undefined) this.themeOf.set(alias, theme);
    else if (knownTheme !== theme) {
      this.problems.push(
        `${where}: ${alias} has theme ${theme}, had ${knownTheme}`,
      );
    }
  }
}

/**
 * links_get of alias by w in a conversation: the link as it was shown
 * (its title and theme alias), named by where (a tool name is appended).
 */
export async function expectLinkAsShown(
  w: Worker,
  handle: string,
  alias: string,
  seen: Seen,
  where: (tool: string) => string,
): Promise<void> {
  const { link } = resultOf<{ link: ShownLink }>(
    await w.call(handle, "links_get", { id: alias }),
    where(`links_get ${alias}`),
  );
  expect(link, where("links_get")).toMatchObject({
    id: alias,
    title: seen.titles.get(alias),
    page_theme_id: seen.themeOf.get(alias),
  });
}

/**
 * page_themes_create by w in seen's conversation and workspace: the next
 * theme alias, shown with name.
 */
export async function createThemeAsShown(
  w: Worker,
  handle: string,
  seen: Seen,
  name: string,
  where: (tool: string) => string,
): Promise<void> {
  const { page_theme: theme } = resultOf<{ page_theme: ShownTheme }>(
    await w.call(handle, "page_themes_create", themeArgs(seen.ws, name)),
    where("page_themes_create"),
  );
  expect(theme.id, where("page_themes_create")).toBe(
    `theme-${++seen.created.theme}`,
  );
  seen.show(where("page_themes_create"), theme.id, name);
}

/**
 * links_create by w in seen's conversation and workspace on the theme
 * alias theme: the next link alias, shown with title and theme, its
 * result holding no UUID but the workspace's.
 */
export async function createLinkAsShown(
  w: Worker,
  handle: string,
  seen: Seen,
  title: string,
  theme: string,
  where: (tool: string) => string,
): Promise<void> {
  const answer = await w.call(
    handle,
    "links_create",
    linkArgs(seen.ws, title, theme),
  );
  const { link } = resultOf<{ link: ShownLink }>(answer, where("links_create"));
  seen.result(where("links_create"), answer.result);
  expect(link, where("links_create")).toMatchObject({
    id: `link-${++seen.created.link}`,
    title,
    page_theme_id: theme,
  });
  seen.show(where("links_create"), link.id, title, theme);
}

/** A conversation's key (docs/store.md, default prefix). */
export const keyOf = (handle: string): string => `ai-tools:conv:{${handle}}`;

/**
 * Check a conversation's hash against the key layout: `v` is 1, `epoch` 32
 * hex digits, each `a:<alias>` has its `u:<uuid>`, each prefix numbers
 * 1 … `n:<prefix>` without a gap, the loaded tools' `t:<name>` positions
 * are 1 … `tn` each once, and no field else. Returns alias → UUID and the
 * counters.
 */
export function readLayout(
  fields: Record<string, string>,
  what: string,
): { aliases: Map<string, string>; counters: Map<string, number> } {
  expect(fields["v"], `${what}: v`).toBe("1");
  expect(fields["epoch"], `${what}: epoch`).toMatch(/^[0-9a-f]{32}$/);
  const aliases = new Map<string, string>();
  const counters = new Map<string, number>();
  const uuids = new Map<string, string>();
  const positions: number[] = [];
  for (const [field, value] of Object.entries(fields)) {
    const [kind, rest] = [field.slice(0, 2), field.slice(2)];
    if (kind === "a:") aliases.set(rest, value);
    else if (kind === "u:") uuids.set(rest, value);
    else if (kind === "n:") counters.set(rest, Number(value));
    else if (kind === "t:") positions.push(Number(value));
    else {
      expect(["v", "epoch", "tn"], `${what}: field ${field}`).toContain(field);
    }
  }
  expect(
    positions.sort((a, b) => a - b),
    `${what}: loaded tools at 1 … tn`,
  ).toEqual(
    Array.from({ length: Number(fields["tn"] ?? "0") }, (_, i) => i + 1),
  );
  const want = [...counters].flatMap(([prefix, n]) =>
    Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`),
  );
  expect([...aliases.keys()].sort(), `${what}: aliases without gap`).toEqual(
    want.sort(),
  );
  expect(
    new Map([...aliases].map(([alias, uuid]) => [uuid, alias])),
    `${what}: u:<uuid> the inverse of a:<alias>`,
  ).toEqual(uuids);
  return { aliases, counters };
}

/**
 * Check one conversation's hash against what was shown and the server's
 * data: every link and theme of the workspace has its alias (no more, no
 * less), each alias shown names the entity with the title shown, each link
 * the theme shown; the counters are the creates made.
 */
export async function checkConversation(
  data: ServerData,
  fields: Record<string, string>,
  seen: Seen,
  what: string,
): Promise<void> {
  const { aliases, counters } = readLayout(fields, what);
  expect(counters.get("link") ?? 0, `${what}: n:link`).toBe(seen.created.link);
  expect(counters.get("theme") ?? 0, `${what}: n:theme`).toBe(
    seen.created.theme,
  );
  const { links } = await data.links.listLinks({ workspaceId: seen.ws });
  const { pageThemes } = await data.themes.listPageThemes({
    workspaceId: seen.ws,
  });
  const titleOf = new Map<string, string>([
    ...links.map((l): [string, string] => [l.id, l.title ?? ""]),
    ...pageThemes.map((t): [string, string] => [t.id, t.name]),
  ]);
  const themeOf = new Map(links.map((l) => [l.id, l.pageThemeId]));
  expect(new Set(aliases.values()), `${what}: the server's entities`).toEqual(
    new Set(titleOf.keys()),
  );
  for (const [alias, title] of seen.titles) {
    expect(titleOf.get(aliases.get(alias) ?? ""), `${what}: ${alias}`).toBe(
      title,
    );
  }
  for (const [link, theme] of seen.themeOf) {
    expect(
      themeOf.get(aliases.get(link) ?? ""),
      `${what}: ${link}'s theme`,
    ).toBe(aliases.get(theme));
  }
}
