"""Run the runtime's tests; a run that collects no test fails (pytest's exit
5 must never pass unnoticed, nor a run that silently lost most tests)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

MIN_TESTS = 100


class Count:
    def __init__(self) -> None:
        self.collected = 0

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected = len(session.items)


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    count = Count()
    code = pytest.main(
        ["-q", "-p", "no:cacheprovider", str(root / "tests"), *sys.argv[1:]], plugins=[count]
    )
    if code == 0 and count.collected < MIN_TESTS and len(sys.argv) == 1:
        print(f"test: only {count.collected} tests collected (expected at least {MIN_TESTS})")
        return 1
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("test: no tests ran")
        return 1
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
