// Runs one probe of a container and records the outcome as upstream's
// prober.probe does: exec through the runtime's ExecSync, httpGet and
// tcpSocket against the pod IP, grpc (grpc.health.v1.Health/Check) against
// the pod IP and the probe's port; failures become `Unhealthy` events with
// "<Type> probe failed: <output>", errors "<Type> probe errored and resulted
// in unknown state: <err>" (and the result is thrown away by the worker).

import { connect } from 'node:net';
import type { Container, ContainerStatus, HTTPGetAction, IntOrString, Pod, PodStatus, Probe, TCPSocketAction } from '@kubelab/api';
import { httpGetProbe, kObj, MAX_PROBE_BODY_BYTES, type Logger } from '@kubelab/component-base';
import { CriClientError, type RuntimeService } from '../kuberuntime/cri.js';
import { Reason, containerRef, type Recorder } from '../events.js';
import { goSeconds, grpcProbe, type GrpcProbeTarget } from './grpc.js';
import type { ProbeOutcome } from './outcome.js';
import type { Result } from './results.js';
import { probeTimings, type ProbeType } from './types.js';
import { joinHostPort, tcpDialError } from '@kubelab/api';

const MAX_PROBE_RETRIES = 3;
export const PROBE_USER_AGENT = 'kube-probe/1.32';

export interface ProbeResult {
  result: Result;
  /** Set when the probe errored: the worker throws the result away. */
  error?: string;
}

/** The I/O a prober needs; the default talks to the runtime and the network. */
export interface ProbeTransport {
  exec(containerId: string, cmd: string[], timeoutSeconds: number): Promise<ProbeOutcome>;
  http(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<ProbeOutcome>;
  tcp(host: string, port: number, timeoutMs: number): Promise<ProbeOutcome>;
  grpc(target: GrpcProbeTarget): Promise<ProbeOutcome>;
}

export class Prober {
  constructor(
    private readonly transport: ProbeTransport,
    private readonly recorder: Recorder,
    /** Kubelet time runs this many times faster: probe timeouts shrink. */
    private readonly timeScale = 1,
    private readonly log?: Pick<Logger, 'v'>,
  ) {}

  async probe(type: ProbeType, pod: Pod, status: PodStatus, container: Container, containerId: string): Promise<ProbeResult> {
    const spec = probeSpec(type, container);
    if (!spec) return { result: 'Success' };
    let outcome: ProbeOutcome = { result: 'Unknown', error: 'not run' };
    for (let i = 0; i < MAX_PROBE_RETRIES; i++) {
      outcome = await this.runProbe(spec, pod, status, container, containerId);
      if (outcome.result !== 'Unknown') break;
    }
    const ref = containerRef(pod, container);
    // Upstream prober.probe's lines: failures and errors at V(1), successes at V(3).
    const about = { probeType: type, pod: kObj(pod), podUID: pod.metadata.uid, containerName: container.name };
    if (outcome.result === 'Unknown') this.log?.v(1).info('Probe errored', { err: outcome.error, ...about, probeResult: 'unknown' });
    if (outcome.result === 'Failure') this.log?.v(1).info('Probe failed', { ...about, probeResult: 'failure', output: outcome.output });
    if (outcome.result === 'Warning') this.log?.v(3).info('Probe succeeded with a warning', { ...about, probeResult: 'warning', output: outcome.output });
    if (outcome.result === 'Success') this.log?.v(3).info('Probe succeeded', { ...about, probeResult: 'success' });
    switch (outcome.result) {
      case 'Unknown':
        this.recorder.event(ref, 'Warning', Reason.Unhealthy, `${type} probe errored and resulted in unknown state: ${outcome.error}`);
        return { result: 'Failure', error: outcome.error };
      case 'Warning':
        this.recorder.event(ref, 'Warning', Reason.ProbeWarning, `${type} probe warning: ${outcome.output}`);
        return { result: 'Success' };
      case 'Failure':
        this.recorder.event(ref, 'Warning', Reason.Unhealthy, `${type} probe failed: ${outcome.output}`);
        return { result: 'Failure' };
      case 'Success':
        return { result: 'Success' };
    }
  }

