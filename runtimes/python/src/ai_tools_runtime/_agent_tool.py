"""A tool definition, provider-neutral and immutable."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Self

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
    if isinstance(value, _JsonObjectText):
        return value.decode()
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_thaw(v) for v in value]
    return value


class _JsonObjectText(Mapping[str, Any]):
    """A read-only JSON object given as text, decoded and frozen (as
    :func:`_freeze` does) on first use and kept: a generated module declares
    every tool's parameters and provider forms this way, so that importing
    it does not decode megabytes of schemas nobody reads. Pickled and copied
    as its text."""

    __slots__ = ("_frozen", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._frozen: Mapping[str, Any] | None = None

    def decode(self) -> dict[str, Any]:
        """The object as a new plain dict (lists for arrays)."""
        value = json.loads(self._text)
        if not isinstance(value, dict):
            raise ValueError(f"not a JSON object: {self._text[:40]!r}")
        return value

    def _object(self) -> Mapping[str, Any]:
        frozen = self._frozen
        if frozen is None:
            frozen = self._frozen = _freeze(self.decode())
        return frozen

    def __getitem__(self, key: str) -> Any:
        return self._object()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._object())

    def __len__(self) -> int:
        return len(self._object())

    def __repr__(self) -> str:
        return repr(self._object())

    def __reduce__(self) -> tuple[type[_JsonObjectText], tuple[str]]:
        return (_JsonObjectText, (self._text,))


@dataclass(frozen=True)
class AgentTool:
    """A tool definition, provider-neutral. Immutable: ``parameters`` and
    ``forms`` are stored as read-only deep copies (mappings and tuples);
    :meth:`schema` returns a fresh, mutable copy. A generated module makes
    its tools with :meth:`from_json`, which decodes them on first use."""

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
        if not isinstance(self.parameters, _JsonObjectText):
            object.__setattr__(self, "parameters", _freeze(self.parameters))
        if self.forms is not None and not isinstance(self.forms, _JsonObjectText):
            object.__setattr__(self, "forms", _freeze(self.forms))

    @classmethod
    def from_json(
        cls, name: str, description: str, strict: bool, parameters: str, forms: str | None = None
    ) -> Self:
        """A tool whose ``parameters`` and ``forms`` are given as the text of
        JSON objects, as a generated module declares its tools: each is
        decoded on first use (reading a key, :meth:`schema`, an adapter),
        not when the module is imported."""
        return cls(
            name,
            description,
            strict,
            _JsonObjectText(parameters),
            None if forms is None else _JsonObjectText(forms),
        )

    def schema(self) -> dict[str, Any]:
        """The JSON Schema as a new plain dict (lists for arrays), yours to change."""
        thawed: dict[str, Any] = _thaw(self.parameters)
        return thawed

    def __reduce__(
        self,
    ) -> tuple[type[AgentTool], tuple[str, str, bool, Mapping[str, Any], Mapping[str, Any] | None]]:
        # Mapping proxies cannot be pickled or deep-copied: rebuild from
        # copies (JSON text stays text, decoded on first use).
        return (
            AgentTool,
            (
                self.name,
                self.description,
                self.strict,
                _picklable(self.parameters),
                None if self.forms is None else _picklable(self.forms),
            ),
        )


def _picklable(value: Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(value, _JsonObjectText):
        return value
    thawed: dict[str, Any] = _thaw(value)
    return thawed
