// A small line diff printing unified-style hunks (for golden --check).

/** Unified diff of two texts; "" when equal. */
export function unifiedDiff(oldText, newText, oldName, newName, context = 3) {
  if (oldText === newText) return "";
  const a = splitLines(oldText);
  const b = splitLines(newText);
  // Trim the common prefix and suffix so the LCS table stays small.
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (
    suf < a.length - pre &&
    suf < b.length - pre &&
    a[a.length - 1 - suf] === b[b.length - 1 - suf]
  ) {
    suf++;
  }
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const ops = [];
  for (let i = 0; i < pre; i++) ops.push([" ", a[i], i, i]);
  for (const op of lcsOps(am, bm)) {
    ops.push([op[0], op[1], op[2] + pre, op[3] + pre]);
  }
  for (let i = 0; i < suf; i++) {
    const ai = a.length - suf + i;
    const bi = b.length - suf + i;
    ops.push([" ", a[ai], ai, bi]);
  }

  const out = [`--- ${oldName}`, `+++ ${newName}`];
  let i = 0;
  while (i < ops.length) {
    if (ops[i][0] === " ") {
      i++;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines
    // after the last change closer than 2*context to the previous one.
    let start = Math.max(0, i - context);
    let end = i;
    let j = i;
    while (j < ops.length) {
      if (ops[j][0] !== " ") {
        end = j;
        j++;
        continue;
      }
      let k = j;
      while (k < ops.length && ops[k][0] === " ") k++;
      if (k < ops.length && k - j <= 2 * context) {
        j = k;
        continue;
      }
      break;
    }
    const stop = Math.min(ops.length, end + 1 + context);
    const hunk = ops.slice(start, stop);
    const aStart = firstIndex(hunk, 2, " -");
    const bStart = firstIndex(hunk, 3, " +");
    const aLen = hunk.filter((o) => o[0] !== "+").length;
    const bLen = hunk.filter((o) => o[0] !== "-").length;
    out.push(`@@ -${aStart + 1},${aLen} +${bStart + 1},${bLen} @@`);
    for (const o of hunk) out.push(o[0] + o[1]);
    i = stop;
  }
  return out.join("\n") + "\n";
}

function firstIndex(hunk, col, kinds) {
  for (const o of hunk) if (kinds.includes(o[0])) return o[col];
  return 0;
}

function splitLines(text) {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  else if (text !== "")
    lines[lines.length - 1] += "  (no newline at end of file)";
  return lines;
}

// Ops of an LCS alignment: [kind, line, indexInA, indexInB].
function lcsOps(a, b) {
  const n = a.length;
  const m = b.length;
  if (n * m > 25_000_000) {
    // Too big for a table: everything removed, then everything added.
    return [
      ...a.map((l, i) => ["-", l, i, 0]),
      ...b.map((l, j) => ["+", l, n, j]),
    ];
  }
  const w = m + 1;
  const t = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      t[i * w + j] =
        a[i] === b[j]
          ? t[(i + 1) * w + j + 1] + 1
          : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push([" ", a[i], i, j]);
      i++;
      j++;
    } else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) {
      ops.push(["-", a[i], i, j]);
      i++;
    } else {
      ops.push(["+", b[j], i, j]);
      j++;
    }
  }
  for (; i < n; i++) ops.push(["-", a[i], i, j]);
  for (; j < m; j++) ops.push(["+", b[j], i, j]);
  return ops;
}
