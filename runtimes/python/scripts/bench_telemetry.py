"""The per-call cost of telemetry (bench.py): one tool call through an
Executor without telemetry, with :mod:`ai_tools_runtime.otel` on the global
providers with no SDK (the API's no-op), and on the SDK with an in-memory
span exporter and metric reader; alternating, against the test server of
tests/gen on a local socket (scripts/generate.py must have run), the medians
side by side. Then the hook alone (a span started, its trace context asked,
ended), without the RPC."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

from bench_executor import ARGS, RUNS, _medians_us, fixup_call, test_server


def compare_telemetry() -> None:
    import ai_tools_gen
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from ai_tools_runtime import Executor, Telemetry
    from ai_tools_runtime._telemetry import Observed
    from ai_tools_runtime.otel import create_open_telemetry

    spans = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    meter_provider = MeterProvider(metric_readers=[InMemoryMetricReader()])
    noop = create_open_telemetry()
    memory = create_open_telemetry(tracer_provider=tracer_provider, meter_provider=meter_provider)
    text = json.dumps(ARGS)
    with test_server() as (channel, fixup):
        methods = list(ai_tools_gen._TOOL_METHODS)
        calls = [
            fixup_call(
                Executor(channel, methods, ai_tools_gen.ALIAS_CONFIG, telemetry=t), fixup, text
            )
            for t in (None, noop, memory)
        ]
        for round_ in (1, 2):
            none, on_noop, on_memory = _medians_us(calls)
            print(
                f"bench: telemetry round {round_} ({RUNS} calls each, alternating, median): "
                f"none {none:.1f} µs, no-op {on_noop:.1f} µs ({_versus(on_noop, none)}), "
                f"in-memory exporter {on_memory:.1f} µs ({_versus(on_memory, none)})"
            )
            assert len(spans.get_finished_spans()) >= RUNS  # recorded, every call
            spans.clear()

    def hook(telemetry: Telemetry) -> Callable[[], object]:
        def call() -> object:
            with Observed(telemetry, "fixup_loose", "aitest.v1.FixupService/EchoLoose") as o:
                return o.sending(None)

        return call

    alone = [_hook_us(hook(t)) for t in (noop, memory)]
    spans.clear()
    print(
        f"bench: telemetry hook alone (start, trace context, end; median of {HOOK_RUNS}): "
        f"no-op {alone[0]:.1f} µs, in-memory exporter {alone[1]:.1f} µs"
    )


HOOK_RUNS = 20_000


def _hook_us(call: Callable[[], object]) -> float:
    for _ in range(1000):
        call()
    times = []
    for _ in range(HOOK_RUNS):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def _versus(value: float, base: float) -> str:
    return f"{value / base:.3f}×, {value - base:+.1f} µs"
