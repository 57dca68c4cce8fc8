// The record of each sync (kubelab.proxy.<node>): what the Proxier reports
// per syncProxyRules, and how it becomes the record the dashboard draws.

import { describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import { createLogger, newMetricsRegistry } from '@kubelab/component-base';
import type { ProxySyncRecord } from '@kubelab/proto/proxy-record';
import { scenario } from './testing/fixtures.js';
import { ProxyHealth } from './health.js';
import { newProxyMetrics } from './metrics.js';
import type { Backend, Rendered } from './proxy/backend.js';
import { Proxier, type SyncResult } from './proxy/proxier.js';
import { defaultProxyConfig } from './proxy/types.js';
import { proxySyncRecord } from './sync-record.js';

function setup(failures: boolean[] = []) {
  const records: ProxySyncRecord[] = [];
  const backend: Backend = {
    mode: 'iptables',
    lastApply: undefined,
    probe: async () => undefined,
    render: () => ({ mode: 'iptables', text: '', script: '', ruleCount: 0 }),
    async apply(_runner, snap): Promise<Rendered> {
      if (failures.shift()) throw new Error('iptables-restore: line 3 failed');
      return { mode: 'iptables', text: '', script: '', ruleCount: 10 * snap.services.length };
    },
    readBack: async () => '',
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
    onSyncResult: (r) => records.push(proxySyncRecord('node-1', 'iptables', false, r)),
  });
  return { proxier, records };
}

const counts = (r: ProxySyncRecord | undefined) =>
  r && {
    fullSync: r.fullSync,
    services: r.services,
    servicePorts: r.servicePorts,
    endpoints: r.endpoints,
    rules: r.rules,
    trigger: r.trigger,
    changes: r.changes,
    error: r.error,
    dataPath: r.dataPath,
  };

describe('sync records from the proxier', () => {
  it('tells each sync: full first with what queued it, then partial with the one change, then the periodic one with none, then a failure', async () => {
    const { proxier, records } = setup([false, false, false, true]);
    const s = scenario();
    for (const svc of s.services) proxier.onServiceAdd(svc);
    for (const sl of s.slices) proxier.onEndpointSliceAdd(sl);
    proxier.onServicesSynced();
    proxier.onEndpointSlicesSynced();
    await proxier.syncProxyRules();
    proxier.onEndpointSliceUpdate(undefined, { ...s.slices[0]!, endpoints: s.slices[0]!.endpoints.slice(1) });
    await proxier.syncProxyRules();
    await proxier.syncProxyRules();
    proxier.onServiceDelete(s.services[1]!);
    await proxier.syncProxyRules();
    expect(records.map(counts)).toEqual([
      { fullSync: true, services: 6, servicePorts: 6, endpoints: 10, rules: 60, trigger: 'Service default/web', changes: 12, error: undefined, dataPath: 'kernel' },
      { fullSync: false, services: 6, servicePorts: 6, endpoints: 9, rules: 60, trigger: 'EndpointSlice default/web-abcde', changes: 1, error: undefined, dataPath: 'kernel' },
      { fullSync: false, services: 6, servicePorts: 6, endpoints: 9, rules: 60, trigger: undefined, changes: undefined, error: undefined, dataPath: 'kernel' },
      { fullSync: false, services: 5, servicePorts: 5, endpoints: 8, rules: 0, trigger: 'Service default/api', changes: 1, error: 'iptables-restore: line 3 failed', dataPath: 'kernel' },
    ]);
    expect(records.every((r) => r.node === 'node-1' && r.mode === 'iptables' && !Number.isNaN(Date.parse(r.time)))).toBe(true);
  });

  it('an update that changes nothing rendered queues no sync and names no trigger', async () => {
    const { proxier, records } = setup();
    const s = scenario();
    proxier.onServiceAdd(s.services[0]!);
    proxier.onServicesSynced();
    proxier.onEndpointSlicesSynced();
    await proxier.syncProxyRules();
    proxier.onServiceUpdate(s.services[0]!, { ...s.services[0]!, metadata: { ...s.services[0]!.metadata, labels: { new: 'label' } } });
    await proxier.syncProxyRules();
    expect(records.map((r) => [r.trigger, r.changes])).toEqual([
      ['Service default/web', 1],
      [undefined, undefined],
    ]);
  });
});

describe('proxySyncRecord', () => {
  const result = (over: Partial<SyncResult>): SyncResult => ({
    startedAt: Date.parse('2026-01-01T00:00:00Z'),
    durationMs: 4.1234,
    fullSync: true,
    snapshot: { services: [], endpoints: new Map() },
    rules: 3,
    applied: true,
    changes: 0,
    ...over,
  });
  it.each<[string, Partial<SyncResult>, boolean, Partial<ProxySyncRecord>]>([
    ['applied to the kernel', {}, false, { dataPath: 'kernel', durationMs: 4.12, time: '2026-01-01T00:00:00.000Z' }],
    ['applied even with a socket-LB dir', {}, true, { dataPath: 'kernel' }],
    ['rendered only, for the runtime socket-LB', { applied: false }, true, { dataPath: 'socket-lb' }],
    ['rendered only', { applied: false }, false, { dataPath: 'render' }],
    ['a failure keeps its message', { error: 'boom', rules: 0 }, false, { error: 'boom', rules: 0 }],
  ])('%s', (_name, over, socketLb, want) => expect(proxySyncRecord('node-1', 'iptables', socketLb, result(over))).toEqual(expect.objectContaining(want)));
});
