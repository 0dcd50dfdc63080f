import { AsyncLocalStorage } from "node:async_hooks";
import type { DescService } from "@bufbuild/protobuf";
import {
  createRouterTransport,
  type ContextValues,
  type Interceptor,
  type ServiceImpl,
  type Transport,
} from "@connectrpc/connect";
import { extraPropertiesKey } from "./extra-properties.js";

/** Options of {@link createInProcessTransport}. */
export interface InProcessTransportOptions {
  /** Server-side interceptors, run around the implementation. */
  readonly interceptors?: readonly Interceptor[] | undefined;
}

/**
 * A transport serving one service implementation in this process (Connect's
 * router transport): calls are encoded and decoded as over the network, so
 * they take the same path as calls to a remote service. The call's extra
 * properties reach the implementation as `context.values.get(extraPropertiesKey)`.
 */
export function createInProcessTransport<T extends DescService>(
  service: T,
  impl: Partial<ServiceImpl<T>>,
  options: InProcessTransportOptions = {},
): Transport {
  // The router sees a request, not the client's context values: the values
  // of the call under way are carried across by async context.
  const current = new AsyncLocalStorage<ContextValues>();
  const bridge: Interceptor = (next) => (req) => {
    const values = current.getStore();
    if (values !== undefined) {
      req.contextValues.set(extraPropertiesKey, values.get(extraPropertiesKey));
    }
    return next(req);
  };
  const inner = createRouterTransport(
    (router) => {
      router.service(service, impl);
    },
    { router: { interceptors: [bridge, ...(options.interceptors ?? [])] } },
  );
  return {
    unary(method, signal, timeoutMs, header, input, contextValues) {
      return run(current, contextValues, () =>
        inner.unary(method, signal, timeoutMs, header, input, contextValues),
      );
    },
    stream(method, signal, timeoutMs, header, input, contextValues) {
      return run(current, contextValues, () =>
        inner.stream(method, signal, timeoutMs, header, input, contextValues),
      );
    },
  };
}

function run<R>(
  current: AsyncLocalStorage<ContextValues>,
  values: ContextValues | undefined,
  f: () => R,
): R {
  return values === undefined ? f() : current.run(values, f);
}
