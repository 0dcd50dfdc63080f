"""The validator of tools whose requests carry buf.validate rules, made on
first need so that the runtime never imports protovalidate otherwise."""

from __future__ import annotations

import importlib

from .._validation import RequestValidator

__all__ = ["default_validator"]


def default_validator() -> RequestValidator:
    """``protovalidate.Validator()``; a ``ValueError`` with the install line
    when protovalidate is not installed."""
    try:
        protovalidate = importlib.import_module("protovalidate")
    except ImportError as err:
        raise ValueError(
            "a tool's request carries buf.validate rules, which need protovalidate: "
            'pip install "protoc-gen-ai-tools-runtime[validate]" (or pass validator=)'
        ) from err
    validator: RequestValidator = protovalidate.Validator()
    return validator
