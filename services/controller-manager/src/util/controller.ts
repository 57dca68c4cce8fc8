// The shape every controller here shares (client-go's sample-controller):
// informer handlers enqueue `namespace/name` keys; workers take a key, run
// the controller's idempotent sync(key), forget its backoff on success and
// requeue it rate-limited on error.

import { newRateLimitingQueue, realClock, type Clock, type Clientset, type EventRecorder, type RateLimitingQueue, type SharedInformerFactory, type WorkqueueMetricsProvider } from '@kubelab/client';
import { isConflict, isNotFound } from '@kubelab/api';
import type { Logger } from '@kubelab/component-base';
import type { ControllerManagerConfig } from '../options.js';
import type { RestClient } from './rest-client.js';

/** What every controller is built from (upstream ControllerContext). */
export interface ControllerContext {
  clientset: Clientset;
  informers: SharedInformerFactory;
  /** A recorder stamping events with the controller's component name. */
  recorder(component: string): EventRecorder;
  clock: Clock;
  logger: Logger;
  config: ControllerManagerConfig;
  metricsProvider?: WorkqueueMetricsProvider;
  /** The apiserver's REST API with this controller's credentials (the scale subresource, aggregated APIs); absent without a kubeconfig. */
  rest?: RestClient;
}

/** A running unit the manager starts after the caches have synced. */
export interface Controller {
  readonly name: string;
  /** Runs workers until signal aborts; resolves once they have stopped. */
  run(signal: AbortSignal, workers: number): Promise<void>;
}

export interface QueueControllerOptions {
  clock?: Clock;
  /** Give up on a key after this many failed retries (upstream maxRetries; default: never). */
  maxRetries?: number;
  metricsProvider?: WorkqueueMetricsProvider;
}

/** The queue options a controller takes from its context: the clock and the workqueue metrics. */
export function queueOptions(ctx: ControllerContext, more: Pick<QueueControllerOptions, 'maxRetries'> = {}): QueueControllerOptions {
  return { clock: ctx.clock, ...more, ...(ctx.metricsProvider ? { metricsProvider: ctx.metricsProvider } : {}) };
}

export abstract class QueueController implements Controller {
  readonly queue: RateLimitingQueue<string>;
  protected readonly clock: Clock;
  private readonly maxRetries: number;

  constructor(
    readonly name: string,
    protected readonly log: Logger,
    opts: QueueControllerOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.maxRetries = opts.maxRetries ?? Number.POSITIVE_INFINITY;
    this.queue = newRateLimitingQueue<string>({
      name,
      clock: this.clock,
      ...(opts.metricsProvider ? { metricsProvider: opts.metricsProvider } : {}),
    });
  }

  /** Converges the object named by key with the cluster; throwing requeues the key. */
  abstract sync(key: string): Promise<void>;

  async run(signal: AbortSignal, workers: number): Promise<void> {
    const stop = () => this.queue.shutDown();
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop, { once: true });
    this.onStart(signal);
    await Promise.all(Array.from({ length: Math.max(1, workers) }, () => this.worker()));
    this.onStop();
  }

  /** Hook for timers a controller runs beside its workers. */
  protected onStart(_signal: AbortSignal): void {}
  protected onStop(): void {}

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.processItem(key);
    }
  }

  /** One step: sync a key and record the outcome in the queue (exposed for tests). */
  async processItem(key: string): Promise<void> {
    try {
      await this.sync(key);
      this.queue.forget(key);
    } catch (err) {
      this.handleErr(err, key);
    } finally {
      this.queue.done(key);
    }
  }

  private handleErr(err: unknown, key: string): void {
    if (this.queue.numRequeues(key) < this.maxRetries) {
      // Conflicts are routine (the cache was behind); only other errors are worth a line.
      if (!isConflict(err) && !isNotFound(err)) this.log.info('error syncing, requeuing', { controller: this.name, key, err: errText(err) });
      this.queue.addRateLimited(key);
      return;
    }
    this.log.warn('dropping key out of the queue', { controller: this.name, key, err: errText(err) });
    this.queue.forget(key);
  }

  /** Enqueues a key (handlers call this). */
  enqueue(key: string): void {
    this.queue.add(key);
  }
}

export const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Runs fn ignoring NotFound (the object is already gone: the goal is met). */
export async function ignoreNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
