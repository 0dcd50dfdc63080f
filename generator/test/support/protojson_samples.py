"""Print what Python's ``json_format`` writes for messages given in binary,
with the options an MCP result uses and with the executors' defaults.

The generator's output schema test (``output-schema-encoders.test.ts``)
runs it and validates the JSON against the output schemas.

Input (stdin): ``{"descriptorSet": base64 FileDescriptorSet, "cases":
[{"type": full message name, "binary": base64}]}``. Output (stdout): one
object per case, ``{"mcp": …, "default": …}``, each the JSON text written
with that encoding (``MessageToDict`` then ``json.dumps``, as the runtime
writes it).
"""

import base64
import json
import sys
from typing import Any

from google.protobuf import (
    any_pb2,
    descriptor_pb2,
    descriptor_pool,
    duration_pb2,
    empty_pb2,
    field_mask_pb2,
    json_format,
    message_factory,
    struct_pb2,
    timestamp_pb2,
    wrappers_pb2,
)

# Imported for their side effect: the well-known types are in the default
# pool, as the classes json_format writes specially.
_WELL_KNOWN = (
    any_pb2,
    descriptor_pb2,
    duration_pb2,
    empty_pb2,
    field_mask_pb2,
    struct_pb2,
    timestamp_pb2,
    wrappers_pb2,
)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def main() -> None:
    """Read the cases from stdin and print their JSON."""
    request = json.load(sys.stdin)
    files = descriptor_pb2.FileDescriptorSet.FromString(
        base64.b64decode(request["descriptorSet"])
    )
    pool = descriptor_pool.Default()
    for file in files.file:
        try:
            pool.FindFileByName(file.name)
        except KeyError:
            pool.Add(file)
    out = []
    for case in request["cases"]:
        cls = message_factory.GetMessageClass(pool.FindMessageTypeByName(case["type"]))
        message = cls.FromString(base64.b64decode(case["binary"]))
        mcp = json_format.MessageToDict(
            message,
            preserving_proto_field_name=True,
            always_print_fields_with_no_presence=True,
            descriptor_pool=pool,
        )
        default = json_format.MessageToDict(message, descriptor_pool=pool)
        out.append({"mcp": _dumps(mcp), "default": _dumps(default)})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
