"""The Python loop of docs/tool-search.md "Use it", type-checked (mypy's
``files``); test_tool_search_loop.py runs it with the openai client against
a stub and checks that the page's block is these lines."""

from __future__ import annotations

from typing import cast

from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam

from ai_tools_runtime import (
    ConversationExecutor,
    DeferredTools,
    ToolError,
    parse_search_arguments,
)


async def ask(
    deferred: DeferredTools,
    executor: ConversationExecutor,
    openai: AsyncOpenAI,
    handle: str,
    question: str,
) -> str | None:
    """Chat Completions with ``search_tools``, until the model answers."""
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": question}]
    while True:
        tools = await deferred.openai_chat(handle)  # always-loaded, search_tools, loaded ones
        completion = await openai.chat.completions.create(
            model="gpt-5.4", messages=messages, tools=tools
        )
        message = completion.choices[0].message
        messages.append(cast("ChatCompletionMessageParam", message.to_dict()))
        if not message.tool_calls:
            return message.content
        for call in message.tool_calls:
            if call.type != "function":
                continue
            name, args = call.function.name, call.function.arguments
            try:
                if name == "search_tools":
                    search = parse_search_arguments(args)
                    found = await deferred.search(handle, search.query, search.limit)
                    content = deferred.search_tools_result(found.found)
                else:
                    content = await executor.execute(handle, name, args)
            except ToolError as err:
                content = str(err)  # invalid-arguments, conversation-full, ...: for the model
            messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
