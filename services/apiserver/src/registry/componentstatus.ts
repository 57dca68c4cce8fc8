// componentstatuses (upstream pkg/registry/core/componentstatus): a
// read-only resource made when read. Each get or list probes the
// components there and then — the scheduler's and the controller-manager's
// /healthz over HTTPS (certificates not checked, as upstream's probe) and the
// store in etcd's role — and answers their health as a Healthy condition.
// Nothing is stored, so there is nothing to watch or write.

import { parseFieldSelector, parseLabelSelector, StatusError, type ComponentStatus, type KubeList, type KubeObject } from '@kubelab/api';
import { httpGetProbe } from '@kubelab/component-base';
import type { ResourceStore } from './interface.js';
import { info, notAllowed } from './create-only.js';

/** What one health check found (upstream probe.Result with its output and error). */
export interface ComponentCheck {
  result: 'Success' | 'Failure' | 'Unknown';
  message: string;
  error: string;
}

/** A component to probe: its name in the list and how. */
export interface ComponentServer {
  name: string;
  check(): Promise<ComponentCheck>;
}

/** Upstream's probe timeout for component statuses. */
export const COMPONENT_PROBE_TIMEOUT_MS = 20_000;

/** Upstream's defaults: both components on this host at their secure ports. */
export const DEFAULT_COMPONENT_HEALTH_URLS: Readonly<Record<string, string>> = {
  scheduler: 'https://127.0.0.1:10259/healthz',
  'controller-manager': 'https://127.0.0.1:10257/healthz',
};

/** A component's /healthz: a 2xx or 3xx is healthy with the body as message; anything else unhealthy, the failure as message (upstream HttpServer.DoServerCheck). */
export function httpComponent(name: string, url: string, timeoutMs = COMPONENT_PROBE_TIMEOUT_MS): ComponentServer {
  return {
    name,
    check: async () => {
      const r = await httpGetProbe(new URL(url), {}, timeoutMs);
      return { result: r.result, message: r.output, error: '' };
    },
  };
}

/** The store (upstream EtcdServer.DoServerCheck): a read through to it answers "ok"; a failed one is unhealthy with the error. */
export function storeComponent(name: string, probe: () => Promise<unknown>): ComponentServer {
  return {
    name,
    check: () =>
      probe().then(
        (): ComponentCheck => ({ result: 'Success', message: 'ok', error: '' }),
        (err: unknown): ComponentCheck => ({ result: 'Failure', message: '', error: err instanceof Error ? err.message : String(err) }),
      ),
  };
}

const CONDITION_STATUS = { Success: 'True', Failure: 'False', Unknown: 'Unknown' } as const;

/** One component's status object (upstream getComponentStatus). */
export function componentStatus(name: string, c: ComponentCheck): ComponentStatus {
  const condition = { type: 'Healthy', status: CONDITION_STATUS[c.result], ...(c.message ? { message: c.message } : {}), ...(c.error ? { error: c.error } : {}) };
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name }, conditions: [condition] };
}

export function componentStatusStore(servers: readonly ComponentServer[]): ResourceStore {
  const probe = async (s: ComponentServer): Promise<ComponentStatus> => componentStatus(s.name, await s.check());
  const reject = () => Promise.reject(notAllowed());
  return {
    info: info('', 'v1', 'componentstatuses'),
    async get(_ns, name) {
      const s = servers.find((x) => x.name === name);
      // Upstream answers a plain error here: a 500 with no reason.
      if (!s) throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Component not found: ${name}`, code: 500 });
      return probe(s);
    },
    async list(opts) {
      const labels = parseLabelSelector(opts.labelSelector ?? '');
      const fields = parseFieldSelector(opts.fieldSelector ?? '');
      // Probed together, as upstream's goroutine per server.
      const items = (await Promise.all(servers.map(probe))).filter((cs) => labels.matches(cs.metadata.labels) && fields.matches({ 'metadata.name': cs.metadata.name ?? '' }));
      return { kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items: items as KubeObject[] } satisfies KubeList;
    },
    watch: () => {
      throw notAllowed();
    },
    create: reject,
    update: reject,
    patch: reject,
    delete: reject,
  };
}
