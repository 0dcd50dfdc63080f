"""The distribution's declared requirements (pyproject.toml): every range,
of the dependencies and of each extra, starts at the version the tests run
(requirements-dev.txt), so the lowest versions a user may get are tested
ones (the nightly workflow installs exactly those)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def pinned() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / "requirements-dev.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = Version(version)
    return pins


def declared() -> list[tuple[str, Requirement]]:
    rows = [("dependencies", Requirement(r)) for r in PROJECT["dependencies"]]
    for extra, requirements in PROJECT["optional-dependencies"].items():
        rows += [(f"extra {extra}", Requirement(r)) for r in requirements]
    return rows


def lowest(requirement: Requirement) -> Version | None:
    """The version a range starts at: its >= or == bound."""
    bounds = [Version(s.version) for s in requirement.specifier if s.operator in (">=", "==")]
    return min(bounds) if bounds else None


@pytest.mark.parametrize(("where", "requirement"), declared(), ids=lambda v: str(v))
def test_each_range_starts_at_the_tested_version(where: str, requirement: Requirement) -> None:
    tested = pinned().get(canonicalize_name(requirement.name))
    assert tested is not None, f"{where}: {requirement.name} is not in requirements-dev.txt"
    assert lowest(requirement) == tested, (
        f"{where}: {requirement} should start at {tested}, the version the tests run"
    )
    assert requirement.specifier.contains(tested)


def test_extras_cover_mcp_redis_otel_validate_and_each_provider_sdk() -> None:
    assert sorted(PROJECT["optional-dependencies"]) == [
        "anthropic",
        "google-genai",
        "mcp",
        "openai",
        "otel",
        "redis",
        "validate",
    ]
