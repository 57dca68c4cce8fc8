// The watch cache's processing of a KV entry as a CONSUMER span (OTel
// messaging conventions, as @kubelab/tracing's NATS helpers): a sampled
// write's message carries its KV span's `traceparent` in the NATS headers
// (storage/publisher.ts), and applying that entry to the cache — and handing
// it to every watcher — becomes that span's child, so a trace shows when the
// write reached the watches. Only entries the cache hands on (a watch or an
// in-process observer of the resource) get one: an Event nobody watches has
// no hand-off to show. Upstream's cacher has no span here (etcd watch
// events carry no trace context); this is the NATS-as-etcd part made visible.

import type { MsgHdrs } from '@nats-io/transport-node';
import { natsProcess, type Tracing } from '@kubelab/tracing';

/** What the cache's KV feed hands over per change (nats.js KvWatchEntry). */
export interface KvFeedEntry {
  key: string;
  revision: number;
  value: Uint8Array;
}

/**
 * The stored message's headers. nats.js's KvWatchEntry does not expose them;
 * its entries keep the JetStream message as `sm` (@nats-io/kv 3.x), whose
 * headers it already parses for the KV-Operation. Undefined when absent.
 */
export function kvEntryHeaders(e: KvFeedEntry): MsgHdrs | undefined {
  return (e as { sm?: { headers?: MsgHdrs } }).sm?.headers;
}

/**
 * Runs `ingest` for entry `e` of `bucket` in a CONSUMER span named
 * `process $KV.<bucket>.>` (the subscribed subject: one name for every key,
 * as the conventions ask for low-cardinality names; the entry's subject is
 * messaging.destination.name) when its message carries a trace context;
 * otherwise, or with tracing off, `ingest()` alone.
 */
export function consumeKvEntry<T>(tracing: Tracing, bucket: string, e: KvFeedEntry, ingest: () => T): T {
  return natsProcess(tracing, `$KV.${bucket}.${e.key}`, () => kvEntryHeaders(e), ingest, {
    template: `$KV.${bucket}.>`,
    bodySize: e.value.length,
    attributes: () => ({ key: e.key, 'kv.revision': e.revision }),
  });
}
