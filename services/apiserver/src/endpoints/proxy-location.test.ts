import { describe, expect, it } from 'vitest';
import { StatusError, type KubeObject } from '@kubelab/api';
import { nodeLocation, podLocation, serviceLocation, splitSchemeNamePort } from './proxy-location.js';

/** The Status a call throws, or its result. */
function outcome<T>(f: () => T): T | { code: number; reason?: string; message: string } {
  try {
    return f();
  } catch (e) {
    if (!StatusError.isInstance(e)) throw e;
    return { code: e.status.code, ...(e.status.reason ? { reason: e.status.reason } : {}), message: e.status.message ?? '' };
  }
}

describe('splitSchemeNamePort', () => {
  it.each([
    ['web', { scheme: '', name: 'web', port: '' }],
    ['web:80', { scheme: '', name: 'web', port: '80' }],
    ['https:web:443', { scheme: 'https', name: 'web', port: '443' }],
    ['https:web:', { scheme: 'https', name: 'web', port: '' }],
    ['web:http', { scheme: '', name: 'web', port: 'http' }],
    ['ftp:web:21', undefined],
    [':80', undefined],
    ['a:b:c:d', undefined],
  ])('%s', (id, want) => {
    expect(splitSchemeNamePort(id)).toEqual(want);
  });
});

const KUBELET = { host: '10.0.0.5', port: 10250 };

describe('nodeLocation', () => {
  it.each([
    ['node-1', { scheme: 'https', host: '10.0.0.5', port: 10250, kubelet: true }],
    ['node-1:10250', { scheme: 'https', host: '10.0.0.5', port: 10250, kubelet: true }],
    ['node-1:9100', { scheme: 'http', host: '10.0.0.5', port: 9100 }],
    ['https:node-1:9100', { scheme: 'https', host: '10.0.0.5', port: 9100 }],
    ['node-1:x', { code: 400, reason: 'BadRequest', message: 'invalid node request "node-1:x"' }],
    ['gopher:node-1:70', { code: 400, reason: 'BadRequest', message: 'invalid node request "gopher:node-1:70"' }],
  ])('%s', (id, want) => {
    expect(outcome(() => nodeLocation(id, KUBELET))).toEqual(want);
  });

  it('another port of a loopback node address is not allowed (upstream isProxyableHostname)', () => {
    expect(outcome(() => nodeLocation('node-1:9100', { host: '127.0.0.1', port: 10250 }))).toEqual({ code: 400, reason: 'BadRequest', message: 'address not allowed' });
    expect(nodeLocation('node-1', { host: '127.0.0.1', port: 10250 })).toEqual({ scheme: 'https', host: '127.0.0.1', port: 10250, kubelet: true });
  });
});

const pod = (podIP: string | undefined, ports: number[] = []): KubeObject =>
  ({ metadata: { name: 'web' }, spec: { containers: [{ name: 'a' }, { name: 'b', ports: ports.map((containerPort) => ({ containerPort })) }] }, status: podIP ? { podIP } : {} }) as KubeObject;

describe('podLocation', () => {
  it.each([
    ['web:80', pod('10.244.1.5'), { scheme: 'http', host: '10.244.1.5', port: 80 }],
    ['web', pod('10.244.1.5', [8080, 9090]), { scheme: 'http', host: '10.244.1.5', port: 8080 }],
    ['web', pod('10.244.1.5'), { scheme: 'http', host: '10.244.1.5' }],
    ['https:web:8443', pod('10.244.1.5'), { scheme: 'https', host: '10.244.1.5', port: 8443 }],
    ['web:80', pod(undefined), { code: 400, reason: 'BadRequest', message: 'address not allowed' }],
    ['web:80', pod('127.0.0.1'), { code: 400, reason: 'BadRequest', message: 'address not allowed' }],
    ['a:b:c:d', pod('10.244.1.5'), { code: 400, reason: 'BadRequest', message: 'invalid pod request "a:b:c:d"' }],
  ])('%s', (id, p, want) => {
    expect(outcome(() => podLocation(id, p))).toEqual(want);
  });
});

const svc = {
  metadata: { name: 'web' },
  spec: {
    ports: [
      { name: 'http', port: 80, targetPort: 8080 },
      { name: 'metrics', port: 9090 },
    ],
  },
} as unknown as KubeObject;
const eps = (subsets: unknown[]) => ({ metadata: { name: 'web' }, subsets }) as unknown as KubeObject;
const ready = eps([
  {
    addresses: [{ ip: '10.244.1.5' }, { ip: '10.244.2.7' }],
    ports: [
      { name: 'http', port: 8080 },
      { name: 'metrics', port: 9090 },
    ],
  },
]);
const first = () => 0;

describe('serviceLocation', () => {
  it.each([
    ['web:80 maps the port number to its name, then to the endpoint port', 'web:80', ready, { scheme: 'http', host: '10.244.1.5', port: 8080 }],
    ['web:metrics by name', 'web:metrics', ready, { scheme: 'http', host: '10.244.1.5', port: 9090 }],
    ['https:web:80', 'https:web:80', ready, { scheme: 'https', host: '10.244.1.5', port: 8080 }],
    ['an undeclared port number', 'web:81', ready, { code: 503, reason: 'ServiceUnavailable', message: 'no service port 81 found for service "web"' }],
    ['no Endpoints object', 'web:80', undefined, { code: 503, reason: 'ServiceUnavailable', message: 'no endpoints available for service "web"' }],
    ['no subsets', 'web:80', eps([]), { code: 503, reason: 'ServiceUnavailable', message: 'no endpoints available for service "web"' }],
    [
      'only not-ready addresses',
      'web:80',
      eps([{ notReadyAddresses: [{ ip: '10.244.1.5' }], ports: [{ name: 'http', port: 8080 }] }]),
      { code: 503, reason: 'ServiceUnavailable', message: 'no endpoints available for service "web:80"' },
    ],
    ['an unnamed port matches the empty name', 'web', eps([{ addresses: [{ ip: '10.244.1.5' }], ports: [{ port: 8080 }] }]), { scheme: 'http', host: '10.244.1.5', port: 8080 }],
  ])('%s', (_what, id, e, want) => {
    expect(outcome(() => serviceLocation(id, svc, e, first))).toEqual(want);
  });

  it('picks among ready addresses with the chooser', () => {
    expect(serviceLocation('web:80', svc, ready, (n) => n - 1).host).toBe('10.244.2.7');
  });
});
