// Node.js 20's AsyncResource#bind hangs a deprecated `asyncResource`
// accessor (DEP0172) on every function it returns: two util.deprecate
// wrappers per bind, each given a new prototype; Node's own HTTP/2 client binds
// one function per request, so every gRPC call a component makes pays for it:
// a third of a lone call's client CPU on our machines (nodejs/node#58218).
// Node.js 25 dropped the property (DEP0172 End-of-Life): every component
// installs that bind at the top of its main.

import { AsyncResource } from 'node:async_hooks';

/** The method at runtime (@types/node declares no thisArg, hence the casts below). */
type Fn = (this: unknown, ...args: unknown[]) => unknown;
type Bind = (this: AsyncResource, fn: Fn, thisArg?: unknown) => Fn;

/** AsyncResource#bind as Node.js has it since DEP0172's End-of-Life: Node 20's, less the accessor. */
function leanBind(native: Bind): Bind {
  return function bind(this: AsyncResource, fn: Fn, thisArg?: unknown): Fn {
    // A wrong argument gets Node's own error (ERR_INVALID_ARG_TYPE).
    if (typeof fn !== 'function') return native.call(this, fn, thisArg);
    let bound: Fn;
    if (thisArg === undefined) {
      // The bound function's own `this` is its caller's, passed on to fn.
      const resource: AsyncResource = this; // eslint-disable-line @typescript-eslint/no-this-alias
      bound = function bound(this: unknown, ...args: unknown[]) {
        return resource.runInAsyncScope(fn, this, ...args);
      };
    } else bound = this.runInAsyncScope.bind(this, fn, thisArg) as Fn;
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
