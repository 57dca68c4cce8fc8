// client-go's Reflector: list, then watch from the list's resourceVersion,
// keeping a store in step. A dropped watch resumes from the last
// resourceVersion seen (events or bookmarks); a 410 Expired relists.

import { isExpired, StatusError, type KubeList, type KubeObject, type Status, type WatchEvent } from '@kubelab/api';
import { Backoff, type BackoffOptions } from '../util/backoff.js';
import type { WatchStream } from '../util/channel.js';
import { realClock, type Clock } from '../util/clock.js';
import { defaultLogger, type ClientLogger } from '../util/logger.js';

export interface ListOptionsLW {
  /** "" = consistent read, "0" = any cached state, else not older than. */
  resourceVersion: string;
}

export interface WatchOptionsLW {
  resourceVersion: string;
  allowWatchBookmarks: boolean;
  timeoutSeconds: number;
}

/** What a reflector lists and watches (cache.ListerWatcher), selectors already applied. */
export interface ListWatch<T extends KubeObject> {
  list(opts: ListOptionsLW): Promise<KubeList<T>>;
  watch(opts: WatchOptionsLW): WatchStream<WatchEvent<T>>;
}

/** Where a reflector writes (the DeltaFIFO's role). */
export interface ReflectorStore<T> {
  replace(items: T[], resourceVersion: string): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

export interface ReflectorOptions {
  /** For logs: usually the resource (`pods`). */
  name?: string;
  clock?: Clock;
  logger?: ClientLogger;
  /** Backoff between failed list/watch attempts (upstream 800 ms → 30 s, reset after 2 min). */
  backoff?: BackoffOptions;
  /** Watch timeout chooser; upstream picks 5–10 min at random. */
  watchTimeoutSeconds?: () => number;
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 800, maxMs: 30_000, factor: 2, jitter: 1, resetAfterMs: 120_000 };
const MIN_WATCH_TIMEOUT_S = 300;

/** One outcome of a watch: why it ended decides whether we resume or relist. */
type WatchEnd = 'closed' | 'expired' | 'error' | 'stopped';

export class Reflector<T extends KubeObject> {
  private lastSyncRV = '';
  private rvUnavailable = false;
  private readonly clock: Clock;
  private readonly log: ClientLogger;
  private readonly backoff: Backoff;
  private readonly name: string;
  private readonly watchTimeout: () => number;
  private current: WatchStream<WatchEvent<T>> | undefined;
  /** Counters for tests and debugging: how often each path ran. */
  readonly stats = { lists: 0, watches: 0, relistsOn410: 0, resumes: 0 };

  constructor(
    private readonly lw: ListWatch<T>,
    private readonly store: ReflectorStore<T>,
    opts: ReflectorOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.log = opts.logger ?? defaultLogger;
    this.name = opts.name ?? 'reflector';
    this.backoff = new Backoff(opts.backoff ?? DEFAULT_BACKOFF, this.clock);
    this.watchTimeout = opts.watchTimeoutSeconds ?? (() => Math.floor(MIN_WATCH_TIMEOUT_S * (1 + Math.random())));
  }

  /** The resourceVersion the store reflects (list or last event/bookmark). */
  lastSyncResourceVersion(): string {
    return this.lastSyncRV;
  }

  /** Lists and watches until signal aborts, backing off between failures. */
  async run(signal: AbortSignal): Promise<void> {
    const onAbort = () => this.current?.stop();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal.aborted) {
        try {
          // a 410 relists at once; a failed list waits a backoff first
          if ((await this.listAndWatch(signal)) === 'expired') continue;
        } catch (err) {
          if (signal.aborted) break;
          this.log.warn('list and watch failed', { reflector: this.name, err });
        }
        if (signal.aborted) break;
        await this.clock.sleep(this.backoff.next(), signal);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** One list followed by watches until a relist is needed (ListAndWatch). */
  async listAndWatch(signal: AbortSignal): Promise<'expired' | 'stopped'> {
    await this.list();
    while (!signal.aborted) {
      const end = await this.watchOnce(signal);
      if (end === 'stopped') return 'stopped';
      if (end === 'expired') {
        this.stats.relistsOn410++;
        this.log.info('watch expired; relisting', { reflector: this.name, resourceVersion: this.lastSyncRV });
        return 'expired';
      }
      if (end === 'error') {
        await this.clock.sleep(this.backoff.next(), signal);
        this.stats.resumes++;
      }
      // 'closed' (server timeout): watch again at once from lastSyncRV
    }
    return 'stopped';
  }

  /** Lists at relistResourceVersion() and replaces the store. */
  private async list(): Promise<void> {
    const rv = this.relistResourceVersion();
    let list: KubeList<T>;
    try {
      this.stats.lists++;
      list = await this.lw.list({ resourceVersion: rv });
    } catch (err) {
      if (isExpired(err) && rv !== '') {
        // the rv we asked for is gone: the next attempt reads the latest state
        this.rvUnavailable = true;
      }
      throw err;
    }
    this.rvUnavailable = false;
    const listRV = list.metadata?.resourceVersion ?? '';
    this.store.replace(list.items ?? [], listRV);
    this.lastSyncRV = listRV;
  }

  /** upstream relistResourceVersion: "" after an unavailable rv, "0" at first, else the last rv. */
  private relistResourceVersion(): string {
    if (this.rvUnavailable) return '';
    return this.lastSyncRV === '' ? '0' : this.lastSyncRV;
  }

  private async watchOnce(signal: AbortSignal): Promise<WatchEnd> {
    let w: WatchStream<WatchEvent<T>>;
    try {
      this.stats.watches++;
      w = this.lw.watch({
        resourceVersion: this.lastSyncRV,
        allowWatchBookmarks: true,
        timeoutSeconds: this.watchTimeout(),
      });
    } catch (err) {
      return this.classify(err, signal);
    }
    this.current = w;
    if (signal.aborted) w.stop();
    try {
      for await (const ev of w) {
        this.handle(ev);
      }
      return signal.aborted ? 'stopped' : 'closed';
    } catch (err) {
      return this.classify(err, signal);
    } finally {
      this.current = undefined;
      w.stop();
    }
  }

  private classify(err: unknown, signal: AbortSignal): WatchEnd {
    if (signal.aborted) return 'stopped';
    if (isExpired(err)) return 'expired';
    this.log.warn('watch ended with an error; resuming', {
      reflector: this.name,
      resourceVersion: this.lastSyncRV,
      err,
    });
    return 'error';
  }

  /** Applies one watch event (watchHandler). */
  private handle(ev: WatchEvent<T>): void {
    if (ev.type === 'ERROR') throw new StatusError(ev.object as unknown as Status);
    const rv = ev.object?.metadata?.resourceVersion;
    switch (ev.type) {
      case 'ADDED':
        this.store.add(ev.object);
        break;
      case 'MODIFIED':
        this.store.update(ev.object);
        break;
      case 'DELETED':
        this.store.delete(ev.object);
        break;
      case 'BOOKMARK':
        break;
      default:
        this.log.warn('unknown watch event type', { reflector: this.name, type: ev.type });
        return;
    }
    if (rv) this.lastSyncRV = rv;
    this.backoff.reset();
  }
}
