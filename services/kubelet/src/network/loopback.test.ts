import { describe, expect, it } from 'vitest';
import { CriClientError, type PodSandbox } from '../kuberuntime/cri.js';
import type { SandboxAddress } from '../kuberuntime/remote.js';
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

  /** A runtime of sandboxes (id → state, IP, ports) that counts its calls and can be taken down. */
  function runtime(sandboxes: Record<string, { state: PodSandbox['state']; ip: string; ports?: Record<string, string> }>) {
    const r = {
      down: false,
      calls: [] as string[],
      sandboxes,
      async listPodSandbox(): Promise<PodSandbox[]> {
        r.calls.push('ListPodSandbox');
        if (r.down) throw new CriClientError('Unavailable', 'connection error');
        return Object.entries(r.sandboxes).map(([id, s]) => sandbox(id, s.state));
      },
      async sandboxAddress(id: string): Promise<SandboxAddress> {
        r.calls.push(`PodSandboxStatus ${id}`);
        if (r.down) throw new CriClientError('Unavailable', 'connection error');
        const s = r.sandboxes[id];
        if (!s) throw new CriClientError('NotFound', `an error occurred when try to find sandbox "${id}": not found`);
        return { ready: s.state === 'SANDBOX_READY', ip: s.ip, ports: s.ports && { ...s.ports } };
      },
    };
    return r;
  }
  const node = () =>
    runtime({
      a: { state: 'SANDBOX_READY', ip: '10.244.0.4', ports: {} },
      b: { state: 'SANDBOX_READY', ip: '10.244.0.5', ports: { '8080/TCP': '127.0.0.1:40001' } },
      stopped: { state: 'SANDBOX_NOTREADY', ip: '10.244.0.6', ports: {} },
      d: { state: 'SANDBOX_READY', ip: '10.244.0.7', ports: { '80/TCP': '127.0.0.1:40004' } },
    });

  it.each([
    { name: 'a mapped port of a ready sandbox: where the runtime serves it', ip: '10.244.0.5', port: 8080, want: { host: '127.0.0.1', port: 40001 } },
    { name: 'an unmapped port of a loopback sandbox: where nothing listens', ip: '10.244.0.5', port: 9090, want: { host: '127.0.0.1', port: 1 } },
    { name: 'an IP no ready sandbox has: dialed as is', ip: '10.244.0.6', port: 8080, want: { host: '10.244.0.6', port: 8080 } },
  ])('$name', async ({ ip, port, want }) => {
    expect(await loopbackDialer(node())(ip, port)).toEqual(want);
  });

  it('asks a remembered sandbox alone on the next dial, and sees a listener that came since', async () => {
    const rt = node();
    const dial = loopbackDialer(rt);
    expect(await dial('10.244.0.4', 80)).toEqual({ host: '127.0.0.1', port: 1 });
    expect(rt.calls).toEqual(['ListPodSandbox', 'PodSandboxStatus a']);
    rt.calls.length = 0;
    rt.sandboxes.a!.ports = { '80/TCP': '127.0.0.1:40002' };
    expect(await dial('10.244.0.4', 80)).toEqual({ host: '127.0.0.1', port: 40002 });
    expect(rt.calls).toEqual(['PodSandboxStatus a']);
  });

  it('while the runtime is down, dials a remembered sandbox where it last served (the containers outlive containerd)', async () => {
    const rt = node();
    const dial = loopbackDialer(rt);
    await dial('10.244.0.5', 8080);
    rt.down = true;
    expect(await dial('10.244.0.5', 8080)).toEqual({ host: '127.0.0.1', port: 40001 });
    expect(await dial('10.244.0.5', 9090)).toEqual({ host: '127.0.0.1', port: 1 });
    // Not asked before the runtime went down: nothing to go by but the IP.
    expect(await dial('10.244.0.7', 80)).toEqual({ host: '10.244.0.7', port: 80 });
  });

  it('forgets a sandbox that is gone or stopped, and finds the IP again if another sandbox has it', async () => {
    const rt = node();
    const dial = loopbackDialer(rt);
    await dial('10.244.0.5', 8080);
    delete rt.sandboxes.b;
    expect(await dial('10.244.0.5', 8080)).toEqual({ host: '10.244.0.5', port: 8080 });
    rt.sandboxes.c = { state: 'SANDBOX_READY', ip: '10.244.0.5', ports: { '8080/TCP': '127.0.0.1:40003' } };
    expect(await dial('10.244.0.5', 8080)).toEqual({ host: '127.0.0.1', port: 40003 });
    rt.sandboxes.c.state = 'SANDBOX_NOTREADY';
    expect(await dial('10.244.0.5', 8080)).toEqual({ host: '10.244.0.5', port: 8080 });
  });

  it('pod-ip mode: a remembered pod IP is dialed as is without asking the runtime', async () => {
    const rt = runtime({ a: { state: 'SANDBOX_READY', ip: '10.244.1.7' } });
    const dial = loopbackDialer(rt);
    expect(await dial('10.244.1.7', 80)).toEqual({ host: '10.244.1.7', port: 80 });
    rt.calls.length = 0;
    expect(await dial('10.244.1.7', 80)).toEqual({ host: '10.244.1.7', port: 80 });
    expect(rt.calls).toEqual([]);
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
