import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from './proxy/changetracker.js';
import { serviceFrontends, writeServiceFrontends } from './socket-lb.js';
import { loopbackTarget, nodePortEndpoints } from './loopback-nodeports.js';
import { makeService, makeSlice, scenario } from './testing/fixtures.js';

describe("the socket-LB service map (the local runner's data path)", () => {
  const { services, slices } = scenario();
  const map = serviceFrontends(buildSnapshot(services, slices, 'node-1'));

  it.each([
    ['a ClusterIP port: its ready endpoints on the target port', '10.96.0.10:80/TCP', ['10.244.1.2:8080', '10.244.1.4:8080', '10.244.2.3:8080']],
    ['an unnamed port', '10.96.0.11:443/TCP', ['10.244.1.5:8443']],
    ['a Service without endpoints: an empty list (refused)', '10.96.0.12:80/TCP', []],
    ['no ready endpoint: the serving terminating ones (draining)', '10.96.0.15:80/TCP', ['10.244.1.9:8080']],
  ])('%s', (_name, frontend, endpoints) => {
    expect(map[frontend]).toEqual(endpoints);
  });

  it('has UDP frontends (the cluster DNS) and load-balancer IPs, and internalTrafficPolicy Local keeps this node only', () => {
    const svc = [
      makeService('kube-system', 'kube-dns', '10.96.0.100', [{ name: 'dns', protocol: 'UDP', port: 53, targetPort: 53 }]),
      makeService('default', 'lb', '10.96.0.101', [{ name: 'http', protocol: 'TCP', port: 8080, targetPort: 80, nodePort: 31000 }], { type: 'LoadBalancer' }),
      makeService('default', 'local', '10.96.0.102', [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 80 }], { internalTrafficPolicy: 'Local' }),
    ];
    svc[1]!.status = { loadBalancer: { ingress: [{ ip: '10.250.0.1' }] } };
    const sl = [
      makeSlice('kube-system', 'kube-dns', [{ name: 'dns', port: 53, protocol: 'UDP' }], [{ ip: '10.244.1.5', ready: true }]),
      makeSlice('default', 'lb', [{ name: 'http', port: 80 }], [{ ip: '10.244.1.6', ready: true }]),
      makeSlice(
        'default',
        'local',
        [{ name: 'http', port: 80 }],
        [
          { ip: '10.244.1.7', ready: true, nodeName: 'node-1' },
          { ip: '10.244.2.7', ready: true, nodeName: 'node-2' },
        ],
      ),
    ];
    expect(serviceFrontends(buildSnapshot(svc, sl, 'node-1'))).toEqual({
      '10.96.0.100:53/UDP': ['10.244.1.5:53'],
      '10.96.0.101:8080/TCP': ['10.244.1.6:80'],
      '10.250.0.1:8080/TCP': ['10.244.1.6:80'],
      '10.96.0.102:80/TCP': ['10.244.1.7:80'],
    });
  });

  it('is written whole, and only when it changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kp-socket-lb-'));
    try {
      const last = { text: '' };
      expect(writeServiceFrontends(dir, { '10.96.0.12:80/TCP': [] }, last)).toBe(true);
      expect(writeServiceFrontends(dir, { '10.96.0.12:80/TCP': [] }, last)).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, 'services.json'), 'utf8'))).toEqual({ frontends: { '10.96.0.12:80/TCP': [] } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('NodePorts on the shared 127.0.0.1 (local runner)', () => {
  it('maps each TCP NodePort to the endpoints its externalTrafficPolicy allows', () => {
    const { services, slices } = scenario();
    expect(nodePortEndpoints(buildSnapshot(services, slices, 'node-1'))).toEqual(new Map([[30080, ['10.244.2.6:8080']]]));
  });

  it.each([
    ["a pod's port: the runtime's loopback port", '10.244.2.6:8080', { host: '127.0.0.1', port: 41000 }],
    ['an endpoint on the host network', '127.0.0.1:6443', { host: '127.0.0.1', port: 6443 }],
    ['a pod the map does not know', '10.244.9.9:80', undefined],
    ['a port the pod does not serve', '10.244.2.6:80', undefined],
  ])('forwards to %s', (_name, endpoint, want) => {
    expect(loopbackTarget({ '10.244.2.6': { '8080/TCP': '127.0.0.1:41000' } }, endpoint)).toEqual(want);
  });
});
