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
    """A tool definition, provider-neutral. Immutable: ``parameters`` and
    ``forms`` are stored as read-only deep copies (mappings and tuples);
    :meth:`schema` returns a fresh, mutable copy."""

    name: str
    description: str
    strict: bool
    parameters: Mapping[str, Any]
    """The JSON Schema of the arguments (the same schema as the Go target's)."""
    forms: Mapping[str, Any] | None = None
    """The provider forms the generator computed (docs/compat.md, "What
    providers accept"): ``openai``, ``anthropic``, ``gemini`` and
    ``anthropicStrict`` where they differ from ``parameters``,
    ``anthropicStrictCounts`` for a strict tool, ``geminiParameters`` always.
    ``None`` for a tool written by hand, which the adapters send with
    ``parameters`` in every form but Anthropic strict and Gemini
    ``parameters``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", _freeze(self.parameters))
        if self.forms is not None:
            object.__setattr__(self, "forms", _freeze(self.forms))

    def schema(self) -> dict[str, Any]:
        """The JSON Schema as a new plain dict (lists for arrays), yours to change."""
        thawed: dict[str, Any] = _thaw(self.parameters)
        return thawed

    def __reduce__(
        self,
    ) -> tuple[type[AgentTool], tuple[str, str, bool, dict[str, Any], dict[str, Any] | None]]:
        # Mapping proxies cannot be pickled or deep-copied: rebuild from copies.
        forms: dict[str, Any] | None = None if self.forms is None else _thaw(self.forms)
        return (AgentTool, (self.name, self.description, self.strict, self.schema(), forms))
