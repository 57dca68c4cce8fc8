import { describe, expect, it } from 'vitest';
import { endpointReconcilerFrom } from './bootstrap.js';

describe('--endpoint-reconciler-type', () => {
  const cases: { type: string; want: boolean }[] = [
    { type: 'lease', want: true },
    { type: 'master-count', want: true },
    { type: 'none', want: false },
  ];
  for (const c of cases)
    it(`${c.type}: ${c.want ? 'publishes' : 'does not publish'} this apiserver in the kubernetes endpoints`, () => expect(endpointReconcilerFrom(c.type)).toEqual({ reconcileEndpoints: c.want }));
  it("refuses another value with pflag's text", () =>
    expect(() => endpointReconcilerFrom('all')).toThrow('invalid argument "all" for "--endpoint-reconciler-type" flag: must be master-count, lease or none'));
});
