// The storage layer's metrics in etcd's names (upstream:
// apiserver/pkg/storage/etcd3/metrics): NATS KV plays etcd, so its calls are
// counted as etcd_requests_total, etcd_request_errors_total and timed in
// etcd_request_duration_seconds, per operation and group/resource.

import type { Registry } from 'prom-client';
import { FastCounter, FastHistogram } from '@kubelab/component-base';
import { DURATION_BUCKETS } from '../http/request-metrics.js';

export type StorageOperation = 'create' | 'get' | 'update' | 'delete';

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

  /** One storage call that took `seconds`; `failed` also counts it as an error. */
  record(operation: StorageOperation, group: string, resource: string, seconds: number, failed: boolean): void {
    const labels = [operation, group, resource];
    this.duration.observe(labels, seconds);
    this.total.inc(labels);
    if (failed) this.errors.inc(labels);
  }

  /** Calls of one operation on one resource (tests). */
  count(operation: StorageOperation, group: string, resource: string): number {
    return this.total.get([operation, group, resource]);
  }
}
