// The kubelet's HTTPS server on --port (upstream pkg/kubelet/server): /pods,
// /exec/<namespace>/<pod>/<container> and /attach/... (exec.ts),
// /portForward/<namespace>/<pod> (portforward.ts),
// /containerLogs/<namespace>/<pod>/<container> read from the CRI log files
// (follow, tailLines, previous, timestamps, sinceSeconds, limitBytes),
// /healthz, /metrics, /metrics/resource and /stats/summary (stats/); every request, streams included, passes the auth
// filter first (auth/filter.ts). Client certificates are asked for when a
// client CA is configured and checked by the filter, not the handshake.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, type Route } from '@kubelab/component-base';
import type { Registry } from 'prom-client';
import type { Kubelet } from '../kubelet.js';
import { filterRequest, type KubeletAuthOptions } from './auth/filter.js';
import { ATTACH_PATH, EXEC_PATH, serveAttach, serveExec } from './exec.js';
import { PORT_FORWARD_PATH, servePortForward } from './portforward.js';
import { streamLog, type LogOptions } from './logs.js';
import { resourceMetricsText } from '../stats/resource-metrics.js';
import type { KubeletListener, TlsFront } from './tls-front.js';

function fail(res: ServerResponse, code: number, message: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(message);
}

function intParam(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw new Error(`invalid value for ${name}: ${JSON.stringify(v)}`);
  return Number(v);
}

function boolParam(url: URL, name: string): boolean {
  const v = url.searchParams.get(name);
  return v !== null && v !== 'false' && v !== '0';
}

/** Resolves which container instance's log to read (upstream validateContainerLogStatus). */
export async function logTarget(k: Kubelet, namespace: string, podName: string, container: string, previous: boolean): Promise<{ path: string; id: string } | { error: string; code: number }> {
  const found = k.findPod(namespace, podName);
  if (!found) return { code: 404, error: `pod "${podName}" not found` };
  const spec = [...(found.pod.spec?.containers ?? []), ...(found.pod.spec?.initContainers ?? []), ...(found.pod.spec?.ephemeralContainers ?? [])].find((c) => c.name === container);
  if (!spec) return { code: 400, error: `container ${container} is not valid for pod ${podName}` };
  const rs = await k.runtimeManager.getPodStatus(found.uid, podName, namespace);
  const instances = rs.containers.filter((c) => c.name === container);
  const newest = instances[0];
  const podStatus = k.statusManager.getPodStatus(found.uid);
  const status = [...(podStatus?.containerStatuses ?? []), ...(podStatus?.initContainerStatuses ?? []), ...(podStatus?.ephemeralContainerStatuses ?? [])].find((s) => s.name === container);
  if (previous) {
    // The status names the last terminated instance; a restart racing this read may have moved the
    // runtime on (a newer instance ran, the named one was collected): then the runtime's own order decides.
    const prevId = status?.lastState?.terminated?.containerID?.replace(/^[a-z]+:\/\//, '');
    const prev = instances.find((c) => c.id === prevId) ?? previousInstance(instances);
    if (!prev) return { code: 400, error: `previous terminated container "${container}" in pod "${podName}" not found` };
    return { path: prev.logPath, id: prev.id };
  }
  if (!newest) {
    const waiting = status?.state?.waiting?.reason ?? 'ContainerCreating';
    return { code: 400, error: `container "${container}" in pod "${podName}" is waiting to start: ${waiting}` };
  }
  return { path: newest.logPath, id: newest.id };
}

/**
 * The instance `previous` means, from the runtime's list (newest first): the
 * newest exited one that is not the current instance — the current one being
 * the newest if it is running or created (upstream: lastState.terminated).
 */
export function previousInstance<C extends { state: string }>(newestFirst: C[]): C | undefined {
  const current = newestFirst[0];
  const rest = current && current.state !== 'exited' ? newestFirst.slice(1) : newestFirst;
  return rest.find((c) => c.state === 'exited');
}

export interface KubeletServerOptions {
  host: string;
  port: number;
  /** Where connections are terminated: a server of the kubelet's own, or a front shared by a process's kubelets (tls-front.ts). */
  front: TlsFront;
  auth: KubeletAuthOptions;
  metrics?: Registry;
  log?: Pick<Logger, 'info' | 'error'>;
}

/** Serves /pods, /containerLogs/..., /exec/..., /attach/..., /healthz and /metrics on the kubelet port. */
export async function serveKubelet(getKubelet: () => Kubelet, opts: KubeletServerOptions): Promise<KubeletListener> {
  const { routes, prefix } = kubeletRoutes(getKubelet, opts.metrics, opts.log);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const checked = await filterRequest(opts.auth, req);
      if (!checked.ok) {
        if (checked.code === 500) opts.log?.error('authorization error', { why: checked.why, path: req.url });
        else opts.log?.info('request refused', { code: checked.code, why: checked.why, path: req.url });
        return fail(res, checked.code, checked.message);
      }
      const url = new URL(req.url ?? '/', 'https://localhost');
      // exec takes GET (WebSocket) and POST (SPDY), upgraded or refused.
      if (EXEC_PATH.test(url.pathname) && (req.method === 'GET' || req.method === 'POST')) return void (await serveExec(getKubelet(), req, res, url));
      if (ATTACH_PATH.test(url.pathname) && (req.method === 'GET' || req.method === 'POST')) return void (await serveAttach(getKubelet(), req, res, url));
      if (PORT_FORWARD_PATH.test(url.pathname) && (req.method === 'GET' || req.method === 'POST')) return void (await servePortForward(getKubelet(), req, res, url));
      if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405, `method ${req.method} not allowed`);
      const route = routes[url.pathname];
      if (route) return void (await route(req, res, url));
      if (await prefix(req, res, url)) return;
      fail(res, 404, '404 page not found\n');
    } catch (e) {
      if (!res.headersSent) fail(res, 500, `internal error: ${(e as Error).message}`);
      else res.end();
    }
  };
  return opts.front.listen(opts.host, opts.port, handle);
}

