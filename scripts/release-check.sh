#!/usr/bin/env bash
# The release's publishing steps, dry (docs/release.md): one version
# everywhere, a changelog entry, the annotation protos' contract, the two
# npm packages packed (pnpm pack, as the release packs them) and put
# through `npm publish --dry-run`, the Python sdist and wheel built and put
# through `twine check --strict`, and the Go modules' tags. Needs the build
# (dist/) and .venv; .ci/run runs it after both.
#
#   bash scripts/release-check.sh [--out DIR]
#
# --out DIR keeps the artifacts (DIR/npm/*.tgz, DIR/python/*) and the
# release notes (DIR/release-notes.md, only for a dated section): the
# release workflow publishes exactly those.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DO_NOT_TRACK=1 PIP_DISABLE_PIP_VERSION_CHECK=1

fail() { printf 'release-check: %s\n' "$*" >&2; exit 1; }
quiet() {
  local out
  if ! out="$("$@" 2>&1)"; then
    printf '%s\n' "$out" >&2
    fail "failed: $*"
  fi
}

out=""
case "${1:-}" in
  "") ;;
  --out) [ -n "${2:-}" ] || fail "--out needs a directory"; out="$2" ;;
  *) fail "unknown argument \"$1\": use --out DIR or nothing" ;;
esac
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -z "$out" ]; then out="$work/out"; fi
mkdir -p "$out/npm" "$out/python"
out="$(cd "$out" && pwd)"

version="$(node scripts/version.mjs)"
node scripts/version.mjs check

# A dated section for this version, or entries waiting under [Unreleased].
if grep -q "^## \[$version\]" CHANGELOG.md; then
  node scripts/release-notes.mjs "$version" >"$out/release-notes.md"
elif ! grep -q '^## \[Unreleased\]$' CHANGELOG.md; then
  fail "CHANGELOG.md has neither \"## [$version] - YYYY-MM-DD\" nor \"## [Unreleased]\": add the section"
fi

node scripts/proto-contract.mjs

# npm: a prerelease (1.0.0-rc.1) goes to the dist-tag next, not latest.
tag=latest
case "$version" in *-*) tag=next ;; esac
for dir in generator runtimes/ts; do
  [ -f "$dir/dist/index.js" ] || fail "$dir/dist is missing: build first (npx -y pnpm@12.4.2 run build)"
  quiet npx -y pnpm@12.4.2 --dir "$dir" pack --pack-destination "$out/npm"
done
for tarball in "$out"/npm/*.tgz; do
  node scripts/check-npm-tarball.mjs "$tarball" "$version"
  quiet npm publish --dry-run --access public --tag "$tag" "$tarball"
done

# PyPI: built from a copy of the files git tracks (or would), so that no
# build/, *.egg-info or generated test file of the work tree gets in, and
# setuptools writes its own there; --no-isolation: the pinned setuptools.
# With runtimes/go/redisstore/*.lua, which setup.py copies into the package.
git ls-files -z --cached --others --exclude-standard runtimes/python 'runtimes/go/redisstore/*.lua' |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$work" -xf -
quiet .venv/bin/python -m build --no-isolation --outdir "$out/python" "$work/runtimes/python"
# PEP 440 spells a prerelease its own way: 1.0.0-rc.1 is 1.0.0rc1.
pyversion="$(.venv/bin/python -c 'import sys; from packaging.version import Version; print(Version(sys.argv[1]))' "$version")"
for want in "protoc_gen_ai_tools_runtime-$pyversion.tar.gz" \
  "protoc_gen_ai_tools_runtime-$pyversion-py3-none-any.whl"; do
  [ -f "$out/python/$want" ] || fail "python -m build made no $want: see runtimes/python/pyproject.toml"
done
quiet .venv/bin/twine check --strict "$out"/python/*
# Every script of runtimes/go/redisstore, as committed there (a script setup.py
# does not list, or a stale copy, fails here).
.venv/bin/python - "$out/python" runtimes/go/redisstore <<'PY' || fail "the Python packages lack the Redis scripts: see runtimes/python/setup.py"
import sys, tarfile, zipfile
from pathlib import Path
out, source = Path(sys.argv[1]), Path(sys.argv[2])
scripts = {p.name: p.read_bytes() for p in sorted(source.glob("*.lua"))}
if not scripts:
    sys.exit(f"{source} holds no *.lua: run from the repository's root")
for archive in out.iterdir():
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as z:
            files = {n: z.read(n) for n in z.namelist() if n.endswith(".lua")}
    else:
        with tarfile.open(archive) as t:
            files = {m.name: t.extractfile(m).read() for m in t.getmembers() if m.name.endswith(".lua")}
    for lua, text in scripts.items():
        packed = [data for n, data in files.items() if n.endswith(f"ai_tools_runtime/redis/{lua}")]
        if not packed:
            sys.exit(f"{archive.name} has no ai_tools_runtime/redis/{lua}: list it in setup.py's SCRIPTS")
        if packed != [text]:
            sys.exit(f"{archive.name}'s ai_tools_runtime/redis/{lua} is not runtimes/go/redisstore/{lua}")
PY

# Go: the tags a release pushes (fails on a module path Go would refuse).
gotags="$(node scripts/version.mjs go-tags)"
[ -n "$gotags" ] || fail "no Go module to tag: runtimes/go/go.mod is missing"

printf 'release-check: %s ready: %s; %s; tags %s\n' "$version" \
  "$(cd "$out/npm" && echo *.tgz)" "$(cd "$out/python" && echo *)" "${gotags//$'\n'/ }"
