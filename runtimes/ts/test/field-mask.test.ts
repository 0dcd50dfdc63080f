// FieldMask paths in the argument check beyond the shared vectors
// (e2e/vectors/arguments/field-masks.json): the table's masks as read from
// JSON text, a mask under its JSON name (lenient), a mask in a nested
// message, and what checkFieldMask returns.
import { describe, expect, it } from "vitest";
import { checkArguments, readArguments } from "../src/argument-check.js";
import { parseArgumentTable } from "../src/argument-table.js";
import { checkFieldMask } from "../src/field-mask.js";
import { stringifyJson } from "../src/json.js";

const table = parseArgumentTable(
  "links_update",
  JSON.stringify({
    nodes: [
      {
        fields: {
          link: { node: 1 },
          update_mask: { mask: 0, json: "updateMask" },
        },
      },
      { fields: { target_url: {}, read_mask: { mask: 0 } } },
    ],
    masks: [
      {
        fields: {
          target_url: { json: "targetUrl" },
          page_theme_id: { json: "pageThemeId" },
        },
      },
    ],
  }),
);

/** The violations and the arguments after the check. */
function check(text: string, lenient = false): [unknown, string] {
  const args = readArguments(text).args!;
  const violations = checkArguments(args, table, { lenient });
  return [violations, stringifyJson(args)];
}

describe("field masks in the argument check", () => {
  it("rewrites a mask given under its JSON name, when lenient", () => {
    expect(check('{"updateMask":"target_url, page_theme_id"}', true)).toEqual([
      [],
      '{"updateMask":"targetUrl,pageThemeId"}',
    ]);
  });

  it("checks a mask in a nested message, after the structure check", () => {
    expect(check('{"link":{"read_mask":"target_ur"},"x":1}')).toEqual([
      [
        {
          field: "x",
          reason: "unknown-field",
          message: "unknown field; valid fields: link, update_mask",
        },
        {
          field: "link.read_mask",
          reason: "invalid-value",
          message:
            'unknown field "target_ur" in path "target_ur"; did you mean "target_url"? valid fields: target_url, page_theme_id',
        },
      ],
      '{"link":{"read_mask":"target_ur"},"x":1}',
    ]);
    expect(check('{"link":{"read_mask":"page_theme_id"}}')).toEqual([
      [],
      '{"link":{"read_mask":"pageThemeId"}}',
    ]);
  });

  it("leaves null and absent masks alone", () => {
    expect(check('{"update_mask":null}')).toEqual([[], '{"update_mask":null}']);
  });

  it("returns the wire form or every bad path", () => {
    expect(checkFieldMask("\ttarget_url\r\n,*", table.masks, 0)).toEqual({
      wire: "targetUrl,*",
    });
    expect(checkFieldMask("a,target_url.b", table.masks, 0)).toEqual({
      problems: [
        'unknown field "a" in path "a"; valid fields: target_url, page_theme_id',
        'field "target_url" has no fields, in path "target_url.b"',
      ],
    });
  });
});

describe("map keys in a mask", () => {
  const masks = parseArgumentTable(
    "t",
    '{"nodes":[{"fields":{"m":{"mask":0}}}],"masks":[{"fields":{"labels":{"map":true}}}]}',
  ).masks;

  it("sends a key of lower-case letters and digits as written", () => {
    expect(checkFieldMask("labels.a1,labels.z", masks, 0)).toEqual({
      wire: "labels.a1,labels.z",
    });
  });

  it("refuses any other key before what follows it", () => {
    const refused = (key: string, path: string) =>
      `map key ${JSON.stringify(key)} in path ${JSON.stringify(path)} cannot be sent in a field mask: keys there take lower-case letters and digits only, starting with a letter`;
    expect(
      checkFieldMask("labels.Env.x,labels.é,labels.env.x", masks, 0),
    ).toEqual({
      problems: [
        refused("Env", "labels.Env.x"),
        refused("é", "labels.é"),
        'field "labels" has no fields, in path "labels.env.x"',
      ],
    });
  });
});

describe("argument tables with masks", () => {
  const bad = (text: string) => () => parseArgumentTable("t", text);

  it("refuses a mask index out of range, or a mask that is not a node", () => {
    expect(bad('{"nodes":[{"fields":{"m":{"mask":0}}}]}')).toThrow(
      'tool "t": invalid argument table: node 0 is not {"fields": {…}, "required"?: […]}; regenerate the file with this runtime\'s protoc-gen-ai-tools',
    );
    expect(
      bad(
        '{"nodes":[{"fields":{"m":{"mask":0}}}],"masks":[{"fields":{"a":{"node":1}}}]}',
      ),
    ).toThrow('invalid argument table: mask 0 is not {"fields": {…}}');
    expect(bad('{"nodes":[{"fields":{}}],"masks":{}}')).toThrow(
      'invalid argument table: "masks" is not an array',
    );
  });

  it("reads a table without masks as one with none", () => {
    expect(parseArgumentTable("t", '{"nodes":[{"fields":{}}]}').masks).toEqual(
      [],
    );
  });
});
