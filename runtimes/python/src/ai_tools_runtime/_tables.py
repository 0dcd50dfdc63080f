"""The alias facts a generated module declares (docs/runtime.md, "Response
registration"): the known prefixes and the per-type registration tables."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["AliasConfig", "ResponseAliasField", "ResponseAliasTool", "ResponseAliases"]


@dataclass(frozen=True)
class ResponseAliasField:
    """One field of a message type in the response registration table
    (docs/runtime.md, "Response registration")."""

    field: str
    """The field's JSON name."""
    prefix: str = ""
    """The alias prefix of the strings the field holds, or ""."""
    message: str = ""
    """The full name of the message the field holds, when it is in the table, or ""."""
    is_map: bool = False
    """A map field: its values are visited (in byte order of their keys)."""
    any_value: bool = False
    """Any name the field holds is registered, not only UUIDs
    (``google.longrunning.Operation.name``): a non-empty string of at most
    1024 UTF-8 bytes without control characters."""


@dataclass(frozen=True)
class ResponseAliasTool:
    """How one auto-executed tool's response registers its ids."""

    message: str
    """The response message (of each item, for a server-streaming tool)."""
    id_prefix: str = ""
    """The prefix of the top-level entity's unannotated ``id``, or ""."""
    id_field: str = ""
    """The JSON name of the entity field, or "" for the response itself."""


@dataclass(frozen=True)
class ResponseAliases:
    """The response registration tables of one generated module."""

    types: Mapping[str, tuple[ResponseAliasField, ...]] = field(default_factory=dict)
    """Message full name -> its fields to look at, in declaration order."""
    tools: Mapping[str, ResponseAliasTool] = field(default_factory=dict)
    """Tool name -> its response message and top-level entity id rule."""


@dataclass(frozen=True)
class AliasConfig:
    """The alias facts of one generated module (docs/runtime.md)."""

    known_alias_prefixes: frozenset[str] = frozenset()
    """Every prefix the protos declare."""
    response_aliases: ResponseAliases = field(default_factory=ResponseAliases)
    """How each auto-executed tool's response registers its ids."""
