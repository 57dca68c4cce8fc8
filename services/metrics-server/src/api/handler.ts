// metrics-server's REST API (upstream pkg/api: the nodes and pods
// storages): list and get of NodeMetrics and PodMetrics, filtered by a
// label selector, for the nodes and pods the informers know and the
// storage has usage for; errors as metav1.Status.

import type { ServerResponse } from 'node:http';
import { badRequest, methodNotAllowed, notFound, parseLabelSelector, StatusError, toStatus, type Node, type Pod } from '@kubelab/api';
import type { MetricsStorage } from '../storage/storage.js';
import { API_VERSION, GROUP, nodeMetrics, podMetrics, resourceList, VERSION } from './convert.js';
import type { MetricsRequest } from './request.js';

export interface MetricsApiDeps {
  storage: MetricsStorage;
  nodes: () => Node[];
  pods: (namespace?: string) => Pod[];
  now: () => number;
}

function writeJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The objects a request asks for, or a Status error. */
export function answer(r: MetricsRequest, method: string, query: URLSearchParams, deps: MetricsApiDeps): { code: number; body: unknown } {
  if (r.kind === 'group') {
    const gv = { groupVersion: API_VERSION, version: VERSION };
    return { code: 200, body: { kind: 'APIGroup', apiVersion: 'v1', name: GROUP, versions: [gv], preferredVersion: gv } };
  }
  if (r.kind === 'resourceList') return { code: 200, body: resourceList() };
  if (r.kind === 'other')
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
  if (method !== 'GET') throw methodNotAllowed(`${method} is not supported`);
  let selector;
  try {
    selector = parseLabelSelector(query.get('labelSelector') ?? '');
  } catch (e) {
    throw badRequest((e as Error).message);
  }
  const now = deps.now();
  if (r.kind === 'nodes') {
    // upstream's NotFound names the kinds' resources: nodemetrics, podmetrics.
    const gr = { group: GROUP, resource: 'nodemetrics' };
    if (r.name) {
      const node = deps.nodes().find((n) => n.metadata.name === r.name);
      const u = node && deps.storage.nodeUsage(r.name);
      if (!node || !u) throw notFound(gr, r.name);
      return { code: 200, body: nodeMetrics(node, u, now) };
    }
    const items = deps
      .nodes()
      .filter((n) => selector.matches(n.metadata.labels ?? {}))
      .flatMap((n) => {
        const u = deps.storage.nodeUsage(n.metadata.name!);
        return u ? [nodeMetrics(n, u, now)] : [];
      })
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    return { code: 200, body: { kind: 'NodeMetricsList', apiVersion: API_VERSION, metadata: {}, items } };
  }
  const gr = { group: GROUP, resource: 'podmetrics' };
  if (r.name) {
    const ns = r.namespace ?? 'default';
    const pod = deps.pods(ns).find((p) => p.metadata.name === r.name);
    const u = pod && deps.storage.podUsage(ns, r.name);
    // upstream names the missing pod namespace/name.
    if (!pod || !u) throw notFound(gr, `${ns}/${r.name}`);
    return { code: 200, body: podMetrics(pod, u, now) };
  }
  const items = deps
    .pods(r.namespace)
    .filter((p) => selector.matches(p.metadata.labels ?? {}))
    .flatMap((p) => {
      const u = deps.storage.podUsage(p.metadata.namespace ?? 'default', p.metadata.name!);
      return u ? [podMetrics(p, u, now)] : [];
    })
    .sort((a, b) => a.metadata.namespace.localeCompare(b.metadata.namespace) || (a.metadata.name < b.metadata.name ? -1 : 1));
  return { code: 200, body: { kind: 'PodMetricsList', apiVersion: API_VERSION, metadata: {}, items } };
}

export function serveMetricsApi(r: MetricsRequest, method: string, query: URLSearchParams, res: ServerResponse, deps: MetricsApiDeps): void {
  try {
    const { code, body } = answer(r, method, query, deps);
    writeJson(res, code, body);
  } catch (e) {
    const s = toStatus(e);
    writeJson(res, s.code ?? 500, s);
  }
}
