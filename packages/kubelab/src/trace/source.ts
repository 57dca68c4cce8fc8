// Where records come from. Live: a plain NATS subscription (works on any
// NATS). History (--since): the JetStream stream KUBELAB_CRI, which keeps the
// runtime's core publishes on kubelab.cri.> for an hour. `kubelab up` creates
// it as the NATS admin once NATS is up; the viewer also tries (idempotent,
// whoever comes first), which succeeds only where NATS runs without users,
// since the trace identity may read the stream but create none. The runtime
// itself never needs to know.

import { DeliverPolicy, DiscardPolicy, jetstream, jetstreamManager, JetStreamApiError, StorageType } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { CRI_STREAM, CRI_SUBJECT_ALL } from '@kubelab/proto/cri-record';

export { CRI_STREAM };
export const CRI_STREAM_SUBJECTS = [CRI_SUBJECT_ALL];
export const CRI_STREAM_MAX_AGE_MS = 60 * 60 * 1000;
export const CRI_STREAM_MAX_BYTES = 64 * 1024 * 1024;

export type StreamState = 'created' | 'exists' | 'unavailable';

/** Creates KUBELAB_CRI unless it exists; 'unavailable' when the server has no JetStream. */
export async function ensureCriStream(nc: NatsConnection): Promise<{ state: StreamState; reason?: string }> {
  let jsm;
  try {
    jsm = await jetstreamManager(nc, { timeout: 3000 });
  } catch (err) {
    return { state: 'unavailable', reason: (err as Error).message };
  }
  try {
    await jsm.streams.info(CRI_STREAM);
    return { state: 'exists' };
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || err.code !== 10059) return { state: 'unavailable', reason: (err as Error).message };
  }
  try {
    await jsm.streams.add({
      name: CRI_STREAM,
      subjects: CRI_STREAM_SUBJECTS,
      max_age: nanos(CRI_STREAM_MAX_AGE_MS),
      max_bytes: CRI_STREAM_MAX_BYTES,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      num_replicas: 1,
    });
    return { state: 'created' };
  } catch (err) {
    // Another viewer created it between our info and add (stream name already in use).
    if (err instanceof JetStreamApiError && err.code === 10058) return { state: 'exists' };
    return { state: 'unavailable', reason: (err as Error).message };
  }
}

export interface RecordSource extends AsyncIterable<string> {
  stop(): Promise<void>;
}

/** Live records on `subject`; subscribed (and flushed) when this resolves. */
export async function liveSource(nc: NatsConnection, subject: string): Promise<RecordSource> {
  const sub = nc.subscribe(subject);
  await nc.flush();
  return {
    async *[Symbol.asyncIterator]() {
      for await (const m of sub) yield m.string();
    },
    stop: async () => sub.unsubscribe(),
  };
}

/** Stored records from `since` on, then live ones, in order, through one ordered consumer (no gap, no duplicate). */
export async function replaySource(nc: NatsConnection, subject: string, since: Date): Promise<RecordSource> {
  const js = jetstream(nc);
  const consumer = await js.consumers.get(CRI_STREAM, { filter_subjects: subject, deliver_policy: DeliverPolicy.StartTime, opt_start_time: since.toISOString() });
  const messages = await consumer.consume();
  return {
    async *[Symbol.asyncIterator]() {
      for await (const m of messages) yield m.string();
    },
    stop: async () => {
      await messages.close();
    },
  };
}
