"""Compile the test protos (e2e/vectors/proto and the annotations) with
grpcio-tools into tests/gen (test-only, gitignored): *_pb2.py, *_pb2.pyi and
*_pb2_grpc.py. Run with the repo's .venv Python."""

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


def main() -> int:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    args = ["grpc_tools.protoc", f"-I{well_known}"]
    args += [f"-I{root}" for root, _ in PROTOS]
    args += [f"--python_out={OUT}", f"--pyi_out={OUT}", f"--grpc_python_out={OUT}"]
    args += [name for _, name in PROTOS]
    code = protoc.main(args)
    if code != 0:
        print(f"generate: protoc failed ({code})", file=sys.stderr)
        return 1
    # Explicit packages (tests/gen itself is a sys.path root, not a package).
    for directory in (p for p in OUT.rglob("*") if p.is_dir()):
        (directory / "__init__.py").touch()
    (OUT / "py.typed").touch()
    print(f"generate: {len(list(OUT.rglob('*_pb2.py')))} modules in {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
