import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import type { ConnectError } from "@connectrpc/connect";
import type { Violation } from "./violations.js";

const badRequestType = "google.rpc.BadRequest";

/**
 * The field violations of the `google.rpc.BadRequest` details of a server
 * error, in order (reason `server`, the field as the server wrote it, the
 * message its description); details of other types, or that do not decode,
 * give none.
 */
export function badRequestViolations(
  details: ConnectError["details"],
): Violation[] {
  const out: Violation[] = [];
  for (const d of details) {
    if ("desc" in d) {
      if (d.desc.typeName === badRequestType) {
        const value = d.value as {
          fieldViolations?: { field?: string; description?: string }[];
        };
        for (const v of value.fieldViolations ?? []) {
          out.push(violation(v.field ?? "", v.description ?? ""));
        }
      }
    } else if (d.type === badRequestType) {
      try {
        out.push(...readBadRequest(d.value));
      } catch {
        // Not a BadRequest after all: the details stay for the application.
      }
    }
  }
  return out;
}

function violation(field: string, description: string): Violation {
  return { field, reason: "server", message: description };
}

/**
 * google.rpc.BadRequest's wire form: `repeated FieldViolation
 * field_violations = 1`, each `string field = 1; string description = 2`
 * (other fields skipped).
 */
function readBadRequest(bytes: Uint8Array): Violation[] {
  const out: Violation[] = [];
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (no !== 1 || wire !== WireType.LengthDelimited) {
      reader.skip(wire);
      continue;
    }
    const item = new BinaryReader(reader.bytes());
    let field = "";
    let description = "";
    while (item.pos < item.len) {
      const [n, w] = item.tag();
      if (n === 1 && w === WireType.LengthDelimited) {
        field = item.string();
      } else if (n === 2 && w === WireType.LengthDelimited) {
        description = item.string();
      } else {
        item.skip(w);
      }
    }
    out.push(violation(field, description));
  }
  return out;
}
