"""The build's one step beyond pyproject.toml: the Redis store's Lua scripts
go into the package (ai_tools_runtime/redis/*.lua, ignored by git) before
setuptools collects its files, for every build: wheel, sdist and the editable
install of scripts/python-env.sh.

Their one committed copy is runtimes/go/redisstore/*.lua: Go's //go:embed
reads only files inside its module, and `go get` users receive that module
alone from the Go proxy. An sdist has no runtimes/go beside it: it carries the
copies, which its wheel build then uses as they are.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "go" / "redisstore"
PACKAGED = HERE / "src" / "ai_tools_runtime" / "redis"
SCRIPTS = ("create.lua", "load.lua", "register.lua", "load-tools.lua", "loaded-tools.lua")


def copy_redis_scripts() -> None:
    """Copy the scripts from runtimes/go/redisstore, or keep an sdist's copies."""
    for name in SCRIPTS:
        if (SOURCE / name).is_file():
            shutil.copyfile(SOURCE / name, PACKAGED / name)
        elif not (PACKAGED / name).is_file():
            raise SystemExit(
                f'redis script "{name}" is missing: build from the repository, '
                f"where runtimes/go/redisstore/{name} is its one copy"
            )


copy_redis_scripts()
setup()
