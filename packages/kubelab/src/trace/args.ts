// `kubelab trace` flags. With no arguments it finds the NATS of the local
// runner (its state dir's cluster.json names it) or of the compose stack
// (.kubelab/compose, where its `kubeconfig` service writes a cluster.json and
// the trace identity), each with the trace identity's certificate.

import { FlagError, FlagSet, parseDuration } from '@kubelab/component-base';
import type { NatsClientTls } from '@kubelab/nats';
import { resolveNatsTls, resolveNatsUrl } from '../nats.js';
import { DEFAULT_PORTS } from '../topology.js';
import { parseMethods, parsePodRef, type TraceFilter } from './filter.js';
import { DEFAULT_HOLD_MS } from './order.js';

export interface TraceOptions {
  filter: TraceFilter;
  /** Replay stored records from this time on. */
  since?: Date;
  json: boolean;
  /** Also the apiserver's write records (kubelab.api.>). */
  allComponents?: boolean;
  /** How long a record is held so lines come out in start order (ms). */
  holdMs?: number;
  natsUrl: string;
  /** As whom: the trace identity's certificate (unset: plain NATS). */
  natsTls?: NatsClientTls;
}

export function traceFlags() {
  return new FlagSet('pnpm kubelab trace')
    .stringArray('node', [], 'only calls on this node (repeatable, or a comma list)')
    .string('pod', '', 'only calls for this pod: NAME (any namespace) or NAMESPACE/NAME')
    .stringArray('method', [], 'only these CRI methods (repeatable, or a comma list), e.g. ExecSync,StopContainer')
    .string('since', '', 'first replay the calls of the last DURATION (5m, 1h) or since an RFC 3339 time, from the KUBELAB_CRI stream; then follow live')
    .bool('json', false, 'print one JSON object per call (node, method, namespace, pod, container, durationMs, code, ...)')
    .bool(
      'all-components',
      false,
      "also show the apiserver's write records (who asked: component, user; the object, the status code), the scheduler's decisions and kube-proxy's rules syncs, in time order with the CRI calls",
    )
    .bool('all', false, 'also show the read-only calls the kubelet repeats (ListPodSandbox, ListContainers, PodSandboxStatus, ContainerStatus, Status, ...)')
    .string('state-dir', '', "the cluster's state dir (default .kubelab/local, else .kubelab/compose when only compose wrote one); its cluster.json names the NATS URL")
    .string('nats-url', '', `NATS to read from (default: the state dir's cluster.json, else nats://127.0.0.1:${DEFAULT_PORTS.nats})`)
    .string('nats-ca-file', '', "CA that signed the NATS server's certificate (default: the state dir's pki/etcd/ca.crt)")
    .string('nats-cert-file', '', "client certificate for NATS (default: the state dir's pki/etcd/trace-client.crt, issued by `kubelab up` or compose's `kubeconfig` service)")
    .string('nats-key-file', '', 'private key of --nats-cert-file');
}

/** `5m` → now − 5 min; an RFC 3339 time as given. */
export function parseSince(raw: string, now: number): Date {
  try {
    const ms = parseDuration(raw);
    if (ms < 0) throw new Error('negative');
    return new Date(now - ms);
  } catch {
    if (/^\d{4}-\d{2}-\d{2}T/.test(raw) && !Number.isNaN(Date.parse(raw))) return new Date(raw);
    throw new FlagError(`invalid argument "${raw}" for "--since" flag: want a duration like 5m or 1h, or an RFC 3339 time like 2025-01-02T15:04:05Z`);
  }
}

export function parseTraceArgs(argv: string[], env: NodeJS.ProcessEnv = process.env, now = Date.now()): TraceOptions {
  const { values, rest } = traceFlags().parse(argv, env);
  if (rest.length > 0) throw new FlagError(`kubelab trace takes no arguments, got "${rest.join(' ')}" (filter with --pod, --node, --method)`);
  let pod;
  let methods;
  try {
    pod = parsePodRef(values.pod);
    methods = parseMethods(values.method);
  } catch (err) {
    throw new FlagError((err as Error).message);
  }
  const opts: TraceOptions = {
    filter: { nodes: values.node.map((n) => n.trim()).filter(Boolean), methods, all: values.all, ...(pod ? { pod } : {}) },
    json: values.json,
    allComponents: values['all-components'],
    holdMs: DEFAULT_HOLD_MS,
    natsUrl: resolveNatsUrl(values['nats-url'], values['state-dir']),
  };
  const tls = resolveNatsTls(values, values['state-dir'], 'trace');
  if (tls) opts.natsTls = tls;
  if (values.since) opts.since = parseSince(values.since, now);
  return opts;
}
