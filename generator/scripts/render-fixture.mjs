#!/usr/bin/env node
// Dev helper: renders templates/go/*.hbs from a hand-written GoFileView JSON
// (generator/test-go/fixture/*.json) the way the generator does (Handlebars,
// noEscape, each templates/go/x.hbs registered as partial "go/x", entry
// "go/file"), so the templates can be checked before the generator exists.
//
//   node generator/scripts/render-fixture.mjs <view.json> [<out.go>]
//
// Without <out.go> the Go source goes to stdout.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";

const here = dirname(fileURLToPath(import.meta.url));
const templateDir = join(here, "..", "..", "templates", "go");

const [viewPath, outPath] = process.argv.slice(2);
if (!viewPath) {
  console.error("usage: render-fixture.mjs <view.json> [<out.go>]");
  process.exit(2);
}

const hbs = Handlebars.create();
for (const file of readdirSync(templateDir).sort()) {
  if (!file.endsWith(".hbs")) continue;
  hbs.registerPartial(
    `go/${file.slice(0, -4)}`,
    readFileSync(join(templateDir, file), "utf8"),
  );
}
const render = hbs.compile("{{> go/file}}", { noEscape: true, strict: true });
const view = JSON.parse(readFileSync(viewPath, "utf8"));
const source = render(view);
if (outPath) {
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, source);
} else {
  process.stdout.write(source);
}
