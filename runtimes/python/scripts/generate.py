"""Compile the test protos (e2e/vectors/proto and the annotations) with
grpcio-tools into tests/gen (test-only, gitignored): *_pb2.py, *_pb2.pyi and
*_pb2_grpc.py; and generate tests/gen/ai_tools_gen.py from vectors.proto with
the plugin (target=py; the generator must be built). Run with the repo's
.venv Python. With --compute, Compute Engine's module alone into
tests/gen/compute (tests/test_deferred_compute.py runs it so, in the nightly
run only)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import grpc_tools
from grpc_tools import protoc

HERE = Path(__file__).resolve().parent.parent
REPO = HERE.parent.parent
OUT = HERE / "tests" / "gen"
PROTOS = [
    (REPO / "proto", "ai/tools/v1/annotations.proto"),
    (REPO / "e2e" / "vectors" / "proto", "aitest/v1/vectors.proto"),
]
VECTORS_PROTO = "aitest/v1/vectors.proto"
COMPUTE_PROTO = "google/cloud/compute/v1/compute.proto"


def main() -> int:
    plugin = REPO / "node_modules" / ".bin" / "protoc-gen-ai-tools"
    if not (REPO / "generator" / "dist" / "index.js").exists() or not plugin.exists():
        print(
            "generate: the plugin is not built: run `npx -y pnpm@12.4.2 install` and "
            "`npx -y pnpm@12.4.2 --filter protoc-gen-ai-tools build`",
            file=sys.stderr,
        )
        return 1
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    if sys.argv[1:] == ["--compute"]:
        return generate_compute(well_known, plugin)
    if sys.argv[1:]:
        print(
            f"generate: unknown arguments {sys.argv[1:]}: give none, or --compute", file=sys.stderr
        )
        return 2
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    args = ["grpc_tools.protoc", f"-I{well_known}"]
    args += [f"-I{root}" for root, _ in PROTOS]
    args += [f"--python_out={OUT}", f"--pyi_out={OUT}", f"--grpc_python_out={OUT}"]
    args += [name for _, name in PROTOS]
    code = protoc.main(args)
    if code != 0:
        print(f"generate: protoc failed ({code})", file=sys.stderr)
        return 1
    code = protoc.main(
        [
            "grpc_tools.protoc",
            f"-I{well_known}",
            *(f"-I{root}" for root, _ in PROTOS),
            f"--plugin=protoc-gen-ai_tools={plugin}",
            f"--ai_tools_out=target=py:{OUT}",
            VECTORS_PROTO,
        ]
    )
    if code != 0 or not (OUT / "ai_tools_gen.py").exists():
        print(f"generate: protoc-gen-ai-tools failed ({code})", file=sys.stderr)
        return 1
    # Explicit packages (tests/gen itself is a sys.path root, not a package).
    for directory in (p for p in OUT.rglob("*") if p.is_dir()):
        (directory / "__init__.py").touch()
    (OUT / "py.typed").touch()
    print(
        f"generate: {len(list(OUT.rglob('*_pb2.py')))} modules and ai_tools_gen.py "
        f"in {OUT.relative_to(REPO)}"
    )
    return 0


def generate_compute(well_known: Path, plugin: Path) -> int:
    """Compute Engine (google-proto-files, the generator's dev dependency)
    with tools=all and tool_search=true into tests/gen/compute, a sys.path
    root of its own with no __init__.py (google.cloud stays a namespace
    package): tests/test_deferred_compute.py builds its deferred requests."""
    protos = REPO / "generator" / "node_modules" / "google-proto-files"
    if not (protos / COMPUTE_PROTO).exists():
        print(
            f"generate: {protos / COMPUTE_PROTO} not found: run `npx -y pnpm@12.4.2 install` "
            "(google-proto-files is the generator's dev dependency)",
            file=sys.stderr,
        )
        return 1
    out = OUT / "compute"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    code = protoc.main(
        [
            "grpc_tools.protoc",
            f"-I{well_known}",
            f"-I{protos}",
            f"-I{REPO / 'proto'}",
            f"--python_out={out}",
            f"--plugin=protoc-gen-ai_tools={plugin}",
            f"--ai_tools_out=target=py,tools=all,tool_search=true:{out}",
            COMPUTE_PROTO,
        ]
    )
    if code != 0 or not (out / "ai_tools_gen.py").exists():
        print(f"generate: protoc-gen-ai-tools failed on {COMPUTE_PROTO} ({code})", file=sys.stderr)
        return 1
    print(f"generate: Compute Engine's ai_tools_gen.py in {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
