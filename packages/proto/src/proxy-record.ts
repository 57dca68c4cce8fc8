// kube-proxy's sync record on NATS (kubelab's own telemetry, in the role of
// the sync_proxy_rules metrics and the "SyncProxyRules complete" log line):
// one JSON record per rules sync (upstream's syncProxyRules) on
// `kubelab.proxy.<node>`. kube-proxy writes it, the dashboard reads it. No
// gRPC imports (loaded through `@kubelab/proto/proxy-record`).

import { parseJsonObject } from './json-record.js';

/**
 * Where a sync's rules went: applied to the node's kernel (`kernel`), only
 * rendered and served on /rules (`render`), or rendered with the Service map
 * written for the runtime's connect-time translation (`socket-lb`, the local
 * runner's data path).
 */
export type ProxyDataPath = 'kernel' | 'render' | 'socket-lb';

export interface ProxySyncRecord {
  /** RFC 3339 start time (ms). */
  time: string;
  node: string;
  /** The proxy mode: iptables, ipvs or nftables. */
  mode: string;
  dataPath: ProxyDataPath;
  /** Whether every Service's rules were rewritten (false: only the changed ones). */
  fullSync: boolean;
  durationMs: number;
  /** Services, service ports and endpoints in the synced snapshot, and the rules written. */
  services: number;
  servicePorts: number;
  endpoints: number;
  rules: number;
  /** The first change that queued the sync (`Service default/web`, `EndpointSlice default/web-x7k2p`), when one did. */
  trigger?: string;
  /** How many changes the sync took in (the runner coalesces them). */
  changes?: number;
  /** Why the sync failed (then the counts are the snapshot's and nothing was written). */
  error?: string;
}

const SUBJECT_ROOT = 'kubelab.proxy';

/** Every node's records. */
export const PROXY_SUBJECT_ALL = `${SUBJECT_ROOT}.>`;

/** Where a node's kube-proxy publishes (the node name as one subject token). */
export function proxySubject(node: string): string {
  return `${SUBJECT_ROOT}.${node.replace(/[.*> \t]/g, '_') || '_'}`;
}

export function encodeProxySyncRecord(rec: ProxySyncRecord): string {
  return JSON.stringify(rec);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
const DATA_PATHS: readonly string[] = ['kernel', 'render', 'socket-lb'];

/** A record from a message body, read leniently; undefined when the body names no node. */
export function decodeProxySyncRecord(data: string): ProxySyncRecord | undefined {
  const r = parseJsonObject(data);
  const node = str(r?.node);
  if (!r || !node) return undefined;
  const dataPath = str(r.dataPath);
  const rec: ProxySyncRecord = {
    time: str(r.time) ?? new Date().toISOString(),
    node,
    mode: str(r.mode) ?? 'iptables',
    dataPath: dataPath && DATA_PATHS.includes(dataPath) ? (dataPath as ProxyDataPath) : 'render',
    fullSync: r.fullSync === true,
    durationMs: num(r.durationMs),
    services: num(r.services),
    servicePorts: num(r.servicePorts),
    endpoints: num(r.endpoints),
    rules: num(r.rules),
  };
  const trigger = str(r.trigger);
  if (trigger) rec.trigger = trigger;
  if (typeof r.changes === 'number' && r.changes > 0) rec.changes = r.changes;
  const error = str(r.error);
  if (error) rec.error = error;
  return rec;
}
