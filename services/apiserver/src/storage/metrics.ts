// The storage layer's metrics in etcd's names (upstream:
// apiserver/pkg/storage/etcd3/metrics): NATS KV plays etcd, so its calls are
// counted as etcd_requests_total, etcd_request_errors_total and timed in
// etcd_request_duration_seconds, per operation and group/resource.

import type { Registry } from 'prom-client';
import { FastCounter, FastHistogram, type HistogramSeries } from '@kubelab/component-base';
import { DURATION_BUCKETS } from '../http/request-metrics.js';

export type StorageOperation = 'create' | 'get' | 'update' | 'delete';

/** One resource's storage metrics (StorageMetrics.forResource). */
export interface ResourceStorageMetrics {
  record(operation: StorageOperation, seconds: number, failed: boolean): void;
}

const LABELS = ['operation', 'group', 'resource'] as const;

export class StorageMetrics {
  private readonly duration: FastHistogram;
  private readonly total: FastCounter;
  private readonly errors: FastCounter;

  constructor(registry: Registry) {
    // Upstream keeps these buckets equal to apiserver_request_duration_seconds'.
    this.duration = new FastHistogram(registry, 'etcd_request_duration_seconds', 'Etcd request latency in seconds for each operation and object type.', LABELS, DURATION_BUCKETS);
    this.total = new FastCounter(registry, 'etcd_requests_total', 'Etcd request counts for each operation and object type.', LABELS);
    this.errors = new FastCounter(registry, 'etcd_request_errors_total', 'Etcd failed request counts for each operation and object type.', LABELS);
  }

  /** One resource's recorder (`record` a storage call that took `seconds`; `failed` also counts it as an error), each operation's series looked up once: a store records every call it makes. */
  forResource(group: string, resource: string): ResourceStorageMetrics {
    const series = new Map<StorageOperation, { duration: HistogramSeries; total: { n: number } }>();
    return {
      record: (operation, seconds, failed) => {
        let s = series.get(operation);
        if (!s) series.set(operation, (s = { duration: this.duration.child([operation, group, resource]), total: this.total.child([operation, group, resource]) }));
        s.duration.observe(seconds);
        s.total.n++;
        if (failed) this.errors.inc([operation, group, resource]);
      },
    };
  }

  /** Calls of one operation on one resource (tests). */
  count(operation: StorageOperation, group: string, resource: string): number {
    return this.total.get([operation, group, resource]);
  }
}
