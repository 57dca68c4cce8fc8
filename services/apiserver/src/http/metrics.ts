// The apiserver's Prometheus metrics with upstream names
// (apiserver_request_total, apiserver_request_duration_seconds,
// apiserver_storage_objects, apiserver_registered_watchers).

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { newMetricsRegistry } from '@kubelab/component-base';
import type { WatchCache } from '../cache/watch-cache.js';
import { parseKey } from '../cache/keys.js';
import type { RequestObservation } from '../registry/store.js';

export interface ApiserverMetrics {
  registry: Registry;
  observe(r: RequestObservation): void;
}

/** Upstream's request metric label sets (k8s.io/apiserver/pkg/endpoints/metrics). */
const DURATION_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
/** Upstream's apiserver_request_duration_seconds buckets. */
const DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export function createMetrics(cache: () => WatchCache | undefined): ApiserverMetrics {
  const registry = newMetricsRegistry({ component: 'apiserver' });
  const total = new Counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    labelNames: [...DURATION_LABELS, 'code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
    labelNames: DURATION_LABELS,
    buckets: DURATION_BUCKETS,
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
  // One child per label set, looked up by a joined key: prom-client would hash the label object on every call.
  const totals = new Map<string, { inc(): void }>();
  const durations = new Map<string, { observe(v: number): void }>();
  return {
    registry,
    observe(r) {
      // dry_run holds the dryRun query value (`All`) or is empty; component is `apiserver` as upstream's.
      const dryRun = r.dryRun ? 'All' : '';
      const key = `${r.verb}|${dryRun}|${r.group}|${r.version}|${r.resource}|${r.subresource}|${r.scope}`;
      let d = durations.get(key);
      if (!d) durations.set(key, (d = duration.labels(r.verb, dryRun, r.group, r.version, r.resource, r.subresource, r.scope, 'apiserver')));
      const totalKey = `${key}|${r.code}`;
      let t = totals.get(totalKey);
      if (!t) totals.set(totalKey, (t = total.labels(r.verb, dryRun, r.group, r.version, r.resource, r.subresource, r.scope, 'apiserver', String(r.code))));
      t.inc();
      d.observe(r.seconds);
    },
  };
}
