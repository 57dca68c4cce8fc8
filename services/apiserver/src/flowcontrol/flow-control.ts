// API Priority and Fairness (upstream: apiserver/pkg/util/flowcontrol, the
// WithPriorityAndFairness filter's controller): each request is classified
// by the FlowSchemas into a priority level; an Exempt level runs everything,
// a Limited one has its share of the server's concurrency limit
// (--max-requests-inflight + --max-mutating-requests-inflight) as seats and
// queues the rest. So a controller's leader election (its own level, 10
// shares) still renews while the kubelets' and controllers' bulk writes
// wait in theirs. Each level lends its lendablePercent of its seats: a level
// whose own seats are taken borrows free lent ones (SeatPool). `configure` takes the
// FlowSchemas and PriorityLevelConfigurations as stored (upstream's
// configuration controller); a level whose limit and queues stay the same
// keeps its queues and seats.

import type { Registry } from 'prom-client';
import type { FlowSchema, PriorityLevelConfiguration, UserInfo } from '@kubelab/api';
import { FastCounter, FastGauge, FastHistogram, type HistogramSeries } from '@kubelab/component-base';
import type { AuthorizationAttributes } from '../authorization/types.js';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap.js';
import { classify, matchingOrder } from './classify.js';
import { QueueSet, SeatPool, type LevelResponse, type RejectReason } from './queue-set.js';

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

const sharesOf = (l: PriorityLevelConfiguration) => (l.spec?.type === 'Limited' ? (l.spec.limited?.nominalConcurrencyShares ?? 30) : undefined);

/** Each Limited level's nominal seats: ceil(serverLimit × its shares ÷ all Limited levels' shares) (upstream NominalCL). */
export function nominalLimits(levels: readonly PriorityLevelConfiguration[], serverLimit: number): Map<string, number> {
  let total = 0;
  for (const l of levels) total += sharesOf(l) ?? 0;
  const out = new Map<string, number>();
  for (const l of levels) {
    const shares = sharesOf(l);
    if (shares !== undefined) out.set(l.metadata.name ?? '', Math.ceil((serverLimit * shares) / Math.max(1, total)));
  }
  return out;
}

/** The seats a level lends: round(nominal × lendablePercent ÷ 100) (upstream's LendableCL). */
export function lendableSeats(l: PriorityLevelConfiguration, nominal: number): number {
  const percent = l.spec?.type === 'Limited' ? (l.spec.limited?.lendablePercent ?? 0) : 0;
  return Math.round((nominal * Math.min(100, Math.max(0, percent))) / 100);
}

/** A Limited level's response with upstream's defaults filled in (64 queues, hands of 8, 50 places). */
function responseOf(l: PriorityLevelConfiguration): LevelResponse {
  const r = l.spec?.limited?.limitResponse;
  if (r?.type !== 'Queue') return { type: 'Reject' };
  return { type: 'Queue', queuing: { queues: r.queuing?.queues || 64, handSize: r.queuing?.handSize || 8, queueLengthLimit: r.queuing?.queueLengthLimit || 50 } };
}

interface Level {
  config: PriorityLevelConfiguration;
  limit?: number;
  response?: string;
  queues?: QueueSet;
}

/** Where requests of one user and one shape go: their schema, level and flow, and the metric series they count in. */
interface Route {
  schema: FlowSchema;
  level: Level;
  labels: readonly string[];
  flowKey: string;
  // Series are made on first use: a series shows in /metrics once something was counted in it, as upstream's.
  dispatched?: { n: number };
  executing?: { n: number };
  inQueue?: { n: number };
  waitedOk?: HistogramSeries;
  waitedRejected?: HistogramSeries;
}

/** Most shapes remembered per user before that user's routes start over. */
const MAX_ROUTES_PER_USER = 512;

/** What classification reads of a request besides its user (a FlowSchema's rules see nothing else; the name never). */
function shapeKey(a: AuthorizationAttributes): string {
  return a.resourceRequest ? `${a.verb}\0${a.apiGroup}\0${a.resource}\0${a.subresource}\0${a.namespace}` : `\u0001${a.verb}\0${a.path}`;
}

/** Upstream's apiserver_flowcontrol_request_wait_duration_seconds buckets. */
const WAIT_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

export class FlowControl {
  private ordered: FlowSchema[] = [];
  private levels = new Map<string, Level>();
  /**
   * Classification remembered per user object (a stream's items and a
   * cached token share one) and request shape, until the configuration
   * changes: matching walks every FlowSchema's rules, which cost more than
   * the seat itself at thousands of writes a second.
   */
  private routes = new WeakMap<UserInfo, Map<string, Route>>();
  private readonly pool = new SeatPool(0);
  private catchAll!: FlowSchema;
  private readonly serverLimit: number;
  private readonly waitLimitMs: number;
  private readonly seats: FastGauge;
  private readonly dispatched: FastCounter;
  private readonly rejected: FastCounter;
  private readonly executing: FastGauge;
  private readonly inQueue: FastGauge;
  private readonly waits: FastHistogram;

  constructor(opts: FlowControlOptions = {}) {
    this.serverLimit = opts.serverConcurrencyLimit ?? DEFAULT_SERVER_CONCURRENCY_LIMIT;
    this.waitLimitMs = opts.waitLimitMs ?? DEFAULT_WAIT_LIMIT_MS;
    this.seats = new FastGauge(opts.registry, 'apiserver_flowcontrol_nominal_limit_seats', 'Nominal number of execution seats configured for each priority level', ['priority_level']);
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
    this.configure(opts.schemas ?? BOOTSTRAP_FLOW_SCHEMAS, opts.levels ?? BOOTSTRAP_PRIORITY_LEVELS);
  }

