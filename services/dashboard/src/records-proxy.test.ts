import { describe, expect, it } from 'vitest';
import { matches, objectKey, type FlowMessage } from './flow.js';
import { proxyMessage } from './records.js';

const rec = (over: Record<string, unknown>) =>
  JSON.stringify({
    time: '2026-12-03T07:00:00.000Z',
    node: 'node-1',
    mode: 'iptables',
    dataPath: 'kernel',
    fullSync: false,
    durationMs: 4.1,
    services: 12,
    servicePorts: 13,
    endpoints: 30,
    rules: 30,
    ...over,
  });
// As the flow list prints a message (web/main.ts line(), without the clock).
const line = (m: NonNullable<ReturnType<typeof proxyMessage>>) =>
  `${m.from} → ${m.to}  ${m.method}${m.name ? `  ${m.objectKind} ${objectKey(m)}` : ''}  ${m.detail} ${m.durationMs}ms${m.code !== 'OK' ? `  ${m.code}` : ''}`;

describe('kube-proxy sync records → flow messages', () => {
  it.each<[string, string, string | undefined]>([
    [
      'a partial sync applied to the kernel, with the change that queued it',
      rec({ trigger: 'EndpointSlice default/web-x7k2p', changes: 1 }),
      'kube-proxy(node-1) → iptables(node-1)  sync  EndpointSlice default/web-x7k2p  12 services, 30 endpoints, 30 rules, partial 4.1ms',
    ],
    [
      'a full sync of the initial state, several changes coalesced',
      rec({ fullSync: true, trigger: 'Service default/kubernetes', changes: 5 }),
      'kube-proxy(node-1) → iptables(node-1)  sync  Service default/kubernetes  12 services, 30 endpoints, 30 rules, full, 5 changes 4.1ms',
    ],
    ['the periodic sync names no object', rec({ services: 1, endpoints: 1, rules: 1 }), 'kube-proxy(node-1) → iptables(node-1)  sync  1 service, 1 endpoint, 1 rule, partial 4.1ms'],
    ["the local runner's socket-LB map", rec({ node: 'node-2', dataPath: 'socket-lb' }), 'kube-proxy(node-2) → socket-lb(node-2)  sync  12 services, 30 endpoints, 30 rules, partial 4.1ms'],
    ['rendered only', rec({ mode: 'nftables', dataPath: 'render' }), 'kube-proxy(node-1) → render(node-1)  sync  12 services, 30 endpoints, 30 rules, partial 4.1ms'],
    ['ipvs applied', rec({ mode: 'ipvs' }), 'kube-proxy(node-1) → ipvs(node-1)  sync  12 services, 30 endpoints, 30 rules, partial 4.1ms'],
    [
      'a failed sync',
      rec({ rules: 0, error: 'iptables-restore: exit status 1', fullSync: true }),
      'kube-proxy(node-1) → iptables(node-1)  sync  12 services, 30 endpoints, nothing written, full: iptables-restore: exit status 1 4.1ms  Failed',
    ],
    ['not a record', 'garbage', undefined],
    ['no node', '{"mode":"iptables"}', undefined],
  ])('%s', (_name, data, want) => {
    const m = proxyMessage(data);
    expect(m && line(m)).toBe(want);
  });

  it('is filterable by node and by component', () => {
    const m: FlowMessage = { ...proxyMessage(rec({ trigger: 'Service default/web' }))!, seq: 1 };
    expect(m.kind).toBe('proxy');
    expect(m.time).toBe(Date.parse('2026-12-03T07:00:00.000Z'));
    expect([
      matches(m, { node: 'node-1' }),
      matches(m, { node: 'node-2' }),
      matches(m, { component: 'kube-proxy' }),
      matches(m, { component: 'kubelet' }),
      matches(m, { object: 'default/web' }),
    ]).toEqual([true, false, true, false, true]);
  });
});
