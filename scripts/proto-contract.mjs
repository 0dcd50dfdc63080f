#!/usr/bin/env node
// The annotation protos are a public contract (docs/versioning.md). Checks,
// with the workspace's buf (node_modules/.bin/buf), that the annotations
// module (proto/, without proto/examples) keeps it:
//
// 1. `buf breaking` (FILE rules) against the baseline: the image of the last
//    release's annotations, committed at .ci/annotations-baseline.binpb;
// 2. every extension of the baseline keeps its number and extendee (the
//    plugin reads options by number; buf breaking does not compare
//    extension numbers);
// 3. ToolDefinition and the companion's message (protoc-gen-ai-context's
//    `(ai.context.v1.rpc_tool)`, read at the same number 52104; test copy in
//    generator/testdata/include) agree on every number they share: same
//    name, same type. A new ToolDefinition field takes a number the
//    companion's message does not use.
//
//   node scripts/proto-contract.mjs                   check
//   node scripts/proto-contract.mjs --write-baseline  at a release: the
//                                                     baseline := the current protos
//   node scripts/proto-contract.mjs --released        the release workflow: also
//                                                     fail unless baseline = current
// --proto <dir>, --baseline <file>, --include <dir> (holding
// ai/context/v1/rpc_tool.proto) check other copies (the tests use them).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const buf = join(root, "node_modules", ".bin", "buf");
const baselinePath = ".ci/annotations-baseline.binpb";
const companionInclude = "generator/testdata/include";
const companionFile = "ai/context/v1/rpc_tool.proto";
const breakingConfig = '{"version":"v2","breaking":{"use":["FILE"]}}';

class ContractError extends Error {}

function runBuf(args) {
  try {
    return execFileSync(buf, args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 << 20,
    });
  } catch (e) {
    const out = `${e.stdout ?? ""}${e.stderr ?? ""}`.trim();
    throw new ContractError(`buf ${args[0]} failed:\n${out || e.message}`);
  }
}

/** buf's arguments for the annotations module: a directory, limited to its protos. */
function moduleInput(protoDir) {
  // The workspace's proto/ holds two modules; the annotations are proto/ai.
  return protoDir === undefined ? ["proto", "--path", "proto/ai"] : [protoDir];
}

/** The descriptors of an input's own files (imports left out), as JSON. */
function describe(input) {
  const image = JSON.parse(
    runBuf([
      "build",
      ...input,
      "--exclude-imports",
      "--exclude-source-info",
      "-o",
      "-#format=json",
    ]),
  );
  return image.file ?? [];
}

/** Every extension an image declares, by full name. */
function extensions(files) {
  const found = new Map();
  const visit = (scope, owner) => {
    for (const ext of owner.extension ?? []) {
      found.set(`${scope}.${ext.name}`, ext);
    }
    for (const msg of owner.messageType ?? owner.nestedType ?? []) {
      visit(`${scope}.${msg.name}`, msg);
    }
  };
  for (const file of files) visit(file.package ?? "", file);
  return found;
}

