// The request metrics as Prometheus scrapes them: upstream's names, labels and buckets.
import { describe, expect, it } from 'vitest';
import { newMetricsRegistry } from '@kubelab/component-base';
import type { RequestObservation } from '../registry/store.js';
import { RequestMetrics } from './request-metrics.js';

describe('RequestMetrics', () => {
  it('exposes apiserver_request_total by code and cumulative duration buckets per label set', async () => {
    const registry = newMetricsRegistry({ component: 'apiserver' });
    const m = new RequestMetrics(registry);
    const get: Omit<RequestObservation, 'code' | 'seconds'> = { verb: 'GET', dryRun: false, group: '', version: 'v1', resource: 'pods', subresource: '', scope: 'resource' };
    m.observe({ ...get, code: 200, seconds: 0.001 });
    m.observe({ ...get, code: 200, seconds: 0.03 });
    m.observe({ ...get, code: 404, seconds: 70 });
    m.observe({ verb: 'POST', dryRun: true, group: 'apps', version: 'v1', resource: 'deployments', subresource: '', scope: 'namespace', code: 201, seconds: 0.002 });
    const text = await registry.metrics();
    const labels = 'verb="GET",dry_run="",group="",version="v1",resource="pods",subresource="",scope="resource",component="apiserver"';
    const lines = text.split('\n');
    expect(lines).toContain('# TYPE apiserver_request_total counter');
    expect(lines).toContain(`apiserver_request_total{${labels},code="200"} 2`);
    expect(lines).toContain(`apiserver_request_total{${labels},code="404"} 1`);
    expect(lines).toContain('apiserver_request_total{verb="POST",dry_run="All",group="apps",version="v1",resource="deployments",subresource="",scope="namespace",component="apiserver",code="201"} 1');
    expect(lines).toContain('# TYPE apiserver_request_duration_seconds histogram');
    expect(lines).toContain(`apiserver_request_duration_seconds_bucket{le="0.005",${labels}} 1`);
    expect(lines).toContain(`apiserver_request_duration_seconds_bucket{le="0.05",${labels}} 2`);
    expect(lines).toContain(`apiserver_request_duration_seconds_bucket{le="60",${labels}} 2`);
    expect(lines).toContain(`apiserver_request_duration_seconds_bucket{le="+Inf",${labels}} 3`);
    expect(lines).toContain(`apiserver_request_duration_seconds_sum{${labels}} 70.031`);
    expect(lines).toContain(`apiserver_request_duration_seconds_count{${labels}} 3`);
  });

  it('keeps a long-running request in apiserver_longrunning_requests until it ends, then counts it; a cancelled one is not counted', async () => {
    const registry = newMetricsRegistry({ component: 'apiserver' });
    const m = new RequestMetrics(registry);
    const labels = { verb: 'CONNECT', group: '', version: 'v1', resource: 'pods', subresource: 'exec', scope: 'resource' as const };
    const exec = m.start(labels);
    const other = m.start(labels);
    const gauge = 'apiserver_longrunning_requests{verb="CONNECT",group="",version="v1",resource="pods",subresource="exec",scope="resource",component="apiserver"}';
    expect((await registry.metrics()).split('\n')).toContain(`${gauge} 2`);
    exec.end(101);
    exec.end(101);
    other.cancel();
    expect((await registry.metrics()).split('\n')).toContain(`${gauge} 0`);
    expect(m.count({ ...labels, dryRun: false, code: 101 })).toBe(1);
  });
});
