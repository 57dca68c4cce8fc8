// API Priority and Fairness (upstream: apiserver/pkg/util/flowcontrol, the
// WithPriorityAndFairness filter's controller): each request is classified
// by the FlowSchemas into a priority level; an Exempt level runs everything,
// a Limited one has its share of the server's concurrency limit
// (--max-requests-inflight + --max-mutating-requests-inflight) as seats and
// queues the rest. So a controller's leader election (its own level, 10
// shares) still renews while the kubelets' and controllers' bulk writes
// wait in theirs. Levels do not lend or borrow seats here (upstream's
// lendablePercent): each keeps its nominal limit.

import type { Registry } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram } from '@kubelab/component-base';
import type { AuthorizationAttributes } from '../authorization/types.js';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap.js';
import { classify, matchingOrder } from './classify.js';
import { QueueSet, type RejectReason } from './queue-set.js';
import type { FlowSchema, PriorityLevelConfiguration } from './types.js';

/** Upstream's defaults: --max-requests-inflight 400 plus --max-mutating-requests-inflight 200. */
export const DEFAULT_SERVER_CONCURRENCY_LIMIT = 600;
/** A quarter of the default --request-timeout (60 s), as upstream derives the queue wait limit. */
export const DEFAULT_WAIT_LIMIT_MS = 15_000;

export type FlowAdmission =
  { ok: true; schema: FlowSchema; level: PriorityLevelConfiguration; release(): void } | { ok: false; schema: FlowSchema; level: PriorityLevelConfiguration; reason: RejectReason };

export interface FlowControlOptions {
  serverConcurrencyLimit?: number;
  waitLimitMs?: number;
  registry?: Registry;
  schemas?: readonly FlowSchema[];
  levels?: readonly PriorityLevelConfiguration[];
}

/** Each Limited level's nominal seats: ceil(serverLimit × its shares ÷ all Limited levels' shares) (upstream NominalCL). */
export function nominalLimits(levels: readonly PriorityLevelConfiguration[], serverLimit: number): Map<string, number> {
  let total = 0;
  for (const l of levels) if (l.spec.type === 'Limited') total += l.spec.limited.nominalConcurrencyShares;
  const out = new Map<string, number>();
  for (const l of levels) if (l.spec.type === 'Limited') out.set(l.metadata.name, Math.ceil((serverLimit * l.spec.limited.nominalConcurrencyShares) / Math.max(1, total)));
  return out;
}

/** Upstream's apiserver_flowcontrol_request_wait_duration_seconds buckets. */
const WAIT_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

export class FlowControl {
  private readonly ordered: FlowSchema[];
  private readonly levels = new Map<string, { config: PriorityLevelConfiguration; queues?: QueueSet }>();
  private readonly catchAll: FlowSchema;
  private readonly dispatched: FastCounter;
  private readonly rejected: FastCounter;
  private readonly executing: FastGauge;
  private readonly inQueue: FastGauge;
  private readonly waits: FastHistogram;

  constructor(opts: FlowControlOptions = {}) {
    const levels = opts.levels ?? BOOTSTRAP_PRIORITY_LEVELS;
    this.ordered = matchingOrder(opts.schemas ?? BOOTSTRAP_FLOW_SCHEMAS);
    this.catchAll = this.ordered.find((s) => s.metadata.name === 'catch-all') ?? this.ordered[this.ordered.length - 1]!;
    const limits = nominalLimits(levels, opts.serverConcurrencyLimit ?? DEFAULT_SERVER_CONCURRENCY_LIMIT);
    const seats = new FastGauge(opts.registry, 'apiserver_flowcontrol_nominal_limit_seats', 'Nominal number of execution seats configured for each priority level', ['priority_level']);
    for (const config of levels) {
      const limit = limits.get(config.metadata.name);
      if (config.spec.type === 'Limited' && limit !== undefined) {
        seats.add([config.metadata.name], limit);
        this.levels.set(config.metadata.name, { config, queues: new QueueSet(limit, config.spec.limited.limitResponse, { waitLimitMs: opts.waitLimitMs ?? DEFAULT_WAIT_LIMIT_MS }) });
      } else this.levels.set(config.metadata.name, { config });
    }
    const labels = ['flow_schema', 'priority_level'];
    this.dispatched = new FastCounter(opts.registry, 'apiserver_flowcontrol_dispatched_requests_total', 'Number of requests executed by API Priority and Fairness subsystem', labels);
    this.rejected = new FastCounter(opts.registry, 'apiserver_flowcontrol_rejected_requests_total', 'Number of requests rejected by API Priority and Fairness subsystem', [...labels, 'reason']);
    this.executing = new FastGauge(
      opts.registry,
      'apiserver_flowcontrol_current_executing_requests',
      'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      labels,
    );
    this.inQueue = new FastGauge(opts.registry, 'apiserver_flowcontrol_current_inqueue_requests', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', labels);
    this.waits = new FastHistogram(opts.registry, 'apiserver_flowcontrol_request_wait_duration_seconds', 'Length of time a request spent waiting in its queue', [...labels, 'execute'], WAIT_BUCKETS);
  }

  /** The request's schema and level, and a seat (release it when the request ends) or the reason for its 429. */
  admit(a: AuthorizationAttributes): FlowAdmission | Promise<FlowAdmission> {
    const c = classify(this.ordered, a);
    const schema = c?.schema ?? this.catchAll;
    const level = this.levels.get(schema.spec.priorityLevelConfiguration.name) ?? this.levels.get(this.catchAll.spec.priorityLevelConfiguration.name)!;
    const labels = [schema.metadata.name, level.config.metadata.name];
    if (!level.queues) return this.running(schema, level.config, labels, () => undefined);
    const admission = level.queues.admit(`${schema.metadata.name}\0${c?.distinguisher ?? ''}`);
    const settle = (adm: Awaited<typeof admission>): FlowAdmission => {
      this.waits.observe([...labels, String(adm.ok)], adm.waitedMs / 1000);
      if (!adm.ok) {
        this.rejected.inc([...labels, adm.reason]);
        return { ok: false, schema, level: level.config, reason: adm.reason };
      }
      return this.running(schema, level.config, labels, adm.release);
    };
    if (!(admission instanceof Promise)) return settle(admission);
    this.inQueue.add(labels, 1);
    return admission.then((adm) => {
      this.inQueue.add(labels, -1);
      return settle(adm);
    });
  }

  private running(schema: FlowSchema, level: PriorityLevelConfiguration, labels: string[], free: () => void): FlowAdmission {
    this.dispatched.inc(labels);
    this.executing.add(labels, 1);
    let done = false;
    return {
      ok: true,
      schema,
      level,
      release: () => {
        if (done) return;
        done = true;
        this.executing.add(labels, -1);
        free();
      },
    };
  }
}
