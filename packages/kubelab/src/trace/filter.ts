// Which records to show. The kubelet re-reads the runtime all the time (PLEG
// relist every second: ListPodSandbox, ListContainers; status of every pod on
// each sync; runtime Status and stats), so those read-only calls are hidden by
// default and counted instead — what changes things stays visible.

import { criSubscription } from '@kubelab/proto/cri-record';
import type { ApiWriteRecord } from '@kubelab/proto/api-record';
import type { CriRecord } from './record.js';
import { podOf } from './record.js';

/** runtime.v1 RuntimeService and ImageService methods (proto/runtime/v1/api.proto). */
export const CRI_METHODS = [
  'Version',
  'RunPodSandbox',
  'StopPodSandbox',
  'RemovePodSandbox',
  'PodSandboxStatus',
  'ListPodSandbox',
  'CreateContainer',
  'StartContainer',
  'StopContainer',
  'RemoveContainer',
  'ListContainers',
  'ContainerStatus',
  'UpdateContainerResources',
  'ReopenContainerLog',
  'ExecSync',
  'Exec',
  'Attach',
  'PortForward',
  'ContainerStats',
  'ListContainerStats',
  'PodSandboxStats',
  'ListPodSandboxStats',
  'UpdateRuntimeConfig',
  'Status',
  'GetContainerEvents',
  'RuntimeConfig',
  'ListMetricDescriptors',
  'ListPodSandboxMetrics',
  'ListImages',
  'ImageStatus',
  'PullImage',
  'RemoveImage',
  'ImageFsInfo',
] as const;

/** Read-only calls repeated on every relist/sync; hidden unless --all, named by --method, or failed. */
export const RELIST_METHODS: ReadonlySet<string> = new Set([
  'Version',
  'Status',
  'RuntimeConfig',
  'ListPodSandbox',
  'ListContainers',
  'ListImages',
  'PodSandboxStatus',
  'ContainerStatus',
  'ImageFsInfo',
  'ContainerStats',
  'ListContainerStats',
  'PodSandboxStats',
  'ListPodSandboxStats',
  'ListMetricDescriptors',
  'ListPodSandboxMetrics',
]);

export interface PodRef {
  namespace?: string;
  name: string;
}

export interface TraceFilter {
  nodes: string[];
  pod?: PodRef;
  methods: string[];
  all: boolean;
}

export type Verdict = 'show' | 'hidden-relist' | 'filtered';

export function classify(rec: CriRecord, f: TraceFilter): Verdict {
  if (f.nodes.length > 0 && !f.nodes.includes(rec.node)) return 'filtered';
  if (f.methods.length > 0 && !f.methods.includes(rec.method)) return 'filtered';
  if (f.pod) {
    const p = podOf(rec);
    if (p.name !== f.pod.name || (f.pod.namespace !== undefined && p.namespace !== f.pod.namespace)) return 'filtered';
  }
  if (!f.all && rec.code === 'OK' && RELIST_METHODS.has(rec.method) && !f.methods.includes(rec.method)) return 'hidden-relist';
  return 'show';
}

/** The narrowest subscription covering the filter: the server drops the rest. */
export function subjectFor(f: Pick<TraceFilter, 'nodes' | 'methods'>): string {
  return criSubscription(f.nodes.length === 1 ? f.nodes[0] : undefined, f.methods.length === 1 ? f.methods[0] : undefined);
}

/** `web` → any namespace; `default/web` → that one. */
export function parsePodRef(s: string): PodRef | undefined {
  const v = s.trim();
  if (!v) return undefined;
  const slash = v.indexOf('/');
  if (slash < 0) return { name: v };
  const namespace = v.slice(0, slash);
  const name = v.slice(slash + 1);
  if (!namespace || !name || name.includes('/')) throw new Error(`invalid argument "${s}" for "--pod" flag: want NAME or NAMESPACE/NAME`);
  return { namespace, name };
}

/** Canonical CRI method names for --method values (case-insensitive, comma lists already split). */
export function parseMethods(values: string[]): string[] {
  const byLower = new Map(CRI_METHODS.map((m) => [m.toLowerCase(), m]));
  const out: string[] = [];
  for (const v of values.map((x) => x.trim()).filter(Boolean)) {
    const m = byLower.get(v.toLowerCase());
    if (!m) throw new Error(`invalid argument "${v}" for "--method" flag: not a CRI method (one of ${CRI_METHODS.join(', ')})`);
    if (!out.includes(m)) out.push(m);
  }
  return out;
}

/**
 * Which of the apiserver's write records to show (--all-components): all of
 * them, or with --pod only that pod's own writes (create, binding, status,
 * delete); --method names CRI methods, so it hides them.
 */
export function classifyApi(rec: ApiWriteRecord, f: TraceFilter): Verdict {
  if (f.methods.length > 0) return 'filtered';
  if (f.pod) {
    if (rec.resource !== 'pods' || rec.name !== f.pod.name || (f.pod.namespace !== undefined && rec.namespace !== f.pod.namespace)) return 'filtered';
  }
  return 'show';
}

/** A decision record: shown unless --method is given, or --pod names another pod. */
export function classifySched(rec: { namespace: string; name: string }, f: TraceFilter): Verdict {
  if (f.methods.length > 0) return 'filtered';
  if (f.pod && (rec.name !== f.pod.name || (f.pod.namespace !== undefined && rec.namespace !== f.pod.namespace))) return 'filtered';
  return 'show';
}

/** A kube-proxy sync record: shown unless --method or --pod is given (a sync is no pod's step), on the --node nodes only. */
export function classifyProxy(rec: { node: string }, f: TraceFilter): Verdict {
  if (f.methods.length > 0 || f.pod) return 'filtered';
  if (f.nodes.length > 0 && !f.nodes.includes(rec.node)) return 'filtered';
  return 'show';
}
