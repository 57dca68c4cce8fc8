// Tiny builders for Services and EndpointSlices, shared by the renderer tests
// and the server tests (upstream proxier_test's makeTestService / makeTestEndpointSlice).

import type { Endpoint, EndpointSlice, Service, ServicePort } from '@kubelab/api';

export function makeService(ns: string, name: string, clusterIP: string, ports: ServicePort[], extra: Partial<NonNullable<Service['spec']>> = {}): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace: ns, name },
    spec: { type: 'ClusterIP', clusterIP, clusterIPs: [clusterIP], ports, ...extra },
  };
}

export interface EndpointSpec {
  ip: string;
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
  nodeName?: string;
}

export function makeSlice(ns: string, svc: string, ports: { name?: string; port: number; protocol?: 'TCP' | 'UDP' }[], endpoints: EndpointSpec[], sliceName = `${svc}-abcde`): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { namespace: ns, name: sliceName, labels: { 'kubernetes.io/service-name': svc } },
    addressType: 'IPv4',
    ports: ports.map((p) => ({ ...(p.name !== undefined ? { name: p.name } : {}), port: p.port, protocol: p.protocol ?? 'TCP' })),
    endpoints: endpoints.map((e): Endpoint => ({
      addresses: [e.ip],
      conditions: {
        ...(e.ready !== undefined ? { ready: e.ready } : {}),
        ...(e.serving !== undefined ? { serving: e.serving } : {}),
        ...(e.terminating !== undefined ? { terminating: e.terminating } : {}),
      },
      ...(e.nodeName ? { nodeName: e.nodeName } : {}),
    })),
  };
}

/**
 * The scenario every renderer test uses:
 * - default/web:http   10.96.0.10:80  → 3 ready endpoints on :8080 (named port)
 * - default/api        10.96.0.11:443 → 1 endpoint (unnamed port)
 * - default/empty:http 10.96.0.12:80  → no endpoints
 * - default/np:http    10.96.0.13:80  NodePort 30080 → 1 endpoint
 * - default/sticky:http 10.96.0.14:80 ClientIP affinity, timeout default → 2 endpoints
 * - default/drain:http 10.96.0.15:80  → 1 terminating+serving, 1 terminating not serving, 1 not ready
 */
export function scenario(): { services: Service[]; slices: EndpointSlice[] } {
  const http = (port: number, targetPort: number | string = 'http', nodePort?: number): ServicePort => ({
    name: 'http',
    protocol: 'TCP',
    port,
    targetPort,
    ...(nodePort ? { nodePort } : {}),
  });
  return {
    services: [
      makeService('default', 'web', '10.96.0.10', [http(80)]),
      makeService('default', 'api', '10.96.0.11', [{ protocol: 'TCP', port: 443, targetPort: 8443 }]),
      makeService('default', 'empty', '10.96.0.12', [http(80)]),
      makeService('default', 'np', '10.96.0.13', [http(80, 8080, 30080)], { type: 'NodePort' }),
      makeService('default', 'sticky', '10.96.0.14', [http(80)], { sessionAffinity: 'ClientIP' }),
      makeService('default', 'drain', '10.96.0.15', [http(80)]),
    ],
    slices: [
      makeSlice('default', 'web', [{ name: 'http', port: 8080 }], [{ ip: '10.244.1.2' }, { ip: '10.244.2.3' }, { ip: '10.244.1.4' }]),
      makeSlice('default', 'api', [{ port: 8443 }], [{ ip: '10.244.1.5' }]),
      makeSlice('default', 'empty', [{ name: 'http', port: 8080 }], []),
      makeSlice('default', 'np', [{ name: 'http', port: 8080 }], [{ ip: '10.244.2.6' }]),
      makeSlice('default', 'sticky', [{ name: 'http', port: 8080 }], [{ ip: '10.244.1.7' }, { ip: '10.244.2.8' }]),
      makeSlice(
        'default',
        'drain',
        [{ name: 'http', port: 8080 }],
        [
          { ip: '10.244.1.9', ready: false, serving: true, terminating: true },
          { ip: '10.244.2.10', ready: false, serving: false, terminating: true },
          { ip: '10.244.2.11', ready: false },
        ],
      ),
    ],
  };
}

/**
 * Traffic-policy scenario (this node is node-1):
 * - default/itp:http        10.96.0.20:80 internalTrafficPolicy Local → endpoints on node-1 and node-2
 * - default/itp-remote:http 10.96.0.21:80 internalTrafficPolicy Local → endpoint on node-2 only
 * - default/etp:http        10.96.0.22:80 NodePort 30090, externalTrafficPolicy Local → node-1 and node-2
 * - default/etp-remote:http 10.96.0.23:80 LoadBalancer 192.0.2.10, NodePort 30091, healthCheckNodePort 32000,
 *                           externalTrafficPolicy Local → endpoint on node-2 only
 */
export function localScenario(): { services: Service[]; slices: EndpointSlice[] } {
  const http = (nodePort?: number): ServicePort => ({ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, ...(nodePort ? { nodePort } : {}) });
  const lb = makeService('default', 'etp-remote', '10.96.0.23', [http(30091)], {
    type: 'LoadBalancer',
    externalTrafficPolicy: 'Local',
    ...({ healthCheckNodePort: 32000 } as object),
  });
  lb.status = { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } };
  return {
    services: [
      makeService('default', 'itp', '10.96.0.20', [http()], { internalTrafficPolicy: 'Local' }),
      makeService('default', 'itp-remote', '10.96.0.21', [http()], { internalTrafficPolicy: 'Local' }),
      makeService('default', 'etp', '10.96.0.22', [http(30090)], { type: 'NodePort', externalTrafficPolicy: 'Local' }),
      lb,
    ],
    slices: [
      makeSlice(
        'default',
        'itp',
        [{ name: 'http', port: 8080 }],
        [
          { ip: '10.244.1.20', nodeName: 'node-1' },
          { ip: '10.244.2.21', nodeName: 'node-2' },
        ],
      ),
      makeSlice('default', 'itp-remote', [{ name: 'http', port: 8080 }], [{ ip: '10.244.2.22', nodeName: 'node-2' }]),
      makeSlice(
        'default',
        'etp',
        [{ name: 'http', port: 8080 }],
        [
          { ip: '10.244.1.22', nodeName: 'node-1' },
          { ip: '10.244.2.23', nodeName: 'node-2' },
        ],
      ),
      makeSlice('default', 'etp-remote', [{ name: 'http', port: 8080 }], [{ ip: '10.244.2.24', nodeName: 'node-2' }]),
    ],
  };
}
