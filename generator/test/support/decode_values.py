"""Decode schema-generated tool arguments the way the Python executor does:
``fix_args`` (the runtime's argument fix-up), then ``json_format.Parse``
with unknown fields ignored.

The generator's compact-schema test (``schema-defs.test.ts``) runs it.

Input (stdin): ``{"descriptorSet": base64 FileDescriptorSet, "tools":
[{"tool": name, "requestType": full name, "strict": bool, "values": [JSON
values]}]}``. Output (stdout): a JSON array of the failures, each
``{"tool": name, "value": the value, "error": text}``; empty when every
value decodes.
"""

import base64
import json
import sys
from typing import Any

from ai_tools_runtime._fixup import FixupError, fix_args
from google.protobuf import (
    descriptor_pb2,
    descriptor_pool,
    json_format,
    message_factory,
)


def main() -> None:
    """Read the tools and values from stdin and print the failures."""
    request = json.load(sys.stdin)
    files = descriptor_pb2.FileDescriptorSet.FromString(
        base64.b64decode(request["descriptorSet"])
    )
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    failures: list[dict[str, Any]] = []
    for tool in request["tools"]:
        descriptor = pool.FindMessageTypeByName(tool["requestType"])
        cls = message_factory.GetMessageClass(descriptor)
        for value in tool["values"]:
            try:
                text = fix_args(json.dumps(value), descriptor, tool["strict"])
                json_format.Parse(text, cls(), ignore_unknown_fields=True)
            except (FixupError, json_format.ParseError, ValueError, TypeError) as err:
                failures.append(
                    {"tool": tool["tool"], "value": value, "error": str(err)}
                )
    json.dump(failures, sys.stdout)


if __name__ == "__main__":
    main()