  /**
   * The configuration to classify and dispatch with from now on. The mandatory
   * objects (exempt, catch-all) are kept from the built-in ones when missing,
   * as upstream's configuration producer restores them.
   */
  configure(schemas: readonly FlowSchema[], levels: readonly PriorityLevelConfiguration[]): void {
    const withMandatory = <T extends FlowSchema | PriorityLevelConfiguration>(stored: readonly T[], builtIn: readonly T[]) => [
      ...stored,
      ...builtIn.filter((b) => (b.metadata.name === 'exempt' || b.metadata.name === 'catch-all') && !stored.some((s) => s.metadata.name === b.metadata.name)),
    ];
    const allLevels = withMandatory(levels, BOOTSTRAP_PRIORITY_LEVELS);
    // A FlowSchema whose level does not exist (Dangling) is skipped, as upstream's matcher does.
    const levelNames = new Set(allLevels.map((l) => l.metadata.name));
    this.ordered = matchingOrder(withMandatory(schemas, BOOTSTRAP_FLOW_SCHEMAS)).filter((fs) => levelNames.has(fs.spec?.priorityLevelConfiguration?.name));
    this.catchAll = this.ordered.find((s) => s.metadata.name === 'catch-all')!;
    const limits = nominalLimits(allLevels, this.serverLimit);
    const next = new Map<string, Level>();
    let lent = 0;
    for (const config of allLevels) {
      const name = config.metadata.name ?? '';
      const limit = limits.get(name);
      if (limit === undefined) {
        next.set(name, { config });
        continue;
      }
      const lendable = lendableSeats(config, limit);
      lent += lendable;
      const response = responseOf(config);
      const key = `${limit - lendable} ${JSON.stringify(response)}`;
      const prev = this.levels.get(name);
      // Same seats and queues: the level keeps its waiting requests and seats.
      const queues = prev?.queues && prev.response === key ? prev.queues : new QueueSet(limit - lendable, response, { waitLimitMs: this.waitLimitMs, pool: this.pool });
      if (prev?.queues && prev.queues !== queues) prev.queues.retire();
      if (prev?.limit !== limit) this.seats.add([name], limit - (prev?.limit ?? 0));
      next.set(name, { config, limit, response: key, queues });
    }
    for (const [name, prev] of this.levels) {
      if (next.has(name)) continue;
      prev.queues?.retire();
      if (prev.limit !== undefined) this.seats.add([name], -prev.limit);
    }
    this.pool.capacity = lent;
    this.levels = next;
    this.routes = new WeakMap();
  }

  private route(a: AuthorizationAttributes): Route {
    let byShape = this.routes.get(a.user);
    if (!byShape) this.routes.set(a.user, (byShape = new Map()));
    const key = shapeKey(a);
    let r = byShape.get(key);
    if (r) return r;
    const c = classify(this.ordered, a);
    // Dangling schemas are left out of `ordered`; catch-all is the answer of last resort.
    let schema = c?.schema ?? this.catchAll;
    let level = this.levels.get(schema.spec?.priorityLevelConfiguration?.name ?? '');
    if (!level) {
      schema = this.catchAll;
      level = this.levels.get('catch-all')!;
    }
    const labels = [schema.metadata.name ?? '', level.config.metadata.name ?? ''];
    r = {
      schema,
      level,
      labels,
      flowKey: `${schema.metadata.name ?? ''}\0${c?.distinguisher ?? ''}`,
    };
    if (byShape.size >= MAX_ROUTES_PER_USER) byShape.clear();
    byShape.set(key, r);
    return r;
  }

  /** The request's schema and level, and a seat (release it when the request ends) or the reason for its 429. */
  admit(a: AuthorizationAttributes): FlowAdmission | Promise<FlowAdmission> {
    const r = this.route(a);
    const { schema, level } = r;
    if (!level.queues) return this.running(r, () => undefined);
    const admission = level.queues.admit(r.flowKey);
    const settle = (adm: Awaited<typeof admission>): FlowAdmission => {
      const waited = adm.ok ? (r.waitedOk ??= this.waits.child([...r.labels, 'true'])) : (r.waitedRejected ??= this.waits.child([...r.labels, 'false']));
      waited.observe(adm.waitedMs / 1000);
      if (!adm.ok) {
        this.rejected.inc([...r.labels, adm.reason]);
        return { ok: false, schema, level: level.config, reason: adm.reason };
      }
      return this.running(r, adm.release);
    };
    if (!(admission instanceof Promise)) return settle(admission);
    const inQueue = (r.inQueue ??= this.inQueue.child(r.labels));
    inQueue.n++;
    return admission.then((adm) => {
      inQueue.n--;
      return settle(adm);
    });
  }

  private running(r: Route, free: () => void): FlowAdmission {
    (r.dispatched ??= this.dispatched.child(r.labels)).n++;
    const executing = (r.executing ??= this.executing.child(r.labels));
    executing.n++;
    let done = false;
    return {
      ok: true,
      schema: r.schema,
      level: r.level.config,
      release: () => {
        if (done) return;
        done = true;
        executing.n--;
        free();
      },
    };
  }
}
