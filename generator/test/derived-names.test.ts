import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  deriveToolName,
  hashHead,
  maxToolNameBytes,
  wordTail,
} from "../src/model/derived-names.js";
import { cleanComment } from "../src/schema/comments.js";
import { toolNamePattern } from "../src/model/tool-names.js";

/** SHA-256 of `s` as a big-endian unsigned integer, in lowercase base 36. */
function base36Sha256(s: string): string {
  const hex = createHash("sha256").update(s).digest("hex");
  return BigInt(`0x${hex}`).toString(36);
}

/** A full name of `length` bytes: `acme.v1.S.` and a method name. */
function fullNameOf(length: number, seed = ""): string {
  const head = `acme.v1.S${seed}.`;
  return head + "M" + "x".repeat(length - head.length - 1);
}

function nameOf(fullName: string, trim = "", max = maxToolNameBytes): string {
  const derived = deriveToolName(fullName, trim, max);
  if ("problem" in derived) {
    throw new Error(derived.problem);
  }
  return derived.name;
}

describe("derived tool names", () => {
  it("are the full name with . replaced by _", () => {
    expect(nameOf("acme.crm.v1.CrmService.CreateAccount")).toBe(
      "acme_crm_v1_CrmService_CreateAccount",
    );
  });

  it("keep a name of exactly 64 bytes", () => {
    const full = fullNameOf(64);
    expect(nameOf(full)).toBe(full.replaceAll(".", "_"));
    expect(nameOf(full)).toHaveLength(64);
  });

  it("shorten a name of 65 bytes or more to the hash head and the last 53 bytes", () => {
    for (const length of [65, 66, 200]) {
      const full = fullNameOf(length);
      const underscored = full.replaceAll(".", "_");
      const name = nameOf(full);
      expect(name).toHaveLength(64);
      expect(name.slice(10, 11)).toBe("_");
      expect(name.slice(11)).toBe(underscored.slice(-53));
      expect(name).toMatch(toolNamePattern);
      expect(name).toMatch(/^[a-z]/);
      const text = base36Sha256(underscored);
      expect(name.slice(0, 10)).toBe(
        /^[a-z]/.test(text) ? text.slice(0, 10) : `h${text.slice(0, 9)}`,
      );
    }
  });

  it("start with a letter when the hash starts with a digit", () => {
    let full = "";
    for (let i = 0; full === ""; i++) {
      const candidate = fullNameOf(80, String(i));
      if (/^[0-9]/.test(base36Sha256(candidate.replaceAll(".", "_")))) {
        full = candidate;
      }
    }
    const text = base36Sha256(full.replaceAll(".", "_"));
    const name = nameOf(full);
    expect(name.slice(0, 11)).toBe(`h${text.slice(0, 9)}_`);
    expect(name).toHaveLength(64);
    expect(hashHead(full.replaceAll(".", "_"))).toBe(`h${text.slice(0, 9)}`);
  });

  it("keep the head as protoc-gen-go-mcp writes it when it starts with a letter", () => {
    let full = "";
    for (let i = 0; full === ""; i++) {
      const candidate = fullNameOf(80, String(i));
      if (/^[a-z]/.test(base36Sha256(candidate.replaceAll(".", "_")))) {
        full = candidate;
      }
    }
    const underscored = full.replaceAll(".", "_");
    expect(nameOf(full)).toBe(
      `${base36Sha256(underscored).slice(0, 10)}_${underscored.slice(-53)}`,
    );
  });

  it("shorten to the room a name prefix leaves", () => {
    const full = fullNameOf(60);
    expect(nameOf(full, "", 64 - 6)).toHaveLength(58);
    expect(nameOf(full, "", 64 - 4)).toBe(full.replaceAll(".", "_"));
  });

  it("take trim_prefix off, with or without the dot that follows it", () => {
    const full = "acme.crm.v1.CrmService.CreateAccount";
    expect(nameOf(full, "acme.crm.v1")).toBe("CrmService_CreateAccount");
    expect(nameOf(full, "acme.crm.v1.")).toBe("CrmService_CreateAccount");
    expect(nameOf(full, "acme.crm.v1.CrmService")).toBe("CreateAccount");
    expect(nameOf(full, "other.v1")).toBe(
      "acme_crm_v1_CrmService_CreateAccount",
    );
  });

  it("refuse a trim_prefix that leaves nothing or no letter first", () => {
    expect(deriveToolName("acme.v1.S.M", "acme.v1.S.M")).toEqual({
      problem:
        'trim_prefix "acme.v1.S.M" leaves nothing of the method\'s name "acme.v1.S.M"; make trim_prefix shorter, or name the tool with an rpc_tool option',
    });
    expect(deriveToolName("acme.v1.S.M", "acme.v")).toEqual({
      problem:
        'trim_prefix "acme.v" leaves "1.S.M" of the method\'s name "acme.v1.S.M", which does not start with a letter; make trim_prefix shorter, or name the tool with an rpc_tool option',
    });
    expect(deriveToolName("acme.v1.S._M", "acme.v1.S")).toHaveProperty(
      "problem",
    );
  });
});

describe("shortened names cut at a word", () => {
  it("keep the longest tail that starts after _ or at a capital after a lower-case letter or digit", () => {
    expect(wordTail("acme_v1_LongServiceName_CreateAccount", 20)).toBe(
      "Name_CreateAccount",
    );
    expect(wordTail("acme_v1_LongServiceName_CreateAccount", 17)).toBe(
      "CreateAccount",
    );
    expect(wordTail("acme_v1_Svc_GetThing", 12)).toBe("Svc_GetThing");
    expect(wordTail("acme_v1_Svc_GetThing", 11)).toBe("GetThing");
    expect(wordTail("acme_v2_Svc_Get", 8)).toBe("Svc_Get");
    expect(wordTail("acme_v2Svc", 3)).toBe("Svc");
  });

  it("never start at _, and keep the plain cut when no word starts in the room", () => {
    expect(wordTail("a__Bcd", 4)).toBe("Bcd");
    expect(wordTail("abcdefgh", 3)).toBe("fgh");
    expect(wordTail("ab_cdefgh", 3)).toBe("fgh");
    expect(wordTail("ab__", 2)).toBe("");
  });

  it("make Google's long names readable, without __", () => {
    const full =
      "google.cloud.aiplatform.v1.FeaturestoreOnlineServingService.StreamingReadFeatureValues";
    const name = nameOf(full);
    expect(name).toBe(
      `${hashHead(full.replaceAll(".", "_"))}_OnlineServingService_StreamingReadFeatureValues`,
    );
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name).not.toContain("__");
    const short = nameOf(
      "acme.v1.ServiceWithAVeryLongName.DoSomethingQuiteLongIndeed",
      "",
      40,
    );
    expect(short.slice(11)).toBe("DoSomethingQuiteLongIndeed");
  });
});

describe("method comments as descriptions", () => {
  it("drop lint directives, the space after // and blank lines at the ends", () => {
    expect(
      cleanComment(
        " buf:lint:ignore RPC_REQUEST_STANDARD_NAME\n Creates an account.\n\n Owners only.  \n @ignore-comment\n\n",
      ),
    ).toBe("Creates an account.\n\nOwners only.");
  });

  it("keep indentation past the first space, and Windows line ends", () => {
    expect(cleanComment(" Steps:\r\n   1. ask\r\n")).toBe("Steps:\n  1. ask");
  });

  it("leave nothing of a comment that only holds directives", () => {
    expect(cleanComment(" buf:lint:ignore X\n  @ignore-comment\n")).toBe("");
  });
});
