import { describe, expect, it } from 'vitest';
import { PROXY_SUBJECT_ALL, decodeProxySyncRecord, encodeProxySyncRecord, proxySubject, type ProxySyncRecord } from './proxy-record.js';

describe('kube-proxy sync record subjects', () => {
  it.each([
    ['a node', 'node-1', 'kubelab.proxy.node-1'],
    ['dots in a node name become underscores', 'worker.example', 'kubelab.proxy.worker_example'],
    ['wildcards and blanks become underscores', 'n*> x', 'kubelab.proxy.n___x'],
  ])('%s', (_name, node, want) => expect(proxySubject(node)).toBe(want));

  it('every node is under the viewer subject', () => expect(PROXY_SUBJECT_ALL).toBe('kubelab.proxy.>'));
});

describe('kube-proxy sync record encoding', () => {
  const full: ProxySyncRecord = {
    time: '2026-01-01T00:00:00.000Z',
    node: 'node-1',
    mode: 'iptables',
    dataPath: 'kernel',
    fullSync: false,
    durationMs: 4.1,
    services: 12,
    servicePorts: 13,
    endpoints: 20,
    rules: 30,
    trigger: 'EndpointSlice default/web-x7k2p',
    changes: 2,
  };
  it('a record reads back whole', () => expect(decodeProxySyncRecord(encodeProxySyncRecord(full))).toEqual(full));

  it.each<[string, string, Partial<ProxySyncRecord> | undefined]>([
    ['not JSON is no record', 'nope', undefined],
    ['a record needs a node', '{"mode":"iptables"}', undefined],
    [
      'wrong-typed fields get their defaults',
      '{"node":"n","dataPath":"moon","rules":"many","durationMs":-1,"fullSync":"yes"}',
      { node: 'n', mode: 'iptables', dataPath: 'render', rules: 0, durationMs: 0, fullSync: false },
    ],
    ['an error is kept', '{"node":"n","error":"iptables-restore: exit status 1"}', { error: 'iptables-restore: exit status 1' }],
  ])('%s', (_name, data, want) => expect(decodeProxySyncRecord(data)).toEqual(want && expect.objectContaining(want)));
});
