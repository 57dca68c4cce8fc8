import { describe, expect, it } from 'vitest';
import type { PodSandbox, PodSandboxStatus } from '../kuberuntime/cri.js';
import type { ProbeOutcome } from '../prober/outcome.js';
import type { ProbeTransport } from '../prober/prober.js';
import { dialingProbeTransport, httpHookVia, loopbackDialer, urlPort, type HostPort } from './loopback.js';

/** A transport answering every dial with `outcome(target)`; records where it dialed. */
function recording(outcome: (target: string) => ProbeOutcome) {
  const dialed: string[] = [];
  const transport: ProbeTransport = {
    exec: async () => ({ result: 'Success', output: '' }),
    http: async (url, headers) => (dialed.push(`${url.href} Host=${headers.Host ?? ''}`), outcome(url.href)),
    tcp: async (host, port) => (dialed.push(`${host}:${port}`), outcome(`${host}:${port}`)),
    grpc: async (t) => (dialed.push(`${t.host}:${t.port}`), outcome(t.displayAddr)),
  };
  return { transport, dialed };
}

const toLoopback = async (): Promise<HostPort> => ({ host: '127.0.0.1', port: 40001 });

describe('dialingProbeTransport', () => {
  it.each<{ name: string; outcome: (t: string) => ProbeOutcome; want: ProbeOutcome }>([
    { name: 'a success passes through', outcome: () => ({ result: 'Success', output: 'ok' }), want: { result: 'Success', output: 'ok' } },
    {
      name: 'a failure names the pod address, not the loopback one',
      outcome: (t) => ({ result: 'Failure', output: `Get "${t}": dial tcp 127.0.0.1:40001: connect: connection refused` }),
      want: { result: 'Failure', output: 'Get "http://10.244.0.5:8080/healthz": dial tcp 10.244.0.5:8080: connect: connection refused' },
    },
  ])('httpGet: $name', async ({ outcome, want }) => {
    const { transport, dialed } = recording(outcome);
    const r = await dialingProbeTransport(transport, toLoopback).http(new URL('http://10.244.0.5:8080/healthz'), {}, 1000);
    expect(r).toEqual(want);
    expect(dialed).toEqual(['http://127.0.0.1:40001/healthz Host=10.244.0.5:8080']);
  });

  it('tcpSocket: dials the loopback address and reports the pod address', async () => {
    const { transport, dialed } = recording((t) => ({ result: 'Failure', output: `dial tcp ${t}: connect: connection refused` }));
    expect(await dialingProbeTransport(transport, toLoopback).tcp('10.244.0.5', 6379, 1000)).toEqual({ result: 'Failure', output: 'dial tcp 10.244.0.5:6379: connect: connection refused' });
    expect(dialed).toEqual(['127.0.0.1:40001']);
  });

  it('without a dialer the transport is used as is', () => {
    const { transport } = recording(() => ({ result: 'Success', output: '' }));
    expect(dialingProbeTransport(transport, undefined)).toBe(transport);
  });
});

describe('httpHookVia', () => {
  it.each<{ name: string; outcome: ProbeOutcome; want: string | undefined }>([
    { name: 'success: no error', outcome: { result: 'Success', output: '' }, want: undefined },
    { name: 'failure: its output', outcome: { result: 'Failure', output: 'HTTP probe failed with statuscode: 500' }, want: 'HTTP probe failed with statuscode: 500' },
    { name: 'unknown: its error', outcome: { result: 'Unknown', error: 'boom' }, want: 'boom' },
  ])('$name', async ({ outcome, want }) => {
    const { transport, dialed } = recording(() => outcome);
    expect(await httpHookVia(transport, toLoopback)(new URL('http://10.244.0.5/start'), 1000)).toBe(want);
    expect(dialed).toEqual(['http://127.0.0.1:40001/start Host=']);
  });
});

describe('loopbackDialer', () => {
  const sandbox = (id: string, state: PodSandbox['state']): PodSandbox => ({ id, state, metadata: { name: id, uid: id, namespace: 'default', attempt: 0 }, createdAt: 0, labels: {}, annotations: {} });
  const rt = {
    listPodSandbox: async () => [sandbox('ready', 'SANDBOX_READY'), sandbox('stopped', 'SANDBOX_NOTREADY')],
    podSandboxStatus: async (id: string): Promise<PodSandboxStatus> => ({ ...sandbox(id, 'SANDBOX_READY'), network: { ip: id === 'ready' ? '10.244.0.5' : '10.244.0.6', additionalIps: [] } }),
    sandboxPortMap: async (id: string) => (id === 'ready' ? { '8080/TCP': '127.0.0.1:40001' } : undefined),
  };
  it.each([
    { name: 'a mapped port of a ready sandbox: where the runtime serves it', ip: '10.244.0.5', port: 8080, want: { host: '127.0.0.1', port: 40001 } },
    { name: 'an unmapped port of a loopback sandbox: where nothing listens', ip: '10.244.0.5', port: 9090, want: { host: '127.0.0.1', port: 1 } },
    { name: 'an IP no ready sandbox has: dialed as is', ip: '10.244.0.6', port: 8080, want: { host: '10.244.0.6', port: 8080 } },
  ])('$name', async ({ ip, port, want }) => {
    expect(await loopbackDialer(rt)(ip, port)).toEqual(want);
  });
});

describe('urlPort', () => {
  it.each([
    ['http://a:8080/', 8080],
    ['http://a/', 80],
    ['https://a/', 443],
  ])('%s → %i', (url, port) => {
    expect(urlPort(new URL(url))).toBe(port);
  });
});
