// The apiserver's Prometheus metrics with upstream names
// (apiserver_request_total, apiserver_request_duration_seconds,
// apiserver_storage_objects, apiserver_registered_watchers).

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { newMetricsRegistry } from '@kubelab/component-base';
import type { WatchCache } from '../cache/watch-cache.js';
import { parseKey } from '../cache/keys.js';

export interface ApiserverMetrics {
  registry: Registry;
  observe(verb: string, resource: string, code: number, seconds: number): void;
}

export function createMetrics(cache: () => WatchCache | undefined): ApiserverMetrics {
  const registry = newMetricsRegistry({ component: 'apiserver' });
  const total = new Counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, resource and HTTP response code.',
    labelNames: ['verb', 'resource', 'code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb and resource.',
    labelNames: ['verb', 'resource'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
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
    observe(verb, resource, code, seconds) {
      const v = verb.split('/')[0]!.toUpperCase();
      total.inc({ verb: v, resource, code: String(code) });
      duration.observe({ verb: v, resource }, seconds);
    },
  };
}
