const isLower = (c: string): boolean => c >= "a" && c <= "z";
const isDigit = (c: string): boolean => c >= "0" && c <= "9";

/**
 * The Go name protoc-gen-go gives a proto name: words start at "_" or an
 * upper-case letter and are capitalised, "_" before a lower-case letter is
 * dropped, a leading "_" becomes "X", digits are kept.
 */
export function goCamelCase(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = s[i + 1];
    if (c === "." && next !== undefined && isLower(next)) {
      continue;
    }
    if (c === ".") {
      out += "_";
    } else if (c === "_" && (i === 0 || s[i - 1] === ".")) {
      out += "X";
    } else if (c === "_" && next !== undefined && isLower(next)) {
      continue;
    } else if (isDigit(c)) {
      out += c;
    } else {
      out += isLower(c) ? c.toUpperCase() : c;
      while (i + 1 < s.length && isLower(s[i + 1]!)) {
        out += s[++i];
      }
    }
  }
  return out;
}

/**
 * The Go type name of a message: nested names joined by "_"
 * (`Outer.Inner` → `Outer_Inner`).
 */
export function goMessageName(typeName: string, protoPackage: string): string {
  const local =
    protoPackage === "" ? typeName : typeName.slice(protoPackage.length + 1);
  return local.split(".").map(goCamelCase).join("_");
}
