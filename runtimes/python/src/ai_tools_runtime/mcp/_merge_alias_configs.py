"""One alias configuration for the tools of several generated files."""

from __future__ import annotations

import json
from collections.abc import Sequence

from .._tables import AliasConfig, ResponseAliases, ResponseAliasField, ResponseAliasTool

__all__ = ["merge_alias_configs"]


def merge_alias_configs(configs: Sequence[AliasConfig]) -> AliasConfig:
    """The facts of several generated files (a server may serve the tools
    of more than one): prefixes, message types and tools united. A
    ``ValueError`` when two files disagree about a tool."""
    unique: list[AliasConfig] = []
    for c in configs:
        if all(c is not u for u in unique):
            unique.append(c)
    if len(unique) == 1:
        return unique[0]
    prefixes: set[str] = set()
    types: dict[str, tuple[ResponseAliasField, ...]] = {}
    tools: dict[str, ResponseAliasTool] = {}
    for c in unique:
        prefixes |= c.known_alias_prefixes
        types.update(c.response_aliases.types)
        for name, tool in c.response_aliases.tools.items():
            known = tools.get(name)
            if known is not None and known != tool:
                raise ValueError(
                    f"tool {json.dumps(name)} registers its response ids differently in two "
                    "generated files: generate them together"
                )
            tools[name] = tool
    return AliasConfig(frozenset(prefixes), ResponseAliases(types=types, tools=tools))
