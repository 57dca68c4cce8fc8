import { describe, expect, it } from 'vitest';
import type { APIService, Endpoints, Service } from '@kubelab/api';
import { discoveryAvailability, resolveEndpoint, staticAvailability, withAvailable } from './availability.js';

const remote: APIService = {
  metadata: { name: 'v1beta1.metrics.k8s.io' },
  spec: { service: { namespace: 'kube-system', name: 'metrics-server', port: 443 }, group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100 },
};
const local: APIService = { metadata: { name: 'v1.apps' }, spec: { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 } };
const svc = (portName = 'https'): Service => ({
  metadata: { name: 'metrics-server', namespace: 'kube-system' },
  spec: { type: 'ClusterIP', ports: [{ name: portName, port: 443, targetPort: 'https' }] },
});
const eps = (portName = 'https', ip = '10.244.1.5'): Endpoints => ({
  metadata: { name: 'metrics-server', namespace: 'kube-system' },
  subsets: [{ addresses: [{ ip }], ports: [{ name: portName, port: 10250, protocol: 'TCP' }] }],
});

describe('staticAvailability (upstream AvailableConditionController.sync)', () => {
  it.each([
    ['local', local, undefined, undefined, { status: 'True', reason: 'Local', message: 'Local APIServices are always available' }],
    ['no service', remote, undefined, undefined, { status: 'False', reason: 'ServiceNotFound', message: 'service/metrics-server in "kube-system" is not present' }],
    [
      'wrong port',
      { ...remote, spec: { ...remote.spec!, service: { ...remote.spec!.service!, port: 8443 } } },
      svc(),
      eps(),
      { status: 'False', reason: 'ServicePortError', message: 'service/metrics-server in "kube-system" is not listening on port 8443' },
    ],
    ['no endpoints', remote, svc(), undefined, { status: 'False', reason: 'EndpointsNotFound', message: 'cannot find endpoints for service/metrics-server in "kube-system"' }],
    [
      'endpoints without the port name',
      remote,
      svc(),
      eps('metrics'),
      { status: 'False', reason: 'MissingEndpoints', message: 'endpoints for service/metrics-server in "kube-system" have no addresses with port name "https"' },
    ],
    [
      'endpoints without addresses',
      remote,
      svc(),
      { ...eps(), subsets: [{ notReadyAddresses: [{ ip: '10.244.1.5' }], ports: [{ name: 'https', port: 10250 }] }] },
      { status: 'False', reason: 'MissingEndpoints', message: 'endpoints for service/metrics-server in "kube-system" have no addresses with port name "https"' },
    ],
  ])('%s', (_name, a, s, e, want) => {
    expect(staticAvailability(a, s, e)).toEqual({ condition: want });
  });

  it('a ready endpoint leaves it to the discovery check', () => {
    expect(staticAvailability(remote, svc(), eps())).toEqual({ check: true });
  });

  it('the discovery check: its error, or all checks passed', () => {
    expect(discoveryAvailability('failing or missing response from https://10.244.1.5:10250/apis/metrics.k8s.io/v1beta1: bad status from x: 403')).toEqual({
      status: 'False',
      reason: 'FailedDiscoveryCheck',
      message: 'failing or missing response from https://10.244.1.5:10250/apis/metrics.k8s.io/v1beta1: bad status from x: 403',
    });
    expect(discoveryAvailability(undefined)).toEqual({ status: 'True', reason: 'Passed', message: 'all checks passed' });
  });
});

describe('withAvailable (SetAPIServiceCondition)', () => {
  const before = { ...remote, status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'm', lastTransitionTime: '2025-01-01T00:00:00Z' }] } };
  it('keeps the transition time while the status holds', () => {
    expect(withAvailable(before, { status: 'False', reason: 'FailedDiscoveryCheck', message: 'x' }, '2025-01-02T00:00:00Z')).toEqual([
      { type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: 'x', lastTransitionTime: '2025-01-01T00:00:00Z' },
    ]);
  });
  it('moves it when the status changes, and adds the condition when missing', () => {
    expect(withAvailable(before, { status: 'True', reason: 'Passed', message: 'all checks passed' }, '2025-01-02T00:00:00Z')[0]!.lastTransitionTime).toBe('2025-01-02T00:00:00Z');
    expect(withAvailable(remote, { status: 'True', reason: 'Passed', message: 'all checks passed' }, '2025-01-02T00:00:00Z')).toEqual([
      { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed', lastTransitionTime: '2025-01-02T00:00:00Z' },
    ]);
  });
});

describe('resolveEndpoint (endpoint routing)', () => {
  it('an address on the target port of the service port the APIService names', () => {
    expect(resolveEndpoint(remote, svc(), eps(), () => 0)).toEqual({ host: '10.244.1.5', port: 10250 });
  });
  it('says why there is none', () => {
    expect(resolveEndpoint(remote, undefined, undefined)).toEqual({ error: 'service "metrics-server" not found' });
    expect(resolveEndpoint(remote, svc(), eps('other'))).toEqual({ error: 'no endpoints available for service "metrics-server"' });
  });
});
