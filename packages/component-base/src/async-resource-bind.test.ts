import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { installLeanAsyncResourceBind } from './async-resource-bind.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;
type Bind = (this: AsyncResource, fn: Fn, thisArg?: unknown) => Fn;

// Node's own bind, kept to compare with; then installed once for the whole file, as a component's main does.
const native = AsyncResource.prototype.bind as unknown as Bind;
const installed = installLeanAsyncResourceBind();
const lean = AsyncResource.prototype.bind as unknown as Bind;

const als = new AsyncLocalStorage<string>();

/** What a call of a bound function shows: its outcome, receiver, arguments, store and async scope, or what it threw. */
function outcome(run: () => unknown): unknown {
  try {
    return { returned: run() };
  } catch (e) {
    return { threw: e instanceof Error ? `${e.constructor.name}: ${e.message}` : e };
  }
}

describe('installLeanAsyncResourceBind', () => {
  it('replaces the bind only where Node.js adds the deprecated accessor, and only once', () => {
    const major = Number(process.versions.node.split('.')[0]);
    // Node.js 20 to 24 add `asyncResource` to bound functions (DEP0172); 25 no longer does.
    expect(installed).toBe(major < 25);
    expect(installLeanAsyncResourceBind()).toBe(false);
  });

  it("binds as Node's own bind does, less the deprecated accessor", () => {
    const self = { name: 'caller' };
    const probe = function (this: unknown, ...args: unknown[]) {
      return { self: this, args, store: als.getStore(), scope: executionAsyncId() };
    };
    const thrower = () => {
      throw new RangeError('from fn');
    };
    const cases: { name: string; fn: Fn; thisArg?: unknown; call: (bound: Fn) => unknown }[] = [
      { name: "no thisArg: the caller's this", fn: probe, call: (b) => b.call(self, 1, 'two') },
      { name: 'a thisArg wins', fn: probe, thisArg: 'given', call: (b) => b.call(self, 3) },
      { name: 'a null thisArg is a thisArg', fn: probe, thisArg: null, call: (b) => b.call(self) },
      { name: 'new without a thisArg', fn: probe, call: (b) => typeof new (b as unknown as new () => object)() },
      { name: 'new with a thisArg', fn: probe, thisArg: 'given', call: (b) => typeof new (b as unknown as new () => object)() },
      { name: 'fn throws', fn: thrower, call: (b) => b.call(self) },
    ];
    for (const c of cases) {
      const run = (bind: Bind) => {
        const resource = als.run('at bind time', () => new AsyncResource('test'));
        const bound = bind.call(resource, c.fn, c.thisArg);
        const got = outcome(() => als.run('at call time', () => c.call(bound)));
        // The scope is the resource's own id (ids differ between the two resources).
        const shown = JSON.parse(JSON.stringify(got).replaceAll(String(resource.asyncId()), '"RESOURCE"')) as unknown;
        return { shown, name: bound.name, length: bound.length, accessor: Object.getOwnPropertyDescriptor(bound, 'asyncResource') !== undefined };
      };
      const want = run(native);
      const got = run(lean);
      expect(got.shown, c.name).toEqual(want.shown);
      expect(got.name, c.name).toBe(want.name);
      expect(got.length, c.name).toBe(c.fn.length);
      expect(got.accessor, c.name).toBe(false);
    }
  });

  it('serves the static bind and AsyncLocalStorage.bind', () => {
    const f = () => als.getStore();
    const bound = als.run('static', () => AsyncResource.bind(f));
    const snapshot = als.run('snapshot', () => AsyncLocalStorage.bind(f));
    expect(als.run('later', () => [bound(), snapshot()])).toEqual(['static', 'snapshot']);
    expect(Object.getOwnPropertyDescriptor(bound, 'asyncResource')).toBeUndefined();
  });

  it("refuses what is not a function with Node's own error", () => {
    const resource = new AsyncResource('test');
    expect(() => resource.bind(42 as unknown as () => void)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });
});
