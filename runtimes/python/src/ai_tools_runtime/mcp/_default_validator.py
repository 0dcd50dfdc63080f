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
        # protovalidate itself missing, or the buf.validate module it imports
        # (generated with the protos that import buf/validate/validate.proto)
        raise ValueError(
            f"a tool's request carries buf.validate rules, which need protovalidate ({err}): "
            'pip install "protoc-gen-ai-tools-runtime[validate]", generate '
            "buf/validate/validate.proto with your protos, or pass validator="
        ) from err
    validator: RequestValidator = protovalidate.Validator()
    return validator