  private async runProbe(p: Probe, pod: Pod, status: PodStatus, container: Container, containerId: string): Promise<ProbeOutcome> {
    const timeoutSeconds = probeTimings(p).timeoutSeconds;
    try {
      if (p.exec) return await this.transport.exec(containerId.replace(/^[a-z]+:\/\//, ''), p.exec.command ?? [], timeoutSeconds);
      if (p.httpGet) {
        const url = httpProbeURL(p.httpGet, status, container);
        return await this.transport.http(url, httpProbeHeaders(p.httpGet), (timeoutSeconds * 1000) / this.timeScale);
      }
      if (p.tcpSocket) {
        const { host, port } = tcpProbeTarget(p.tcpSocket, status, container);
        return await this.transport.tcp(host, port, (timeoutSeconds * 1000) / this.timeScale);
      }
      if (p.grpc) return await this.transport.grpc(grpcProbeTarget(p.grpc, status, timeoutSeconds, this.timeScale));
      return { result: 'Unknown', error: `missing probe handler for ${pod.metadata.name}:${container.name}` };
    } catch (e) {
      return { result: 'Unknown', error: (e as Error).message };
    }
  }
}

export function probeSpec(type: ProbeType, c: Container): Probe | undefined {
  return type === 'Liveness' ? c.livenessProbe : type === 'Readiness' ? c.readinessProbe : c.startupProbe;
}

/** Resolves a port number or a named container port (upstream probe.ResolveContainerPort). */
export function resolvePort(port: IntOrString, container: Container): number {
  if (typeof port === 'number') {
    if (port > 0 && port < 65536) return port;
    throw new Error(`invalid port number: ${port}`);
  }
  if (/^\d+$/.test(port)) return resolvePort(Number(port), container);
  const named = container.ports?.find((p) => p.name === port);
  if (named) return named.containerPort;
  throw new Error(`couldn't find port: ${port} in ${JSON.stringify(container.ports ?? [])}`);
}

export function httpProbeURL(a: HTTPGetAction, status: PodStatus, container: Container): URL {
  const scheme = (a.scheme ?? 'HTTP').toLowerCase();
  const host = a.host || status.podIP || '';
  const port = resolvePort(a.port, container);
  let path = a.path ?? '';
  if (!path.startsWith('/')) path = '/' + path;
  return new URL(`${scheme}://${joinHostPort(host, port)}${path}`);
}

/** The headers upstream's HTTP prober sends unless the probe overrides them. */
export function httpProbeHeaders(a: HTTPGetAction): Record<string, string> {
  const h: Record<string, string> = { 'User-Agent': PROBE_USER_AGENT, Accept: '*/*' };
  for (const { name, value } of a.httpHeaders ?? []) {
    const existing = Object.keys(h).find((k) => k.toLowerCase() === name.toLowerCase());
    if (existing) delete h[existing];
    h[name] = value;
  }
  return h;
}

export function tcpProbeTarget(a: TCPSocketAction, status: PodStatus, container: Container): { host: string; port: number } {
  return { host: a.host || status.podIP || '', port: resolvePort(a.port, container) };
}

/** The gRPC probe's target: always the pod IP (the grpc action has no host), the spec's timeout for messages. */
export function grpcProbeTarget(a: { port: number; service?: string | null }, status: PodStatus, timeoutSeconds: number, timeScale = 1): GrpcProbeTarget {
  const host = status.podIP ?? '';
  return {
    host,
    port: a.port,
    service: a.service ?? '',
    timeoutMs: (timeoutSeconds * 1000) / timeScale,
    displayAddr: joinHostPort(host, a.port),
    displayTimeout: goSeconds(timeoutSeconds),
  };
}

/** Whether the container status says it runs (used by the worker). */
export function isRunning(c: ContainerStatus | undefined): boolean {
  return !!c?.state?.running;
}

// ---------------------------------------------------------------- transport

/** Go's net error text for a failed dial, as upstream probe outputs show it. */
function dialErrorText(host: string, port: number, e: NodeJS.ErrnoException): string {
  return tcpDialError(host, port, e) ?? `dial tcp ${joinHostPort(host, port)}: ${e.message}`;
}

export function criProbeTransport(rt: RuntimeService): ProbeTransport {
  return {
    async exec(containerId, cmd, timeoutSeconds) {
      try {
        const r = await rt.execSync(containerId, cmd, timeoutSeconds);
        const data = Buffer.concat([r.stdout, r.stderr]).subarray(0, MAX_PROBE_BODY_BYTES).toString();
        return { result: r.exitCode === 0 ? 'Success' : 'Failure', output: data };
      } catch (e) {
        if (CriClientError.isInstance(e) && e.code === 'DeadlineExceeded') {
          return { result: 'Failure', output: `command ${JSON.stringify(cmd.join(' '))} timed out` };
        }
        return { result: 'Unknown', error: CriClientError.isInstance(e) ? e.grpcText : (e as Error).message };
      }
    },

    http: httpGetProbe,

    async grpc(target) {
      if (!target.host) return { result: 'Failure', output: `error: failed to connect service at ${JSON.stringify(target.displayAddr)}: the pod has no IP yet` };
      return grpcProbe(target);
    },

    tcp(host, port, timeoutMs) {
      return new Promise((resolve) => {
        const sock = connect({ host, port });
        const timer = setTimeout(() => {
          sock.destroy();
          resolve({ result: 'Failure', output: dialErrorText(host, port, Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })) });
        }, timeoutMs);
        sock.once('connect', () => {
          clearTimeout(timer);
          sock.destroy();
          resolve({ result: 'Success', output: '' });
        });
        sock.once('error', (e: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          resolve({ result: 'Failure', output: dialErrorText(host, port, e) });
        });
      });
    },
  };
}
