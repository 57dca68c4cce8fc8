// Node.js 20's AsyncResource#bind hangs a deprecated `asyncResource`
// accessor (DEP0172) on every function it returns, built with util.deprecate,
// which also resets each accessor's prototype; Node's own HTTP/2 client binds
// one function per request, so every gRPC call a component makes pays for it:
// a third of a lone call's client CPU on our machines (nodejs/node#58218).
// Node.js 25 dropped the property (DEP0172 End-of-Life): every process of the
// cluster installs that bind at start.

import { AsyncResource } from 'node:async_hooks';

/** The method at runtime (the typings know no thisArg). */
type Fn = (this: unknown, ...args: unknown[]) => unknown;
type Bind = (this: AsyncResource, fn: Fn, thisArg?: unknown) => Fn;

/** AsyncResource#bind as Node.js has it since DEP0172's End-of-Life: the call in the resource's scope, the function's length, nothing else. */
function leanBind(native: Bind): Bind {
  return function bind(this: AsyncResource, fn: Fn, thisArg?: unknown): Fn {
    // A wrong argument gets Node's own error (ERR_INVALID_ARG_TYPE).
    if (typeof fn !== 'function') return native.call(this, fn, thisArg);
    const inScope = this.runInAsyncScope.bind(this);
    const bound: Fn =
      thisArg === undefined
        ? function (this: unknown, ...args: unknown[]) {
            return inScope(fn, this, ...args);
          }
        : (...args: unknown[]) => inScope(fn, thisArg, ...args);
    Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, writable: false, value: fn.length });
    return bound;
  };
}

/** Whether this Node.js puts the deprecated accessor on bound functions. */
function bindAddsAccessor(): boolean {
  const probe = AsyncResource.prototype.bind.call(new AsyncResource('kubelab-probe'), () => undefined);
  return Object.getOwnPropertyDescriptor(probe, 'asyncResource') !== undefined;
}

/** Installs the lean bind where Node.js still adds the accessor; returns whether it did (once per process). */
export function installLeanAsyncResourceBind(): boolean {
  if (!bindAddsAccessor()) return false;
  AsyncResource.prototype.bind = leanBind(AsyncResource.prototype.bind as unknown as Bind) as unknown as typeof AsyncResource.prototype.bind;
  return true;
}
