// The proxier's sync decisions (upstream syncProxyRules' doFullSync): the
// first sync and the one after a failure rewrite everything; the syncs in
// between hand the backend only the Services that changed since the last
// successful sync; the ruleset text is read only when /rules asks for it.

import { describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import { createLogger, newMetricsRegistry } from '@kubelab/component-base';
import { scenario } from '../testing/fixtures.js';
import { ProxyHealth } from '../health.js';
import { newProxyMetrics } from '../metrics.js';
import type { Backend, Rendered, SyncRequest } from './backend.js';
import { FULL_SYNC_PERIOD_MS, Proxier } from './proxier.js';
import { defaultProxyConfig } from './types.js';

function setup(failures: boolean[] = []) {
  const requests: { full: boolean; changed: string[] }[] = [];
  let readBacks = 0;
  const backend: Backend = {
    mode: 'iptables',
    lastApply: undefined,
    probe: async () => undefined,
    render: () => ({ mode: 'iptables', text: '', script: '', ruleCount: 0 }),
    async apply(_runner, snap, _cfg, req?: SyncRequest): Promise<Rendered> {
      requests.push({ full: req!.full, changed: [...req!.changed].sort() });
      if (failures.shift()) throw new Error('iptables-restore: line 3 failed');
      return { mode: 'iptables', text: '', script: '', ruleCount: snap.services.length };
    },
    async readBack() {
      readBacks++;
      return '*nat\nCOMMIT\n';
    },
  };
  const clock = new FakeClock(0);
  const proxier = new Proxier({
    mode: 'iptables',
    config: defaultProxyConfig(),
    minSyncPeriodMs: 1000,
    syncPeriodMs: 30_000,
    runner: { run: async () => ({ code: 0, stdout: '', stderr: '' }) },
    logger: createLogger({ component: 'kube-proxy', write: () => undefined }),
    metrics: newProxyMetrics(newMetricsRegistry()),
    health: new ProxyHealth(60_000, () => clock.now()),
    clock,
    backend,
  });
  return { proxier, requests, clock, readBacks: () => readBacks };
}

describe('Proxier sync requests', () => {
  it('syncs fully first, then passes only the changed Services, and fully again after an hour', async () => {
    const { proxier, requests, clock } = setup();
    const s = scenario();
    for (const svc of s.services) proxier.onServiceAdd(svc);
    for (const sl of s.slices) proxier.onEndpointSliceAdd(sl);
    proxier.onServicesSynced();
    proxier.onEndpointSlicesSynced();
    await proxier.syncProxyRules();
    expect(requests.at(-1)).toEqual({ full: true, changed: ['default/api', 'default/drain', 'default/empty', 'default/np', 'default/sticky', 'default/web'] });

    proxier.onEndpointSliceUpdate(undefined, { ...s.slices[0]!, endpoints: s.slices[0]!.endpoints.slice(1) });
    await proxier.syncProxyRules();
    expect(requests.at(-1)).toEqual({ full: false, changed: ['default/web'] });
    // The periodic sync with nothing changed.
    await proxier.syncProxyRules();
    expect(requests.at(-1)).toEqual({ full: false, changed: [] });

    await clock.advance(FULL_SYNC_PERIOD_MS + 1);
    await proxier.syncProxyRules();
    expect(requests.at(-1)).toEqual({ full: true, changed: [] });
  });

  it('keeps the changed Services of a failed sync and rewrites everything next time', async () => {
    const { proxier, requests } = setup([false, true]);
    const s = scenario();
    proxier.onServicesSynced();
    proxier.onEndpointSlicesSynced();
    await proxier.syncProxyRules();
    proxier.onServiceAdd(s.services[0]!);
    expect(await proxier.syncProxyRules()).toBe(false);
    proxier.onServiceAdd(s.services[1]!);
    expect(await proxier.syncProxyRules()).toBe(true);
    expect(requests.slice(1)).toEqual([
      { full: false, changed: ['default/web'] },
      { full: true, changed: ['default/api', 'default/web'] },
    ]);
  });

  it('reads the rules back from the kernel only when asked, once per sync', async () => {
    const { proxier, readBacks } = setup();
    proxier.onServicesSynced();
    proxier.onEndpointSlicesSynced();
    await proxier.syncProxyRules();
    expect(readBacks()).toBe(0);
    const view = proxier.rules()!;
    expect(view.source).toBe('kernel');
    expect(await view.text()).toBe('*nat\nCOMMIT\n');
    await view.text();
    expect(readBacks()).toBe(1);
  });
});
