// client-go's SharedInformerFactory: one informer per (resource, namespace,
// selectors), created on first request and shared by every caller; start()
// runs them all and waitForCacheSync() gates workers on their first lists.

import type { KubeObject } from '@kubelab/api';
import { mapTypedGroup, type Clientset, type ObjectOf, type TypedGroup, type TypedGroups } from '../clientset/clientset.js';
import type { GroupVersionResource, ResourceInterface } from '../clientset/types.js';
import type { Clock } from '../util/clock.js';
import type { ClientLogger } from '../util/logger.js';
import type { ListWatch, ReflectorOptions } from './reflector.js';
import { SharedIndexInformer, waitForCacheSync } from './shared-informer.js';
import { NODE_NAME_INDEX, nodeNameIndexFunc, type Indexers } from './store.js';

export interface InformerOptions<T = KubeObject> {
  /** Only this namespace ('' = all, the default). */
  namespace?: string;
  labelSelector?: string;
  /** e.g. `spec.nodeName=node-1` (the kubelet's pod informer). */
  fieldSelector?: string;
  resyncPeriodMs?: number;
  indexers?: Indexers<T>;
}

export interface SharedInformerFactoryOptions {
  /** Resync period for handlers that do not choose one (0 = off, the default). */
  defaultResyncMs?: number;
  /** Restricts every informer to one namespace (WithNamespace). */
  namespace?: string;
  clock?: Clock;
  logger?: ClientLogger;
  reflector?: Omit<ReflectorOptions, 'clock' | 'logger' | 'name'>;
}

/** A ListWatch over a typed client with fixed selectors (NewFilteredListWatchFromClient). */
export function listWatchFromClient<T extends KubeObject>(client: ResourceInterface<T>, selectors: { labelSelector?: string; fieldSelector?: string } = {}): ListWatch<T> {
  const sel = {
    ...(selectors.labelSelector ? { labelSelector: selectors.labelSelector } : {}),
    ...(selectors.fieldSelector ? { fieldSelector: selectors.fieldSelector } : {}),
  };
  return {
    list: (o) => client.list({ ...sel, resourceVersion: o.resourceVersion }),
    watch: (o) => client.watch({ ...sel, ...o }),
  };
}

/** `pods`, `deployments.apps`, plus any restriction: `pods[fieldSelector=spec.nodeName=node-1]`. */
function informerName(gvr: GroupVersionResource, namespace: string, o: InformerOptions<never>): string {
  const base = gvr.group ? `${gvr.resource}.${gvr.group}` : gvr.resource;
  const parts = [namespace ? `namespace=${namespace}` : '', o.labelSelector ? `labelSelector=${o.labelSelector}` : '', o.fieldSelector ? `fieldSelector=${o.fieldSelector}` : ''].filter(Boolean);
  return parts.length ? `${base}[${parts.join(',')}]` : base;
}

/** A factory group's accessors: options → the shared informer of each resource in the group. */
type InformerGroup<G extends TypedGroup> = {
  readonly [K in keyof TypedGroups[G]]: (o?: InformerOptions<ObjectOf<TypedGroups[G][K]>>) => SharedIndexInformer<ObjectOf<TypedGroups[G][K]>>;
};

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer<KubeObject>>();
  private started = new Set<string>();
  private shuttingDown = false;

  constructor(
    private readonly clientset: Clientset,
    private readonly opts: SharedInformerFactoryOptions = {},
  ) {}

  /** The shared informer for a resource, created on first use. */
  forResource<T extends KubeObject>(gvr: GroupVersionResource, o: InformerOptions<T> = {}): SharedIndexInformer<T> {
    const namespace = o.namespace ?? this.opts.namespace ?? '';
    const key = [gvr.group, gvr.version, gvr.resource, namespace, o.labelSelector ?? '', o.fieldSelector ?? ''].join('|');
    let inf = this.informers.get(key) as SharedIndexInformer<T> | undefined;
    if (!inf) {
      const client = this.clientset.resource<T>(gvr, namespace);
      const indexers: Indexers<T> = { ...(o.indexers ?? {}) };
      if (gvr.resource === 'pods' && gvr.group === '' && !indexers[NODE_NAME_INDEX]) {
        indexers[NODE_NAME_INDEX] = nodeNameIndexFunc as (obj: T) => string[];
      }
      inf = new SharedIndexInformer<T>(listWatchFromClient(client, o), {
        resyncPeriodMs: o.resyncPeriodMs ?? this.opts.defaultResyncMs ?? 0,
        indexers,
        ...(this.opts.clock ? { clock: this.opts.clock } : {}),
        ...(this.opts.logger ? { logger: this.opts.logger } : {}),
        ...(this.opts.reflector ? { reflector: this.opts.reflector } : {}),
        name: informerName(gvr, namespace, o),
      });
      this.informers.set(key, inf as unknown as SharedIndexInformer<KubeObject>);
    } else if (o.indexers) {
      const missing = Object.fromEntries(Object.entries(o.indexers).filter(([n]) => !inf!.getIndexer().hasIndexer(n)));
      inf.addIndexers(missing);
    }
    return inf;
  }

  // One accessor per typed resource, as the clientset's (TYPED_GROUPS).
  readonly core = this.group('core');
  readonly apps = this.group('apps');
  readonly discovery = this.group('discovery');
  readonly coordination = this.group('coordination');
  readonly rbac = this.group('rbac');
  readonly certificates = this.group('certificates');
  readonly batch = this.group('batch');
  readonly storage = this.group('storage');
  readonly policy = this.group('policy');
  readonly autoscaling = this.group('autoscaling');
  readonly networking = this.group('networking');

  private group<G extends TypedGroup>(g: G): InformerGroup<G> {
    // The object types are the table's, known at compile time only.
    return mapTypedGroup(g, (gvr) => (o?: InformerOptions) => this.forResource(gvr, o)) as unknown as InformerGroup<G>;
  }

  /** Runs every informer requested so far that is not running yet (callable again later). */
  start(): void {
    if (this.shuttingDown) return;
    for (const [key, inf] of this.informers) {
      if (this.started.has(key)) continue;
      this.started.add(key);
      inf.run();
    }
  }

  /** Waits for every started informer's first list; informer name → synced. */
  async waitForCacheSync(signal?: AbortSignal): Promise<Record<string, boolean>> {
    const out: Record<string, boolean> = {};
    await Promise.all(
      [...this.informers]
        .filter(([key]) => this.started.has(key))
        .map(async ([, inf]) => {
          out[inf.name] = await waitForCacheSync(signal, inf);
        }),
    );
    return out;
  }

  /** Stops and drops every informer of a resource that is no longer served (upstream: the GC's monitors of a removed CRD). */
  async forget(gvr: GroupVersionResource): Promise<void> {
    const prefix = [gvr.group, gvr.version, gvr.resource, ''].join('|');
    const gone = [...this.informers].filter(([key]) => key.startsWith(prefix));
    for (const [key] of gone) {
      this.informers.delete(key);
      this.started.delete(key);
    }
    await Promise.all(gone.map(([, inf]) => inf.stop()));
  }

  /** Stops all informers and waits for them to exit. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
