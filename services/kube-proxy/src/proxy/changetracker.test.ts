import { describe, expect, it } from 'vitest';
import { makeService, makeSlice } from '../testing/fixtures.js';
import { buildSnapshot, EndpointsChangeTracker, ServiceChangeTracker } from './changetracker.js';
import { usableEndpoints } from './endpoints.js';

const http = { name: 'http', protocol: 'TCP' as const, port: 80, targetPort: 'http' };

describe('ServiceChangeTracker', () => {
  it('reports a change only when the rendered service ports change', () => {
    const t = new ServiceChangeTracker();
    const svc = makeService('default', 'web', '10.96.0.10', [http]);
    expect(t.update(undefined, svc)).toBe(true);
    const relabelled = { ...svc, metadata: { ...svc.metadata, resourceVersion: '7', labels: { a: 'b' } } };
    expect(t.update(svc, relabelled)).toBe(false);
    const sticky = { ...svc, spec: { ...svc.spec, sessionAffinity: 'ClientIP' as const } };
    expect(t.update(svc, sticky)).toBe(true);
    expect(t.servicePorts()).toMatchObject([{ name: 'default/web:http', sessionAffinity: 'ClientIP', stickyMaxAgeSeconds: 10800 }]);
    expect(t.update(sticky, undefined)).toBe(true);
    expect(t.servicePorts()).toEqual([]);
  });

  it('skips headless and ExternalName services and keeps timeoutSeconds', () => {
    const t = new ServiceChangeTracker();
    expect(t.update(undefined, makeService('default', 'headless', 'None', [http]))).toBe(false);
    expect(t.update(undefined, makeService('default', 'ext', '', [http], { type: 'ExternalName', externalName: 'example.org' }))).toBe(false);
    t.update(undefined, makeService('default', 's', '10.96.0.9', [http], { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }));
    expect(t.servicePorts().map((p) => [p.name, p.stickyMaxAgeSeconds])).toEqual([['default/s:http', 60]]);
  });

  it('names an unnamed port ns/name and gives NodePort services their node port', () => {
    const snap = buildSnapshot([makeService('default', 'np', '10.96.0.13', [{ protocol: 'TCP', port: 80, nodePort: 30080 }], { type: 'NodePort' })], [], 'node-1');
    expect(snap.services.map((s) => [s.name, s.nodePort])).toEqual([['default/np', 30080]]);
  });
});

describe('EndpointsChangeTracker', () => {
  it('resolves slice ports to service ports by name and marks local endpoints', () => {
    const t = new EndpointsChangeTracker('node-1');
    const slice = makeSlice(
      'default',
      'web',
      [
        { name: 'http', port: 8080 },
        { name: 'metrics', port: 9090 },
      ],
      [
        { ip: '10.244.1.2', nodeName: 'node-1' },
        { ip: '10.244.2.3', nodeName: 'node-2' },
      ],
    );
    expect(t.endpointSliceUpdate(slice, false)).toBe(true);
    const m = t.endpointsMap();
    expect([...m.keys()].sort()).toEqual(['default/web:http', 'default/web:metrics']);
    expect(m.get('default/web:http')!.map((e) => [e.endpoint, e.isLocal])).toEqual([
      ['10.244.1.2:8080', true],
      ['10.244.2.3:8080', false],
    ]);
    expect(t.endpointSliceUpdate(slice, false)).toBe(false);
    expect(t.endpointSliceUpdate(slice, true)).toBe(true);
    expect(t.endpointsMap().size).toBe(0);
  });

  it('merges slices of one service and drops duplicate endpoints', () => {
    const t = new EndpointsChangeTracker('node-1');
    t.endpointSliceUpdate(makeSlice('default', 'web', [{ name: 'http', port: 8080 }], [{ ip: '10.244.1.2' }, { ip: '10.244.1.3' }], 'web-a'), false);
    t.endpointSliceUpdate(makeSlice('default', 'web', [{ name: 'http', port: 8080 }], [{ ip: '10.244.1.3' }, { ip: '10.244.1.10' }], 'web-b'), false);
    expect(
      t
        .endpointsMap()
        .get('default/web:http')!
        .map((e) => e.endpoint),
    ).toEqual(['10.244.1.10:8080', '10.244.1.2:8080', '10.244.1.3:8080']);
  });

  it('ignores slices without the service-name label and non-IPv4 slices', () => {
    const t = new EndpointsChangeTracker('node-1');
    const unlabeled = makeSlice('default', 'web', [{ port: 80 }], [{ ip: '10.244.1.2' }]);
    unlabeled.metadata.labels = {};
    expect(t.endpointSliceUpdate(unlabeled, false)).toBe(false);
    const v6 = { ...makeSlice('default', 'web', [{ port: 80 }], [{ ip: '10.244.1.2' }]), addressType: 'IPv6' as const };
    expect(t.endpointSliceUpdate(v6, false)).toBe(false);
  });
});

describe('usableEndpoints', () => {
  const svc = buildSnapshot([makeService('default', 'web', '10.96.0.10', [http])], [], 'n').services[0]!;
  const eps = (specs: Parameters<typeof makeSlice>[3]) => buildSnapshot([], [makeSlice('default', 'web', [{ name: 'http', port: 8080 }], specs)], 'n').endpoints.get('default/web:http')!;

  it.each([
    ['ready endpoints only, when any is ready', [{ ip: '10.0.0.1' }, { ip: '10.0.0.2', ready: false }, { ip: '10.0.0.3', ready: false, serving: true, terminating: true }], ['10.0.0.1:8080']],
    [
      'serving+terminating endpoints when none is ready',
      [
        { ip: '10.0.0.2', ready: false },
        { ip: '10.0.0.3', ready: false, serving: true, terminating: true },
      ],
      ['10.0.0.3:8080'],
    ],
    [
      'nothing when no endpoint is ready or serving',
      [
        { ip: '10.0.0.2', ready: false },
        { ip: '10.0.0.4', ready: false, serving: false, terminating: true },
      ],
      [],
    ],
    ['missing conditions mean ready', [{ ip: '10.0.0.5' }], ['10.0.0.5:8080']],
  ])('%s', (_name, specs, want) => {
    expect(usableEndpoints(svc, eps(specs)).map((e) => e.endpoint)).toEqual(want);
  });
});
