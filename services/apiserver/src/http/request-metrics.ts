// apiserver_request_total, apiserver_request_duration_seconds and
// apiserver_longrunning_requests (upstream: k8s.io/apiserver/pkg/endpoints/metrics):
// every request is counted when it ends, watches and CONNECT requests
// (exec, attach, port-forward, proxy) too; the long-running ones are also
// in the gauge while they last.

import type { Registry } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram } from '@kubelab/component-base';
import type { LongRunningRequest, RequestObservation, RequestRecorder } from '../registry/store.js';

/** Upstream's request metric label names, in its order. */
export const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
/** Upstream's apiserver_request_duration_seconds buckets. */
export const DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const LONG_RUNNING_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

export class RequestMetrics implements RequestRecorder {
  private readonly total: FastCounter;
  private readonly duration: FastHistogram;
  private readonly longRunning: FastGauge;

  constructor(registry: Registry) {
    this.total = new FastCounter(
      registry,
      'apiserver_request_total',
      'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      [...REQUEST_LABELS, 'code'],
    );
    this.duration = new FastHistogram(
      registry,
      'apiserver_request_duration_seconds',
      'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      REQUEST_LABELS,
      DURATION_BUCKETS,
    );
    this.longRunning = new FastGauge(
      registry,
      'apiserver_longrunning_requests',
      'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      LONG_RUNNING_LABELS,
    );
  }

  /** One finished request (component is `apiserver` as upstream's; dry_run holds `All` or is empty). */
  observe(r: RequestObservation): void {
    const dryRun = r.dryRun ? 'All' : '';
    const labels = [r.verb, dryRun, r.group, r.version, r.resource, r.subresource, r.scope, 'apiserver'];
    this.duration.observe(labels, r.seconds);
    labels.push(String(r.code));
    this.total.inc(labels);
  }

  /** A WATCH or CONNECT starts: in the gauge until `end`, then counted like any request. */
  start(l: Omit<RequestObservation, 'code' | 'seconds' | 'dryRun'>): LongRunningRequest {
    const started = performance.now();
    const gauge = [l.verb, l.group, l.version, l.resource, l.subresource, l.scope, 'apiserver'];
    this.longRunning.add(gauge, 1);
    let ended = false;
    const leave = (): boolean => {
      if (ended) return false;
      ended = true;
      this.longRunning.add(gauge, -1);
      return true;
    };
    return {
      end: (code) => {
        if (leave()) this.observe({ ...l, dryRun: false, code, seconds: (performance.now() - started) / 1000 });
      },
      cancel: () => void leave(),
    };
  }

  /** Requests of one label set with one code (tests). */
  count(r: Omit<RequestObservation, 'seconds'>): number {
    return this.total.get([r.verb, r.dryRun ? 'All' : '', r.group, r.version, r.resource, r.subresource, r.scope, 'apiserver', String(r.code)]);
  }
}
