// The active-context store. Two kinds, chosen per process by setupTracing:
//
// - 'async': OTel's AsyncLocalStorageContextManager; a span made active stays
//   active across every await under it. On Node 20 that costs a promise hook on
//   EVERY promise in the process, traced or not (measured: about +0.3 µs per
//   promise, and each promise carries the store), so only services whose code
//   relies on it (apiserver request → storage spans; kubelet syncPod → CRI
//   calls) pay it.
// - 'sync': a plain stack; `context.with(ctx, fn)` makes ctx active while fn
//   runs synchronously and no longer. Enough where the context is handed over
//   explicitly (the scheduler's bind passes the pod's context to the client,
//   whose interceptor runs inside the call; the CRI server's records and NATS
//   spans get the SERVER span from the call). No hooks, no per-promise cost.
//
// One manager per process (OTel's context API is global): 'async' wins once any
// tracer in the process asked for it (several services share test processes).

import { context as otelContext, ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

export type ContextPropagation = 'async' | 'sync';

/** Synchronous scoping only (the OTel API's zone-less StackContextManager, without the browser bits). */
export class SyncContextManager implements ContextManager {
  private current: Context = ROOT_CONTEXT;

  active(): Context {
    return this.current;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const previous = this.current;
    this.current = ctx;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }

  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const manager = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the bound function keeps its caller's this
    const fn = target as unknown as (...args: unknown[]) => unknown;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(ctx, () => fn.apply(this, args));
    } as unknown as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = ROOT_CONTEXT;
    return this;
  }
}

let installed: ContextPropagation | undefined;

/** Installs the process's context manager; 'async' replaces an earlier 'sync', never the reverse. */
export function ensureContextManager(kind: ContextPropagation): void {
  if (installed === 'async' || installed === kind) return;
  if (installed) otelContext.disable();
  otelContext.setGlobalContextManager(kind === 'async' ? new AsyncLocalStorageContextManager().enable() : new SyncContextManager());
  installed = kind;
}

/** What this process installed (undefined until a tracer was set up). */
export function installedContextPropagation(): ContextPropagation | undefined {
  return installed;
}
