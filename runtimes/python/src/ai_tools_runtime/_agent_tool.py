"""A tool definition, provider-neutral and immutable."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = ["AgentTool"]


def _freeze(value: Any) -> Any:
    """A read-only deep copy of decoded JSON: objects as mapping proxies,
    arrays as tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    """A plain, mutable deep copy of a frozen JSON value (dicts and lists)."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class AgentTool:
    """A tool definition, provider-neutral. Immutable: ``parameters`` is
    stored as a read-only deep copy (mappings and tuples); :meth:`schema`
    returns a fresh, mutable copy."""

    name: str
    description: str
    strict: bool
    parameters: Mapping[str, Any]
    """The JSON Schema of the arguments (the same schema as the Go target's)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", _freeze(self.parameters))

    def schema(self) -> dict[str, Any]:
        """The JSON Schema as a new plain dict (lists for arrays), yours to change."""
        thawed: dict[str, Any] = _thaw(self.parameters)
        return thawed

    def __reduce__(self) -> tuple[type[AgentTool], tuple[str, str, bool, dict[str, Any]]]:
        # Mapping proxies cannot be pickled or deep-copied: rebuild from a copy.
        return (AgentTool, (self.name, self.description, self.strict, self.schema()))
