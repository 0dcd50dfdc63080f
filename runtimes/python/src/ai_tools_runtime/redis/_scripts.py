"""The Lua scripts of the Redis store (docs/store.md, "Scripts"), shipped
beside this module: the build (setup.py) copies them from their one committed
copy, runtimes/go/redisstore/*.lua."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from typing import Final

__all__ = ["CREATE", "LOAD", "LOADED_TOOLS", "LOAD_TOOLS", "REGISTER", "SCRIPTS", "Script"]


@dataclass(frozen=True)
class Script:
    """One script: its file name, text and SHA-1 (what ``EVALSHA`` takes)."""

    name: str
    text: str
    sha1: str


def _script(name: str) -> Script:
    data = resources.files(__package__).joinpath(name).read_bytes()
    return Script(name, data.decode("utf-8"), hashlib.sha1(data).hexdigest())


CREATE: Final = _script("create.lua")
LOAD: Final = _script("load.lua")
REGISTER: Final = _script("register.lua")
LOAD_TOOLS: Final = _script("load-tools.lua")
LOADED_TOOLS: Final = _script("loaded-tools.lua")
SCRIPTS: Final = (CREATE, LOAD, REGISTER)
"""The three scripts of the aliases, by file name order (those of
e2e/vectors/store/layout.json); the loaded tools' two (LOAD_TOOLS,
LOADED_TOOLS) are those of loaded-tools.json."""
