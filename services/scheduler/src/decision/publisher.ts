// Where the decision records go: NATS, as the scheduler's own identity
// (kubelab:scheduler, allowed to publish kubelab.sched.> only). The
// connection is made in the background and retried for ever; records of
// cycles while it is down are dropped (telemetry, not state), and so are
// they while no reader listens (@kubelab/nats listeners.ts): a cycle keeps
// what a record needs only when someone will read it.

import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@kubelab/component-base';
import { ListenerGate, natsAuthOptions, SCHEDULER_NATS_IDENTITY, type NatsClientTls } from '@kubelab/nats';
import { encodeSchedulingDecisionRecord, schedRecordSubject, type SchedulingDecisionRecord } from '@kubelab/proto/sched-record';

export interface DecisionPublisher {
  publish: (rec: SchedulingDecisionRecord) => void;
  /** Connected now, and a reader listens: only then does a cycle keep what its record needs. */
  wanted: () => boolean;
  close(): Promise<void>;
}

export function connectDecisionPublisher(opts: { url: string; tls?: NatsClientTls; logger: Logger }): DecisionPublisher {
  let nc: NatsConnection | undefined;
  let closed = false;
  const readers = new ListenerGate('sched');
  const pending = connect({
    servers: opts.url,
    name: 'kube-scheduler',
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    ...natsAuthOptions(SCHEDULER_NATS_IDENTITY, opts.tls),
  }).then(
    (c) => {
      if (closed) {
        void c.close();
        return;
      }
      nc = c;
      readers.start(c);
      opts.logger.info('Publishing decision records on NATS', { url: opts.url });
    },
    (err: unknown) => opts.logger.error('NATS connection for decision records failed', { err: (err as Error).message }),
  );
  let up = false;
  void pending.then(async () => {
    if (!nc) return;
    up = true;
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') up = false;
      else if (s.type === 'reconnect') up = true;
    }
  });
  return {
    wanted: () => up && readers.active && !!nc && !nc.isClosed(),
    publish: (rec) => {
      if (!nc || nc.isClosed()) return;
      try {
        nc.publish(schedRecordSubject(rec.namespace, rec.name), encodeSchedulingDecisionRecord(rec));
      } catch (err) {
        opts.logger.debug('decision record not published', { err: (err as Error).message });
      }
    },
    async close() {
      closed = true;
      readers.stop();
      if (nc) await nc.drain().catch(() => undefined);
      else void pending;
    },
  };
}
