import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { installLeanAsyncResourceBind } from './async-resource-bind.js';

// Installed once for the whole file, as a component's main does.
const installed = installLeanAsyncResourceBind();

describe('installLeanAsyncResourceBind', () => {
  it('replaces the bind only where Node.js adds the deprecated accessor, and only once', () => {
    const major = Number(process.versions.node.split('.')[0]);
    // Node.js 20 to 24 add `asyncResource` to bound functions (DEP0172); 25 no longer does.
    expect(installed).toBe(major < 25);
    expect(installLeanAsyncResourceBind()).toBe(false);
  });

  it('binds as before, less the deprecated accessor', () => {
    const als = new AsyncLocalStorage<string>();
    const resource = als.run('at bind time', () => new AsyncResource('test'));
    function f(this: unknown, a: number, b: number) {
      return { store: als.getStore(), self: this, sum: a + b };
    }
    const self = { name: 'receiver' };
    const cases = [
      { name: 'no thisArg: the caller’s this', bound: resource.bind(f), call: (g: typeof f) => g.call(self, 1, 2), want: { store: 'at bind time', self, sum: 3 } },
      {
        name: 'a thisArg wins over the caller’s',
        bound: (resource.bind as (fn: typeof f, thisArg: unknown) => typeof f)(f, 'given'),
        call: (g: typeof f) => g.call(self, 2, 3),
        want: { store: 'at bind time', self: 'given', sum: 5 },
      },
      { name: 'the static bind', bound: als.run('static', () => AsyncResource.bind(f)), call: (g: typeof f) => g.call(self, 3, 4), want: { store: 'static', self, sum: 7 } },
    ];
    for (const c of cases) {
      const got = als.run('at call time', () => c.call(c.bound));
      expect(got, c.name).toEqual(c.want);
      expect(c.bound.length, c.name).toBe(2);
      expect(Object.getOwnPropertyDescriptor(c.bound, 'asyncResource'), c.name).toBeUndefined();
    }
  });

  it("refuses what is not a function with Node's own error", () => {
    const resource = new AsyncResource('test');
    expect(() => resource.bind(42 as unknown as () => void)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });
});