export function kubeletRoutes(
  getKubelet: () => Kubelet,
  metrics?: Registry,
  log?: KubeletServerOptions['log'],
): { routes: Record<string, Route>; prefix: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> } {
  const routes: Record<string, Route> = {
    // Upstream's Summary API; only_cpu_and_memory=true is what metrics-server once asked for.
    '/stats/summary': async (_req, res, url) => {
      const stats = getKubelet().stats;
      const summary = await (boolParam(url, 'only_cpu_and_memory') ? stats.cpuAndMemory() : stats.summary());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(summary));
    },
    '/metrics/resource': async (_req, res) => {
      const summary = await getKubelet()
        .stats.cpuAndMemory()
        .catch((err: unknown) => {
          log?.error('Error getting summary for resourceMetric prometheus endpoint', { err });
          return undefined;
        });
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      res.end(resourceMetricsText(summary));
    },
    // Upstream serves the kubelet's own metrics at :10250/metrics.
    ...(metrics
      ? {
          '/metrics': async (_req: IncomingMessage, res: ServerResponse) => {
            const body = await metrics.metrics();
            res.writeHead(200, { 'content-type': metrics.contentType });
            res.end(body);
          },
        }
      : {}),
    '/healthz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('ok');
    },
    '/pods': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: getKubelet().runningPods() }));
    },
  };
  const prefix = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const k = getKubelet();
    const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
    if (!m) return false;
    const [, ns, pod, container] = m.map((s) => decodeURIComponent(s)) as [string, string, string, string];
    let o: LogOptions;
    try {
      o = {
        follow: boolParam(url, 'follow'),
        timestamps: boolParam(url, 'timestamps'),
        ...(intParam(url, 'tailLines') !== undefined ? { tailLines: intParam(url, 'tailLines') } : {}),
        ...(intParam(url, 'sinceSeconds') !== undefined ? { sinceSeconds: intParam(url, 'sinceSeconds') } : {}),
        ...(intParam(url, 'limitBytes') !== undefined ? { limitBytes: intParam(url, 'limitBytes') } : {}),
        ...(url.searchParams.get('sinceTime') ? { sinceTime: url.searchParams.get('sinceTime')! } : {}),
      };
    } catch (e) {
      fail(res, 400, (e as Error).message);
      return true;
    }
    const target = await logTarget(k, ns, pod, container, boolParam(url, 'previous'));
    if ('error' in target) {
      fail(res, target.code, target.error);
      return true;
    }
    res.writeHead(200, { 'content-type': 'text/plain', ...(o.follow ? { 'transfer-encoding': 'chunked' } : {}) });
    const abort = new AbortController();
    req.on('close', () => abort.abort());
    const running = async () => {
      try {
        const st = await k.rt.containerStatus(target.id);
        return st.state === 'CONTAINER_RUNNING';
      } catch {
        return false;
      }
    };
    await streamLog(target.path, o, (chunk) => res.write(chunk), running, abort.signal);
    res.end();
    return true;
  };
  return { routes, prefix };
}