function checkBreaking(current, baseline, label) {
  try {
    execFileSync(
      buf,
      ["breaking", current, "--against", baseline, "--config", breakingConfig],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
  } catch (e) {
    const out = `${e.stdout ?? ""}${e.stderr ?? ""}`.trim();
    throw new ContractError(
      `the annotation protos break the last release's (${label}):\n${out}\n` +
        "keep the released names, numbers and types (docs/versioning.md); a removal waits for the next major version",
    );
  }
}

function checkExtensionNumbers(currentFiles, baselineFiles) {
  const now = extensions(currentFiles);
  const problems = [];
  for (const [name, was] of extensions(baselineFiles)) {
    const is = now.get(name);
    if (is === undefined) continue; // a deletion: buf breaking reports it
    if (is.number !== was.number || is.extendee !== was.extendee) {
      problems.push(
        `extension "${name}" is ${is.extendee} ${is.number}, released as ${was.extendee} ${was.number}: restore ${was.number}`,
      );
    }
  }
  if (problems.length > 0) {
    throw new ContractError(
      `the annotation protos change released extension numbers (the plugin reads options by number):\n${problems.join("\n")}`,
    );
  }
}

function findMessage(files, fullName) {
  for (const file of files) {
    for (const msg of file.messageType ?? []) {
      if (`${file.package}.${msg.name}` === fullName) return { file, msg };
    }
  }
  return undefined;
}

function checkCompanion(currentFiles, companionFiles) {
  const ours = extensions(currentFiles).get("ai.tools.v1.rpc_tool");
  const theirs = extensions(companionFiles).get("ai.context.v1.rpc_tool");
  if (ours === undefined || theirs === undefined) {
    throw new ContractError(
      `rpc_tool not found (${ours === undefined ? "ai.tools.v1" : companionFile}): both declare the method option read at 52104`,
    );
  }
  if (ours.number !== theirs.number) {
    throw new ContractError(
      `(ai.tools.v1.rpc_tool) is ${ours.number}, the companion's (ai.context.v1.rpc_tool) ${theirs.number}: both must be 52104`,
    );
  }
  const tool = findMessage(currentFiles, ours.typeName.slice(1));
  const companion = findMessage(companionFiles, theirs.typeName.slice(1));
  const byNumber = new Map(tool.msg.field.map((f) => [f.number, f]));
  const problems = [];
  for (const their of companion.msg.field) {
    const our = byNumber.get(their.number);
    if (our === undefined) continue;
    if (our.name !== their.name || our.type !== their.type) {
      problems.push(
        `ToolDefinition field ${their.number} is "${our.name}" (${our.type}), the companion's is "${their.name}" (${their.type})`,
      );
    }
  }
  if (problems.length > 0) {
    const used = companion.msg.field.map((f) => f.number).join(", ");
    throw new ContractError(
      `(ai.context.v1.rpc_tool) is read as a ToolDefinition, so the numbers they share must mean the same:\n${problems.join("\n")}\n` +
        `give a new ToolDefinition field a number the companion's ${companion.msg.name} does not use (it uses ${used})`,
    );
  }
}

function parseArgs(argv) {
  const opts = { write: false, released: false };
  const names = {
    "--proto": "proto",
    "--baseline": "baseline",
    "--include": "include",
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--write-baseline") {
      opts.write = true;
    } else if (arg === "--released") {
      opts.released = true;
    } else if (arg in names) {
      const value = argv[++i];
      if (value === undefined || value.startsWith("--")) {
        throw new ContractError(
          `missing value for "${arg}": give it a path (${arg} <path>)`,
        );
      }
      opts[names[arg]] = resolve(value);
    } else {
      throw new ContractError(
        `unknown argument "${arg}": use --write-baseline, --released, --proto <dir>, --baseline <file>, --include <dir>`,
      );
    }
  }
  return opts;
}

function main(argv) {
  const opts = parseArgs(argv);
  const input = moduleInput(opts.proto);
  const baseline = opts.baseline ?? join(root, baselinePath);
  if (opts.write) {
    runBuf(["build", ...input, "--exclude-source-info", "-o", baseline]);
    process.stdout.write(`proto-contract: wrote ${baseline}\n`);
    return;
  }
  // Named from the repository root when inside it, as the docs name it.
  const rel = relative(root, baseline);
  const label = rel.startsWith("..") ? baseline : rel;
  if (!existsSync(baseline)) {
    throw new ContractError(
      `${label}: no such file; it is the last release's annotations, written at a release by node scripts/proto-contract.mjs --write-baseline` +
        (opts.baseline === undefined ? "" : ` --baseline ${label}`),
    );
  }
  const tmp = mkdtempSync(join(tmpdir(), "proto-contract-"));
  try {
    const current = join(tmp, "current.binpb");
    runBuf(["build", ...input, "--exclude-source-info", "-o", current]);
    checkBreaking(current, baseline, label);
    const currentFiles = describe([current]);
    const baselineFiles = describe([baseline]);
    checkExtensionNumbers(currentFiles, baselineFiles);
    // The descriptors only: buf's own extension names the module.
    const bare = (files) =>
      JSON.stringify(files, (key, value) =>
        key === "bufExtension" ? undefined : value,
      );
    if (opts.released && bare(currentFiles) !== bare(baselineFiles)) {
      throw new ContractError(
        `${label} is not the released protos: run node scripts/proto-contract.mjs --write-baseline, commit, and tag that commit`,
      );
    }
    const include = opts.include ?? join(root, companionInclude);
    checkCompanion(
      currentFiles,
      describe([include, "--path", join(include, companionFile)]),
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

try {
  main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof ContractError)) throw e;
  process.stderr.write(`proto-contract: ${e.message}\n`);
  process.exit(1);
}
