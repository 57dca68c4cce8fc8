// kube-proxy's sync records on NATS (kubelab's own telemetry; shape and
// subject: @kubelab/proto's proxy-record): one record per syncProxyRules on
// `kubelab.proxy.<node>`, for the dashboard's flow. Best effort and cheap: a
// record is one JSON line handed to the client's buffer; a sync never waits
// for NATS and never fails on it; without --nats-url nothing is published.

import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@kubelab/component-base';
import { kubeProxyNatsIdentity, natsAuthOptions, type NatsClientTls } from '@kubelab/nats';
import { encodeProxySyncRecord, proxySubject, type ProxyDataPath, type ProxySyncRecord } from '@kubelab/proto/proxy-record';
import type { SyncResult } from './proxy/proxier.js';

/** The record of one sync: counts from its snapshot, where the rules went, what queued it. Pure. */
export function proxySyncRecord(node: string, mode: string, socketLb: boolean, r: SyncResult): ProxySyncRecord {
  const dataPath: ProxyDataPath = r.applied ? 'kernel' : socketLb ? 'socket-lb' : 'render';
  const services = new Set(r.snapshot.services.map((s) => `${s.namespace}/${s.service}`));
  let endpoints = 0;
  for (const sp of r.snapshot.services) endpoints += r.snapshot.endpoints.get(sp.name)?.length ?? 0;
  return {
    time: new Date(r.startedAt).toISOString(),
    node,
    mode,
    dataPath,
    fullSync: r.fullSync,
    durationMs: Math.round(r.durationMs * 100) / 100,
    services: services.size,
    servicePorts: r.snapshot.services.length,
    endpoints,
    rules: r.rules,
    ...(r.trigger ? { trigger: r.trigger } : {}),
    ...(r.changes > 0 ? { changes: r.changes } : {}),
    ...(r.error ? { error: r.error } : {}),
  };
}

export interface SyncRecordSink {
  publish(rec: ProxySyncRecord): void;
  close(): Promise<void>;
}

/**
 * Connects in the background as kubelab:kube-proxy:<node> and publishes each
 * record as it comes; records made before the connection or while it is down
 * are dropped (the next sync tells the state anyway).
 */
export function natsSyncRecordSink(url: string, node: string, log: Logger, tls?: NatsClientTls): SyncRecordSink {
  const identity = kubeProxyNatsIdentity(node);
  const subject = proxySubject(node);
  let nc: NatsConnection | undefined;
  let closed = false;
  const connecting = connect({ servers: url, name: 'kube-proxy', maxReconnectAttempts: -1, waitOnFirstConnect: true, reconnectTimeWait: 500, ...natsAuthOptions(identity, tls) })
    .then((c) => {
      if (closed) return void c.close();
      nc = c;
      log.info('Publishing sync records to NATS', { url, subject });
    })
    .catch((err: unknown) => log.warn('Cannot connect to NATS; sync records are not published', { url, err: (err as Error).message }));
  return {
    publish(rec) {
      const conn = nc;
      if (!conn || conn.isClosed()) return;
      try {
        conn.publish(subject, encodeProxySyncRecord(rec));
      } catch (err) {
        log.debug('Dropping sync record', { err: (err as Error).message });
      }
    },
    async close() {
      closed = true;
      const conn = nc;
      if (conn && !conn.isClosed()) await conn.drain().catch(() => {});
      else void connecting;
    },
  };
}
