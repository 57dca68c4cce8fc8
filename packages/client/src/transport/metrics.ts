// client-go's REST client metrics (k8s.io/client-go/tools/metrics, exposed by
// component-base's restclient metrics): every call a component makes to the
// apiserver, counted by status code, method and host and timed by verb.
// Process-wide as upstream's (one registry per binary); each component
// registers them in its own registry. The gRPC calls are counted under the
// HTTP method and code of the REST request they stand for.

import type { Registry } from 'prom-client';
import { FastCounter, FastHistogram, type HistogramSeries } from '@kubelab/component-base';

/** Upstream's rest_client_request_duration_seconds buckets. */
const BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

const requests = new FastCounter(undefined, 'rest_client_requests_total', 'Number of HTTP requests, partitioned by status code, method, and host.', ['code', 'host', 'method']);
const latency = new FastHistogram(undefined, 'rest_client_request_duration_seconds', 'Request latency in seconds. Broken down by verb, and host.', ['host', 'verb'], BUCKETS);

/** The HTTP method of the REST request each ResourceService call stands for. */
export const METHOD_OF_CALL: Readonly<Record<string, string>> = {
  Get: 'GET',
  List: 'GET',
  Watch: 'GET',
  Create: 'POST',
  Bind: 'POST',
  CreateToken: 'POST',
  Update: 'PUT',
  UpdateStatus: 'PUT',
  Patch: 'PATCH',
  Delete: 'DELETE',
};

/** Exposes the REST client metrics in a component's registry (its /metrics). */
export function registerClientMetrics(registry: Registry): void {
  requests.registerIn(registry);
  latency.registerIn(registry);
}

/** The series of one host, call and code: looked up once, bumped per call (a controller makes thousands a second). */
interface CallSeries {
  requests: { n: number };
  latency: HistogramSeries;
}

const seriesByHost = new Map<string, Map<string, CallSeries>>();
/** Hosts × calls × codes a process keeps series for; past it they are looked up per call (still counted). */
const MAX_SERIES = 10_000;
let seriesKept = 0;

function callSeries(host: string, call: string, code: number | '<error>'): CallSeries {
  let byCall = seriesByHost.get(host);
  if (!byCall) seriesByHost.set(host, (byCall = new Map()));
  const key = `${call} ${code}`;
  let s = byCall.get(key);
  if (!s) {
    const method = METHOD_OF_CALL[call] ?? 'POST';
    s = { requests: requests.child([String(code), host, method]), latency: latency.child([host, method]) };
    if (seriesKept < MAX_SERIES) {
      byCall.set(key, s);
      seriesKept++;
    }
  }
  return s;
}

/** One finished call: `code` the HTTP status it answered, or `<error>` when no answer came. */
export function recordClientRequest(host: string, call: string, code: number | '<error>', seconds: number): void {
  const s = callSeries(host, call, code);
  s.requests.n++;
  s.latency.observe(seconds);
}

/** Calls counted with one code and method (tests). */
export function clientRequestCount(host: string, method: string, code: number | '<error>'): number {
  return requests.get([String(code), host, method]);
}
