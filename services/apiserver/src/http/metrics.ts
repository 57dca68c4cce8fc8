// The apiserver's Prometheus metrics with upstream names
// (apiserver_request_total, apiserver_request_duration_seconds,
// apiserver_storage_objects, apiserver_registered_watchers).

import { Counter, Gauge, type Registry } from 'prom-client';
import { RequestMetrics } from './request-metrics.js';
import { StorageMetrics } from '../storage/metrics.js';
import { newMetricsRegistry } from '@kubelab/component-base';
import type { WatchCache } from '../cache/watch-cache.js';
import { parseKey } from '../cache/keys.js';

export interface ApiserverMetrics {
  registry: Registry;
  /** apiserver_request_total and friends: fed by the stores and the REST layer. */
  requests: RequestMetrics;
  /** etcd_request_duration_seconds and its counters, for NATS KV calls. */
  storage: StorageMetrics;
}

export function createMetrics(cache: () => WatchCache | undefined): ApiserverMetrics {
  const registry = newMetricsRegistry({ component: 'apiserver' });
  const requests = new RequestMetrics(registry);
  new Gauge({
    name: 'apiserver_storage_objects',
    help: 'Number of stored objects at the time of last check split by kind.',
    labelNames: ['resource'],
    registers: [registry],
    collect() {
      const c = cache();
      if (!c) return;
      this.reset();
      for (const [prefix, n] of c.counts()) {
        const info = parseKey(`${prefix}/a/b`)?.info ?? parseKey(`${prefix}/a`)?.info;
        if (info) this.set({ resource: info.group ? `${info.resource}.${info.group}` : info.resource }, n);
      }
    },
  });
  new Gauge({
    name: 'apiserver_registered_watchers',
    help: 'Number of currently registered watchers.',
    registers: [registry],
    collect() {
      this.set(cache()?.watcherTotal ?? 0);
    },
  });
  new Gauge({
    name: 'apiserver_watch_cache_resource_version',
    help: 'Newest resourceVersion applied to the watch cache.',
    registers: [registry],
    collect() {
      this.set(cache()?.rev ?? 0);
    },
  });
  let lastDispatched = 0;
  new Counter({
    name: 'apiserver_watch_events_total',
    help: 'Number of events sent in watch clients.',
    registers: [registry],
    collect() {
      const c = cache();
      if (c && c.dispatched > lastDispatched) {
        this.inc(c.dispatched - lastDispatched);
        lastDispatched = c.dispatched;
      }
    },
  });
  return {
    registry,
    requests,
    storage: new StorageMetrics(registry),
  };
}
