// The kubelet's Summary API and resource metrics (/stats/summary,
// /metrics/resource) over the real runtime: a `stress` container holding
// 64Mi and a core shows up with its memory, its CPU time growing, and the
// node's totals; metrics-server's series carry its labels.

import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsSummary } from '../src/stats/summary.js';
import { pod, startCluster, type Cluster } from './harness.js';

const MiB = 1024 * 1024;
const WAIT = { timeoutMs: 30_000, everyMs: 200 };

describe.skipIf(!requireTool('nats-server'))('the Summary API', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster();
    await c.cs.core.pods('default').create(pod('hog', { containers: [{ name: 'stress', image: 'polinux/stress', command: ['stress', '--vm', '1', '--vm-bytes', '64M', '--cpu', '1'] }] }));
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  const summary = async (q = '') => {
    const r = await c.kubeletGet(`/stats/summary${q}`);
    expect(r.status).toBe(200);
    return JSON.parse(r.text) as StatsSummary;
  };

  it("shows the pod's container with its memory and growing CPU time, and the node's totals", async () => {
    const first = await waitFor(
      'hog in the summary with CPU time',
      async () => {
        const s = await summary();
        const p = s.pods.find((x) => x.podRef.name === 'hog');
        return p && (p.containers[0]?.cpu?.usageCoreNanoSeconds ?? 0) > 0 ? { s, p } : undefined;
      },
      WAIT,
    );
    expect(first.p.podRef).toMatchObject({ name: 'hog', namespace: 'default' });
    expect(first.p.containers.map((x) => x.name)).toEqual(['stress']);
    expect(first.p.containers[0]!.memory!.workingSetBytes).toBeGreaterThanOrEqual(64 * MiB);
    expect(first.s.node.nodeName).toBe('node-1');
    expect(first.s.node.memory!.workingSetBytes).toBeGreaterThanOrEqual(64 * MiB);
    expect(first.s.node.fs!.capacityBytes).toBeGreaterThan(0);
    const later = await waitFor(
      'its CPU time growing',
      async () => {
        const p = (await summary()).pods.find((x) => x.podRef.name === 'hog');
        const t = p?.containers[0]?.cpu?.usageCoreNanoSeconds ?? 0;
        return t > first.p.containers[0]!.cpu!.usageCoreNanoSeconds! ? t : undefined;
      },
      WAIT,
    );
    expect(later).toBeGreaterThan(0);
    const small = await summary('?only_cpu_and_memory=true');
    expect(small.node).not.toHaveProperty('fs');
    expect(small.pods.find((x) => x.podRef.name === 'hog')?.containers[0]).not.toHaveProperty('rootfs');
  });

  it("serves metrics-server's series on /metrics/resource", async () => {
    const text = (await c.kubeletGet('/metrics/resource')).text;
    expect(text).toMatch(/^container_memory_working_set_bytes\{container="stress",namespace="default",pod="hog"\} 6\.\d+e\+07 \d{13}$/m);
    expect(text).toMatch(/^container_cpu_usage_seconds_total\{container="stress",namespace="default",pod="hog"\} [\d.e+-]+ \d{13}$/m);
    expect(text).toMatch(/^pod_memory_working_set_bytes\{namespace="default",pod="hog"\} /m);
    expect(text).toMatch(/^node_cpu_usage_seconds_total [\d.e+-]+ \d{13}$/m);
    expect(text).toContain('\nresource_scrape_error 0\n');
  });
});
