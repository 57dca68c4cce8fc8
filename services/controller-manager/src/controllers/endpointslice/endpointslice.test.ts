import type { EndpointSlice, Pod, Service } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { desiredByPortSet, findPort, planSlices, podToEndpoint } from './desired.js';

const svc: Service = { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] } };
const pod = (name: string, ip: string, o: { ready?: boolean; deleting?: boolean; port?: number } = {}): Pod => ({
  metadata: { name, namespace: 'default', uid: `u-${name}`, labels: { app: 'web' }, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { nodeName: 'n1', containers: [{ name: 'c', ports: [{ name: 'http', containerPort: o.port ?? 8080 }] }] },
  status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] },
});

describe('endpoints from pods', () => {
  it.each([
    ['ready', { ready: true }, { ready: true, serving: true, terminating: false }],
    ['not ready', {}, { ready: false, serving: false, terminating: false }],
    ['ready but terminating', { ready: true, deleting: true }, { ready: false, serving: true, terminating: true }],
  ])('%s pod', (_n, o, want) => expect(podToEndpoint(pod('a', '10.0.0.1', o), svc, undefined).conditions).toEqual(want));
  it('publishNotReadyAddresses forces ready but not serving (upstream podToEndpoint)', () => {
    const publish: Service = { ...svc, spec: { ...svc.spec, publishNotReadyAddresses: true } };
    expect(podToEndpoint(pod('a', '10.0.0.1'), publish, undefined).conditions).toEqual({ ready: true, serving: false, terminating: false });
    expect(podToEndpoint(pod('a', '10.0.0.1', { ready: true, deleting: true }), publish, undefined).conditions).toEqual({ ready: true, serving: true, terminating: true });
  });
  it('resolves a named port on a sidecar (restartPolicy Always init container), not on a plain init container', () => {
    const base = pod('a', '1.1.1.1');
    const withInit = (restartPolicy?: 'Always'): Pod => ({
      ...base,
      spec: { ...base.spec!, initContainers: [{ name: 'proxy', ...(restartPolicy ? { restartPolicy } : {}), ports: [{ name: 'metrics', containerPort: 9100 }] }] },
    });
    expect(findPort(withInit('Always'), 'metrics', 80, 'TCP')).toBe(9100);
    expect(findPort(withInit(), 'metrics', 80, 'TCP')).toBeUndefined();
  });
  it('resolves named ports per pod', () => {
    expect(findPort(pod('a', '1.1.1.1'), 'http', 80, 'TCP')).toBe(8080);
    expect(findPort(pod('a', '1.1.1.1'), 'grpc', 80, 'TCP')).toBeUndefined();
    expect(findPort(pod('a', '1.1.1.1'), undefined, 80, 'TCP')).toBe(80);
  });
  it('groups pods with different resolved ports into different port sets, skipping pods without IP', () => {
    const g = desiredByPortSet(svc, [pod('a', '10.0.0.1'), pod('b', '10.0.0.2', { port: 9090 }), pod('c', '')], () => undefined);
    expect([...g.values()].map((x) => [x.ports.map((p) => p.port), x.endpoints.map((e) => e.addresses[0])])).toEqual([
      [[8080], ['10.0.0.1']],
      [[9090], ['10.0.0.2']],
    ]);
  });
});

describe('slice planning', () => {
  const desired = (n: number) =>
    desiredByPortSet(
      svc,
      Array.from({ length: n }, (_, i) => pod(`p${i}`, `10.0.${Math.floor(i / 250)}.${i % 250}`)),
      () => undefined,
    );
  it('splits 250 endpoints into slices of at most 100', () => {
    const plan = planSlices([], desired(250), 100);
    expect(plan.create.map((c) => c.endpoints.length)).toEqual([100, 100, 50]);
  });
  it('changes nothing when the slice already matches', () => {
    const d = desired(2);
    const first = planSlices([], d, 100).create[0]!;
    const existing: EndpointSlice = { metadata: { name: 'web-abcde' }, addressType: 'IPv4', endpoints: first.endpoints, ports: first.ports };
    expect(planSlices([existing], d, 100)).toEqual({ update: [], create: [], delete: [] });
  });
  it('keeps an empty placeholder slice when the Service selects nothing', () => {
    expect(planSlices([], new Map(), 100).create).toEqual([{ ports: [], endpoints: [] }]);
  });
});
