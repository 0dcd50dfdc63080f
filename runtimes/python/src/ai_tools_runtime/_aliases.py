"""The alias manager (docs/runtime.md, "Alias manager")."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Final

import grpc
from google.protobuf import descriptor_pool

from ._alias_names import NameIndex
from ._json import JsonNumber, decode_json, encode_json, json_kind, quote
from ._tables import AliasConfig, ResponseAliasField
from ._tool_error import ToolError
from ._violations import Violation, child_path

__all__ = ["AliasManager", "is_alias_name", "is_uuid"]

_HEX: Final = "[0-9a-fA-F]"
_UUID_RE: Final = re.compile(f"{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}")
# A UUID-shaped run touching no hex digit and no '-'.
_UUID_IN_TEXT: Final = re.compile(f"(?<![0-9a-fA-F-]){_UUID_RE.pattern}(?![0-9a-fA-F-])")
_DIGITS: Final = re.compile("[0-9]+")
_CONTROL: Final = re.compile("[\x00-\x1f\x7f-\x9f]")
_MAX_NAME_BYTES: Final = 1024
_MAX_INT: Final = (1 << 63) - 1
_MAX_LISTED: Final = 20


def is_uuid(s: str) -> bool:
    """Whether ``s`` is exactly 8-4-4-4-12 hexadecimal digits."""
    return len(s) == 36 and _UUID_RE.fullmatch(s) is not None


def is_alias_name(s: str) -> bool:
    """Whether ``s`` may be registered as a name, the value of a field that
    takes any value (``google.longrunning.Operation.name``): not empty, at
    most 1024 UTF-8 bytes, no control characters."""
    return (
        s != ""
        and len(s.encode("utf-8", "surrogatepass")) <= _MAX_NAME_BYTES
        and _CONTROL.search(s) is None
    )


def _split_alias(s: str) -> tuple[str, str] | None:
    """Split ``<prefix>-<digits>`` at its last '-' (prefix not empty)."""
    i = s.rfind("-")
    if i <= 0 or i == len(s) - 1:
        return None
    digits = s[i + 1 :]
    if _DIGITS.fullmatch(digits) is None:
        return None
    return s[:i], digits


class _RestoreError(Exception):
    pass


class AliasManager:
    """Shows entity UUIDs to the model as short aliases (``acct-1``) and turns
    them back into UUIDs. Use one per conversation.

    Thread-safe: every method holds the manager's lock for its whole
    (synchronous) run, so it is also safe from several asyncio tasks."""

    def __init__(self, config: AliasConfig | None = None) -> None:
        self._config = config if config is not None else AliasConfig()
        self._lock = threading.Lock()
        self._counters: dict[str, int] = {}
        self._aliases: dict[str, str] = {}
        self._uuids: dict[str, str] = {}
        self._prefixes: set[str] = set()
        self._names = NameIndex()
        self._reset()

    @property
    def config(self) -> AliasConfig:
        return self._config

    def _reset(self) -> None:
        self._counters = {}
        self._aliases = {}
        self._uuids = {}
        self._prefixes = set(self._config.known_alias_prefixes)
        self._names = NameIndex()

    # -- register / resolve ------------------------------------------------

    def register(self, prefix: str, uuid: str) -> str:
        """The alias of ``uuid``: a UUID seen before keeps its alias (whatever
        ``prefix`` is now); a new one gets the next number of ``prefix``."""
        with self._lock:
            return self._register(prefix, uuid)

    def _register(self, prefix: str, uuid: str) -> str:
        alias = self._uuids.get(uuid)
        if alias is not None:
            return alias
        n = self._counters.get(prefix, 0) + 1
        self._counters[prefix] = n
        alias = f"{prefix}-{n}"
        self._aliases[alias] = uuid
        self._uuids[uuid] = alias
        self._prefixes.add(prefix)
        self._add_name(uuid)
        return alias

    def _add_name(self, value: str) -> None:
        """Aliasify ``value`` as a whole token when it is not a UUID."""
        if value != "" and not is_uuid(value):
            self._names.add(value)

    def alias_count(self) -> int:
        """How many aliases the table holds (UUIDs and names)."""
        with self._lock:
            return len(self._aliases)

    def resolve_alias(self, alias: str) -> str:
        """The UUID of a registered alias, else ``alias`` unchanged."""
        with self._lock:
            return self._aliases.get(alias, alias)

    def aliasify_json(self, json_text: str) -> str:
        """Replace every registered value in the text by its alias: first
        each value that is not a UUID (an operation's name) where it stands
        as a whole token (no letter, digit, ``_``, ``.``, ``/`` or ``-``
        touches it), in one scan taking the longest at each place; then, in
        a second pass, every registered UUID, which counts only when no hex
        digit or '-' touches it. Everything else is copied unchanged (the
        text need not be JSON)."""
        with self._lock:
            return self._aliasify(json_text)

    def _aliasify(self, text: str) -> str:
        if not self._uuids:
            return text
        uuids = self._uuids

        def replace(m: re.Match[str]) -> str:
            found = m.group(0)
            return uuids.get(found, found)

        if self._names:
            # Names first, on the text as written: one may hold a registered
            # UUID (workspaces/<uuid>/operations/1).
            text = self._names.aliasify(text, uuids)
        return _UUID_IN_TEXT.sub(replace, text)

    def resolve_json(self, json_text: str, *, checked: bool = True) -> str:
        """Replace every JSON string value that is exactly a registered alias by
        its UUID (object keys and free text are left alone), re-encoded with
        sorted keys and numbers as written.

        Checked (the default, what executors use): a string value shaped like an
        alias of a known prefix that is not registered raises :class:`ToolError`
        naming the field and the valid aliases. ``checked=False`` leaves such
        values as written (Go's old ``ResolveJSON``). Invalid JSON is returned
        unchanged, for the decoder to report."""
        value, ok = decode_json(json_text)
        if not ok:
            return json_text
        return encode_json(self.resolve_value(value, checked=checked))

    def resolve_value(self, value: Any, *, checked: bool = True) -> Any:
        """:meth:`resolve_json` on already decoded JSON (dicts, lists, strings,
        …; ``json.loads`` output works), changed in place; returns the
        resolved value (a new string when the root is an alias)."""
        with self._lock:
            return self._resolve_value(value, "", checked)

    def _resolve_value(self, v: Any, path: str, checked: bool) -> Any:
        if isinstance(v, str):
            uuid = self._aliases.get(v)
            if uuid is not None:
                return uuid
            if checked:
                parts = _split_alias(v)
                if parts is not None and parts[0] in self._prefixes:
                    # Aliasified: a key the model wrote may hold a UUID.
                    head = f"unknown alias {quote(v)}"
                    rest = self._valid_aliases(parts[0])
                    violation = Violation(
                        self._aliasify(path), "unknown-alias", self._aliasify(head + rest)
                    )
                    raise ToolError(
                        self._aliasify(f"{head} in field {quote(path)}{rest}"),
                        reason="unknown-alias",
                        code=grpc.StatusCode.INVALID_ARGUMENT,
                        violations=(violation,),
                    )
        elif isinstance(v, dict):
            for key in sorted(v):
                field = child_path(path, key)
                v[key] = self._resolve_value(v[key], field, checked)
        elif isinstance(v, list):
            for i, item in enumerate(v):
                v[i] = self._resolve_value(item, f"{path}[{i}]", checked)
        return v

    def _valid_aliases(self, prefix: str) -> str:
        """The end of an unknown-alias message: the valid aliases of
        ``prefix``, or that there are none yet."""
        numbers: list[int] = []
        for known in self._aliases:
            parts = _split_alias(known)
            if parts is not None and parts[0] == prefix:
                numbers.append(int(parts[1]))
        if not numbers:
            return f"; no {prefix} aliases exist yet: call a tool that returns {prefix}s first"
        numbers.sort()
        listed = ", ".join(f"{prefix}-{n}" for n in numbers[:_MAX_LISTED])
        if len(numbers) > _MAX_LISTED:
            listed += f", … ({len(numbers) - _MAX_LISTED} more)"
        return f"; valid {prefix} aliases: {listed}"

    # -- responses -----------------------------------------------------------

    def register_response(self, tool_name: str, json_text: str) -> None:
        """Register the UUIDs of one response of an auto-executed tool,
        following its message type (docs/runtime.md, "Response registration"):
        the tool's top-level entity's unannotated ``id`` under its primary
        prefix, then every field with an ``alias_prefix``, depth first, in
        declaration order. Invalid JSON, or a tool without an entry, registers
        nothing."""
        if tool_name not in self._config.response_aliases.tools:
            return
        value, ok = decode_json(json_text)
        if ok:
            self.register_response_value(tool_name, value)

    def register_response_value(self, tool_name: str, value: Any) -> None:
        """:meth:`register_response` on an already decoded response (the
        executors' path: the response is walked once, never re-parsed)."""
        with self._lock:
            for prefix, uuid in self._collect(tool_name, (value,)):
                self._register(prefix, uuid)

    def collect_registrations(self, tool_name: str, values: Iterable[Any]) -> list[tuple[str, str]]:
        """The ``(prefix, uuid)`` pairs that :meth:`register_response_value`
        of each decoded response in ``values`` (a server-streaming tool's
        messages, in order) would register, in that order, without
        registering them: what a conversation store registers
        (docs/store.md, "A call through a store")."""
        with self._lock:
            return self._collect(tool_name, values)

    def _collect(self, tool_name: str, values: Iterable[Any]) -> list[tuple[str, str]]:
        tables = self._config.response_aliases
        tool = tables.tools.get(tool_name)
        if tool is None:
            return []
        # UUID -> prefix, in the order found; a UUID known or already found
        # keeps the alias it has.
        found: dict[str, str] = {}
        known = self._uuids
        for value in values:
            if tool.id_prefix != "" and isinstance(value, dict):
                entities = (
                    value if tool.id_field == "" else _get(value, tool.message, tool.id_field)
                )
                for entity in entities if isinstance(entities, list) else (entities,):
                    if isinstance(entity, dict):
                        uuid = entity.get("id")
                        if isinstance(uuid, str) and uuid not in known and is_uuid(uuid):
                            found.setdefault(uuid, tool.id_prefix)
            self._walk(value, tool.message, tables.types, found)
        return [(prefix, uuid) for uuid, prefix in found.items()]

    def _walk(
        self,
        v: Any,
        message: str,
        types: Mapping[str, tuple[ResponseAliasField, ...]],
        found: dict[str, str],
    ) -> None:
        fields = types.get(message)
        if fields is None or not isinstance(v, dict):
            return
        known = self._uuids
        for f in fields:
            x = _get(v, message, f.field)
            if x is None:
                continue
            if isinstance(x, list):
                values: Iterable[Any] = x
            elif f.is_map and isinstance(x, dict):
                values = [x[k] for k in sorted(x)]
            else:
                values = (x,)
            prefix = f.prefix
            nested = f.message if f.message in types else None
            takes = is_alias_name if f.any_value else is_uuid
            for item in values:
                if prefix and isinstance(item, str):
                    # A value seen before keeps its alias: skip the shape check.
                    if item not in known and item not in found and takes(item):
                        found[item] = prefix
                elif nested is not None and isinstance(item, dict):
                    self._walk(item, nested, types, found)

    # -- export / restore ----------------------------------------------------

    def export_state(self) -> str:
        """The state as canonical JSON:
        ``{"aliases":{"acct-1":"<uuid>"},"counters":{"acct":1},"version":1}``."""
        with self._lock:
            state = {
                "aliases": dict(self._aliases),
                "counters": {k: JsonNumber(str(n)) for k, n in self._counters.items()},
                "version": JsonNumber("1"),
            }
        return encode_json(state, escape_html=True)

    def restore_state(self, state: str | bytes) -> None:
        """Replace the state by one :meth:`export_state` wrote. Refuses with
        :class:`ValueError`, leaving the state unchanged: invalid JSON, a
        version other than 1, an alias not ``<prefix>-<n>`` with n > 0, a value
        that is neither a UUID nor a name (empty, a control character, over
        1024 bytes), one value under two aliases, a negative counter, or a
        counter lower than the highest alias number of its prefix."""
        try:
            aliases, counters = self._check_state(state)
        except _RestoreError as err:
            raise ValueError(f"restore alias state: {err}") from None
        with self._lock:
            self._reset()
            for alias, uuid in aliases.items():
                self._aliases[alias] = uuid
                self._uuids[uuid] = alias
                self._add_name(uuid)
            for prefix, n in counters.items():
                self._counters[prefix] = n
                self._prefixes.add(prefix)

    @staticmethod
    def _check_state(state: str | bytes) -> tuple[dict[str, str], dict[str, int]]:
        if isinstance(state, bytes):
            try:
                state = state.decode("utf-8")
            except UnicodeDecodeError as err:
                raise _RestoreError(f"invalid JSON: {err}") from None
        value, ok = decode_json(state)
        if not ok:
            raise _RestoreError("invalid JSON: not a single JSON value")
        if not isinstance(value, dict):
            raise _RestoreError(f"invalid JSON: cannot read {json_kind(value)} as the alias state")
        raw_aliases: Any = None
        raw_counters: Any = None
        raw_version: Any = None
        # Field names match case-insensitively, the last one wins (Go's encoding/json).
        for key, item in value.items():
            lowered = key.lower()
            if lowered == "aliases":
                raw_aliases = item
            elif lowered == "counters":
                raw_counters = item
            elif lowered == "version":
                raw_version = item
        aliases = _string_map(raw_aliases, "aliases")
        counters = {k: _int(v, f"counters.{k}") for k, v in _object(raw_counters, "counters")}
        version = _int(raw_version, "version")
        if version != 1:
            raise _RestoreError(f"unsupported version {version}")
        seen: dict[str, str] = {}
        highest: dict[str, int] = {}
        for alias in sorted(aliases):
            uuid = aliases[alias]
            parts = _split_alias(alias)
            if parts is None or parts[1].startswith("0") or int(parts[1]) > _MAX_INT:
                raise _RestoreError(f"invalid alias {quote(alias)}")
            if not (is_uuid(uuid) or is_alias_name(uuid)):
                raise _RestoreError(
                    f"alias {quote(alias)} maps to {quote(uuid)}, neither a UUID nor a name"
                )
            other = seen.get(uuid)
            if other is not None:
                kind = "UUID" if is_uuid(uuid) else "name"
                raise _RestoreError(
                    f"{kind} {quote(uuid)} has two aliases: {quote(other)} and {quote(alias)}"
                )
            seen[uuid] = alias
            prefix, n = parts[0], int(parts[1])
            highest[prefix] = max(highest.get(prefix, 0), n)
        for prefix in sorted(set(counters) | set(highest)):
            n = counters.get(prefix, 0)
            if n < 0:
                raise _RestoreError(f"negative counter {n} for {quote(prefix)}")
            top = highest.get(prefix, 0)
            if n < top:
                raise _RestoreError(
                    f"counter {n} for {quote(prefix)} is lower than its highest alias "
                    f"{prefix}-{top}"
                )
        return aliases, counters


def _object(v: Any, where: str) -> Iterable[tuple[str, Any]]:
    if v is None:
        return ()
    if not isinstance(v, dict):
        raise _RestoreError(f"invalid JSON: {where} is {json_kind(v)}, not an object")
    return v.items()


def _string_map(v: Any, where: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, item in _object(v, where):
        if item is None:
            item = ""
        if not isinstance(item, str):
            raise _RestoreError(f"invalid JSON: {where}.{key} is {json_kind(item)}, not a string")
        out[key] = item
    return out


def _int(v: Any, where: str) -> int:
    if v is None:
        return 0
    if isinstance(v, JsonNumber):
        text = v.text
        if re.fullmatch(r"-?[0-9]+", text):
            n = int(text)
            if -_MAX_INT - 1 <= n <= _MAX_INT:
                return n
    raise _RestoreError(f"invalid JSON: {where} is {json_kind(v)}, not an integer")


def _get(value: dict[str, Any], message: str, name: str) -> Any:
    """The field ``name`` of a response value written with either naming:
    the registration tables name JSON names, an executor writes proto names
    by default (docs/runtime.md, "One naming")."""
    found = value.get(name)
    if found is None:
        other = _other_name(message, name)
        if other is not None:
            found = value.get(other)
    return found


@lru_cache(maxsize=4096)
def _other_name(message: str, name: str) -> str | None:
    """The other name of the field ``name`` of ``message``: its proto name
    when ``name`` is its JSON name, and the reverse (from the default
    descriptor pool; else by protoc's rule), or None when both are one."""
    try:
        desc = descriptor_pool.Default().FindMessageTypeByName(message)
    except KeyError:
        desc = None
    if desc is not None:
        for fd in desc.fields:
            if fd.json_name == name and fd.name != name:
                return str(fd.name)
            if fd.name == name and fd.json_name != name:
                return str(fd.json_name)
        return None
    if "_" in name:
        parts = name.split("_")
        return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])
    snake = re.sub("([A-Z])", lambda m: "_" + m.group(1).lower(), name)
    return snake if snake != name else None
